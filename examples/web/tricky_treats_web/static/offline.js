// The offline page: Pyodide (served by the app from the npm package) runs the engine's own
// Table in the browser, from the wheels the app serves. Nothing is fetched from elsewhere.
import { loadPyodide } from "/pyodide/pyodide.mjs";
import { BoardView } from "/static/board.js";

const GLUE = `
import json
import tricky_treats as tt

table = None

def start(name, bot, seed):
    global table
    table = tt.Table.new([name, "Bot"], None if seed < 0 else int(seed), bots={1: bot})
    return table.connect(table.credential(0)).text

def play(action):
    message = json.dumps({"credential": table.credential(0), "action": action})
    return [out.text for out in table.handle(message) if out.to in (0, tt.SENDER)]
`;

const button = document.getElementById("start-game");
const loading = document.getElementById("loading");

const pyodide = await loadPyodide({ indexURL: "/pyodide/" });
const { wheels } = await (await fetch("/wheels/")).json();
for (const url of wheels) {
  const data = await (await fetch(url)).arrayBuffer();
  pyodide.unpackArchive(data, "wheel");
}
pyodide.runPython(GLUE);
const version = pyodide.runPython("tt.__version__");
loading.textContent = `tricky-treats ${version} on Python ${pyodide.runPython("import sys; sys.version.split()[0]")} in your browser`;
loading.dataset.ready = "true";
button.disabled = false;
button.textContent = "Start";

document.getElementById("start").onsubmit = (event) => {
  event.preventDefault();
  const form = event.target;
  const seed = form.seed.value === "" ? -1 : Number(form.seed.value);
  const root = document.getElementById("app");
  const board = new BoardView(root, (action) => {
    const texts = pyodide.globals.get("play")(action).toJs();
    for (const text of texts) board.update(JSON.parse(text));
  });
  board.update(JSON.parse(pyodide.globals.get("start")(form.name.value || "You", form.bot.value, seed)));
};
