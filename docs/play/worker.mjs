// The Play page's Web Worker: the library itself, in Pyodide, playing the server's part.
// It speaks the messages of `chickenfoot serve` (made by the server's own Python code, see
// tableplay.py) to the page's table client, through socket.js. Everything it loads comes
// from this site: Pyodide (../pyodide/), and the wheels in wheels/ (wheels.json names them).
// No CDN, no other host.
//
// The first visit unpacks the wheels into Python's site-packages. Then (snapshot.mjs, in
// the background) the browser keeps a memory snapshot of Python with the library imported, in
// its Cache Storage under wheels.json's key; a later visit starts from it, unpacking the
// same wheels for their files, and is ready in a fraction of the time. A snapshot that does
// not load is deleted, and the page starts as on a first visit.
import { loadPyodide } from "../pyodide/pyodide.mjs";
import { CACHE, SITE_PACKAGES, glue, wheelsOf } from "./snapshot-common.mjs";

const here = new URL("./", self.location.href);
const post = (kind, extra) => self.postMessage({ kind, ...extra });
let game = null, waiting = [], timer = null, settings = {};

function send(list) { for (const text of JSON.parse(list)) post("message", { text }); }

// After every answer: let a bot move (paced, as the server paces its bots), or wait for
// the end of a round's pause.
function schedule() {
  clearTimeout(timer);
  if (game.bot_due()) {
    timer = setTimeout(() => {
      const began = performance.now();
      send(game.bot_move());
      post("timing", { name: "bot", ms: performance.now() - began });
      schedule();
    }, settings.delay);
  } else {
    const left = game.pause_left();
    if (left >= 0) timer = setTimeout(() => { send(game.end_pause()); schedule(); }, left * 1000 + 50);
  }
}

function receive(text) {
  let type = null;
  try { type = JSON.parse(text).type; } catch (e) { /* the game answers with an error */ }
  send(type === "hello" ? game.hello() : game.receive(text));
  schedule();
}

async function fromSnapshot(wheels, mark) {
  if (!self.caches) return null;  // not a secure context: no Cache Storage
  const cache = await caches.open(CACHE);
  const found = await cache.match(wheels.key);
  if (!found) return null;
  try {
    const snapshot = new Uint8Array(await found.arrayBuffer());
    const pyodide = await loadPyodide({ indexURL: new URL("../pyodide/", here).href, _loadSnapshot: snapshot });
    mark("pyodide");
    for (const name of ["attrs", "chickenfoot"]) {  // the files (the snapshot holds memory only)
      const data = await (await fetch(new URL("wheels/" + wheels[name], here))).arrayBuffer();
      pyodide.unpackArchive(data, "wheel", { extractDir: SITE_PACKAGES });
    }
    await glue(pyodide, here);
    mark("installed");
    return pyodide;
  } catch (err) {
    await cache.delete(wheels.key);
    return null;
  }
}

// A first visit: Python started while the two wheels download, then their files unpacked
// into site-packages, as a later visit does (no micropip: chickenfoot and attrs are pure
// Python, and attrs is its one dependency, so there is nothing to resolve).
async function fresh(wheels, mark) {
  const files = ["attrs", "chickenfoot"].map(
    name => fetch(new URL("wheels/" + wheels[name], here)).then(r => r.arrayBuffer()));
  const pyodide = await loadPyodide({ indexURL: new URL("../pyodide/", here).href });
  mark("pyodide");
  post("status", { text: "installing chickenfoot…" });
  for (const data of await Promise.all(files)) {
    pyodide.unpackArchive(data, "wheel", { extractDir: SITE_PACKAGES });
  }
  await glue(pyodide, here);
  mark("installed");
  return pyodide;
}

async function boot() {
  const began = performance.now();
  const mark = name => post("timing", { name, ms: performance.now() - began });
  post("status", { text: "loading Python…" });
  const wheels = await wheelsOf(here);
  let pyodide = await fromSnapshot(wheels, mark);
  const restored = pyodide !== null;
  if (!restored) pyodide = await fresh(wheels, mark);
  const Game = pyodide.pyimport("tableplay").Game;
  game = Game.callKwargs({
    players: settings.players, bot: settings.bot, rounds: settings.rounds, round_pause: settings.pause,
    hints: settings.hints, ...(settings.review ? { review_iterations: settings.review } : {}),
  });
  mark("ready");
  // what this worker fetched (the page measures its bytes: Resource Timing's transferSize)
  const fetched = performance.getEntriesByType("resource").map(e => [e.name, e.transferSize, e.encodedBodySize]);
  post("ready", { version: pyodide.runPython("import chickenfoot; chickenfoot.__version__"), fetched, restored });
  for (const text of waiting) receive(text);
  waiting = [];
}

self.onmessage = ev => {
  const d = ev.data;
  if (d.kind === "start") {
    settings = d.settings;
    boot().catch(err => post("failed", { text: String(err && err.message || err).slice(-600) }));
  } else if (d.kind === "message") {
    if (game) receive(d.text); else waiting.push(d.text);
  } else if (d.kind === "record") {  // the table page's download (table.js, recordLinks)
    const answer = game ? game.record(JSON.stringify(d.query)) : JSON.stringify({ error: "The game has not started yet." });
    post("record", { id: d.id, answer });
  } else if (d.kind === "review" || d.kind === "hint") {  // review.js: the review and the hints
    const began = performance.now();
    const answer = !game ? JSON.stringify({ error: "The game has not started yet." })
      : d.kind === "review" ? game.review(JSON.stringify(d.query || {})) : game.hint();
    post(d.kind, { id: d.id, answer, ms: performance.now() - began });
  }
};
