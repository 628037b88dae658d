// The online game page: one WebSocket to the server's table. The seat's secret key is the
// link's fragment (#...), which the browser never sends in a request; without one we watch.
import { BoardView } from "/static/board.js";

const gameId = location.pathname.split("/").pop();
const credential = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : null;
const root = document.getElementById("app");
let socket = null;
// Refusals after which connecting again cannot help (docs/hosting.md lists every code).
const FINAL = new Set(["replaced", "expired", "no-game", "bad-credential", "spectators-full"]);
let refused = null;
// moves_played: if another tab of this seat moved first, the server refuses this move as stale.
const board = new BoardView(root, (action) =>
  socket.send(JSON.stringify({ type: "move", credential, action, moves_played: board.message?.moves_played })),
);

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${gameId}`);
  socket.onopen = () => socket.send(JSON.stringify({ type: "hello", credential }));
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "error" && FINAL.has(message.code)) refused = message;
    if (message.type === "error" && !board.message) {
      root.querySelector(".status").textContent = message.error;
      return;
    }
    board.update(message);
    document.title = message.your_turn ? "Your turn · Tricky Treats" : "Tricky Treats";
  };
  socket.onclose = () => {
    // Reconnect with the same key: the table sends the current state again (not after a
    // final refusal, whose message is on the page already).
    if (refused) return;
    if (board.message && !board.message.over) setTimeout(connect, 1000);
  };
}
connect();
