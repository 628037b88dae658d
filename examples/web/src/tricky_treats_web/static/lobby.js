// The lobby: choose players, bots, rules and a seed; get one link per human seat. The links of
// the games created here are kept in this browser (localStorage), with copy buttons, built
// from an address the creator can set (the one friends on other machines use).
import { LANGUAGE, languageSwitch, N_, serverText, t, translatePage } from "/static/i18n.js";

translatePage();
document.querySelector(".header-buttons").append(languageSwitch());
const seats = document.getElementById("seats");
const defaults = ["Ann", "Bo", "Cy", "Di"];
const STORE = "tricky-treats-games";
const ADDRESS = "tricky-treats-address";
const BOT_WORDS = [N_("random"), N_("greedy"), N_("search")]; // a bot's name, in words
const BOT_NAMES = {
  random: t("Random bot (plays any legal move)"),
  greedy: t("Greedy bot (takes the best move now)"),
  search: t("Search bot (plans ahead; slower)"),
};
// The clocks a table may have (the server takes any move:SECONDS or bank:SECONDS+INCREMENT).
const CLOCKS = [
  ["none", N_("No clock")],
  ["move:30", N_("30 seconds a turn")],
  ["move:60", N_("1 minute a turn")],
  ["move:120", N_("2 minutes a turn")],
  ["bank:300+5", N_("5 minutes a game, 5 seconds more a turn")],
  ["bank:600+10", N_("10 minutes a game, 10 seconds more a turn")],
];
const GRACES = [
  [30, N_("30 seconds")],
  [60, N_("1 minute")],
  [120, N_("2 minutes")],
  [300, N_("5 minutes")],
];

function seatRow(i, bots) {
  const row = document.createElement("div");
  row.className = "seat-row";
  row.innerHTML = `<label><span></span> <input name="name" maxlength="24"></label>
    <label><span></span> <select name="bot"><option value=""></option></select></label>`;
  const [name, by] = row.querySelectorAll("label > span");
  name.textContent = t("Seat {number} name", { number: i + 1 });
  by.textContent = t("played by");
  row.querySelector("option").textContent = t("a person (gets a link)");
  row.querySelector("input").value = defaults[i];
  const select = row.querySelector("select");
  for (const bot of bots) select.append(new Option(botName(bot), bot));
  if (i > 0 && bots.includes("greedy")) select.value = "greedy";
  return row;
}

// A bot's name in words: a program the server runs says so.
function botName(bot) {
  if (BOT_NAMES[bot]) return BOT_NAMES[bot];
  if ((info.programs || []).includes(bot)) return t("{bot} (a program this server runs)", { bot });
  return t("{bot} bot", { bot: t(bot) });
}

function announce(text) {
  document.getElementById("announce").textContent = text;
}

const response = await fetch(`/api/variants?lang=${LANGUAGE}`);
const info = await response.json();

function setSeats(n) {
  while (seats.children.length < n) seats.append(seatRow(seats.children.length, info.bots));
  while (seats.children.length > n) seats.lastChild.remove();
  document.getElementById("add-seat").disabled = n >= 4;
  document.getElementById("remove-seat").disabled = n <= 2;
}
setSeats(2);
document.getElementById("add-seat").onclick = () => {
  setSeats(Math.min(4, seats.children.length + 1));
  announce(t("{count} seats", { count: seats.children.length }));
};
document.getElementById("remove-seat").onclick = () => {
  setSeats(Math.max(2, seats.children.length - 1));
  announce(t("{count} seats", { count: seats.children.length }));
};

// One control per rule, in words: the library's titles without their ruling ids.
const variants = document.getElementById("variants");
for (const variant of info.variants) {
  const label = document.createElement("label");
  label.innerHTML = `<input type="checkbox" name="variant"> <b></b> <span class="hint"></span>`;
  label.querySelector("input").value = variant.name;
  label.querySelector("b").textContent = variant.title.replace(/\s*\(R\d+[^)]*\)/g, "");
  label.querySelector("span").textContent = variant.description;
  variants.append(label);
}

// The clock, the takeover bot and its grace: the server's defaults chosen.
function fill(select, choices, chosen) {
  const values = choices.map(([value]) => String(value));
  if (chosen !== null && chosen !== undefined && !values.includes(String(chosen))) choices = [...choices, [chosen, String(chosen)]];
  for (const [value, label] of choices) select.append(new Option(t(label), String(value)));
  select.value = String(chosen ?? choices[0][0]);
}
const chosen = info.defaults || { clock: null, grace: 60, takeover: "greedy" };
fill(document.getElementById("clock"), CLOCKS, chosen.clock || "none");
fill(document.getElementById("grace"), GRACES, chosen.grace);
fill(document.getElementById("takeover"), (info.takeovers || ["greedy"]).map((bot) => [bot, botName(bot)]), chosen.takeover);

