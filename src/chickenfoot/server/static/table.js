// chickenfoot serve: the table page. No build step, no dependency.
"use strict";

// -- The client: the only part of the page that knows how views arrive and moves leave. --
// connectTable(tableId, token, handlers) -> {move(notation), send(type)}
//   handlers.onView(tableMessage): the table as this seat may see it (after every change);
//   handlers.onGo(goMessage): this seat is to choose: the engine protocol's go;
//   handlers.onError(text), handlers.onStatus(text, online). An error's text is in the
//   reader's language when its code is one the page knows (errorText), else the server's.
// It reconnects by itself (the server then sends the whole table again). Another client
// (one running the library in the page) would only have to provide these two directions.
// After a move within a round the server sends only what changed (a "moved" message); the
// client keeps the table and hands the page the whole of it every time.
// An error message in the reader's language, by its code (docs/serve.md: 4000 plus the HTTP
// status of the same meaning; a fatal error's code is the WebSocket's close code). The
// server's own sentence (English, for programs) when the code is not one of these; what a
// refusal says of the move is the library's, in English, inside a translated sentence.
function errorText(m) {
  const reason = String(m.message || "").replace(/^refused: /, "");
  switch (m.code) {
    case 4000: return t("The connection fell behind: reconnecting.");
    case 4401: return t("This link is not a seat of this table: ask for the link again.");
    case 4403: return t("The table refused this page: it does not come from this server.");
    case 4404: return t("There is no such table on this server: check the link.");
    case 4408: return t("The connection was idle too long: reconnecting.");
    case 4409: return t("This seat was opened in another window or on another device.");
    case 4429: return m.fatal ? t("Too many connections to this table or this server: try again later.") : t("Too many messages: that one was ignored.");
    case 4503: return m.fatal ? t("The server is busy: try again in a moment.") : t("The database is not answering: your move waits, and is played as soon as it is stored.");
    case 4500: return t("That could not be worked out: try again.");
    case 4400: return t("Refused: {reason}", {reason});
    default: return String(m.message || "");
  }
}

function connectTable(tableId, token, handlers) {
  let ws = null, wait = 500, pendingGo = null, stopped = false, table = null;
  function open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(scheme + "//" + location.host + "/ws/" + encodeURIComponent(tableId));
    ws.onopen = () => { wait = 500; ws.send(JSON.stringify({type: "hello", token: token || ""})); };
    // the heartbeat: the server closes a connection that sends nothing for two minutes
    const beat = setInterval(() => { if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({type: "ping"})); }, 25000);
    ws.onmessage = ev => {
      let m; try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m.type === "hello") handlers.onStatus("connected", true);
      else if (m.type === "table") { pendingGo = null; table = m; handlers.onView(m); }
      else if (m.type === "moved") {
        const next = afterMove(table, m);
        if (!next) { ws.send(JSON.stringify({type: "table"})); return; }  // out of step: ask
        pendingGo = null; table = next; handlers.onView(next);
      }
      else if (m.type === "go") { pendingGo = m; handlers.onGo(m); }
      else if (m.type === "error") {
        handlers.onError(errorText(m));
        if (m.fatal && [4401, 4403, 4404, 4409].includes(m.code)) stopped = true;  // reconnecting cannot help
        else if (!m.fatal && pendingGo) handlers.onGo(pendingGo);  // a refused move: choose again
      }
      if (handlers.onAny) handlers.onAny(m);  // hints and reviews (coach.js)
    };
    ws.onclose = () => {
      clearInterval(beat);
      handlers.onStatus(stopped ? "disconnected" : "reconnecting…", false);
      if (!stopped) { setTimeout(open, wait); wait = Math.min(wait * 2, 8000); }
    };
  }
  open();
  const ready = () => ws && ws.readyState === WebSocket.OPEN;
  return {
    move(notation) {
      if (!pendingGo || !ready()) return false;
      ws.send(JSON.stringify({type: "move", move: notation, id: pendingGo.id}));
      pendingGo = null;
      return true;
    },
    send(type) { if (ready()) ws.send(JSON.stringify({type})); },
    sendMessage(message) { if (ready()) ws.send(JSON.stringify(message)); },
  };
}

