// Draws a Tricky Treats table from the host's "update" messages; shared by the online page
// (messages over a WebSocket) and the offline page (messages from the engine in Pyodide).
// Plain DOM, no build step. Only legal actions are ever made clickable.

const TREATS = ["candy", "lollipop", "gummy"]; // the order of a player's treat tracks
const SEAT_COLOURS = ["#f39c12", "#3c9cf0", "#ef5da8", "#14c9b6"];
const STREET_NAMES = ["row 1", "row 2", "row 3", "column 1", "column 2", "column 3"];

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "html") el.innerHTML = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
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

function pic(name, cls = "pic") {
  return h("span", { class: `${cls} pic-${name}`, title: name, html: SVG[name] || "" });
}

const THEME_MARK = { animal: "Animal", horror: "Horror", fable: "Fable", space: "Space" };

function cardEl(card, extra = {}) {
  if (!card) return h("div", { class: "card empty", ...extra }, "—");
  return h(
    "div",
    { class: `card colour-${card.colour}`, title: `${card.colour} ${card.theme} ${card.type}, ${card.icon}`, ...extra },
    h("div", { class: "card-type" }, card.type),
    h("div", { class: "card-theme" }, THEME_MARK[card.theme] || card.theme),
    pic(card.icon, "card-icon"),
  );
}

function featureLabel(wants) {
  const [kind, value] = wants.split(":");
  return h("span", { class: `feature feature-${kind} value-${value}` }, value);
}

function tileEl(tile, small = false) {
  if (!tile) return h("div", { class: "tile hidden-tile" }, "?");
  return h(
    "div",
    { class: `tile${small ? " small" : ""}`, title: `${tile.id}: ${tile.points} points per set` },
    h("span", { class: "tile-treats" }, tile.treats.map((t) => pic(t))),
    h("span", { class: "tile-points" }, `${tile.points}`),
  );
}

function dots(seats, cls = "dot") {
  return h("span", { class: "dots" }, seats.map((s) => h("span", { class: cls, style: `background:${SEAT_COLOURS[s]}` })));
}

// -- what just happened, from the events (JSON with a "type" tag) ------------------------------
function cardText(card) {
  return `${card.colour} ${card.theme} ${card.type}`;
}

