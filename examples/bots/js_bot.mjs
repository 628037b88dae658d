#!/usr/bin/env node
// A Tricky Treats bot in JavaScript for Node.js, speaking the bot protocol
// (docs/bot-protocol.md):
//
//     tricky-treats ladder --bots "exec:node examples/bots/js_bot.mjs,random,greedy"
//
// It needs Node.js alone (18 or later), no npm package. It visits a nice house whose pumpkin
// is still there when it can, else tricks a mean house, else visits any house; else it puts
// the market card on the kid that already wears the most cards of the card's theme (the
// fullest kid first); else it refreshes or passes. It plays the same way every time.

import { createInterface } from "node:readline";

// Writes to a pipe are synchronous in Node.js on Linux: nothing waits in a buffer.
const send = (line) => process.stdout.write(line + "\n");

function choose(move) {
  const legal = move.legal_actions;
  const view = move.view.view;
  const house = (action) => Number(action.slice(1));
  const visits = legal.filter((a) => a.startsWith("v"));
  const tricks = legal.filter((a) => a.startsWith("m"));
  const withPumpkin = visits.filter((a) => view.pumpkin_on_house[house(a)]);
  if (withPumpkin.length > 0) return withPumpkin[0];
  if (tricks.length > 0) return tricks[0];
  if (visits.length > 0) return visits[0];
  const kids = view.players[view.player].kids;
  let best = null;
  let bestScore = -1;
  for (const action of legal.filter((a) => a.startsWith("t"))) {
    const [slot, kid] = action.slice(1).split("k").map(Number);
    const card = view.market[slot];
    const worn = kids[kid];
    const sameTheme = worn.filter((c) => c.theme === card.theme).length;
    const score = 10 * sameTheme + worn.length;
    if (score > bestScore) {
      best = action;
      bestScore = score;
    }
  }
  return best ?? legal[0]; // refresh or pass
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  const text = line.trim();
  const space = text.indexOf(" ");
  const command = space < 0 ? text : text.slice(0, space);
  const argument = space < 0 ? "" : text.slice(space + 1);
  if (command === "hello") {
    send("name js-example 1.0");
    send("ready 1");
  } else if (command === "move") {
    send("action " + choose(JSON.parse(argument)));
  } else if (command === "quit") {
    break;
  }
  // "end" needs no answer, and any other command is ignored
}
lines.close();