// The table after a "moved" message, from the table before it; null when they do not follow
// each other. The picture's change names the lines kept from the picture before ([start,
// count]) and the new ones (strings); the view keeps its hand and drawn tile current.
const LOG = 12;  // the events of the round a table message's log holds (the server's)
function afterMove(t, d) {
  if (!t || t.over || d.n !== t.n + 1) return null;
  let svg = t.svg;
  if (d.picture !== undefined) {
    if (!d.picture || !t.svg || d.picture.base !== t.version) return null;
    const lines = t.svg.split("\n");
    svg = d.picture.parts.map(p => typeof p === "string" ? p : lines.slice(p[0], p[0] + p[1]).join("\n")).join("\n");
  }
  const view = d.hand ? Object.assign({}, t.view, {hand: d.hand, drawn: d.drawn}) : t.view;
  return Object.assign({}, t, {
    n: d.n, version: d.version, turn: d.turn, boneyard: d.boneyard, last_round: d.last_round,
    log: t.log.concat([d.event]).slice(-LOG), last: d.event, svg, view,
    seats: t.seats.map((s, i) => Object.assign({}, s, {tiles: d.tiles[i]})),
  });
}

// -- Dominoes, drawn as the library's picture draws them. --
const SVGNS = "http://www.w3.org/2000/svg";
const A = 0.24, B = 0.5, C = 0.76;
const DOTS = [[], [[B, B]], [[A, A], [C, C]], [[A, A], [B, B], [C, C]], [[A, A], [C, A], [A, C], [C, C]],
  [[A, A], [C, A], [B, B], [A, C], [C, C]], [[A, A], [A, B], [A, C], [C, A], [C, B], [C, C]],
  [[A, A], [A, B], [A, C], [B, B], [C, A], [C, B], [C, C]],
  [[A, A], [A, B], [A, C], [B, A], [B, C], [C, A], [C, B], [C, C]],
  [[A, A], [B, A], [C, A], [A, B], [B, B], [C, B], [A, C], [B, C], [C, C]]];
function half(n, x, y) {
  if (n > 9) return `<text x="${x + .5}" y="${y + .5}" font-size=".58" text-anchor="middle" dominant-baseline="central" font-weight="bold" fill="#2b2b2b">${n}</text>`;
  return DOTS[n].map(([dx, dy]) => `<circle cx="${x + dx}" cy="${y + dy}" r=".1" fill="#2b2b2b"/>`).join("");
}
// A domino picture (standing: the first number on top; lying: on the left), hidden from
// screen readers: the button or list item around it says the tile.
function domino(tile, lying) {
  const [a, b] = tile.split("-").map(Number);
  const w = lying ? 2 : 1, h = lying ? 1 : 2;
  const line = lying ? `<line x1="1" y1=".15" x2="1" y2=".85" stroke="#2b2b2b" stroke-width=".04"/>`
    : `<line x1=".15" y1="1" x2=".85" y2="1" stroke="#2b2b2b" stroke-width=".04"/>`;
  return `<svg xmlns="${SVGNS}" viewBox="0 0 ${w} ${h}" aria-hidden="true" focusable="false">` +
    `<rect x=".03" y=".03" width="${w - .06}" height="${h - .06}" rx=".14" fill="#fffdf5" stroke="#2b2b2b" stroke-width=".05"/>` +
    line + half(a, 0, 0) + (lying ? half(b, 1, 0) : half(b, 0, 1)) + "</svg>";
}

// -- The page: draws what the client receives. --
const $ = id => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const token = location.hash.slice(1);
const AUTO = "chickenfoot.autoplay";
const TOUCH = window.matchMedia("(hover: none)").matches;  // a touch screen: no Esc key to speak of
let fullEnd = null, last = null, go = null, goId = null, selected = null, targets = new Map(), zoom = null, dismissed = null, shownEnd = null, tick = null;

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
function nameOf(m, s) {
  const seat = m && m.seats[s];
  if (!seat) return t("seat {seat}", {seat: s});
  return seat.name === "You" && s === m.you ? t("You") : seat.name;
}
function youName(m, s) { const name = nameOf(m, s); return s === m.you && m.seats[s].name !== "You" ? t("{name} (you)", {name}) : name; }
// "seat 2 played 6-3@6-6" -> "Cleo played 6-3@6-6": the server's texts, with names.
function named(m, text) {
  return String(text).replace(/\bseat (\d+)/g, (_, s) => nameOf(m, Number(s)))
    .replace(/\bYou (wins|has|goes)\b/g, (_, verb) => "You " + {wins: "win", has: "have", goes: "go"}[verb]);
}
// The tile a move lays: "7-4@7-3" lays 7-4; "9-9" (the centre laid from the hand, when the
// holder opens the round: docs/formats.md, the move notation) lays 9-9; draw and pass none.
function tileOf(move) { return move === "draw" || move === "pass" ? null : move.split("@")[0]; }
function describe(move) {
  if (move === "draw") return t("Draw a tile");
  if (move === "pass") return t("Pass");
  const [tile, where] = move.split("@");
  return where ? t("Play {tile} on {anchor}", {tile, anchor: where}) : t("Lay the centre {tile}", {tile});
}
// An event of the round's log, in the page's language (the server's English text as it is
// in English): who played what, and why it was forced when it was.
function eventText(m, e, before) {
  if (I18N.lang() === "en" || e.seat === undefined || e.move === undefined) return named(m, e.text);
  const player = nameOf(m, e.seat), move = e.move;
  if (!e.forced) return move === "draw" || move.startsWith("draw:") ? t("{player} drew a tile", {player})
    : move === "pass" ? t("{player} passed", {player}) : t("{player} played {move}", {player, move});
  if (move.startsWith("draw")) return t("{player} had no tile to play, so drew one (forced)", {player});
  if (move === "pass") {
    const afterDraw = before && before.seat === e.seat && String(before.move).startsWith("draw");
    return afterDraw ? t("{player} could not play the drawn tile, so passed (forced)", {player})
      : t("{player} had no play and nothing to draw, so passed (forced)", {player});
  }
  return t("{player} played {move}, the only legal move (forced)", {player, move});
}
// The match's result: the lowest total wins; equal lowest share the win.
function resultText(m) {
  if (I18N.lang() === "en") return named(m, m.result);
  const low = Math.min(...m.totals);
  const won = m.totals.map((x, s) => x === low ? s : -1).filter(s => s >= 0).map(s => nameOf(m, s));
  const points = I18N.number(low);
  if (won.length === 1) return t("{player} won the match with {points}", {player: won[0], points});
  return t("{players} share the win of the match with {points}", {players: listed(won), points});
}
// Names listed: "A, B and C".
function listed(names) {
  return names.length < 2 ? names.join("") : t("{players} and {last}", {players: names.slice(0, -1).join(", "), last: names[names.length - 1]});
}
function playsOf(tile) { return go ? go.legal.filter(mv => tileOf(mv) === tile) : []; }

