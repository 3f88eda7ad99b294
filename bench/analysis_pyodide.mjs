// The Play page's review, timed where it runs: chickenfoot.analysis in Pyodide (the npm
// package the site serves, in build/play) under Node.js, whose engine (V8) is Chromium's.
// One seat (0) of 4-seat house rounds played by HeuristicAgents from seeds 1 to 5, no
// hindsight (as the page's review), processor time (process.cpuUsage) and wall time of the
// analyse() call. The wheels are the built site's (mkdocs build -d build/play_site).
//
//   taskset -c 1 node bench/analysis_pyodide.mjs [DEALS]    (default 50, the page's)
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const npm = root + "build/play/npm/node_modules/pyodide/";
const wheels = (process.env.PLAY_SITE || root + "build/play_site") + "/play/wheels/";
const { loadPyodide } = await import(npm + "pyodide.mjs");
const py = await loadPyodide({ indexURL: npm });
for (const f of readdirSync(wheels).filter(f => f.endsWith(".whl"))) {
  py.unpackArchive(new Uint8Array(readFileSync(wheels + f)), "wheel", { extractDir: "/lib/python3.12/site-packages" });
}
const deals = Number(process.argv[2] || 50);
py.runPython(`
import random
from chickenfoot import Record, Rules, deal
from chickenfoot.agents import HeuristicAgent, ask
from chickenfoot.analysis import analyse

def round_of(seed):
    rules = Rules(players=4)
    state, moves, rng, agent = deal(rules, seed=seed), [], random.Random(seed), HeuristicAgent()
    while not state.is_over():
        move = ask(agent, state, rng)
        moves.append(move)
        state = state.apply(move)
    return Record(deal(rules, seed=seed), moves)
`);
for (const seed of [1, 2, 3, 4, 5]) {
  py.runPython(`rec = round_of(${seed})`);
  const cpu = process.cpuUsage(), wall = performance.now();
  const decisions = py.runPython(`len(analyse(rec, seats=0, iterations=${deals}, nodes=None).decisions)`);
  const used = process.cpuUsage(cpu);
  console.log(JSON.stringify({
    seed, deals, decisions,
    cpu_s: +((used.user + used.system) / 1e6).toFixed(2),
    wall_s: +((performance.now() - wall) / 1000).toFixed(2),
  }));
}
