// The offline page: Pyodide (served by the app from the npm package) runs the engine's own
// Table in the browser, from the wheels the app serves. Nothing is fetched from elsewhere.
// Every step of the loading shows on the page, and so does every error.
import { BoardView } from "/static/board.js";
import { LANGUAGE, languageSwitch, t, translatePage } from "/static/i18n.js";

translatePage();
document.querySelector(".header-buttons").append(languageSwitch());

const GLUE = `
import json
import tricky_treats as tt
from tricky_treats import agents
from tricky_treats.host import SENDER, Table

table = None

def bots():
    names = []
    for name in agents.AGENTS:
        try:
            agents.make_agent(name)
        except tt.TrickyTreatsError:
            continue  # the learned policy needs numpy, which this page does not load
        names.append(name)
    return json.dumps(names)

def start(names, bots, seed):
    global table
    try:
        table = Table.new(
            json.loads(names),
            None if seed == "" else int(seed),
            bots={int(seat): bot for seat, bot in json.loads(bots).items()},
        )
    except (tt.TrickyTreatsError, ValueError) as exc:
        return json.dumps({"type": "error", "code": "bad-game", "error": str(exc)})
    return table.connect(table.credential(0)).text

def play(action):
    message = json.dumps({"credential": table.credential(0), "action": action})
    return [out.text for out in table.handle(message) if out.to in (0, SENDER)]
`;

const BOT_TITLES = {
  random: t("Random bot (plays any legal move)"),
  greedy: t("Greedy bot (takes the best move now)"),
  search: t("Search bot (plans ahead; slower)"),
};
const button = document.getElementById("start-game");
const loading = document.getElementById("loading");
const progress = document.getElementById("progress");
const errorBox = document.getElementById("offline-error");
const opponents = document.getElementById("opponents");
let botNames = ["greedy", "random"];

function announce(text, urgent = false) {
  document.getElementById(urgent ? "alert" : "announce").textContent = text;
}

let board = null; // the game on the page, once one started

function fail(text) {
  if (board) {
    // The form is gone: the error goes on the board, where the player is.
    board.say(text, "refusal");
    announce(text, true);
    return;
  }
  errorBox.textContent = text;
  loading.textContent = t("The engine could not start.");
  button.textContent = t("Cannot start");
}

window.addEventListener("error", (event) => fail(t("Error: {message}", { message: event.message })));
window.addEventListener("unhandledrejection", (event) => fail(t("Error: {message}", { message: event.reason?.message || event.reason })));

function step(done, total, text) {
  progress.max = total;
  progress.value = done;
  loading.textContent = text;
}

function botRow(i) {
  const row = document.createElement("div");
  row.className = "seat-row";
  row.innerHTML = `<label><span></span> <select name="bot"></select></label>`;
  row.querySelector("span").textContent = t("Seat {number}:", { number: i + 2 });
  const select = row.querySelector("select");
  for (const bot of botNames) select.append(new Option(BOT_TITLES[bot] || t("{bot} bot", { bot: t(bot) }), bot));
  return row;
}

function setBots(n) {
  while (opponents.children.length < n) opponents.append(botRow(opponents.children.length));
  while (opponents.children.length > n) opponents.lastChild.remove();
  document.getElementById("add-bot").disabled = n >= 3;
  document.getElementById("remove-bot").disabled = n <= 1;
}
setBots(1);
document.getElementById("add-bot").onclick = () => setBots(Math.min(3, opponents.children.length + 1));
document.getElementById("remove-bot").onclick = () => setBots(Math.max(1, opponents.children.length - 1));