function drawTable(m) {
  // the hands and final board of the last round come until the next round's first move
  if (m.last_round && m.last_round.hands) fullEnd = m.last_round;
  else if (m.last_round && fullEnd && fullEnd.round === m.last_round.round) m.last_round = fullEnd;
  const fresh = !last || last.n !== m.n || last.round !== m.round;
  const newEnd = last && m.last_round && (!last.last_round || last.last_round.round !== m.last_round.round || last.over !== m.over);
  last = m;
  document.body.dataset.n = String(m.n);  // the moves played, for tests and page bots
  const you = m.you;
  $("who").textContent = you === null ? t("Watching") : (m.seats[you].name === "You" ? t("Your seat") : t("Playing as {name}", {name: m.seats[you].name}));
  showError(m.error ? t("The table is stopped: {reason}", {reason: m.error}) : "");
  drawTurn(m);
  $("last").textContent = m.last ? t("Last: {event}", {event: eventText(m, m.last, m.log[m.log.length - 2])}) : (m.over ? "" : t("No move yet this round."));
  drawSeats(m);
  $("sheet").textContent = ""; $("sheet").appendChild(sheet(m));
  $("round-title").textContent = t("Round {round}", {round: m.round + 1});
  $("log-box").hidden = m.over || !m.log.length;
  const log = $("log"); log.textContent = "";
  m.log.forEach((e, i) => log.appendChild(el("li", eventText(m, e, m.log[i - 1]), e.forced ? "forced" : "")));
  $("result").textContent = m.over ? resultText(m) : "";
  go = null;  // as the client: a go follows the table when this seat is to choose
  if (fresh) selected = null;
  if (newEnd) shownEnd = m.last_round.round;
  drawPicture(m);
  drawRoundEnd(m);
  drawHand();
  drawCommitment(m);
}

// -- Deals anyone can check (docs: notation, Checking a deal): the round's commitment from
// its deal on; at its end its seed, and how to check the deal with chickenfoot verify. --
const CHECKING = "https://chickenfoot.readthedocs.io/en/latest/notation/#checking-a-deal";
function drawCommitment(m) {
  $("deal-box").hidden = !m.commitment;
  $("commitment").textContent = m.commitment ? t("This round's deal was committed to before its first move: {commitment}. The seed that opens it is shown when the round ends.", {commitment: m.commitment}) : "";
}
function dealCheck(end) {
  const box = el("div", null, "deal-check");
  if (!end.seed) return box;
  box.appendChild(el("p", t("This round's commitment was {commitment} and its seed is {seed}.", {commitment: end.commitment, seed: end.seed})));
  box.appendChild(el("p", t("To check that the deal was not chosen, save the round's full record as round.cfn and run this command:")));
  box.appendChild(el("pre", "chickenfoot verify round.cfn"));
  const link = el("a", t("How a deal is checked")); link.href = CHECKING; link.rel = "noreferrer"; link.target = "_blank";
  box.appendChild(link);
  return box;
}

