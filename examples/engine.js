#!/usr/bin/env node
// A Chicken Foot engine in JavaScript, for Node.js, with no dependencies.
// It speaks the core of the engine protocol (docs/engine.md): JSON objects, one per line,
// on standard input and output. It plays greedily: the tile worth the most penalty points.
//
//   chickenfoot simulate --agents 'engine:node examples/engine.js',greedy --players 2
"use strict";
const readline = require("readline");

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// The penalty points of the tile a move lays ("9-4@9-9" lays 9-4): its pips, 0-0 at
// double_blank; draws and passes are worth nothing.
function points(move, rules) {
  if (move === "pass" || move.startsWith("draw")) return -1;
  const [high, low] = move.split("@")[0].split("-").map(Number);
  return high + low === 0 ? rules.double_blank : high + low;
}

function choose(view, legal) {
  let best = legal[0];
  for (const move of legal) {
    if (points(move, view.rules) > points(best, view.rules)) best = move;
  }
  return best;
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  if (line.trim() === "") return;
  const message = JSON.parse(line);
  if (message.type === "hello") {
    send({ type: "hello", protocol: 1, name: "greedy.js", author: "the chickenfoot examples" });
  } else if (message.type === "go") {
    const move = choose(message.view, message.legal);
    send({ type: "info", string: `${message.legal.length} legal moves` });
    send({ type: "move", move: move });
  } else if (message.type === "quit") {
    process.exit(0);
  }
});
input.on("close", () => process.exit(0));
