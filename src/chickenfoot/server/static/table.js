// chickenfoot serve: the table page. No build step, no dependency.
"use strict";

// -- The client: the only part of the page that knows how views arrive and moves leave. --
// connectTable(tableId, token, handlers) -> {move(notation)}
//   handlers.onView(tableMessage): the table as this seat may see it (after every change);
//   handlers.onGo(goMessage): this seat is to choose: the engine protocol's go;
//   handlers.onError(text), handlers.onStatus(text, online).
// It reconnects by itself (the server then sends the whole table again). Another client
// (one running the library in the page) would only have to provide these two directions.
function connectTable(tableId, token, handlers) {
  let ws = null, wait = 500, pendingGo = null, stopped = false;
  function open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(scheme + "//" + location.host + "/ws/" + encodeURIComponent(tableId));
    ws.onopen = () => { wait = 500; ws.send(JSON.stringify({type: "hello", token: token || ""})); };
    // the heartbeat: the server closes a connection that sends nothing for two minutes
    const beat = setInterval(() => { if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({type: "ping"})); }, 25000);
    ws.onmessage = ev => {
      let m; try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m.type === "hello") handlers.onStatus(m.seat === null ? "watching" : "connected", true);
      else if (m.type === "table") { pendingGo = null; handlers.onView(m); }
      else if (m.type === "go") { pendingGo = m; handlers.onGo(m); }
      else if (m.type === "error") { handlers.onError(m.message); if (m.fatal && /token|cross-origin|no table|opened elsewhere/.test(m.message)) stopped = true; }
    };
    ws.onclose = () => {
      clearInterval(beat);
      handlers.onStatus(stopped ? "disconnected" : "reconnecting…", false);
      if (!stopped) { setTimeout(open, wait); wait = Math.min(wait * 2, 8000); }
    };
  }
  open();
  return {
    move(notation) {
      if (!pendingGo || !ws || ws.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify({type: "move", move: notation, id: pendingGo.id}));
      return true;
    },
  };
}

// -- The page: draws what the client receives. --
const $ = id => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const token = location.hash.slice(1);
let last = null, go = null, selected = null;

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
function seatName(m, s) { const seat = m.seats[s]; return seat ? seat.name + " (seat " + s + ")" : "seat " + s; }
function tileOf(move) { return move.includes("@") ? move.split("@")[0] : null; }
function describe(move) {
  if (move === "draw") return "draw a tile";
  if (move === "pass") return "pass";
  const [tile, where] = move.split("@");
  return tile + " on " + where;
}

function drawTable(m) {
  last = m;
  document.body.dataset.n = String(m.n);  // the moves played, for tests and page bots
  const you = m.you;
  $("who").textContent = you === null ? "watching (no hand)" : "you are " + seatName(m, you);
  $("error").textContent = m.error ? "The table is stopped: " + m.error : "";
  $("picture").innerHTML = m.svg || "";  // the library's own SVG picture of this seat's view
  const turn = $("turn");
  if (m.over) { turn.textContent = "The match is over: " + m.result; turn.className = "turn"; }
  else if (you !== null && m.turn === you) { turn.textContent = "Your turn."; turn.className = "turn yours"; }
  else { turn.textContent = seatName(m, m.turn) + " to play."; turn.className = "turn"; }
  $("last").textContent = m.last ? "Last move: " + m.last.text : "No move yet this round.";
  const seats = $("seats"); seats.textContent = "";
  for (const s of m.seats) {
    const li = el("li", s.name + " · seat " + s.seat + " · " + (s.kind === "bot" ? "bot" : (s.connected ? "online" : "offline")) +
      (s.tiles === null ? "" : " · " + s.tiles + " tiles") + " · total " + m.totals[s.seat]);
    if (!m.over && s.seat === m.turn) li.className = "now";
    seats.appendChild(li);
  }
  if (m.boneyard !== undefined) seats.appendChild(el("li", "boneyard: " + m.boneyard + (m.boneyard === 1 ? " tile" : " tiles")));
  drawSheet(m);
  $("round-title").textContent = m.over ? "The last round" : "Round " + (m.round + 1);
  const log = $("log"); log.textContent = "";
  for (const e of m.log) log.appendChild(el("li", e.text, e.forced ? "forced" : ""));
  $("round-end").textContent = m.last_round ? "Round " + (m.last_round.round + 1) + " ended (" + m.last_round.outcome + "): penalties " + m.last_round.penalties.join(", ") + "." : "";
  $("result").textContent = m.over ? m.result : "";
  go = null; selected = null;
  drawHand(); drawMoves();
}

function drawSheet(m) {
  const t = el("table", null, "sheet");
  const head = el("tr"); head.appendChild(el("th", "round"));
  for (const s of m.seats) head.appendChild(el("th", s.name));
  t.appendChild(head);
  m.scores.forEach((row, i) => {
    const tr = el("tr"); tr.appendChild(el("td", String(i + 1)));
    for (const x of row) tr.appendChild(el("td", String(x)));
    t.appendChild(tr);
  });
  const tot = el("tr"); tot.appendChild(el("th", "total"));
  for (const x of m.totals) tot.appendChild(el("th", String(x)));
  t.appendChild(tot);
  $("sheet").textContent = ""; $("sheet").appendChild(t);
}

function drawHand() {
  const box = $("hand"); box.textContent = "";
  $("hand-box").hidden = !last || last.you === null || last.over;
  if (!last || !last.view || last.you === null) return;
  const playable = new Set(go ? go.legal.map(tileOf).filter(Boolean) : []);
  for (const tile of last.view.hand) {
    const b = el("button", tile, "tile");
    if (playable.has(tile)) b.classList.add("playable");
    if (tile === selected) b.classList.add("selected");
    if (tile === last.view.drawn) { b.classList.add("drawn"); b.title = "the tile you drew"; }
    b.addEventListener("click", () => { selected = selected === tile ? null : tile; drawHand(); drawMoves(); });
    box.appendChild(b);
  }
}

function drawMoves() {
  const box = $("moves"); box.textContent = "";
  const hint = $("moves-hint");
  $("moves-box").hidden = !last || last.you === null || last.over;
  if (!go) { hint.textContent = last && !last.over && last.turn === last.you ? "" : "Waiting for the others."; return; }
  hint.textContent = "Click a move (or a tile in your hand to see where it goes).";
  for (const move of go.legal) {
    const b = el("button", describe(move));
    b.dataset.move = move;
    if (selected && tileOf(move) !== selected) b.classList.add("dim");
    b.addEventListener("click", () => { if (client.move(move)) { go = null; drawMoves(); } });
    box.appendChild(b);
  }
}

const client = connectTable(tableId, token, {
  onView: drawTable,
  onGo(m) { go = m; drawHand(); drawMoves(); },
  onError(text) { $("error").textContent = text; },
  onStatus(text, online) { $("status").textContent = text; $("status").className = online ? "" : "off"; },
});