function drawTurn(m) {
  const turn = $("turn"), you = m.you;
  let title;
  if (m.over) { turn.textContent = t("The match is over: {result}", {result: resultText(m)}); turn.className = "turn"; title = t("Match over"); }
  else if (m.pause) { turn.textContent = t("Round {round} is over.", {round: m.round}); turn.className = "turn"; title = t("Round over"); }
  else if (you !== null && m.turn === you) { turn.textContent = t("Your turn"); turn.className = "turn yours"; title = "▶ " + t("Your turn"); }
  else { turn.textContent = t("{player} to play", {player: nameOf(m, m.turn)}); turn.className = "turn"; title = turn.textContent; }
  document.title = title + " · Chicken Foot";
}

function drawSeats(m) {
  const seats = $("seats"); seats.textContent = "";
  // During the pause between rounds the next round is dealt but not begun: the list shows
  // the round that ended (its hands' sizes, nobody to play), not the next deal.
  const ended = m.pause && m.last_round && m.last_round.hands ? m.last_round.hands : null;
  for (const s of m.seats) {
    const li = el("li");
    const how = s.kind === "bot" ? "bot" : (s.connected ? "online" : "offline");
    li.appendChild(el("span", "", "dot " + how));
    li.appendChild(el("span", youName(m, s.seat), "name"));
    const bits = [{bot: t("bot"), online: t("online"), offline: t("offline")}[how]];
    const tiles = ended ? ended[s.seat].length : s.tiles;
    if (tiles !== null) bits.push(tn("{n} tile", "{n} tiles", tiles, {n: I18N.number(tiles)}));
    bits.push(t("total {points}", {points: I18N.number(m.totals[s.seat])}));
    li.appendChild(el("span", bits.join(" · "), "meta"));
    if (!m.over && !m.pause && s.seat === m.turn) { li.className = "now"; li.appendChild(el("span", t("to play"), "tag")); }
    seats.appendChild(li);
  }
  if (m.boneyard !== undefined && !m.pause) seats.appendChild(el("li", tn("Boneyard: {n} tile", "Boneyard: {n} tiles", m.boneyard, {n: I18N.number(m.boneyard)}), "bone"));
}

function sheet(m) {
  const t = el("table", null, "sheet");
  t.appendChild(el("caption", I18N.t("Penalties by round (lowest total wins)"), "sr-only"));
  const head = el("tr"); head.appendChild(el("th", I18N.t("Round")));
  for (const s of m.seats) head.appendChild(el("th", nameOf(m, s.seat)));
  t.appendChild(head);
  m.scores.forEach((row, i) => {
    const tr = el("tr"); tr.appendChild(el("td", String(i + 1)));
    for (const x of row) tr.appendChild(el("td", I18N.number(x)));
    t.appendChild(tr);
  });
  const tot = el("tr", null, "total"); tot.appendChild(el("th", I18N.t("Total")));
  for (const x of m.totals) tot.appendChild(el("th", I18N.number(x)));
  t.appendChild(tot);
  return t;
}

