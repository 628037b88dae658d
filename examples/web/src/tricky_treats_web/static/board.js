// Draws a Tricky Treats table from the host's "update" messages; shared by the online page
// (messages over a WebSocket) and the offline page (messages from the engine in Pyodide).
// Online, the server adds who is connected ("presence"), the clocks and the takeover bot to
// its updates and sends "presence" messages between them: the clocks count down here, from
// the server's figures, and the log says when a bot plays a seat and when its player is back.
// Plain DOM, no build step. Every house, card and kid is a real button: a legal one is
// outlined, and an illegal one, when pressed, says why (the table's own refusal, in words).

import { languageSwitch, N_, serverText, t } from "/static/i18n.js";

const TREATS = ["candy", "lollipop", "gummy"]; // the order of a player's treat tracks
const SEAT_COLOURS = ["#f39c12", "#3c9cf0", "#ef5da8", "#14c9b6"];
const STREET_NAMES = [N_("row 1"), N_("row 2"), N_("row 3"), N_("column 1"), N_("column 2"), N_("column 3")];
const STREET_HOUSES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8]];
const ICON_NAMES = { spiderweb: N_("spiderweb"), "toilet-paper": N_("toilet paper"), egg: N_("egg") };
// The components' words, marked for the catalog: translated where they are shown (word()).
const WORDS = [
  N_("purple"), N_("red"), N_("green"), N_("animal"), N_("horror"), N_("fable"), N_("space"),
  N_("head"), N_("body"), N_("legs"), N_("candy"), N_("lollipop"), N_("gummy"),
  N_("colour"), N_("theme"), N_("type"), N_("pumpkin"), N_("foot"), N_("random"), N_("greedy"), N_("search"),
];
// Why the host's bot played a seat's move (played_by.reason), and the table's news.
const PLAYED_FOR = {
  away: N_("played by the {bot}: {name} was away"),
  time: N_("played by the {bot}: {name} was out of time"),
  failed: N_("played by the {bot}: {detail}"),
};
const LOW_SECONDS = 10; // a clock shows it is running low, and the player hears it once a turn

// "0:27", "12:05", "1:02:03": a clock's time, never below 0.
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

// A count and its noun, singular or plural, in the page's language.
const PLURALS = {
  card: [N_("{n} card"), N_("{n} cards")],
  move: [N_("{n} move"), N_("{n} moves")],
  pumpkin: [N_("{n} pumpkin"), N_("{n} pumpkins")],
  footprint: [N_("{n} footprint"), N_("{n} footprints")],
  candy: [N_("{n} candy"), N_("{n} candies")],
  lollipop: [N_("{n} lollipop"), N_("{n} lollipops")],
  gummy: [N_("{n} gummy"), N_("{n} gummies")],
};

// A component's word (a colour, theme, type, icon or treat) in the page's language.
export function word(value) {
  return WORDS.includes(value) || Object.values(ICON_NAMES).includes(value) ? t(value) : value;
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "html") el.innerHTML = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// -- small SVG pictures (no emoji font is needed) ---------------------------------------------
const SVG = {
  spiderweb: `<svg viewBox="0 0 24 24"><g fill="none" stroke="currentColor" stroke-width="1.4">
    <path d="M12 1v22M1 12h22M4.2 4.2l15.6 15.6M19.8 4.2L4.2 19.8"/>
    <path d="M12 5l5 2 2 5-2 5-5 2-5-2-2-5 2-5z"/><path d="M12 8.5l2.5 1 1 2.5-1 2.5-2.5 1-2.5-1-1-2.5 1-2.5z"/></g></svg>`,
  "toilet-paper": `<svg viewBox="0 0 24 24"><g stroke="currentColor" stroke-width="1.4">
    <path d="M6 5h10v14H6z" fill="#fff"/><ellipse cx="16" cy="12" rx="3" ry="7" fill="#fff"/>
    <ellipse cx="16" cy="12" rx="1" ry="2.4" fill="currentColor"/><path d="M6 19h-3v2h10" fill="none"/></g></svg>`,
  egg: `<svg viewBox="0 0 24 24"><path d="M12 2c4 0 7 7 7 12a7 7 0 0 1-14 0c0-5 3-12 7-12z"
    fill="#fff8e6" stroke="currentColor" stroke-width="1.4"/></svg>`,
  candy: `<svg viewBox="0 0 24 24"><g stroke="#8a1c3c" stroke-width="1"><path d="M2 7l5 5-5 5zM22 7l-5 5 5 5z" fill="#ff8fb1"/>
    <circle cx="12" cy="12" r="5.5" fill="#ff4f81"/></g><path d="M9 9.5q3 5 6 5" stroke="#fff" fill="none" stroke-width="1.3"/></svg>`,
  lollipop: `<svg viewBox="0 0 24 24"><path d="M12 13v10" stroke="#b58a5a" stroke-width="2"/>
    <circle cx="12" cy="8" r="7" fill="#7ad7f0" stroke="#22799a"/><path d="M12 8m-4 0a4 4 0 1 0 4-4M12 8a2 2 0 1 1-2 2" fill="none" stroke="#fff" stroke-width="1.3"/></svg>`,
  gummy: `<svg viewBox="0 0 24 24"><g fill="#7ed957" stroke="#2f7a1f" stroke-width="1">
    <circle cx="7.5" cy="5" r="2.6"/><circle cx="16.5" cy="5" r="2.6"/><circle cx="12" cy="9" r="5.5"/>
    <rect x="6.5" y="12" width="11" height="10" rx="4.5"/></g><circle cx="10" cy="8.5" r=".9"/><circle cx="14" cy="8.5" r=".9"/></svg>`,
  pumpkin: `<svg viewBox="0 0 24 24"><path d="M12 6c1-3 3-4 4-4" stroke="#3c7a2a" stroke-width="2" fill="none"/>
    <ellipse cx="12" cy="14" rx="10" ry="8" fill="#ff8a1f" stroke="#a94b00"/>
    <path d="M12 6.5v15M7 7.5c-2 4-2 9 0 13M17 7.5c2 4 2 9 0 13" stroke="#a94b00" fill="none"/></svg>`,
  foot: `<svg viewBox="0 0 24 24"><ellipse cx="12" cy="15" rx="5" ry="7" fill="currentColor"/>
    <circle cx="7" cy="5" r="1.8" fill="currentColor"/><circle cx="11" cy="3.5" r="2" fill="currentColor"/>
    <circle cx="15.5" cy="4.5" r="1.8" fill="currentColor"/></svg>`,
};

// A picture with its name for screen readers (role=img), or hidden when the text says it.
export function pic(name, cls = "pic", label = word(name.replace("-", " "))) {
  return h("span", {
    class: `${cls} pic-${name}`,
    role: label ? "img" : null,
    "aria-label": label || null,
    "aria-hidden": label ? null : "true",
    html: SVG[name] || "",
  });
}

