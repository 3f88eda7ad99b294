// The Play page's transport for the table client of `chickenfoot serve` (table.js): a
// WebSocket-shaped front of a Web Worker. table.js opens `new WebSocket(...)`, sends its
// messages and reads the server's; on this page the same calls reach worker.mjs, where the
// library runs in Pyodide. One client, two transports: the client is not changed.
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  const number = (name, low, high, fallback) => {
    const v = Number(params.get(name));
    return params.has(name) && Number.isInteger(v) && v >= low && v <= high ? v : fallback;
  };
  const settings = {
    players: number("players", 2, 4, 3),
    bot: ["random", "greedy", "heuristic", "level:1", "level:2", "level:3", "level:4", "level:5"]
      .includes(params.get("bot")) ? params.get("bot") : "heuristic",
    rounds: params.get("rounds") === "match" ? null : number("rounds", 1, 10, 1),
    delay: number("delay", 0, 5000, 600),   // ms before each bot move, as serve's --bot-delay
    pause: number("pause", 0, 600, 20),     // s before the next round, as serve's --round-pause
    hints: params.get("hints") === "1",     // hints at your turn (review.js shows them), off by default
    review: number("review", 1, 1000, 0),   // deals per decision for the review (0: tableplay.py's default)
  };
  window.playSettings = settings;
  const timings = window.playTimings = { boot: {}, bot: [], version: null, failed: null };
  // The worker starts at once (this script is in the page's head): Python loads while the
  // page and its client do; what it says before the client connects waits for it.
  const worker = new Worker("worker.mjs", { type: "module" });
  let early = [];
  worker.onmessage = ev => early.push(ev);
  worker.postMessage({ kind: "start", settings });

  // A visit that started Python afresh leaves a memory snapshot for the next (snapshot.mjs),
  // made in a worker of its own once this game is under way.
  function keepSnapshot() {
    const maker = new Worker("snapshot.mjs", { type: "module" });
    maker.onmessage = ev => { timings.snapshot = ev.data.done; maker.terminate(); };
  }

  function status(text) {
    const s = document.getElementById("status");
    if (s) s.textContent = text;
  }

  class WorkerSocket {
    constructor() {
      this.readyState = WorkerSocket.CONNECTING;
      this.onopen = this.onmessage = this.onclose = this.onerror = null;
      worker.onmessage = ev => {
        const d = ev.data;
        if (d.kind === "message") { if (this.onmessage) this.onmessage({ data: d.text }); }
        else if (d.kind === "ready") {
          timings.version = d.version;
          timings.fetched = d.fetched;
          timings.restored = d.restored;
          if (!d.restored) setTimeout(keepSnapshot, 3000);
          this.readyState = WorkerSocket.OPEN;
          if (this.onopen) this.onopen({});
        } else if (d.kind === "status") status(d.text);
        else if (d.kind === "review" || d.kind === "hint") { const done = records.get(d.id); records.delete(d.id); if (done) done(d); }
        else if (d.kind === "record") { const done = records.get(d.id); records.delete(d.id); if (done) done(d.answer); }
        else if (d.kind === "timing") { if (d.name === "bot") timings.bot.push(d.ms); else timings.boot[d.name] = d.ms; }
        else if (d.kind === "failed") {
          timings.failed = d.text;
          status("could not start");
          const e = document.getElementById("error");
          if (e) { e.textContent = "The game could not start in this browser: " + d.text; e.hidden = false; }
        }
      };
      const waiting = early;
      early = [];
      for (const ev of waiting) worker.onmessage(ev);
    }
    send(text) { if (this.readyState === WorkerSocket.OPEN) worker.postMessage({ kind: "message", text }); }
    close() {}
  }
  // The table page's download of a round (table.js asks window.playRecord; no server here).
  const records = new Map();
  let recordId = 0;
  window.playRecord = query => new Promise(resolve => {
    recordId += 1;
    records.set(recordId, resolve);
    worker.postMessage({ kind: "record", id: recordId, query });
  });
  // The review of a finished round and the hints (review.js): answered by the worker's table.
  window.playAsk = (kind, query) => new Promise(resolve => {
    recordId += 1;
    records.set(recordId, resolve);
    worker.postMessage({ kind, id: recordId, query });
  });
  WorkerSocket.CONNECTING = 0; WorkerSocket.OPEN = 1; WorkerSocket.CLOSING = 2; WorkerSocket.CLOSED = 3;
  window.WebSocket = WorkerSocket;
})();