// -- The board: the library's picture; the places a chosen tile may go glow in it. --
function drawPicture(m) {
  const box = $("picture");
  box.innerHTML = m.svg || "";
  targets = new Map();
  const svg = box.querySelector("svg");
  $("board-box").hidden = !svg;
  if (!svg) return;
  nameTexts(m, svg);
  boardCaption(svg);
  svg.dataset.w = svg.getAttribute("width");
  svg.removeAttribute("width"); svg.removeAttribute("height");
  applyZoom();
  showTargets();
}
// The places this seat's legal moves lay a tile (the go's targets), drawn by the library to
// lay over the picture, which has room for them; shown when a tile is chosen.
function setTargets(list) {
  targets = new Map();
  if (!list || !list.length) return;
  const doc = new DOMParser().parseFromString(`<svg xmlns="${SVGNS}">` + list.join("") + "</svg>", "image/svg+xml");
  for (const g of doc.documentElement.querySelectorAll("g.target")) targets.set(g.dataset.move, document.importNode(g, true));
}
// the picture's captions say "seat 1 to play": with names, as the rest of the page
function nameTexts(m, svg) {
  for (const t of svg.querySelectorAll("text, title")) {
    if (/\bseat \d/.test(t.textContent)) t.textContent = named(m, t.textContent.replace(/seat \d+'s view · /, ""));
  }
}
// The picture's caption (whose turn, the boneyard, a pending double) as text of the page,
// which wraps on a phone where the picture pans: its copy in the picture is taken out,
// and so is the picture's "last:" line, which the page shows above it already.
function boardCaption(svg) {
  const title = svg.querySelector("title");
  const status = title ? title.textContent.replace(/^Chicken Foot: /, "") : "";
  $("board-caption").textContent = statusText(status);
  for (const t of svg.querySelectorAll(":scope > text")) {
    if (t.textContent === status || t.textContent.startsWith("last: ")) t.remove();
  }
}
// The picture's status line (the library's English, names put in: "Ann to play · boneyard
// 15 · 6-6 needs 6 more toes") said in the page's language; as it is when not of that shape.
const STATUS_LINE = /^(?:(.+?) to play(?: \(has drawn (\d+-\d+)\))?|over: (.+?) went out|over: (blocked)) · boneyard (\d+)(?: · (\d+-\d+) needs (\d+) more toes?)?$/;
function statusText(status) {
  const m = I18N.lang() === "en" ? null : STATUS_LINE.exec(status);
  if (!m) return status;
  const parts = [m[1] !== undefined ? (m[2] ? t("{player} to play (has drawn {tile})", {player: m[1], tile: m[2]}) : t("{player} to play", {player: m[1]}))
    : m[3] !== undefined ? t("Over: {player} went out", {player: m[3]}) : t("Over: blocked")];
  const bones = Number(m[5]);
  parts.push(tn("Boneyard: {n} tile", "Boneyard: {n} tiles", bones, {n: I18N.number(bones)}));
  if (m[6]) parts.push(tn("{hub} needs {n} more toe", "{hub} needs {n} more toes", Number(m[7]), {hub: m[6], n: m[7]}));
  return parts.join(" · ");
}
function showTargets() {
  const svg = $("picture").querySelector("svg");
  if (!svg) return;
  for (const g of svg.querySelectorAll("g.target")) g.remove();
  const moves = selected && go ? playsOf(selected).filter(mv => targets.has(mv)) : [];
  svg.setAttribute("role", moves.length ? "group" : "img");
  if (moves.length) svg.setAttribute("aria-label", t("The table: choose where {tile} goes", {tile: selected}));
  else svg.removeAttribute("aria-label");
  for (const mv of moves) {
    const g = targets.get(mv);
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.setAttribute("aria-label", mv.split("@")[1] ? t("Play {tile} on {anchor}", {tile: selected, anchor: mv.split("@")[1]}) : t("Lay the centre {tile}", {tile: selected}));
    g.classList.add("glow");
    g.onclick = () => play(mv);
    g.onkeydown = ev => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); play(mv); }
      else if (ev.key === "Escape") { choose(null); }
    };
    svg.appendChild(g);
  }
  if (moves.length) {
    const first = targets.get(moves[0]);
    first.scrollIntoView({block: "nearest", inline: "center"});
  }
}
function applyZoom() {
  const svg = $("picture").querySelector("svg");
  if (!svg) return;
  const natural = Number(svg.dataset.w) || 600, room = $("picture").clientWidth || 600;
  // 0: fit the width. A board wider than the screen (a phone) is shown at its natural
  // size, readable, and pans inside its box; Fit shows it whole.
  const z = zoom === null ? (natural > room * 1.25 ? 1 : 0) : zoom;  // null: not chosen yet
  if (z === 0) { svg.style.width = Math.min(room, natural * 1.6) + "px"; svg.style.maxHeight = "70vh"; }
  else { svg.style.width = Math.round(natural * z) + "px"; svg.style.maxHeight = "none"; }
}
document.querySelectorAll("[data-zoom]").forEach(b => b.addEventListener("click", () => {
  const svg = $("picture").querySelector("svg");
  const natural = Number(svg && svg.dataset.w) || 600, room = $("picture").clientWidth || 600;
  const fit = Math.min(room, natural * 1.6) / natural;
  const now = zoom === null ? (natural > room * 1.25 ? 1 : fit) : (zoom === 0 ? fit : zoom);
  if (b.dataset.zoom === "fit") zoom = 0;
  else zoom = Math.max(0.3, Math.min(3, now * (b.dataset.zoom === "in" ? 1.4 : 1 / 1.4)));
  applyZoom();
}));
window.addEventListener("resize", applyZoom);