function cap(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// The noun after a count shown apart (a bold number, then its word): singular or plural.
const NOUNS = {
  candy: [N_("candy"), N_("candies")],
  lollipop: [N_("lollipop"), N_("lollipops")],
  gummy: [N_("gummy"), N_("gummies")],
  pumpkin: [N_("pumpkin"), N_("pumpkins")],
  "footprint left": [N_("footprint left"), N_("footprints left")],
};
function noun(n, what) {
  return t(NOUNS[what][n === 1 ? 0 : 1]);
}

function plural(n, noun) {
  const forms = PLURALS[noun];
  if (forms) return t(forms[n === 1 ? 0 : 1], { n });
  if (n === 1) return `${n} ${noun}`;
  return `${n} ${/[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`}`;
}

function iconName(icon) {
  return t(ICON_NAMES[icon] || icon);
}

function cardText(card) {
  return t("{colour} {theme} {type}", { colour: word(card.colour), theme: word(card.theme), type: word(card.type) });
}

function cardLabel(card) {
  return t("{card}, {icon} trick icon", { card: cap(cardText(card)), icon: iconName(card.icon) });
}

function cardFace(card) {
  return [
    h("span", { class: "card-type" }, word(card.type)),
    h("span", { class: "card-theme" }, cap(word(card.theme))),
    h("span", { class: "card-colour" }, word(card.colour)),
    pic(card.icon, "card-icon", ""),
  ];
}

function wantsText(wants) {
  const [kind, value] = wants.split(":");
  const shown = word(value);
  return { kind, value, shown, text: kind === "type" ? t("{value} costumes", { value: shown }) : t("{value} cards", { value: shown }) };
}

function houseName(view, house) {
  return t("the {value} house", { value: wantsText(view.grid[house].neighbour.wants).shown });
}

function meanName(view, house) {
  return t("the {icon} mean house", { icon: iconName(view.mean_houses[house].neighbour.icon) });
}

function tileText(tile) {
  return t("{points} points for every set of {treats}", { points: tile.points, treats: tile.treats.map(word).join(" + ") });
}

function tileEl(tile, small = false) {
  if (!tile) return h("span", { class: "tile hidden-tile", role: "img", "aria-label": t("a secret tile, hidden") }, "?");
  return h(
    "span",
    { class: `tile${small ? " small" : ""}`, role: "img", "aria-label": tileText(tile) },
    h("span", { class: "tile-treats" }, tile.treats.map((t) => pic(t, "pic", ""))),
    h("span", { class: "tile-points" }, `${tile.points}`),
  );
}

function dots(view, seats) {
  if (!seats.length) return null;
  const names = seats.map((s) => view.players[s].name).join(", ");
  return h(
    "span",
    { class: "dots", role: "img", "aria-label": t("footprints of {names}", { names }) },
    seats.map((s) => h("span", { class: "dot", style: `background:${SEAT_COLOURS[s]}` })),
  );
}

// -- what happened, from the events (JSON with a "type" tag) ------------------------------------
export function describeEvent(e, names, view) {
  switch (e.type) {
    case "card-placed":
      return t("dresses kid {kid} in the {card}", { kid: e.kid + 1, card: cardText(e.card) });
    case "card-revealed":
      return t("a {card} comes into the market", { card: cardText(e.card) });
    case "market-refreshed":
      return t("discards the whole market ({cards}) for new cards", { cards: plural(e.discarded.length, "card") });
    case "house-visited":
      return t("visits {house} with {matching} matching and gets {treats}", { house: houseName(view, e.house), matching: e.matching, treats: plural(e.treats, e.treat) });
    case "house-tricked":
      return t("tricks {house} and may score its tile", { house: meanName(view, e.house) });
    case "pumpkin-taken":
      return t("takes the pumpkin of {house} (2 points)", { house: e.mean ? meanName(view, e.house) : houseName(view, e.house) });
    case "street-bonus-taken":
      return t("completes {street}: {treats} more", { street: t(STREET_NAMES[e.street]), treats: plural(e.treats, e.treat) });
    case "passed":
      return t("passes");
    case "end-triggered":
      return t("triggers the end ({reason}): the round is played to its end", { reason: t(e.reason.replaceAll("-", " ")) });
    case "game-over":
      return winnersWords(e.winners.map((w) => names[w]), "Game over: {who} wins", "Game over: {who} share the win");
    default:
      return e.type;
  }
}

// A kid of the players' panel, for screen readers.
function kidWords(k, kid) {
  const none = t("no cards");
  return t("kid {kid}: {cards}", { kid: k + 1, cards: kid.map(cardText).join(", ") || none });
}

// "Ann wins", "Ann and Bo share the win": the names and the verb in the page's language.
function winnersWords(names, one = "{who} wins", several = "{who} share the win") {
  const who = names.join(t(" and "));
  return names.length > 1 ? t(several, { who }) : t(one, { who });
}
const MESSAGES = [N_("Game over: {who} wins"), N_("Game over: {who} share the win"), N_("{who} wins"), N_("{who} share the win")];
const REASONS = [N_("last footprint"), N_("complete costumes"), N_("deck empty"), N_("deadlock")];

// The table's refusal in a player's words: no ruling ids, counted from 1, houses by name.
export function plainError(message, view) {
  const code = message.code;
  if (code === "stale") return t("The game moved on before your move arrived; here is the current position.");
  // The server's and the table's own refusals (a limit, a lost game): by their code.
  if (code && !["illegal-action", "invalid-action", "not-your-turn", "wrong-seat"].includes(code)) return serverText(message);
  let text = message.message || message.error || t("the move was refused");
  text = text.replace(/\s*\((R\d+[^)]*)\)/g, "").replace(/^cannot play \S+: /, "");
  const said = refusalWords(text.trim(), view);
  if (said !== null) return said;
  if (view) {
    text = text
      .replace(/\bnice house (\d+)/g, (_, i) => houseName(view, Number(i)))
      .replace(/\bmean house (\d+)/g, (_, i) => meanName(view, Number(i)))
      .replace(/\bkid (\d+)/g, (_, k) => t("kid {kid}", { kid: Number(k) + 1 }))
      .replace(/\bmarket slot (\d+)/g, (_, s) => t("market card {slot}", { slot: Number(s) + 1 }));
  }
  return cap(text.trim()) + (/[.!?]$/.test(text.trim()) ? "" : ".");
}

// The engine's refusals are English (the same in every language); these patterns tell the
// common ones in the page's language. null: no pattern knows the text (it is shown as it is).
const REFUSALS = [
  [/^nice house (\d+) wants at least (\d+) (\w+) cards and your kids wear (\d+)$/, N_("{house} wants at least {least} {feature} cards and your kids wear {matching}."), ["house", "least", "feature", "matching"]],
  [/^mean house (\d+) needs 3 kids showing (\S+) on top, and (\d+) do$/, N_("{house} needs 3 kids showing {icon} on top, and {showing} do."), ["mean", "icon", "showing"]],
  [/^you already visited nice house (\d+), and a player visits each house at most once$/, N_("You already visited {house}: a player visits each house at most once."), ["house"]],
  [/^you already tricked mean house (\d+), and a player visits each house at most once$/, N_("You already tricked {house}: a player visits each house at most once."), ["mean"]],
  [/^kid (\d+) already wears a (\w+) costume, and a kid wears at most one card of each type$/, N_("Kid {kid} already wears a {type}: a kid wears at most one card of each type."), ["kid", "type"]],
  [/^you have no footprints left$/, N_("You have no footprints left."), []],
  [/^it is not your turn.*$/i, N_("It is not your turn."), []],
];

function refusalWords(text, view) {
  for (const [pattern, message, names] of REFUSALS) {
    const found = pattern.exec(text);
    if (!found) continue;
    const values = {};
    names.forEach((name, i) => {
      const raw = found[i + 1];
      if (name === "house") values.house = view ? houseName(view, Number(raw)) : t("nice house {number}", { number: raw });
      else if (name === "mean") values.house = view ? meanName(view, Number(raw)) : t("mean house {number}", { number: raw });
      else if (name === "kid") values.kid = Number(raw) + 1;
      else if (name === "feature" || name === "type") values[name] = word(raw);
      else if (name === "icon") values.icon = iconName(raw);
      else values[name] = raw;
    });
    return cap(t(message, values));
  }
  return null;
}

// What visiting nice house ``i`` would give ``seat`` now: treats, pumpkin, street bonuses.
export function visitPreview(view, seat, i) {
  const me = view.players[seat];
  const house = view.grid[i];
  const { kind, value } = wantsText(house.neighbour.wants);
  const matching = me.kids.flat().filter((c) => c[kind] === value).length;
  const reached = house.neighbour.tiers.filter((t) => matching >= t.cards);
  const treats = reached.length ? reached[reached.length - 1].treats : 0;
  const streets = [];
  if (treats) {
    STREET_HOUSES.forEach((houses, s) => {
      if (houses.includes(i) && houses.every((x) => x === i || me.visited.includes(x))) {
        const token = view.street_tokens[s];
        streets.push({ treat: token.treat, treats: view.street_flipped[s] ? token.back : token.front });
      }
    });
  }
  return { matching, treats, treat: house.treat, need: house.neighbour.tiers[0].cards, pumpkin: view.pumpkin_on_house[i], streets };
}

function previewText(p) {
  const parts = [`+${p.treats} ${noun(p.treats, p.treat)}`];
  if (p.pumpkin) parts.push(t("pumpkin"));
  for (const s of p.streets) parts.push(t("street +{treats} {treat}", { treats: s.treats, treat: noun(s.treats, s.treat) }));
  return parts.join(", ");
}

const HELP = [
  [N_("Goal"), N_("Score the most points: pumpkins, complete costumes and sets of treats.")],
  [N_("Your turn"), N_("Do one thing: take a card from the market and put it on one of your 5 kids, or visit a house.")],
  [N_("Costumes"), N_("A kid wears at most 3 cards, one head, one body and one legs. A kid with all 3 scores 2 to 8 points at the end (8 when colour and theme match).")],
  [N_("Nice houses"), N_("Each wants one colour, theme or type. Count your matching cards on all kids (covered ones too): \"2→1\" means 2 matching cards get 1 treat. Each visit uses one of your 8 footprints; each house once.")],
  [N_("Pumpkins"), N_("The first visitor of a house takes its pumpkin: 2 points at the end.")],
  [N_("Streets"), N_("The round tokens beside the rows and columns: the first to visit all 3 houses of a row or column gets 2 treats, later players 1.")],
  [N_("Mean houses"), N_("When 3 of your kids show the same trick icon on their top card, you may trick the mean house with that icon. You then score its tile as well as your own.")],
  [N_("Trick tiles"), N_("A tile gives points for every set of treats it shows (for example 3 points per pair of candy). Your secret tile is yours alone; the others see it only at the end.")],
  [N_("The end"), N_("When someone uses their last footprint, dresses all 5 kids fully, or the deck runs out, the round is finished and the scores are counted. On a tie, more points from treats wins.")],
];

// The board's own pictures beside each rule of "How to play".
const HELP_PICTURES = {
  Goal: () => pic("pumpkin", "pic", ""),
  "Your turn": () => h("span", { class: "card colour-purple help-card" }, cardFace({ colour: "purple", theme: "space", type: "head", icon: "spiderweb" })),
  Costumes: () => [pic("spiderweb", "pic", ""), h("b", {}, "×3")],
  "Nice houses": () => h("span", { class: "tier reached" }, "2→1"),
  Pumpkins: () => pic("pumpkin", "pic", ""),
  Streets: () => h("span", { class: "street mini-street" }, pic("candy", "pic", ""), h("b", {}, "2")),
  "Mean houses": () => pic("toilet-paper", "mean-icon", ""),
  "Trick tiles": () => tileEl({ id: "pair-candy", treats: ["candy", "candy"], points: 3 }, true),
  "The end": () => pic("foot", "pic", ""),
};

// -- the whole table ---------------------------------------------------------------------------

// The WAI-ARIA grid pattern for the market, the houses and the kids: each group is one Tab
// stop (the chosen item, else the first playable one, else the first), and the arrow keys,
// Home and End move within it. Rows and cells lay out as their items (display: contents).
function ariaGrid(attrs, rows, interactive) {
  return h(
    "div",
    { ...attrs, role: interactive ? "grid" : null },
    rows.map((row) => h("div", { class: "grid-row", role: interactive ? "row" : null }, row.map((cell) => h("div", { class: "grid-cell", role: interactive ? "gridcell" : null }, cell)))),
  );
}

function rovingFocus(box, columns) {
  const items = [...box.querySelectorAll("button")];
  if (!items.length) return;
  const current =
    items.find((el) => el === document.activeElement) ||
    items.find((el) => el.classList.contains("selected")) ||
    items.find((el) => el.classList.contains("playable")) ||
    items[0];
  for (const el of items) el.tabIndex = el === current ? 0 : -1;
  const width = Math.min(columns, items.length);
  box.addEventListener("keydown", (event) => {
    const i = items.indexOf(event.target);
    if (i < 0 || event.altKey || event.metaKey) return;
    const rowStart = i - (i % width);
    const to = {
      ArrowRight: i + 1,
      ArrowLeft: i - 1,
      ArrowDown: i + width,
      ArrowUp: i - width,
      Home: event.ctrlKey ? 0 : rowStart,
      End: event.ctrlKey ? items.length - 1 : Math.min(rowStart + width, items.length) - 1,
    }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    if (to < 0 || to >= items.length) return; // the edge: focus stays
    items[i].tabIndex = -1;
    items[to].tabIndex = 0;
    items[to].focus();
  });
}

export class BoardView {
  // send(notation): play an action. Options: playAgain() (or null), lobby (a URL or null),
  // announce(text, urgent) for screen readers.
  constructor(root, send, options = {}) {
    this.root = root;
    this.send = send;
    this.options = options;
    this.selectedSlot = null;
    this.log = []; // by move number: {player, events, action}
    this.message = null;
    this.notice = null; // {text, kind}: a refusal or an explanation, shown until the next move
    this.connection = options.connection || "connected";
    this.connectionDetail = "";
    this.helpOpen = null; // null: open until the first move of this player
    this.sheetClosed = false;
    this.nextLink = null;
    this.focusKey = null;
    this.table = null; // the server's clocks, presence and takeover, and when they came
    this.notes = []; // the table's news in the log: {after: moves played, text}
    this.warned = null; // the turn whose "time is running low" was said
    // The clocks and the times away count down between the server's messages.
    this.ticker = setInterval(() => this.tick(), 250);
    // The end sheet is a modal dialog: Escape closes it wherever focus is, and Tab stays in it.
    // (A page may make a new board on the same root, as on switching seats: only the newest
    // one answers.)
    root.boardView = this;
    document.addEventListener("keydown", (event) => {
      const sheet = this.root.querySelector(".sheet");
      if (!sheet || root.boardView !== this) return;
      if (event.key === "Escape") {
        event.preventDefault();
        this.closeSheet();
      } else if (event.key === "Tab") {
        const stops = [...sheet.querySelectorAll("a[href], button")];
        if (!stops.length) return;
        const at = stops.indexOf(document.activeElement);
        const next = event.shiftKey ? (at <= 0 ? stops.length - 1 : at - 1) : at < 0 || at === stops.length - 1 ? 0 : at + 1;
        event.preventDefault();
        stops[next].focus();
      }
    });
  }

  closeSheet() {
    this.sheetClosed = true;
    this.focusKey = "sheet";
    this.render();
  }

  announce(text, urgent = false) {
    if (this.options.announce) this.options.announce(text, urgent);
  }

  update(message) {
    if (message.type === "error") {
      this.refused(message);
      return;
    }
    if (message.type === "presence") {
      this.tableNews(message);
      if (this.message) this.render();
      return;
    }
    if (message.type === "next-game") {
      this.nextLink = message.link;
      this.announce(t("The next game is ready."));
      if (this.message) this.render();
      return;
    }
    const previous = this.message;
    const view = message.record ? message.record.view : message.view;
    const first = message.moves_played - (message.moves || []).length;
    if (first === 0) this.log = [];
    (message.moves || []).forEach((move, i) => {
      this.log[first + i] = move;
    });
    this.message = message;
    if ("presence" in message) this.tableNews(message, !previous);
    this.selectedSlot = null;
    // A new position clears the last refusal, except the one that explains this position.
    if (this.keepNotice) this.keepNotice = false;
    else if (previous && previous.moves_played !== message.moves_played) this.notice = null;
    this.updates = (this.updates || 0) + 1;
    this.render();
    this.root.dataset.updates = String(this.updates); // lets tests wait for the next update
    this.announceUpdate(previous, message, view);
  }

  announceUpdate(previous, message, view) {
    if (message.over && !(previous && previous.over)) {
      this.announce(t("Game over: {winners}.", { winners: this.winnersText(message) }));
      return;
    }
    const news = previous ? (message.moves || []).filter((m) => m.player !== message.seat || m.played_by) : [];
    const lines = news.map((m) => {
      const name = message.players[m.player];
      const by = m.played_by ? ` (${this.playedByText(m.played_by, name)})` : "";
      return `${name} ${this.moveSummary(m, message.players, view)}${by}`;
    });
    if (message.your_turn && (!previous || !previous.your_turn || previous.moves_played !== message.moves_played)) {
      lines.push(t("Your turn."));
    }
    if (lines.length) this.announce(lines.join(". "));
  }

  // The clocks, presence and takeover the server sent (with an update or alone): kept with the
  // moment they came, so that the page counts down from them; what changed goes in the log.
  tableNews(message, first = false) {
    const before = this.table;
    this.table = { clock: message.clock, presence: message.presence, takeover: message.takeover, at: performance.now() };
    const m = this.message;
    if (!m || !message.presence) return;
    const after = m.moves_played;
    const bot = message.takeover ? t("{bot} bot", { bot: t(message.takeover.bot) }) : "";
    for (const now of message.presence.seats) {
      if (now.bot !== undefined) continue;
      const was = before && before.presence ? before.presence.seats[now.seat] : null;
      const name = m.players[now.seat];
      let text = null;
      if (first && now.seat === m.seat && this.playedForMe()) {
        this.say(t("The {bot} played for you while you were away or out of time. Your seat is yours again.", { bot: t("{bot} bot", { bot: t(this.lastPlayedForMe().bot) }) }));
      }
      if (!was) continue;
      if (now.taken_over && !was.taken_over) text = t("{name} has been away too long: the {bot} plays for them.", { name, bot });
      else if (was.taken_over && now.connected) text = t("{name} is back and plays again.", { name });
      else if (was.connected && !now.connected) text = t("{name} left the table.", { name });
      else if (!was.connected && now.connected) text = t("{name} is back.", { name });
      if (text && now.seat !== m.seat) {
        this.notes.push({ after, text });
        this.announce(text);
      }
    }
  }

  // Whether this seat's last move was played for it by the host's bot.
  playedForMe() {
    return Boolean(this.lastPlayedForMe());
  }

  lastPlayedForMe() {
    const mine = this.log.filter((move) => move && move.player === this.message.seat);
    return mine.length ? mine[mine.length - 1].played_by : null;
  }

  // Each seat's time now: the server's figure less the time since it came (the running seat's).
  secondsLeft(seat) {
    const clock = this.table && this.table.clock;
    if (!clock) return null;
    const left = clock.left[seat];
    return clock.running === seat ? left - (performance.now() - this.table.at) / 1000 : left;
  }

  awaySeconds(seat) {
    const entry = this.table && this.table.presence && this.table.presence.seats[seat];
    if (!entry || entry.away_seconds === null || entry.away_seconds === undefined) return null;
    return entry.away_seconds + (performance.now() - this.table.at) / 1000;
  }

  // A clock's words: its time; once out, in the header (after "Your time"), how long until
  // the bot plays, and in a seat's panel that it is out.
  clockWords(seat, header = false) {
    const left = this.secondsLeft(seat);
    if (left === null) return "";
    if (left > 0 || !this.table.takeover) return clockText(left);
    if (!header) return t("out of time");
    return t("is up: the bot plays in {time}", { time: clockText(left + this.table.takeover.grace) });
  }

  // Four times a second: the clocks and the times away, written where they show.
  tick() {
    if (this.root.boardView !== this) {
      clearInterval(this.ticker); // a newer board draws on this root (the page switched seats)
      return;
    }
    if (!this.message || !this.table) return;
    for (const el of this.root.querySelectorAll("[data-clock-seat]")) {
      const seat = Number(el.dataset.clockSeat);
      const left = this.secondsLeft(seat);
      if (left === null) continue;
      const text = this.clockWords(seat, "header" in el.dataset);
      if (el.textContent !== text) el.textContent = text;
      const running = this.table.clock.running === seat;
      el.parentElement.classList.toggle("low", running && left <= LOW_SECONDS && left > 0);
      el.parentElement.classList.toggle("out", running && left <= 0);
    }
    for (const el of this.root.querySelectorAll("[data-away-seat]")) {
      const away = this.awaySeconds(Number(el.dataset.awaySeat));
      const text = away === null ? "" : t("away {time}", { time: clockText(away) });
      if (el.textContent !== text) el.textContent = text;
    }
    const m = this.message;
    const mine = this.table && this.table.clock && this.table.clock.running === m.seat && m.seat !== null;
    if (mine && !m.over) {
      const left = this.secondsLeft(m.seat);
      const turn = `${m.moves_played}`;
      if (left <= LOW_SECONDS && left > 0 && this.warned !== turn) {
        this.warned = turn;
        this.announce(t("{seconds} seconds left for your move.", { seconds: Math.ceil(left) }));
      }
    }
  }

  moveSummary(move, names, view) {
    const own = move.events.filter((e) => e.type !== "card-revealed" && e.type !== "game-over");
    return own.map((e) => describeEvent(e, names, view)).join(", ") || move.action;
  }

  refused(message) {
    const text = plainError(message, this.message ? this.view : null);
    this.keepNotice = message.code === "stale";
    this.say(text, "refusal");
    this.announce(text, true);
  }

  // A message on the page until the next move (and for screen readers, once).
  say(text, kind = "info") {
    this.notice = { text, kind };
    if (this.message) this.render();
    else {
      const status = this.root.querySelector(".status");
      if (status) status.textContent = text;
    }
  }

  setConnection(state, detail = "") {
    const was = this.connection;
    this.connection = state;
    this.connectionDetail = detail;
    if (this.message) this.render();
    if (was !== state) {
      if (state === "connected" && was !== "connecting") this.announce(t("Connected again."));
      if (state === "reconnecting" && was === "connected") this.announce(t("Connection lost: reconnecting."), true);
    }
  }

  get view() {
    return this.message.record ? this.message.record.view : this.message.view;
  }

  get online() {
    return this.connection === "connected" || this.connection === "local";
  }

  legal() {
    const set = new Set();
    if (!this.online) return set;
    for (const a of this.message.legal_actions || []) set.add(a.action);
    return set;
  }

  winnersText(m) {
    return winnersWords(m.winners.map((w) => m.players[w]));
  }

  // Play ``action`` if legal; otherwise let the table say why (it refuses and changes nothing).
  attempt(action, focusKey) {
    const m = this.message;
    this.focusKey = focusKey;
    if (!this.online) {
      this.say(t("Not connected: your move was not sent. The page is reconnecting; try again then."), "refusal");
      this.announce(this.notice.text, true);
      return;
    }
    if (m.seat === null) {
      this.say(t("You are watching this game: spectators cannot move."), "refusal");
      return;
    }
    if (m.over) {
      this.say(t("The game is over: no more moves."), "refusal");
      return;
    }
    this.send(action);
  }

  render() {
    const active = document.activeElement;
    const key = active && this.root.contains(active) ? active.dataset.key : null;
    const m = this.message;
    const v = this.view;
    const legal = this.legal();
    const seat = m.seat;
    const parts = [
      this.header(m, v), // with the notice in it: both stay in sight (the header is sticky)
      this.helpEl(m),
      h(
        "main",
        { class: "table", id: "board" },
        h(
          "section",
          { class: "board-col", "aria-label": t("Houses") },
          this.meanHouses(v, legal, seat),
          this.grid(v, seat, legal),
        ),
        h(
          "section",
          { class: "mid-col", "aria-label": seat === null ? t("Market") : t("Market and your kids") },
          this.market(v, legal, seat),
          seat === null ? this.spectatorNote() : this.kids(v, seat, legal),
          this.buttons(legal),
          this.logEl(m, v),
        ),
        h("section", { class: "side-col", "aria-label": t("Players") }, this.playersEl(m, v), this.legendEl()),
      ),
    ];
    const sheetOpen = m.over && !this.sheetClosed;
    if (sheetOpen) {
      for (const part of parts) if (part) part.inert = true; // the board behind the dialog
      parts.push(this.endSheet(m, v));
    }
    this.root.replaceChildren(...parts.filter(Boolean));
    const log = this.root.querySelector(".log-list");
    if (log) log.scrollTop = log.scrollHeight;
    this.restoreFocus(key);
    for (const [selector, columns] of [[".market-row", 99], [".mean-row", 99], [".grid", 3], [".kids-row", 99]]) {
      const box = this.root.querySelector(selector);
      if (box) rovingFocus(box, columns);
    }
  }

  // Keep focus where the player was, or the next sensible place, never on the page body.
  restoreFocus(key) {
    const wanted = this.focusKey || key;
    this.focusKey = null;
    const find = (k) => (k ? this.root.querySelector(`[data-key="${k}"]`) : null);
    const focusable = (el) => el && (el.tagName === "BUTTON" || el.tagName === "A" || el.hasAttribute("tabindex"));
    let target = null;
    if (this.message.over && !this.sheetClosed) target = this.root.querySelector(".sheet h2");
    else if (this.selectedSlot !== null) target = this.root.querySelector(".kid.playable") || find(wanted);
    else if (wanted) {
      const same = find(wanted);
      const move = /^(v|m|card|kid|refresh|pass)/.test(wanted);
      target = focusable(same) && (!move || same.classList.contains("playable") || this.notice) ? same : null;
      if (!target && this.message.your_turn) target = this.root.querySelector(".market .card.playable, .playable");
      if (!target) target = focusable(same) ? same : this.root.querySelector("[data-testid=status]");
    }
    if (target && target !== document.activeElement) target.focus({ preventScroll: !wanted });
  }

  header(m, v) {
    let status;
    let cls = "";
    if (m.over) status = t("Game over: {winners}!", { winners: this.winnersText(m) });
    else if (!this.online) {
      status = t("Not connected");
      cls = " offline";
    } else if (m.your_turn) {
      status = t("Your turn");
      cls = " yours";
    } else status = t("{name} is playing…", { name: m.players[v.current_player] });
    const who = m.seat === null ? t("You are watching") : t("You are {name}", { name: m.players[m.seat] });
    const round = m.over ? t("final scores") : t("round {number}", { number: Math.floor(v.turn / m.players.length) + 1 });
    const watching = this.table && this.table.presence ? this.table.presence.spectators : 0;
    const meta = [who, round, t("{cards} in the deck", { cards: plural(v.deck_size, "card") })];
    if (watching) meta.push(t("{count} watching", { count: watching }));
    return h(
      "header",
      { class: "top" },
      h("h1", {}, t("Tricky Treats")),
      h("div", { class: `status${cls}`, "data-testid": "status", tabindex: "-1", "data-key": "status" }, status),
      this.turnClockEl(m),
      this.connectionEl(),
      h("div", { class: "meta" }, meta.join(" · ")),
      h(
        "div",
        { class: "header-scores", "aria-hidden": "true", "data-testid": "header-scores" },
        m.players.map((name, s) =>
          h("span", { class: `header-score${s === v.current_player && !m.over ? " turn" : ""}` }, `${name} ${v.scores[s].total}`),
        ),
      ),
      h(
        "nav",
        { class: "header-buttons", "aria-label": t("Game") },
        h(
          "button",
          {
            class: "act quiet",
            "data-key": "help",
            "aria-expanded": String(this.isHelpOpen(m)),
            "aria-controls": "help",
            onclick: () => {
              this.helpOpen = !this.isHelpOpen(m);
              this.focusKey = "help";
              this.render();
            },
          },
          t("How to play"),
        ),
        m.over
          ? h(
              "button",
              {
                class: "act quiet",
                "data-key": "sheet",
                "data-testid": "open-sheet",
                onclick: () => {
                  this.sheetClosed = false;
                  this.render();
                },
              },
              t("Score sheet"),
            )
          : null,
        this.options.lobby ? h("a", { class: "act quiet", href: this.options.lobby }, t("Lobby")) : null,
        languageSwitch(),
      ),
      this.noticeEl(),
    );
  }

  // The running seat's clock, in the sticky header: in sight wherever the player scrolled.
  turnClockEl(m) {
    const clock = this.table && this.table.clock;
    if (!clock || clock.running === null || m.over) return null;
    const seat = clock.running;
    const whose = seat === m.seat ? t("Your time") : t("{name}'s time", { name: m.players[seat] });
    return h(
      "div",
      { class: "turn-clock clock", role: "timer", "data-testid": "turn-clock" },
      h("span", { class: "clock-label" }, whose + " "),
      h("b", { "data-clock-seat": seat, "data-header": "" }, this.clockWords(seat, true)),
    );
  }

  // A human seat's presence and clock, in its panel: connected, away (for how long), or
  // played by the takeover bot; and its time.
  seatStatus(m, s) {
    const entry = this.table && this.table.presence ? this.table.presence.seats[s] : null;
    const parts = [];
    if (entry && entry.bot === undefined) {
      if (entry.taken_over) {
        const bot = t("{bot} bot", { bot: t(this.table.takeover.bot) });
        parts.push(h("span", { class: "presence taken", "data-testid": "presence" }, t("away: the {bot} plays", { bot })));
      } else if (entry.connected) {
        parts.push(h("span", { class: "presence here", "data-testid": "presence" }, t("at the table")));
      } else {
        parts.push(h("span", { class: "presence away", "data-testid": "presence", "data-away-seat": s }, t("away {time}", { time: clockText(this.awaySeconds(s)) })));
      }
    }
    const clock = this.table && this.table.clock;
    if (clock && !(entry && entry.bot !== undefined) && !m.over) {
      parts.push(
        h(
          "span",
          { class: `clock${clock.running === s ? " running" : ""}`, role: "timer", "data-testid": "clock" },
          h("span", { class: "sr-only" }, t("time left: ")),
          h("span", { "data-clock-seat": s }, this.clockWords(s)),
        ),
      );
    }
    return parts.length ? h("div", { class: "seat-status" }, parts) : null;
  }

  connectionEl() {
    if (this.connection === "local") return null;
    const text = {
      connected: t("Connected"),
      connecting: t("Connecting…"),
      reconnecting: this.connectionDetail ? t("Connection lost: reconnecting ({why})", { why: this.connectionDetail }) : t("Connection lost: reconnecting…"),
      closed: this.connectionDetail ? t("Disconnected: {why}", { why: t(this.connectionDetail) }) : t("Disconnected"),
    }[this.connection];
    return h("div", { class: `connection ${this.connection}`, "data-testid": "connection" }, text);
  }

  noticeEl() {
    if (!this.notice) return null;
    return h(
      "div",
      { class: `notice ${this.notice.kind}`, "data-testid": "notice" },
      h("span", {}, this.notice.text),
      h(
        "button",
        {
          class: "act quiet small",
          "data-key": "dismiss",
          onclick: () => {
            this.notice = null;
            this.focusKey = "status";
            this.render();
          },
        },
        // Its name holds what it shows ("OK"), then what it does, for screen readers.
        t("OK"),
        h("span", { class: "sr-only" }, " " + t("Dismiss this message")),
      ),
    );
  }

  isHelpOpen(m) {
    if (this.helpOpen !== null) return this.helpOpen;
    return m.seat !== null && !m.over && !this.log.some((move) => move && move.player === m.seat);
  }

  helpEl(m) {
    if (!this.isHelpOpen(m)) return null;
    return h(
      "section",
      { class: "panel help", id: "help", "aria-label": t("How to play"), "data-testid": "help" },
      h("h2", {}, t("How to play")),
      h(
        "dl",
        {},
        HELP.map(([term, text]) =>
          h("div", { class: "help-entry" }, h("span", { class: "help-pic", "aria-hidden": "true" }, HELP_PICTURES[term]()), h("dt", {}, t(term)), h("dd", {}, t(text))),
        ),
      ),
      h("p", { class: "hint" }, t("Outlined things are what you can do now. Press any house, card or kid to learn why it is not possible.")),
      h(
        "button",
        {
          class: "act quiet small",
          "data-key": "close-help",
          onclick: () => {
            this.helpOpen = false;
            this.focusKey = "help";
            this.render();
          },
        },
        t("Close the rules"),
      ),
    );
  }

  legendEl() {
    const row = (picture, text) => h("li", {}, picture, h("span", {}, text));
    return h(
      "section",
      { class: "panel legend", "aria-label": t("Legend"), "data-testid": "legend" },
      h("h2", {}, t("Legend")),
      h(
        "ul",
        {},
        row(pic("pumpkin"), t("pumpkin: 2 points for the first visitor")),
        row(pic("foot"), t("footprints: one per visit, 8 each")),
        row(h("span", { class: "tier" }, "2→1"), t("2 matching cards get 1 treat")),
        row(h("span", { class: "street mini-street" }, pic("candy", "pic", ""), h("b", {}, "2")), t("street: 2 treats for the first to visit its 3 houses")),
        row(tileEl({ id: "x", treats: ["candy", "candy"], points: 3 }, true), t("trick tile: 3 points per pair of candy at the end")),
        row(tileEl(null, true), t("someone's secret tile")),
        row(h("span", { class: "swatch-outline" }), t("outlined: you can do it now")),
      ),
    );
  }

  meanHouses(v, legal, seat) {
    const me = seat === null ? null : v.players[seat];
    return ariaGrid({ class: "mean-row", "aria-label": t("Mean houses") }, [
      v.mean_houses.map((house, i) => {
        const action = `m${i}`;
        const ok = legal.has(action);
        const tricked = v.players.map((p, s) => (p.tricked.includes(i) ? s : -1)).filter((s) => s >= 0);
        const icon = iconName(house.neighbour.icon);
        const showing = me ? me.kids.filter((kid) => kid.length && kid[kid.length - 1].icon === house.neighbour.icon).length : null;
        const label =
          t("Mean house: 3 kids showing {icon} can trick it and score its tile, {tile}", { icon, tile: tileText(house.tile) }) +
          (v.pumpkin_on_mean_house[i] ? t("; its pumpkin is still there") : "") +
          (showing !== null ? t("; your kids showing it: {count}", { count: showing }) : "") +
          (ok ? t(". You can trick it now") : "");
        return h(
          seat === null ? "div" : "button",
          {
            class: `mean-house${ok ? " playable" : ""}`,
            "data-action": ok ? action : null,
            "data-key": action,
            "aria-disabled": seat !== null && !ok ? "true" : null,
            onclick: seat === null ? null : () => this.attempt(action, action),
          },
          h("span", { class: "sr-only" }, label),
          h("span", { class: "mean-title", "aria-hidden": "true" }, t("Mean house")),
          pic(house.neighbour.icon, "mean-icon", ""),
          h("span", { class: "mean-need" }, `3 × ${icon}`),
          tileEl(house.tile),
          h(
            "span",
            { class: "house-foot" },
            v.pumpkin_on_mean_house[i] ? pic("pumpkin", "pumpkin", "") : null,
            showing !== null && me.tricked.includes(i) ? h("span", { class: "have" }, t("tricked")) : null,
            showing !== null && !me.tricked.includes(i) ? h("span", { class: "have" }, t("your kids: {count} of 3", { count: showing })) : null,
            dots(v, tricked),
          ),
        );
      }),
    ], seat !== null);
  }

  grid(v, seat, legal) {
    const token = (street) => {
      const bonus = v.street_tokens[street];
      const flipped = v.street_flipped[street];
      const n = flipped ? bonus.back : bonus.front;
      return h(
        "div",
        {
          class: `street street-${street < 3 ? "row" : "col"}${flipped ? " flipped" : ""}`,
          role: "img",
          "aria-label": (flipped ? t("{street} bonus: {treats} for the next player to visit its 3 houses", { street: t(STREET_NAMES[street]), treats: plural(n, bonus.treat) }) : t("{street} bonus: {treats} for the first player to visit its 3 houses", { street: t(STREET_NAMES[street]), treats: plural(n, bonus.treat) })),
        },
        pic(bonus.treat, "pic", ""),
        h("b", {}, n),
      );
    };
    const rows = [];
    for (let row = 0; row < 3; row++) {
      rows.push([0, 1, 2].map((col) => this.niceHouse(v, row * 3 + col, seat, legal)).concat([token(row)]));
    }
    rows.push([0, 1, 2].map((col) => token(3 + col)));
    return ariaGrid({ class: "grid", "aria-label": t("Nice houses and street bonuses") }, rows, seat !== null);
  }

  niceHouse(v, i, seat, legal) {
    const house = v.grid[i];
    const action = `v${i}`;
    const ok = legal.has(action);
    const { kind, value, shown, text } = wantsText(house.neighbour.wants);
    const visitors = v.players.map((p, s) => (p.visited.includes(i) ? s : -1)).filter((s) => s >= 0);
    const p = seat === null || this.message.over ? null : visitPreview(v, seat, i);
    let mine = null;
    if (p && v.players[seat].visited.includes(i)) mine = h("span", { class: "have" }, t("visited"));
    else if (p && p.treats) mine = h("span", { class: `pays${ok ? " now" : ""}`, "data-testid": "pays" }, t("Visit: {gains}", { gains: previewText(p) }));
    else if (p) mine = h("span", { class: "have" }, t("you have {matching} of {need}", { matching: p.matching, need: p.need }));
    const tiers = house.neighbour.tiers.map((tier) => t("{cards} for {treats}", { cards: tier.cards, treats: tier.treats })).join(", ");
    const label = t("Nice house wanting {wants}: {tiers} {treat}", { wants: text, tiers, treat: word(house.treat) }) +
      (v.pumpkin_on_house[i] ? t("; its pumpkin is still there") : "") +
      (p ? t("; you have {matching} matching", { matching: p.matching }) : "") +
      (p && p.treats && !v.players[seat].visited.includes(i) ? t("; a visit now gives {gains}", { gains: previewText(p) }) : "");
    return h(
      seat === null ? "div" : "button",
      {
        class: `nice-house${ok ? " playable" : ""}`,
        "data-action": ok ? action : null,
        "data-house": i,
        "data-key": action,
        "aria-disabled": seat !== null && !ok ? "true" : null,
        onclick: seat === null ? null : () => this.attempt(action, action),
      },
      h("span", { class: "sr-only" }, label),
      h(
        "span",
        { class: "wants" },
        h("span", { class: `feature feature-${kind} value-${value}` }, shown),
        pic(house.treat, "house-treat", ""),
      ),
      h(
        "span",
        { class: "tiers" },
        house.neighbour.tiers.map((tier) => h("span", { class: `tier${p && p.matching >= tier.cards ? " reached" : ""}` }, `${tier.cards}→${tier.treats}`)),
      ),
      h(
        "span",
        { class: "house-foot" },
        v.pumpkin_on_house[i] ? pic("pumpkin", "pumpkin", "") : null,
        mine,
        dots(v, visitors),
      ),
    );
  }

  market(v, legal, seat) {
    const slots = v.market.map((card, slot) => {
      const key = `card${slot}`;
      if (!card) return h("div", { class: "card empty" }, t("empty"));
      const takes = [...legal].some((a) => a.startsWith(`t${slot}k`));
      const selected = this.selectedSlot === slot;
      return h(
        seat === null ? "div" : "button",
        {
          class: `card colour-${card.colour}${takes ? " playable" : ""}${selected ? " selected" : ""}`,
          "data-slot": slot,
          "data-key": key,

          "aria-pressed": seat === null ? null : String(selected),
          "aria-disabled": seat !== null && !takes ? "true" : null,
          onclick:
            seat === null
              ? null
              : () => {
                  if (!takes) {
                    this.explainCard(slot);
                    return;
                  }
                  this.selectedSlot = selected ? null : slot;
                  this.focusKey = selected ? key : null;
                  this.render();
                },
          onkeydown: (event) => {
            if (event.key === "Escape" && this.selectedSlot !== null) this.cancelSelection();
          },
        },
        h("span", { class: "sr-only" }, t("Market card {slot}: {card}", { slot: slot + 1, card: cardLabel(card) })),
        cardFace(card),
      );
    });
    let hint = "";
    if (this.selectedSlot !== null) hint = t("Now pick the kid to dress (Escape to choose another card).");
    else if (legal.size) hint = t("Take a card for one of your kids, or visit an outlined house.");
    return h(
      "section",
      { class: "panel market", "aria-label": t("Market") },
      h("h2", {}, t("Market "), h("small", {}, t("{cards} in the deck · {discarded} discarded", { cards: plural(v.deck_size, "card"), discarded: v.discarded.length }))),
      ariaGrid({ class: "market-row", "aria-label": t("Market cards") }, [slots], seat !== null),
      h("p", { class: "hint", "data-testid": "hint" }, hint),
    );
  }

  explainCard(slot) {
    const m = this.message;
    if (!this.online || m.seat === null || m.over || !m.your_turn) {
      this.attempt(`t${slot}k0`, `card${slot}`); // the table says whose turn it is
      return;
    }
    this.say(t("No kid of yours can wear this card: each already wears this type, or has 3 cards."), "refusal");
    this.announce(this.notice.text, true);
  }

  cancelSelection() {
    const slot = this.selectedSlot;
    this.selectedSlot = null;
    this.focusKey = `card${slot}`;
    this.render();
  }

  kids(v, seat, legal) {
    const me = v.players[seat];
    const sheet = v.scores[seat];
    const choosing = this.selectedSlot !== null;
    return h(
      "section",
      { class: "panel kids", "aria-label": t("Your kids") },
      h("h2", {}, t("Your kids")),
      ariaGrid({ class: "kids-row", "aria-label": t("Your kids") }, [
        me.kids.map((kid, k) => {
          const action = choosing ? `t${this.selectedSlot}k${k}` : null;
          const ok = action !== null && legal.has(action);
          const wears = kid.map(cardText).join(", ") || t("no costume yet");
          const points = kid.length === 3 ? t(", complete: {points} points", { points: sheet.costumes[k] }) : t(", {count} of 3 cards", { count: kid.length });
          return h(
            choosing ? "button" : "div",
            {
              class: `kid${ok ? " playable" : ""}`,
              "data-kid": k,
              "data-key": `kid${k}`,
              "data-action": ok ? action : null,
              "aria-disabled": choosing && !ok ? "true" : null,
              onclick: choosing ? () => this.attempt(action, `kid${k}`) : null,
              onkeydown: (event) => {
                if (event.key === "Escape" && this.selectedSlot !== null) this.cancelSelection();
              },
            },
            h("span", { class: "sr-only" }, t("Kid {kid}, wearing {wears}{points}.", { kid: k + 1, wears, points })),
            h(
              "span",
              { class: "stack", style: `--cards:${Math.max(1, kid.length)}`, "aria-hidden": "true" },
              kid.length === 0 ? h("span", { class: "card ghost" }, t("no costume")) : null,
              kid.map((card, depth) =>
                h("span", { class: `card colour-${card.colour} layer`, style: `--depth:${depth}`, title: cardLabel(card) }, cardFace(card)),
              ),
            ),
            h(
              "span",
              { class: "kid-label" },
              t("Kid {kid}", { kid: k + 1 }),
              kid.length === 3 ? h("b", {}, " · " + t("{points} pts", { points: sheet.costumes[k] })) : ` · ${kid.length}/3`,
            ),
          );
        }),
      ], choosing),
    );
  }

  spectatorNote() {
    return h(
      "section",
      { class: "panel kids" },
      h("h2", {}, t("Watching")),
      h("p", {}, t("You see what every player sees; nobody's secret tile is shown before the end.")),
    );
  }

  buttons(legal) {
    const extra = [];
    if (legal.has("refresh")) {
      extra.push(
        h(
          "button",
          { class: "act", "data-action": "refresh", "data-key": "refresh", onclick: () => this.attempt("refresh", "refresh") },
          t("Discard the market for 5 new cards"),
        ),
      );
    }
    if (legal.has("pass")) {
      extra.push(h("button", { class: "act", "data-action": "pass", "data-key": "pass", onclick: () => this.attempt("pass", "pass") }, t("Pass")));
    }
    return extra.length ? h("div", { class: "actions" }, extra) : null;
  }

  logEl(m, v) {
    const entries = [];
    const notes = (n) => this.notes.filter((note) => note.after === n).map((note) => h("li", { class: "log-note", "data-testid": "log-note" }, note.text));
    this.log.forEach((move, n) => {
      if (!move) return;
      entries.push(...notes(n));
      const name = m.players[move.player];
      const own = move.events.filter((e) => e.type !== "game-over");
      const texts = own.map((e) => describeEvent(e, m.players, v));
      const by = move.played_by;
      entries.push(
        h(
          "li",
          { "data-move": n, class: by ? "played-for" : null },
          h("span", { class: "swatch", style: `background:${SEAT_COLOURS[move.player]}`, "aria-hidden": "true" }),
          h("b", {}, name),
          " ",
          texts.length ? texts.join("; ") : move.action,
          by ? h("span", { class: "played-by", "data-testid": "played-by" }, ` (${this.playedByText(by, name)})`) : null,
        ),
      );
    });
    entries.push(...notes(this.log.length));
    if (m.over) entries.push(h("li", { class: "log-end" }, h("b", {}, t("Game over: {winners}.", { winners: this.winnersText(m) }))));
    return h(
      "section",
      { class: "panel log", "aria-label": t("Game log") },
      h("h2", {}, t("Game log "), h("small", {}, plural(this.log.filter(Boolean).length, "move"))),
      h(
        "ol",
        { class: "log-list", "data-testid": "log", tabindex: "0", "aria-label": t("Every move of the game, oldest first") },
        this.log.filter(Boolean).length ? null : h("li", { class: "log-start" }, t("The game begins: {name} plays first.", { name: m.players[v.first_player] })),
        entries,
      ),
    );
  }

  // Who played a move for its seat, and why, in words.
  playedByText(by, name) {
    const bot = t("{bot} bot", { bot: t(by.bot) });
    return t(PLAYED_FOR[by.reason] || PLAYED_FOR.failed, { bot, name, detail: by.detail || by.reason });
  }

  playersEl(m, v) {
    const note =
      m.seat === null
        ? t("Scores so far, without the secret tiles: they stay hidden until the end.")
        : t("Scores so far as you see them: your secret tile counts in your score only; the others' secret tiles count once they are shown at the end.");
    return h(
      "div",
      { class: "players" },
      m.over ? null : h("p", { class: "hint score-note", "data-testid": "score-note" }, note),
      v.players.map((p, s) => {
        const sheet = v.scores[s];
        const tile = v.secret_tiles[s];
        const treats = TREATS.map((treat) => `${p.treats[treat]} ${noun(p.treats[treat], treat)}`).join(", ");
        return h(
          "section",
          {
            class: `player${v.current_player === s ? " to-play" : ""}${m.seat === s ? " me" : ""}`,
            style: `--seat:${SEAT_COLOURS[s]}`,
            "aria-label": p.name + (m.seat === s ? t(" (you)") : ""),
            "data-seat": s,
          },
          h(
            "div",
            { class: "player-head" },
            h("span", { class: "swatch", "aria-hidden": "true" }),
            h("b", {}, p.name),
            m.seat === s ? h("span", { class: "you" }, t("you")) : null,
            m.bots[String(s)] ? h("span", { class: "bot" }, t("{bot} bot", { bot: t(m.bots[String(s)]) })) : null,
            v.current_player === s && !m.over ? h("span", { class: "bot" }, t("to play")) : null,
            h("span", { class: "score", "data-testid": "score" }, t("{points} pts", { points: sheet.total })),
          ),
          this.seatStatus(m, s),
          h(
            "div",
            { class: "tracks", "data-testid": "treats", "aria-label": t("treats: {treats}; {pumpkins}; {footprints} left", { treats, pumpkins: plural(p.pumpkins, "pumpkin"), footprints: plural(p.footprints, "footprint") }) },
            TREATS.map((treat) => h("span", { class: "track", "data-treat": treat }, pic(treat, "pic", ""), h("b", {}, p.treats[treat]), h("span", { class: "track-name" }, noun(p.treats[treat], treat)))),
            h("span", { class: "track", "data-treat": "pumpkins" }, pic("pumpkin", "pic", ""), h("b", {}, p.pumpkins), h("span", { class: "track-name" }, noun(p.pumpkins, "pumpkin"))),
            h(
              "span",
              { class: "track foot" },
              h("span", { style: `color:${SEAT_COLOURS[s]}` }, pic("foot", "pic", "")),
              h("b", {}, p.footprints),
              h("span", { class: "track-name" }, noun(p.footprints, "footprint left")),
            ),
          ),
          h(
            "div",
            { class: "mini-kids" },
            h("small", { class: "secret-label" }, t("kids")),
            p.kids.map((kid, k) => {
              const top = kid[kid.length - 1];
              return h(
                "span",
                {
                  class: `mini ${top ? `colour-${top.colour}` : "empty"}`,
                  role: "img",
                  "aria-label": kidWords(k, kid),
                },
                top ? pic(top.icon, "mini-icon", "") : null,
                h("small", {}, kid.length),
              );
            }),
            h("span", { class: "secret" }, h("small", { class: "secret-label" }, t("secret")), tileEl(tile, true)),
          ),
        );
      }),
    );
  }

  tieBreak(m, v) {
    const best = Math.max(...v.scores.map((s) => s.total));
    const tied = v.scores.filter((s) => s.total === best).map((s) => s.player);
    if (tied.length < 2) return null;
    const names = tied.map((s) => m.players[s]).join(t(" and "));
    if (m.winners.length < tied.length) {
      const treats = tied.map((s) => `${m.players[s]} ${v.scores[s].treats}`).join(", ");
      return t("{names} tie on {best} points: the tie-break is the points from trick tiles ({treats}), so {winners}.", { names, best, treats, winners: this.winnersText(m) });
    }
    return t("{names} tie on {best} points and on points from trick tiles: they share the win.", { names, best });
  }

  endSheet(m, v) {
    const rows = [
      [t("Costumes"), t("each kid with 3 cards: 2, 4 (same colour), 6 (same theme) or 8 (both)"), (s) => s.costumes.reduce((a, b) => a + b, 0)],
      [t("Pumpkins"), t("2 points each: the first visitor of a house takes its pumpkin"), (s) => s.pumpkins],
      [t("Trick tiles"), t("points for each set of treats shown on your tiles (secret tile and tricked houses)"), (s) => s.treats],
    ];
    const extras = [...new Set(v.scores.flatMap((s) => s.extras.map((e) => e.label)))];
    for (const label of extras) rows.push([label, t("a variant's points"), (s) => (s.extras.find((e) => e.label === label) || { points: 0 }).points]);
    const tie = this.tieBreak(m, v);
    const again = this.options.playAgain && m.seat !== null;
    const close = () => this.closeSheet();
    return h(
      "div",
      { class: "overlay", "data-testid": "score-sheet" },
      h(
        "div",
        { class: "sheet", role: "dialog", "aria-modal": "true", "aria-labelledby": "sheet-title" },
        h("h2", { id: "sheet-title", tabindex: "-1" }, pic("pumpkin", "big-pic", ""), " " + t("{winners}!", { winners: this.winnersText(m) })),
        tie ? h("p", { class: "tie", "data-testid": "tie-break" }, tie) : null,
        h(
          "div",
          { class: "sheet-scroll" },
          h(
            "table",
            {},
            h("caption", { class: "sr-only" }, t("Final score sheet")),
            h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Points")), v.players.map((p, s) => h("th", { scope: "col", class: m.winners.includes(s) ? "winner" : "" }, p.name)))),
            h(
              "tbody",
              {},
              rows.map(([label, why, f]) =>
                h("tr", {}, h("th", { scope: "row" }, label, h("small", { class: "why" }, why)), v.scores.map((s) => h("td", {}, f(s)))),
              ),
              h(
                "tr",
                { class: "tiles-row" },
                h("th", { scope: "row" }, t("Tiles held"), h("small", { class: "why" }, t("each tile's sets and points"))),
                v.scores.map((s) =>
                  h("td", {}, s.trick_tiles.map((held) => h("span", { class: "held" }, tileEl(held.tile, true), h("small", {}, ` ${held.sets}× = ${held.points}`)))),
                ),
              ),
              h(
                "tr",
                { class: "treats-row" },
                h("th", { scope: "row" }, t("Treats collected")),
                v.players.map((p) => h("td", {}, TREATS.map((treat) => h("span", { class: "track" }, pic(treat, "pic", word(treat)), h("b", {}, p.treats[treat]))))),
              ),
              h("tr", { class: "total" }, h("th", { scope: "row" }, t("Total")), v.scores.map((s, i) => h("td", { class: m.winners.includes(i) ? "winner" : "" }, s.total))),
            ),
          ),
        ),
        h(
          "div",
          { class: "sheet-buttons" },
          this.nextLink
            ? h("a", { class: "act", href: this.nextLink, "data-testid": "next-game" }, t("Join the next game"))
            : again
              ? h("button", { class: "act", "data-testid": "play-again", onclick: () => this.options.playAgain() }, t("Play again (same seats, new deal)"))
              : null,
          h("button", { class: "act quiet", "data-key": "close-sheet", onclick: close }, t("Look at the board")),
          this.options.lobby ? h("a", { class: "act quiet", href: this.options.lobby }, t("Back to the lobby")) : null,
        ),
      ),
    );
  }
}