function houseName(view, house) {
  return `the ${view.grid[house].neighbour.wants.split(":")[1]} house`;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export function describeEvent(e, names, view) {
  const who = names[e.player];
  switch (e.type) {
    case "card-placed":
      return `${who} dresses kid ${e.kid + 1} in the ${cardText(e.card)}`;
    case "card-revealed":
      return `a ${cardText(e.card)} comes into the market`;
    case "market-refreshed":
      return `${who} discards the market (${plural(e.discarded.length, "card")})`;
    case "house-visited":
      return `${who} visits ${houseName(view, e.house)} with ${e.matching} matching and gets ${plural(e.treats, e.treat)}`;
    case "house-tricked":
      return `${who} tricks the ${view.mean_houses[e.house].neighbour.icon} mean house and gains its tile`;
    case "pumpkin-taken":
      return `${who} takes the pumpkin of ${e.mean ? `the ${view.mean_houses[e.house].neighbour.icon} mean house` : houseName(view, e.house)}`;
    case "street-bonus-taken":
      return `${who} completes ${STREET_NAMES[e.street]}: ${plural(e.treats, e.treat)}`;
    case "passed":
      return `${who} passes`;
    case "end-triggered":
      return `${who} triggers the end (${e.reason.replace("-", " ")}); the round is finished`;
    case "game-over":
      return `game over: ${e.winners.map((w) => names[w]).join(" and ")} ${e.winners.length > 1 ? "share the win" : "wins"}`;
    default:
      return e.type;
  }
}

// -- the whole table ---------------------------------------------------------------------------

export class BoardView {
  constructor(root, send) {
    this.root = root;
    this.send = send; // send(notation): play an action
    this.selectedSlot = null;
    this.log = [];
    this.message = null;
  }

  update(message) {
    if (message.type === "error") {
      this.flash(message.error);
      return;
    }
    const view = message.record ? message.record.view : message.view;
    if (!this.log.length && view.history.length === 0) {
      this.log.push(`the game begins: ${message.players[view.first_player]} plays first`);
    }
    for (const move of message.moves || []) {
      for (const event of move.events) this.log.push(describeEvent(event, message.players, view));
      if (!move.events.length) this.log.push(`${message.players[move.player]}: ${move.action}`);
    }
    this.log = this.log.slice(-40);
    this.message = message;
    this.selectedSlot = null;
    this.updates = (this.updates || 0) + 1;
    this.render();
    this.root.dataset.updates = String(this.updates); // lets tests wait for the next update
  }

  flash(text) {
    const bar = this.root.querySelector(".flash");
    if (bar) {
      bar.textContent = text;
      bar.classList.add("show");
      setTimeout(() => bar.classList.remove("show"), 4000);
    }
  }

  get view() {
    return this.message.record ? this.message.record.view : this.message.view;
  }

  legal() {
    const set = new Set();
    for (const a of this.message.legal_actions || []) set.add(a.action);
    return set;
  }

  render() {
    const m = this.message;
    const v = this.view;
    const legal = this.legal();
    const seat = m.seat;
    const parts = [
      this.header(m, v),
      h(
        "main",
        { class: "table" },
        h("section", { class: "board-col" }, this.meanHouses(v, legal), this.grid(v, seat, legal)),
        h(
          "section",
          { class: "mid-col" },
          this.market(v, legal),
          seat === null ? this.spectatorNote() : this.kids(v, seat, legal),
          this.buttons(legal),
          this.logEl(),
        ),
        h("section", { class: "side-col" }, this.playersEl(m, v)),
      ),
      h("div", { class: "flash", role: "status" }),
    ];
    if (m.over && !this.sheetClosed) parts.push(this.endSheet(m, v));
    this.root.replaceChildren(...parts);
  }

  header(m, v) {
    let status;
    if (m.over) {
      const names = m.winners.map((w) => m.players[w]).join(" and ");
      status = `Game over: ${names} ${m.winners.length > 1 ? "share the win" : "wins"}!`;
    } else if (m.your_turn) status = "Your turn";
    else status = `${m.players[v.current_player]} is playing…`;
    const who = m.seat === null ? "Watching" : `You are ${m.players[m.seat]}`;
    return h(
      "header",
      { class: "top" },
      h("h1", {}, "Tricky Treats"),
      h("div", { class: `status${m.your_turn ? " yours" : ""}`, "data-testid": "status" }, status),
      h("div", { class: "meta" }, `${who} · round ${Math.floor(v.turn / m.players.length) + 1} · deck ${v.deck_size}`),
    );
  }

  meanHouses(v, legal) {
    return h(
      "div",
      { class: "mean-row" },
      v.mean_houses.map((house, i) => {
        const ok = legal.has(`m${i}`);
        const tricked = v.players.map((p, s) => (p.tricked.includes(i) ? s : -1)).filter((s) => s >= 0);
        return h(
          ok ? "button" : "div",
          {
            class: `mean-house${ok ? " playable" : ""}`,
            "data-action": ok ? `m${i}` : null,
            title: `Mean house ${i + 1}: 3 kids showing this icon can trick it`,
            onclick: ok ? () => this.send(`m${i}`) : null,
          },
          h("div", { class: "mean-title" }, "Mean house"),
          pic(house.neighbour.icon, "mean-icon"),
          tileEl(house.tile),
          h("div", { class: "house-foot" }, v.pumpkin_on_mean_house[i] ? pic("pumpkin", "pumpkin") : null, dots(tricked)),
        );
      }),
    );
  }

  grid(v, seat, legal) {
    const mine = seat === null ? null : v.players[seat];
    const cells = [];
    const token = (street) => {
      const t = v.street_tokens[street];
      const flipped = v.street_flipped[street];
      return h(
        "div",
        { class: `street${flipped ? " flipped" : ""}`, title: `${STREET_NAMES[street]}: first to visit all 3 gets ${t.front}, later ${t.back}` },
        pic(t.treat),
        h("b", {}, flipped ? t.back : t.front),
      );
    };
    for (let row = 0; row < 3; row++) {
      for (let col = 0; col < 3; col++) cells.push(this.niceHouse(v, row * 3 + col, mine, legal));
      cells.push(token(row));
    }
    for (let col = 0; col < 3; col++) cells.push(token(3 + col));
    return h("div", { class: "grid" }, cells);
  }

  niceHouse(v, i, mine, legal) {
    const house = v.grid[i];
    const ok = legal.has(`v${i}`);
    const [kind, value] = house.neighbour.wants.split(":");
    const have = mine ? mine.kids.flat().filter((c) => c[kind] === value).length : null;
    const visitors = v.players.map((p, s) => (p.visited.includes(i) ? s : -1)).filter((s) => s >= 0);
    return h(
      ok ? "button" : "div",
      {
        class: `nice-house${ok ? " playable" : ""}`,
        "data-action": ok ? `v${i}` : null,
        onclick: ok ? () => this.send(`v${i}`) : null,
        title: `Nice house ${i + 1} wants ${value}`,
      },
      h("div", { class: "wants" }, featureLabel(house.neighbour.wants), pic(house.treat, "house-treat")),
      h(
        "div",
        { class: "tiers" },
        house.neighbour.tiers.map((t) => h("span", { class: `tier${have !== null && have >= t.cards ? " reached" : ""}` }, `${t.cards}→${t.treats}`)),
      ),
      h(
        "div",
        { class: "house-foot" },
        v.pumpkin_on_house[i] ? pic("pumpkin", "pumpkin") : h("span", { class: "pumpkin-gone" }),
        have !== null ? h("span", { class: "have" }, `you ${have}`) : null,
        dots(visitors),
      ),
    );
  }

  market(v, legal) {
    const slots = v.market.map((card, slot) => {
      const takes = [...legal].some((a) => a.startsWith(`t${slot}k`));
      const selected = this.selectedSlot === slot;
      return cardEl(card, {
        class: `card ${card ? `colour-${card.colour}` : "empty"}${takes ? " playable" : ""}${selected ? " selected" : ""}`,
        "data-slot": slot,
        role: takes ? "button" : null,
        onclick: takes
          ? () => {
              this.selectedSlot = selected ? null : slot;
              this.render();
            }
          : null,
      });
    });
    const hint = this.selectedSlot !== null ? "Now pick a kid to dress" : legal.size ? "Pick a card, a house or a mean house" : "";
    return h(
      "div",
      { class: "panel market" },
      h("h2", {}, "Market ", h("small", {}, `${v.deck_size} in deck · ${v.discarded.length} discarded`)),
      h("div", { class: "market-row" }, slots),
      h("div", { class: "hint" }, hint),
    );
  }

  kids(v, seat, legal) {
    const me = v.players[seat];
    const sheet = v.scores[seat];
    return h(
      "div",
      { class: "panel kids" },
      h("h2", {}, "Your kids"),
      h(
        "div",
        { class: "kids-row" },
        me.kids.map((kid, k) => {
          const action = this.selectedSlot !== null ? `t${this.selectedSlot}k${k}` : null;
          const ok = action !== null && legal.has(action);
          return h(
            ok ? "button" : "div",
            {
              class: `kid${ok ? " playable" : ""}`,
              "data-kid": k,
              "data-action": ok ? action : null,
              onclick: ok ? () => this.send(action) : null,
            },
            h(
              "div",
              { class: "stack", style: `height:${96 + Math.max(0, kid.length - 1) * 20}px` },
              kid.length === 0 ? h("div", { class: "card ghost" }, "no costume") : null,
              kid.map((card, depth) => cardEl(card, { class: `card colour-${card.colour} layer`, style: `top:${depth * 20}px` })),
            ),
            h("div", { class: "kid-label" }, `Kid ${k + 1}`, kid.length === 3 ? h("b", {}, ` · ${sheet.costumes[k]} pts`) : ` · ${kid.length}/3`),
          );
        }),
      ),
    );
  }

  spectatorNote() {
    return h("div", { class: "panel kids" }, h("h2", {}, "Spectating"), h("p", {}, "You see what every player sees; no secret tile is shown before the end."));
  }

  buttons(legal) {
    const extra = [];
    if (legal.has("refresh")) extra.push(h("button", { class: "act", "data-action": "refresh", onclick: () => this.send("refresh") }, "Refresh market"));
    if (legal.has("pass")) extra.push(h("button", { class: "act", "data-action": "pass", onclick: () => this.send("pass") }, "Pass"));
    return extra.length ? h("div", { class: "actions" }, extra) : null;
  }

  logEl() {
    return h(
      "div",
      { class: "panel log" },
      h("h2", {}, "What just happened"),
      h("ol", { "data-testid": "log" }, this.log.slice(-7).map((line) => h("li", {}, line))),
    );
  }

  playersEl(m, v) {
    return h(
      "div",
      { class: "players" },
      v.players.map((p, s) => {
        const sheet = v.scores[s];
        const tile = v.secret_tiles[s];
        return h(
          "div",
          { class: `player${v.current_player === s ? " to-play" : ""}${m.seat === s ? " me" : ""}`, style: `--seat:${SEAT_COLOURS[s]}` },
          h(
            "div",
            { class: "player-head" },
            h("span", { class: "swatch" }),
            h("b", {}, p.name),
            m.bots[String(s)] ? h("span", { class: "bot" }, `${m.bots[String(s)]} bot`) : null,
            h("span", { class: "score", title: "score so far" }, `${sheet.total} pts`),
          ),
          h(
            "div",
            { class: "tracks" },
            TREATS.map((t, i) => h("span", { class: "track", title: `${p.treats[i]} ${t}` }, pic(t), h("b", {}, p.treats[i]))),
            h("span", { class: "track", title: `${p.pumpkins} pumpkins` }, pic("pumpkin"), h("b", {}, p.pumpkins)),
            h("span", { class: "track foot", title: `${p.footprints} footprints left`, style: `color:${SEAT_COLOURS[s]}` }, pic("foot"), h("b", {}, p.footprints)),
          ),
          h(
            "div",
            { class: "mini-kids" },
            p.kids.map((kid) => {
              const top = kid[kid.length - 1];
              return h(
                "span",
                { class: `mini ${top ? `colour-${top.colour}` : "empty"}`, title: kid.map((c) => `${c.colour} ${c.theme} ${c.type}`).join(" / ") || "no cards" },
                top ? pic(top.icon, "mini-icon") : null,
                h("small", {}, kid.length),
              );
            }),
            h("span", { class: "secret", title: "secret trick tile" }, tileEl(tile, true)),
          ),
        );
      }),
    );
  }

  endSheet(m, v) {
    const rows = [
      ["Costumes", (s) => s.costumes.reduce((a, b) => a + b, 0)],
      ["Pumpkins", (s) => s.pumpkins],
      ["Trick tiles", (s) => s.treats],
    ];
    const extras = [...new Set(v.scores.flatMap((s) => s.extras.map((e) => e.label)))];
    for (const label of extras) rows.push([label, (s) => (s.extras.find((e) => e.label === label) || { points: 0 }).points]);
    const names = m.winners.map((w) => m.players[w]).join(" and ");
    return h(
      "div",
      { class: "overlay", "data-testid": "score-sheet" },
      h(
        "div",
        { class: "sheet" },
        h("h2", {}, pic("pumpkin", "big-pic"), ` ${names} ${m.winners.length > 1 ? "share the win" : "wins"}!`),
        h(
          "table",
          {},
          h("thead", {}, h("tr", {}, h("th", {}, ""), v.players.map((p, s) => h("th", { class: m.winners.includes(s) ? "winner" : "" }, p.name)))),
          h(
            "tbody",
            {},
            rows.map(([label, f]) => h("tr", {}, h("td", {}, label), v.scores.map((s) => h("td", {}, f(s))))),
            h("tr", { class: "tiles-row" }, h("td", {}, "Tiles held"), v.scores.map((s) => h("td", {}, s.trick_tiles.map((t) => tileEl(t.tile, true))))),
            h("tr", { class: "total" }, h("td", {}, "Total"), v.scores.map((s, i) => h("td", { class: m.winners.includes(i) ? "winner" : "" }, s.total))),
          ),
        ),
        h(
          "button",
          {
            class: "act",
            onclick: () => {
              this.sheetClosed = true;
              this.render();
            },
          },
          "Look at the board",
        ),
      ),
    );
  }
}