// -- The hand: dominoes to tap; then a glowing place; draw and pass as buttons. --
function drawHand() {
  const box = $("hand"), actions = $("actions"), hint = $("hint");
  box.textContent = ""; actions.textContent = "";
  const m = last, mine = m && m.you !== null && m.view && !m.over && !m.pause;
  $("hand-box").hidden = !mine;
  if (!mine) return;
  const legal = go ? go.legal : [];
  const playable = new Set(legal.map(tileOf).filter(Boolean));
  for (const tile of m.view.hand) {
    const b = el("button", null, "tile");
    b.type = "button";
    b.dataset.tile = tile;
    b.innerHTML = domino(tile, false);
    const can = playable.has(tile);
    const places = playsOf(tile).length;
    let label = tile;
    if (tile === m.view.drawn) { b.classList.add("drawn"); label = t("{tile}, the tile you drew", {tile}); }
    if (can) { b.classList.add("playable"); label = tn("{tile}: plays in {n} place", "{tile}: can go in {n} places", places, {tile: label, n: places}); }
    else if (go) { b.setAttribute("aria-disabled", "true"); label = t("{tile}: cannot be played now", {tile: label}); }
    b.setAttribute("aria-label", label);
    if (tile === selected) { b.classList.add("selected"); b.setAttribute("aria-pressed", "true"); }
    else if (can) b.setAttribute("aria-pressed", "false");
    b.addEventListener("click", () => tap(tile));
    b.addEventListener("pointerdown", ev => dragStart(ev, tile));
    box.appendChild(b);
  }
  for (const mv of ["draw", "pass"]) {
    if (!legal.includes(mv)) continue;
    const b = el("button", mv === "draw" ? t("Draw a tile") : t("Pass"), "action");
    b.type = "button"; b.dataset.move = mv;
    b.addEventListener("click", () => play(mv));
    actions.appendChild(b);
  }
  // a play whose place the picture does not show (it always should): a plain button
  for (const mv of legal) {
    if (tileOf(mv) && !targets.has(mv) && !m.svg) {
      const b = el("button", describe(mv), "action"); b.type = "button"; b.dataset.move = mv;
      b.addEventListener("click", () => play(mv)); actions.appendChild(b);
    }
  }
  if (!go) hint.textContent = m.turn === m.you ? "" : t("Waiting for {player}.", {player: nameOf(m, m.turn)});
  else if (selected) hint.textContent = TOUCH ? t("Tap a glowing place on the table for {tile} (tap it again to choose another tile).", {tile: selected}) : t("Tap a glowing place on the table for {tile} (Esc to choose another tile).", {tile: selected});
  else if (legal.length === 1) hint.textContent = tileOf(legal[0]) ? t("Your only move: tap {tile}.", {tile: tileOf(legal[0])}) : (legal[0] === "draw" ? t("Your only move: draw a tile.") : t("Your only move: pass."));
  else if (playable.size) hint.textContent = t("Tap a tile that can be played (outlined), then where it goes.");
  else hint.textContent = legal.includes("draw") ? t("No tile fits: draw one.") : t("No tile fits: pass.");
}
function tap(tile) {
  if (dragged) return;  // the click that ends a drag
  const plays = playsOf(tile);
  if (!plays.length) { $("hint").textContent = go ? t("{tile} cannot be played now.", {tile}) : t("It is not your turn."); return; }
  if (plays.length === 1) { play(plays[0]); return; }  // one place: one tap
  choose(selected === tile ? null : tile);
}
function choose(tile, focus = true) {
  const before = selected;
  selected = tile;
  drawHand(); showTargets();
  const moves = tile ? playsOf(tile).filter(mv => targets.has(mv)) : [];
  if (!focus) return;
  if (moves.length) targets.get(moves[0]).focus({preventScroll: true});
  else if (before) { const b = document.querySelector(`#hand [data-tile="${before}"]`); if (b) b.focus(); }
}
// Drag (a mouse or a pen; a finger taps, and scrolls): the tile's places glow while a
// copy of it follows the pointer; dropped on a place, it is played there.
let drag = null, dragged = false;
function dragStart(ev, tile) {
  if (ev.button !== 0 || ev.pointerType === "touch" || !playsOf(tile).length) return;
  drag = {tile, x: ev.clientX, y: ev.clientY, ghost: null};
}
document.addEventListener("pointermove", ev => {
  if (!drag) return;
  if (!drag.ghost) {
    if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 12) return;
    if (selected !== drag.tile) choose(drag.tile, false);
    drag.ghost = el("div", null, "ghost");
    drag.ghost.innerHTML = domino(drag.tile, false);
    document.body.appendChild(drag.ghost);
  }
  drag.ghost.style.left = ev.clientX - 24 + "px";
  drag.ghost.style.top = ev.clientY - 45 + "px";
});
document.addEventListener("pointerup", ev => {
  const d = drag;
  drag = null;
  if (!d || !d.ghost) return;
  d.ghost.remove();
  dragged = true; setTimeout(() => { dragged = false; }, 0);
  const on = document.elementsFromPoint(ev.clientX, ev.clientY).map(e => e.closest("g.target")).find(Boolean);
  if (on) play(on.dataset.move);
});
document.addEventListener("pointercancel", () => { if (drag && drag.ghost) drag.ghost.remove(); drag = null; });
function play(move) {
  if (client.move(move)) { go = null; selected = null; drawHand(); showTargets(); }
}
function autoNote(move) {
  if (move === "draw") return t("Auto-play: you drew a tile, your only move.");
  if (move === "pass") return t("Auto-play: you passed, your only move.");
  const [tile, anchor] = move.split("@");
  return anchor ? t("Auto-play: you played {tile} on {anchor}, your only move.", {tile, anchor})
    : t("Auto-play: you laid the centre {tile}, your only move.", {tile});
}
function onGo(m) {
  if (m.id !== goId) { selected = null; $("auto-note").textContent = ""; }
  go = m; goId = m.id;
  setTargets(m.targets);
  if (m.legal.length === 1 && localStorage.getItem(AUTO) === "1") {
    const move = m.legal[0];
    setTimeout(() => {
      if (go !== m) return;
      play(move);
      $("auto-note").textContent = autoNote(move);
    }, 400);
  }
  drawHand(); showTargets();
}
$("autoplay").checked = localStorage.getItem(AUTO) === "1";
$("autoplay").addEventListener("change", ev => { localStorage.setItem(AUTO, ev.target.checked ? "1" : "0"); });