let pyodide = null;
const STEPS = 4; // the runtime check, Python, the wheels, the engine
try {
  step(0, STEPS, t("Checking that this server has the Python runtime…"));
  const info = await (await fetch(`/api/variants?lang=${LANGUAGE}`)).json();
  if (!info.offline) {
    throw new Error(
      t("This server has no Pyodide runtime, so the offline page cannot run. Whoever runs the server: start it with --pyodide FOLDER, the folder of npm's pyodide package (npm install pyodide puts it in node_modules/pyodide; in a clone of the project, npm ci in examples/web does it)."),
    );
  }
  step(1, STEPS, t("Loading Python (Pyodide, about 10 MB; the first time takes a while)…"));
  const { loadPyodide } = await import("/pyodide/pyodide.mjs");
  pyodide = await loadPyodide({ indexURL: "/pyodide/" });
  step(2, STEPS, t("Loading the engine and its libraries…"));
  const { wheels } = await (await fetch("/wheels/")).json();
  for (const [i, url] of wheels.entries()) {
    step(2 + i / wheels.length, STEPS, t("Loading {file} ({number} of {count})…", { file: url.split("/").pop(), number: i + 1, count: wheels.length }));
    const reply = await fetch(url);
    if (!reply.ok) throw new Error(t("the server could not send {file} (HTTP {status})", { file: url, status: reply.status }));
    pyodide.unpackArchive(await reply.arrayBuffer(), "wheel");
  }
  step(3, STEPS, t("Starting the engine…"));
  pyodide.runPython(GLUE);
  botNames = JSON.parse(pyodide.globals.get("bots")());
  for (const select of opponents.querySelectorAll("select")) {
    const value = select.value;
    select.replaceChildren(...botNames.map((bot) => new Option(BOT_TITLES[bot] || t("{bot} bot", { bot: t(bot) }), bot)));
    select.value = botNames.includes(value) ? value : botNames[0];
  }
  const version = pyodide.runPython("tt.__version__");
  step(STEPS, STEPS, t("Ready: tricky-treats {version} on Python {python} in your browser.", { version, python: pyodide.runPython("import sys; sys.version.split()[0]") }));
  loading.dataset.ready = "true";
  button.disabled = false;
  button.textContent = t("Start");
  announce(t("The engine is ready."));
} catch (error) {
  fail(String(error.message || error));
}

// Deal a game and show its board; a game the library refuses (say, two seats with one name)
// leaves the form as it is, with the library's reason under it.
function startGame(settings) {
  const message = JSON.parse(pyodide.globals.get("start")(settings.names, settings.bots, settings.seed));
  if (message.type === "error") {
    errorBox.textContent = t("This game cannot start: {error}.", { error: message.error });
    announce(errorBox.textContent, true);
    return;
  }
  const root = document.getElementById("app");
  const texts = (action) => pyodide.globals.get("play")(action).toJs();
  board = new BoardView(
    root,
    (action) => {
      for (const text of texts(action)) board.update(JSON.parse(text));
    },
    { connection: "local", announce, lobby: "/offline", playAgain: () => startGame({ ...settings, seed: "" }) },
  );
  board.update(message);
}

document.getElementById("start").onsubmit = (event) => {
  event.preventDefault();
  const form = event.target;
  const seed = form.seed.value.trim();
  if (seed !== "" && !/^[0-9]+$/.test(seed)) {
    errorBox.textContent = t("The seed is a whole number, written with the digits 0 to 9 only.");
    return;
  }
  const picks = [...opponents.querySelectorAll("select")].map((s) => s.value);
  // Names, in the page's language: the player's own (else "Player 1", never "you") and each
  // bot's, numbered when two are alike.
  const names = [form.name.value.trim() || t("Player {number}", { number: 1 })];
  const bots = {};
  picks.forEach((bot, i) => {
    const title = t("{bot} bot", { bot: t(bot) });
    const name = picks.filter((b) => b === bot).length > 1 ? t("{name} {number}", { name: title, number: i + 2 }) : title;
    names.push(name.charAt(0).toUpperCase() + name.slice(1));
    bots[i + 1] = bot;
  });
  startGame({ names: JSON.stringify(names), bots: JSON.stringify(bots), seed });
};
