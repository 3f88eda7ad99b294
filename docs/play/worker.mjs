// The Play page's Web Worker: the library itself, in Pyodide, playing the server's part.
// It speaks the messages of `chickenfoot serve` (made by the server's own Python code, see
// tableplay.py) to the page's table client, through socket.js. Everything it loads comes
// from this site: Pyodide (../pyodide/), and the wheels installed with micropip from
// wheels/ (wheels.json names them). No CDN, no other host.
import { loadPyodide } from "../pyodide/pyodide.mjs";

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

async function boot() {
  const began = performance.now();
  const mark = name => post("timing", { name, ms: performance.now() - began });
  post("status", { text: "loading Python…" });
  const pyodide = await loadPyodide({ indexURL: new URL("../pyodide/", here).href });
  mark("pyodide");
  post("status", { text: "installing chickenfoot…" });
  const wheels = await (await fetch(new URL("wheels/wheels.json", here))).json();
  const url = name => new URL("wheels/" + wheels[name], here).href;
  await pyodide.loadPackage([url("micropip"), url("packaging")]);
  const micropip = pyodide.pyimport("micropip");
  mark("micropip");
  await micropip.install(url("attrs"));        // first: chickenfoot's one dependency
  await micropip.install(url("chickenfoot"));  // its requirement is then met here
  mark("installed");
  for (const name of ["tableplay.py", "tableplay_messages.py"]) {
    const text = await (await fetch(new URL(name, here))).text();
    pyodide.FS.writeFile("/home/pyodide/" + name, text);
  }
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide')");
  const Game = pyodide.pyimport("tableplay").Game;
  game = Game.callKwargs({
    players: settings.players, bot: settings.bot, rounds: settings.rounds, round_pause: settings.pause,
  });
  mark("ready");
  // what this worker fetched (the page measures its bytes: Resource Timing's transferSize)
  const fetched = performance.getEntriesByType("resource").map(e => [e.name, e.transferSize, e.encodedBodySize]);
  post("ready", { version: pyodide.runPython("import chickenfoot; chickenfoot.__version__"), fetched });
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
  }
};
