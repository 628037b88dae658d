// The page's language and its messages. The server puts both in the page: <html lang> from the
// player's choice (the language switch, kept in a cookie) or the browser's Accept-Language, and
// the messages of that language as JSON (tricky_treats_web/static/i18n/LANG.json, written from
// the gettext catalog by scripts/translations). English texts are the message ids.
const messages = JSON.parse(document.getElementById("tt-messages")?.textContent || "{}");
export const LANGUAGE = document.documentElement.lang || "en";
// Every language the server has a catalog of, by code, each named in its own words: the
// server puts them in the page (tricky_treats_web.app.web_languages).
const LANGUAGES = JSON.parse(document.getElementById("tt-languages")?.textContent || '{"en": "English"}');
// Translators: the name of your language in your language, as the language switch shows it
// (Nederlands, Deutsch, Español).
N_("English");

// `text` in the page's language, with {name} placeholders filled from `values`.
export function t(text, values = {}) {
  const found = messages[text] || text;
  return found.replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
}

// Mark a message for the catalog without translating it yet (it is translated where shown).
export function N_(text) {
  return text;
}

// The static texts of a page: each [data-t] element's first text (the text before any child
// element), and its attributes named in data-t-attrs; the title too.
export function translatePage(root = document) {
  for (const element of root.querySelectorAll("[data-t]")) {
    for (const node of element.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) continue;
      const raw = node.textContent;
      const lead = /^\s/.test(raw) ? " " : "";
      const tail = /\s$/.test(raw) ? " " : "";
      node.textContent = lead + t(raw.replace(/\s+/g, " ").trim()) + tail;
      break;
    }
    for (const name of (element.dataset.tAttrs || "").split(",").filter(Boolean)) {
      element.setAttribute(name, t(element.getAttribute(name)));
    }
  }
  document.title = t(document.title);
}

// The server's refusals (its limits, a lost game, a seat opened elsewhere) by their stable
// code, in the page's language; the English text the server sent is kept for codes it does
// not know. Numbers the English text holds ("try again in 12 minutes") are read from it.
const SERVER_TEXTS = {
  "too-many-games": [N_("You have created as many games lately as one address may; try again in {minutes} minutes, or play one of them."), /try again in (?<minutes>\d+) minutes/],
  busy: [N_("So many new games are waiting for their first move that this server takes no more for now; try again in a few minutes."), /new games are waiting/],
  "server-full": [N_("This server is full just now; try again later.")],
  unavailable: [N_("The server cannot reach its games just now; try again in a moment.")],
  "not-saved": [N_("The server could not save the game; try again.")],
  "no-game": [N_("There is no such game: check the link.")],
  expired: [N_("This game has expired: nobody played it for too long.")],
  "spectators-full": [N_("This game has as many spectators as it can take; try again later.")],
  "too-many-sockets": [N_("This address has as many connections open as it may; close some tabs of this game.")],
  replaced: [N_("This seat was opened in another tab; play on there.")],
  "bad-credential": [N_("No seat has this link's key: check the link you were sent.")],
  "game-over": [N_("The game is over.")],
};
const SERVER_BUSY_TABLE = N_("The game is busy; try again.");
const SERVER_MISUNDERSTOOD = N_("The server did not understand this page's message; reload the page.");

// A refusal of the server (``{code, error}``) in the page's language.
export function serverText(message) {
  const code = message.code;
  const english = message.message || message.error || "";
  if (["malformed", "too-large", "binary-frame", "no-hello"].includes(code)) return t(SERVER_MISUNDERSTOOD);
  const known = SERVER_TEXTS[code];
  if (!known) return t(english);
  const [text, pattern] = known;
  if (!pattern) return t(text);
  const found = pattern.exec(english);
  if (found) return t(text, found.groups || {});
  return code === "busy" ? t(SERVER_BUSY_TABLE) : t(english);
}

// The visible switch of the page's language: a button to the other language, or a list of
// them all when the server has more than two. The choice is kept in a cookie (each player's
// browser keeps its own); a ?lang= in the address, a host's link in a language, gives way.
export function languageSwitch() {
  const codes = Object.keys(LANGUAGES);
  const choose = (code) => {
    document.cookie = `tt_lang=${code}; path=/; max-age=31536000; SameSite=Lax`;
    const url = new URL(location.href);
    url.searchParams.delete("lang");
    location.replace(url.href);
  };
  const others = codes.filter((code) => code !== LANGUAGE);
  if (others.length <= 1) {
    const code = others[0] || "en";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "act quiet";
    button.lang = code;
    button.dataset.testid = "language";
    button.textContent = LANGUAGES[code] || code;
    button.onclick = () => choose(code);
    return button;
  }
  const select = document.createElement("select");
  select.className = "act quiet";
  select.dataset.testid = "language";
  select.setAttribute("aria-label", t("Language"));
  for (const code of codes) {
    const option = new Option(LANGUAGES[code] || code, code, false, code === LANGUAGE);
    option.lang = code;
    select.append(option);
  }
  select.onchange = () => choose(select.value);
  return select;
}