const address = document.getElementById("address");
address.value = localStorage.getItem(ADDRESS) || location.origin;
address.oninput = () => {
  localStorage.setItem(ADDRESS, address.value.replace(/\/+$/, ""));
  showGames();
};

function savedGames() {
  try {
    const games = JSON.parse(localStorage.getItem(STORE) || "[]");
    return Array.isArray(games) ? games : [];
  } catch {
    return [];
  }
}

function fullLink(path) {
  const base = (address.value || location.origin).replace(/\/+$/, "");
  try {
    return new URL(path, `${base}/`).href;
  } catch {
    return new URL(path, location.href).href;
  }
}

function copyButton(text, what) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "act quiet small copy";
  button.textContent = t("Copy");
  button.setAttribute("aria-label", t("Copy {what}", { what }));
  button.onclick = async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = t("Copied");
    } catch {
      // No clipboard here (an insecure address): select the text for the player to copy.
      const code = button.previousElementSibling;
      getSelection().selectAllChildren(code);
      button.textContent = t("Selected: press Ctrl+C");
    }
    announce(button.textContent);
  };
  return button;
}

function showGames() {
  const games = savedGames();
  const box = document.getElementById("games");
  box.replaceChildren();
  document.getElementById("result").hidden = games.length === 0;
  for (const game of games) {
    const section = document.createElement("section");
    section.className = "saved-game";
    section.dataset.game = game.game;
    const title = document.createElement("h3");
    title.textContent = `${game.seats.map((s) => s.name).join(", ")} · ${new Date(game.created).toLocaleString()}`;
    const list = document.createElement("ul");
    list.className = "links";
    for (const seat of game.seats) {
      const li = document.createElement("li");
      if (seat.link) {
        const url = fullLink(seat.link);
        li.innerHTML = `<b></b>: <a class="seat-link"></a> <code></code>`;
        li.querySelector("b").textContent = seat.name;
        const a = li.querySelector("a");
        a.dataset.seat = seat.seat;
        a.href = url;
        a.textContent = t("play as {name}", { name: seat.name });
        li.querySelector("code").textContent = url;
        li.append(copyButton(url, t("{name}'s link", { name: seat.name })));
      } else {
        li.textContent = seat.name + ": " + t("{bot} bot", { bot: t(seat.bot) });
      }
      list.append(li);
    }
    const watch = document.createElement("li");
    const url = fullLink(game.watch);
    watch.innerHTML = `<span></span> <a class="watch-link"></a> <code></code>`;
    watch.querySelector("span").textContent = t("Spectators:");
    watch.querySelector("a").href = url;
    watch.querySelector("a").textContent = t("watch the game");
    watch.querySelector("code").textContent = url;
    watch.append(copyButton(url, t("the spectators' link")));
    list.append(watch);
    const forget = document.createElement("button");
    forget.type = "button";
    forget.className = "act quiet small";
    forget.textContent = t("Forget these links");
    forget.onclick = () => {
      localStorage.setItem(STORE, JSON.stringify(savedGames().filter((g) => g.game !== game.game)));
      showGames();
    };
    section.append(title, list, forget);
    box.append(section);
  }
}
showGames();

document.getElementById("create").onsubmit = async (event) => {
  event.preventDefault();
  const form = event.target;
  const error = document.getElementById("error");
  const seed = form.seed.value.trim();
  if (seed !== "" && !/^[0-9]+$/.test(seed)) {
    error.textContent = t("The seed is a whole number, written with the digits 0 to 9 only.");
    return;
  }
  const body = {
    players: [...seats.children].map((row, i) => ({
      // An empty name is the seat's, in the page's language: a name, never "you".
      name: row.querySelector("[name=name]").value.trim() || t("Player {number}", { number: i + 1 }),
      bot: row.querySelector("[name=bot]").value || null,
    })),
    variants: [...form.querySelectorAll("[name=variant]:checked")].map((box) => box.value),
    refresh_ends_turn: form.refresh_ends_turn.checked,
    clock: form.clock.value === "none" ? null : form.clock.value,
    takeover: form.takeover.value,
    grace: Number(form.grace.value),
    // A string: JavaScript's numbers would round seeds past 2^53.
    seed: seed === "" ? null : seed,
  };
  let answer;
  let ok = false;
  try {
    const reply = await fetch("/api/games", { method: "POST", body: JSON.stringify(body) });
    answer = await reply.json();
    ok = reply.ok;
  } catch {
    answer = { error: t("The server cannot be reached: is it running?") };
  }
  if (!ok) {
    error.textContent = serverText(answer);
    return;
  }
  error.textContent = "";
  const games = savedGames().filter((g) => g.game !== answer.game);
  games.unshift({ ...answer, created: Date.now() });
  localStorage.setItem(STORE, JSON.stringify(games.slice(0, 20)));
  showGames();
  announce(t("Game created: its links are below."));
  document.querySelector(`#games [data-game="${answer.game}"] a`).focus();
};