// -- The end of a round: the final board, every hand, the penalties; next or rematch. --
function drawRoundEnd(m) {
  const box = $("round-end"), end = m.last_round;
  const show = end && end.hands && (m.pause || m.over || (shownEnd === end.round && dismissed !== end.round));
  clearInterval(tick);
  box.hidden = !show;
  $("board-box").classList.toggle("behind", Boolean(show && (m.pause || m.over)));
  if (!show) { box.textContent = ""; return; }
  const wasShown = box.dataset.round === String(end.round) + ":" + m.over;
  box.dataset.round = String(end.round) + ":" + m.over;
  box.textContent = "";
  const low = Math.min(...end.penalties);
  const winners = end.out !== null && end.out !== undefined ? [end.out] : end.penalties.map((p, s) => p === low ? s : -1).filter(s => s >= 0);
  // named(): "You has the lowest hand" reads "You have the lowest hand"
  const values = {round: end.round + 1, player: nameOf(m, winners[0]), players: listed(winners.map(s => nameOf(m, s)))};
  const mine = winners.length === 1 && winners[0] === m.you;
  const title = el("h2", end.out !== null && end.out !== undefined
    ? (mine ? t("Round {round}: You went out", values) : t("Round {round}: {player} went out", values))
    : winners.length > 1 ? t("Round {round}: {players} share the lowest hand", values)
    : mine ? t("Round {round}: You have the lowest hand (blocked)", values) : t("Round {round}: {player} has the lowest hand (blocked)", values));
  title.id = "round-end-title";
  box.appendChild(title);
  const list = el("ul", null, "reveal");
  end.hands.forEach((hand, s) => {
    const li = el("li"); li.dataset.seat = String(s);
    if (winners.includes(s)) li.classList.add("won");
    li.appendChild(el("span", youName(m, s), "name"));
    const tiles = el("span", null, "tiles");
    if (hand.length) tiles.appendChild(el("span", t("hand: {tiles}", {tiles: hand.join(", ")}), "sr-only"));
    else tiles.appendChild(el("span", t("out!"), "out"));
    for (const t of hand) { const d = el("span", null, "mini"); d.dataset.revealed = t; d.innerHTML = domino(t, true); tiles.appendChild(d); }
    li.appendChild(tiles);
    li.appendChild(el("span", "+" + I18N.number(end.penalties[s]), "penalty"));
    list.appendChild(li);
  });
  box.appendChild(list);
  const bar = el("div", null, "end-bar");
  box.insertBefore(bar, list);
  if (end.svg) {
    const board = el("details", null, "final");
    board.appendChild(el("summary", t("The final board")));
    const pic = el("div", null, "final-picture"); pic.innerHTML = end.svg;
    if (pic.firstElementChild) nameTexts(m, pic.firstElementChild);
    board.appendChild(pic);
    board.open = window.innerWidth >= 700;
    box.appendChild(board);
  }
  const wrap = el("div", null, "scroll-x"); wrap.appendChild(sheet(m)); box.appendChild(wrap);
  box.appendChild(dealCheck(end));
  const me = m.you !== null && m.seats[m.you].kind === "person";
  const waitingFor = ready => m.seats.filter(s => s.kind === "person" && s.connected && !ready.includes(s.seat)).map(s => s.name);
  if (m.over) {
    const order = m.seats.map(s => s.seat).sort((a, b) => m.totals[a] - m.totals[b]);
    const ol = el("ol", null, "standings");
    for (const s of order) ol.appendChild(el("li", t("{player}: {points}", {player: nameOf(m, s), points: I18N.number(m.totals[s])})));
    box.insertBefore(el("p", resultText(m), "result"), bar);
    box.insertBefore(ol, bar);
    if (me) {
      const asked = (m.rematch || []).includes(m.you);
      const b = el("button", asked ? t("Waiting for {players}", {players: waitingFor(m.rematch || []).join(", ")}) : t("Rematch: a new match, same seats"), "primary");
      b.type = "button"; b.dataset.rematch = ""; b.disabled = asked;
      b.addEventListener("click", () => { client.send("rematch"); b.disabled = true; b.textContent = t("Waiting for the others…"); });
      bar.appendChild(b);
    }
  } else if (m.pause) {
    const asked = m.pause.ready.includes(m.you);
    const left = el("span", "", "countdown");
    const until = Date.now() + m.pause.seconds * 1000;
    const count = () => { left.textContent = t("Next round in {seconds} s", {seconds: Math.max(0, Math.ceil((until - Date.now()) / 1000))}); };
    count(); tick = setInterval(count, 500);
    if (me) {
      const b = el("button", asked ? t("Waiting for {players}", {players: waitingFor(m.pause.ready).join(", ")}) : t("Deal the next round"), "primary");
      b.type = "button"; b.dataset.next = ""; b.disabled = asked;
      b.addEventListener("click", () => { client.send("next"); b.disabled = true; });
      bar.appendChild(b);
    }
    bar.appendChild(left);
  } else {
    const b = el("button", t("Back to the game")); b.type = "button";
    b.addEventListener("click", () => { dismissed = end.round; drawRoundEnd(last); });
    bar.appendChild(b);
  }
  if (window.roundEndExtras) window.roundEndExtras(m, bar);  // the review's button (coach.js)
  if (!wasShown) box.focus({preventScroll: true});
}

