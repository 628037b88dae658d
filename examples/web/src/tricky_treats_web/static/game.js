// The online game page: one WebSocket to the server's table. The seat's secret key is the
// link's fragment (#...), which the browser never sends in a request; without one we watch.
// The connection's state is always on the page; a lost connection is retried with backoff.
import { BoardView } from "/static/board.js";
import { serverText, t, translatePage } from "/static/i18n.js";

translatePage();

const gameId = location.pathname.split("/").pop();
const root = document.getElementById("app");
const RETRY_MS = [500, 1000, 2000, 4000, 8000]; // then every 8 s, until the server is back
// Refusals after which connecting again cannot help (docs/hosting.md lists every code).
const FINAL = new Set(["replaced", "expired", "no-game", "bad-credential", "spectators-full"]);

let credential = keyOfLink();
let socket = null;
let attempt = 0;
let retryTimer = null;
let finished = false; // the server said the game or the seat does not exist: stop retrying
let refetch = false; // the socket is closed on purpose, to hear the current position again
let refusal = null; // why the server turned this tab away before any state: kept on screen

// A refusal before there is a board to show (no such game, too many tabs, spectators full):
// the reason stays on the page, with the way back to the lobby and, if the page retries, when.
function showRefusal(text, retryInSeconds = null) {
  const header = document.createElement("header");
  header.className = "top";
  const title = Object.assign(document.createElement("h1"), { textContent: "Tricky Treats" });
  const status = Object.assign(document.createElement("div"), { className: "status offline", textContent: t(text) });
  status.dataset.testid = "refusal";
  header.append(title, status);
  const panel = Object.assign(document.createElement("main"), { className: "panel refusal-panel" });
  if (retryInSeconds !== null) {
    const when = Object.assign(document.createElement("p"), { textContent: t("The page tries again in {seconds} s.", { seconds: retryInSeconds }) });
    when.dataset.testid = "retry";
    panel.append(when);
  }
  const back = Object.assign(document.createElement("a"), { className: "act", href: "/", textContent: t("Back to the lobby") });
  back.dataset.testid = "back-to-lobby";
  panel.append(back);
  root.replaceChildren(header, panel);
}

function keyOfLink() {
  return location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : null;
}

// Screen readers hear what matters: polite news, assertive refusals and outages.
function announce(text, urgent = false) {
  const region = document.getElementById(urgent ? "alert" : "announce");
  region.textContent = "";
  setTimeout(() => {
    region.textContent = text;
  }, 50);
}

function makeBoard() {
  return new BoardView(
    root,
    // moves_played: if another tab of this seat moved first, the server refuses this move as stale.
    (action) => send({ type: "move", credential, action, moves_played: board.message?.moves_played }),
    {
      // This tab goes to the next game as soon as the server answers.
      playAgain: () => {
        board.wantsNext = true;
        send({ type: "again" });
      },
      lobby: "/",
      announce,
      connection: "connecting",
    },
  );
}

let board = makeBoard();

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    board.say(t("Not connected: nothing was sent. The page is reconnecting; try again then."), "refusal");
    return;
  }
  socket.send(JSON.stringify(message));
}

function connect() {
  clearTimeout(retryTimer);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${gameId}`);
  socket = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", credential }));
  ws.onmessage = (event) => {
    if (ws !== socket) return;
    const message = JSON.parse(event.data);
    if (message.type === "error" && FINAL.has(message.code)) {
      // Connecting again cannot help: say why, and stop retrying.
      finished = true;
      const text = serverText(message);
      if (board.message) {
        board.setConnection("closed", text);
        board.update(message);
      } else showRefusal(text);
      announce(t(text), true);
      return;
    }
    if (message.type === "error" && !board.message) {
      // A refusal before any state (a server limit, say): shown, and the page retries.
      refusal = serverText(message);
      showRefusal(refusal, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)] / 1000);
      announce(t(refusal), true);
      return;
    }
    if (message.type === "update") {
      attempt = 0;
      refusal = null;
      board.setConnection("connected");
    }
    if (message.type === "error" && message.code === "stale") {
      // Another tab of this seat moved first, or an update went missing: say so, and ask
      // the table for the current position (a new hello gets it, with the whole log).
      board.update(message);
      refetch = true;
      ws.close();
      return;
    }
    if (message.type === "next-game" && board.wantsNext) {
      location.assign(message.link);
      return;
    }
    board.update(message);
    if (message.type !== "update") return; // presence, next-game: the title stays
    document.title = message.over ? t("Game over · Tricky Treats") : message.your_turn ? t("Your turn · Tricky Treats") : "Tricky Treats";
  };
  ws.onclose = (event) => {
    if (ws !== socket) return;
    if (finished) return;
    if (refetch) {
      refetch = false;
      connect();
      return;
    }
    // Reconnect with the same key: the table sends the current state and the whole log again.
    const delay = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)];
    attempt += 1;
    const why =
      event.code === 1013
        ? t("the server is full")
        : t("try {attempt}, next in {seconds} s", { attempt, seconds: Math.round(delay / 100) / 10 });
    board.setConnection("reconnecting", why);
    if (!board.message && refusal) showRefusal(refusal, Math.round(delay / 100) / 10);
    else if (!board.message && root.querySelector(".status")) root.querySelector(".status").textContent = t("Connection lost: reconnecting ({why})", { why });
    retryTimer = setTimeout(connect, delay);
  };
}

// A seat's link pasted into this tab: same page, another key. Switch to that seat.
window.addEventListener("hashchange", () => {
  const key = keyOfLink();
  if (key === credential) return;
  credential = key;
  finished = false;
  attempt = 0;
  const old = socket;
  socket = null;
  if (old) old.close();
  board = makeBoard();
  root.replaceChildren();
  root.append(Object.assign(document.createElement("div"), { className: "status", textContent: t("Switching seats…") }));
  announce(key ? t("Switching to the seat of this link.") : t("Switching to watching this game."));
  connect();
});

// Back online (the browser says so): try at once instead of waiting for the next retry.
window.addEventListener("online", () => {
  if (!socket || socket.readyState === WebSocket.CLOSED) connect();
});

connect();
