// The page's language and its messages. The server puts both in the page: <html lang> from the
// player's choice (the language switch, kept in a cookie) or the browser's Accept-Language, and
// the messages of that language as JSON (tricky_treats_web/static/i18n/LANG.json, written from
// the gettext catalog by scripts/translations). English texts are the message ids.
const messages = JSON.parse(document.getElementById("tt-messages")?.textContent || "{}");
export const LANGUAGE = document.documentElement.lang || "en";
const OTHER = { en: ["nl", "Nederlands"], nl: ["en", "English"] };

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

// The visible switch to the other language: a link-like button in the header's buttons.
export function languageSwitch() {
  const [code, name] = OTHER[LANGUAGE] || OTHER.en;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "act quiet";
  button.lang = code;
  button.dataset.testid = "language";
  button.textContent = name;
  button.onclick = () => {
    document.cookie = `tt_lang=${code}; path=/; max-age=31536000; SameSite=Lax`;
    location.reload();
  };
  return button;
}