// -- Records: this seat's copy, the public copy, the full copy of a finished round, as
// notation files (docs/notation.md), fetched with the seat's token and saved from a Blob. --
function recordLinks() {
  const box = $("record-links");
  if (!box) return;
  const links = [
    ["own", token || window.playRecord ? t("Download my copy of this round") : t("Download the public copy of this round"), () => ({})],
    ["full", t("Download the full copy of the last finished round"), () => last && last.last_round ? {audience: "full", round: String(last.last_round.round)} : null],
  ];
  for (const [kind, label, query] of links) {
    const b = el("button", label); b.type = "button"; b.dataset.record = kind;
    b.addEventListener("click", () => downloadRecord(query()));
    box.appendChild(b);
  }
}
// Why a download was refused, in the reader's language: by the answer's status (the server's
// sentence, English, inside a translated one where the status says no more).
async function downloadError(r) {
  const d = await r.json().catch(() => ({}));
  const seconds = parseInt(r.headers.get("retry-after") || "", 10);
  if (r.status === 429 && seconds > 0) return tn("Too many downloads from your address: try again in {n} second.", "Too many downloads from your address: try again in {n} seconds.", seconds, {n: seconds});
  if (r.status === 404) return t("There is no such round at this table.");
  if (r.status === 503) return t("The server cannot write the record now: try again in a moment.");
  return d.error ? t("The record could not be downloaded: {reason}", {reason: d.error}) : t("The record could not be downloaded.");
}
async function downloadRecord(query) {
  if (query === null) { showError(t("No round has finished yet: the full copy is given once a round is over.")); return; }
  if (window.playRecord) {  // the Play page: the library in the browser writes it
    const d = JSON.parse(await window.playRecord(query));
    if (d.error) showError(d.error); else saveRecord(new Blob([d.text], {type: "text/plain"}), d.name);
    return;
  }
  const headers = token ? {Authorization: "Bearer " + token} : {};
  const r = await fetch("/api/tables/" + encodeURIComponent(tableId) + "/record?" + new URLSearchParams(query), {headers});
  if (!r.ok) { showError(await downloadError(r)); return; }
  const name = (/filename="([^"]+)"/.exec(r.headers.get("content-disposition") || "") || [])[1] || "round.cfn";
  saveRecord(await r.blob(), name);
}
function saveRecord(blob, name) {
  const a = el("a"); a.href = URL.createObjectURL(blob); a.download = name;
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
I18N.ready.then(recordLinks);  // in the page's language: once its words are known

function showError(text) { const e = $("error"); e.textContent = text; e.hidden = !text; }

// The table is drawn once the page's words are known (i18n.js).
const STATUS = {connected: () => t("connected"), disconnected: () => t("disconnected"), "reconnecting…": () => t("reconnecting…")};
let client = {move: () => false, send() {}, sendMessage() {}};
I18N.ready.then(() => {
  client = connectTable(tableId, token, {
    onView: drawTable,
    onGo,
    onError(text) { showError(text); },
    onAny(m) { if (window.coachMessage) window.coachMessage(m); },
    onStatus(text, online) { $("status").textContent = STATUS[text] ? STATUS[text]() : text; $("status").className = "status" + (online ? "" : " off"); },
  });
});
