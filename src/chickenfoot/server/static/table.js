// chickenfoot serve: the table page. No build step, no dependency.
"use strict";

// -- The client: the only part of the page that knows how views arrive and moves leave. --
// connectTable(tableId, token, handlers) -> {move(notation), send(type)}
//   handlers.onView(tableMessage): the table as this seat may see it (after every change);
//   handlers.onGo(goMessage): this seat is to choose: the engine protocol's go;
//   handlers.onError(text), handlers.onStatus(text, online).
// It reconnects by itself (the server then sends the whole table again). Another client
// (one running the library in the page) would only have to provide these two directions.
// After a move within a round the server sends only what changed (a "moved" message); the
// client keeps the table and hands the page the whole of it every time.
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
        handlers.onError(m.message);
        if (m.fatal && /token|cross-origin|no table|opened elsewhere/.test(m.message)) stopped = true;
        else if (!m.fatal && pendingGo) handlers.onGo(pendingGo);  // a refused move: choose again
      }
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
function nameOf(m, s) { const seat = m && m.seats[s]; return seat ? seat.name : "seat " + s; }
function youName(m, s) { const name = nameOf(m, s); return s === m.you && name !== "You" ? name + " (you)" : name; }
// "seat 2 played 6-3@6-6" -> "Cleo played 6-3@6-6": the server's texts, with names.
function named(m, text) {
  return String(text).replace(/\bseat (\d+)/g, (_, s) => nameOf(m, Number(s)))
    .replace(/\bYou (wins|has|goes)\b/g, (_, verb) => "You " + {wins: "win", has: "have", goes: "go"}[verb]);
}
// The tile a move lays: "7-4@7-3" lays 7-4; "9-9" (the centre laid from the hand, when the
// holder opens the round: docs/formats.md, the move notation) lays 9-9; draw and pass none.
function tileOf(move) { return move === "draw" || move === "pass" ? null : move.split("@")[0]; }
function describe(move) {
  if (move === "draw") return "drew a tile";
  if (move === "pass") return "passed";
  const [tile, where] = move.split("@");
  return where ? "played " + tile + " on " + where : "laid the centre " + tile;
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
  $("who").textContent = you === null ? "Watching" : (m.seats[you].name === "You" ? "Your seat" : "Playing as " + m.seats[you].name);
  showError(m.error ? "The table is stopped: " + m.error : "");
  drawTurn(m);
  $("last").textContent = m.last ? "Last: " + named(m, m.last.text) : (m.over ? "" : "No move yet this round.");
  drawSeats(m);
  $("sheet").textContent = ""; $("sheet").appendChild(sheet(m));
  $("round-title").textContent = "Round " + (m.round + 1);
  $("log-box").hidden = m.over || !m.log.length;
  const log = $("log"); log.textContent = "";
  for (const e of m.log) log.appendChild(el("li", named(m, e.text), e.forced ? "forced" : ""));
  $("result").textContent = m.over ? named(m, m.result) : "";
  go = null;  // as the client: a go follows the table when this seat is to choose
  if (fresh) selected = null;
  if (newEnd) shownEnd = m.last_round.round;
  drawPicture(m);
  drawRoundEnd(m);
  drawHand();
}

function drawTurn(m) {
  const turn = $("turn"), you = m.you;
  let title;
  if (m.over) { turn.textContent = "The match is over: " + named(m, m.result); turn.className = "turn"; title = "Match over"; }
  else if (m.pause) { turn.textContent = "Round " + m.round + " is over."; turn.className = "turn"; title = "Round over"; }
  else if (you !== null && m.turn === you) { turn.textContent = "Your turn"; turn.className = "turn yours"; title = "▶ Your turn"; }
  else { turn.textContent = nameOf(m, m.turn) + " to play"; turn.className = "turn"; title = nameOf(m, m.turn) + " to play"; }
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
    const bits = [how];
    const tiles = ended ? ended[s.seat].length : s.tiles;
    if (tiles !== null) bits.push(tiles + (tiles === 1 ? " tile" : " tiles"));
    bits.push("total " + m.totals[s.seat]);
    li.appendChild(el("span", bits.join(" · "), "meta"));
    if (!m.over && !m.pause && s.seat === m.turn) { li.className = "now"; li.appendChild(el("span", "to play", "tag")); }
    seats.appendChild(li);
  }
  if (m.boneyard !== undefined && !m.pause) seats.appendChild(el("li", "Boneyard: " + m.boneyard + (m.boneyard === 1 ? " tile" : " tiles"), "bone"));
}

function sheet(m) {
  const t = el("table", null, "sheet");
  t.appendChild(el("caption", "Penalties by round (lowest total wins)", "sr-only"));
  const head = el("tr"); head.appendChild(el("th", "Round"));
  for (const s of m.seats) head.appendChild(el("th", s.name));
  t.appendChild(head);
  m.scores.forEach((row, i) => {
    const tr = el("tr"); tr.appendChild(el("td", String(i + 1)));
    for (const x of row) tr.appendChild(el("td", String(x)));
    t.appendChild(tr);
  });
  const tot = el("tr", null, "total"); tot.appendChild(el("th", "Total"));
  for (const x of m.totals) tot.appendChild(el("th", String(x)));
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
  $("board-caption").textContent = status;
  for (const t of svg.querySelectorAll(":scope > text")) {
    if (t.textContent === status || t.textContent.startsWith("last: ")) t.remove();
  }
}
function showTargets() {
  const svg = $("picture").querySelector("svg");
  if (!svg) return;
  for (const g of svg.querySelectorAll("g.target")) g.remove();
  const moves = selected && go ? playsOf(selected).filter(mv => targets.has(mv)) : [];
  svg.setAttribute("role", moves.length ? "group" : "img");
  if (moves.length) svg.setAttribute("aria-label", "The table: choose where " + selected + " goes");
  else svg.removeAttribute("aria-label");
  for (const mv of moves) {
    const g = targets.get(mv);
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.setAttribute("aria-label", "Play " + selected + " on " + (mv.split("@")[1] || "the centre"));
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
    if (tile === m.view.drawn) { b.classList.add("drawn"); label += ", the tile you drew"; }
    if (can) { b.classList.add("playable"); label += places === 1 ? ", plays in one place" : ", can go in " + places + " places"; }
    else if (go) { b.setAttribute("aria-disabled", "true"); label += ", cannot be played now"; }
    b.setAttribute("aria-label", label);
    if (tile === selected) { b.classList.add("selected"); b.setAttribute("aria-pressed", "true"); }
    else if (can) b.setAttribute("aria-pressed", "false");
    b.addEventListener("click", () => tap(tile));
    b.addEventListener("pointerdown", ev => dragStart(ev, tile));
    box.appendChild(b);
  }
  for (const mv of ["draw", "pass"]) {
    if (!legal.includes(mv)) continue;
    const b = el("button", mv === "draw" ? "Draw a tile" : "Pass", "action");
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
  if (!go) hint.textContent = m.turn === m.you ? "" : "Waiting for " + nameOf(m, m.turn) + ".";
  else if (selected) hint.textContent = "Tap a glowing place on the table for " + selected + (TOUCH ? " (tap it again to choose another tile)." : " (Esc to choose another tile).");
  else if (legal.length === 1) hint.textContent = "Your only move: " + (tileOf(legal[0]) ? "tap " + tileOf(legal[0]) : (legal[0] === "draw" ? "draw a tile" : "pass")) + ".";
  else if (playable.size) hint.textContent = "Tap a tile that can be played (outlined), then where it goes.";
  else hint.textContent = "No tile fits: " + (legal.includes("draw") ? "draw one." : "pass.");
}
function tap(tile) {
  if (dragged) return;  // the click that ends a drag
  const plays = playsOf(tile);
  if (!plays.length) { $("hint").textContent = go ? tile + " cannot be played now." : "It is not your turn."; return; }
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
function onGo(m) {
  if (m.id !== goId) { selected = null; $("auto-note").textContent = ""; }
  go = m; goId = m.id;
  setTargets(m.targets);
  if (m.legal.length === 1 && localStorage.getItem(AUTO) === "1") {
    const move = m.legal[0];
    setTimeout(() => {
      if (go !== m) return;
      play(move);
      $("auto-note").textContent = "Auto-play: you " + describe(move) + ", your only move.";
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
  const title = el("h2", named(m, "Round " + (end.round + 1) + ": " + winners.map(s => nameOf(m, s)).join(" and ") +
    (end.out !== null && end.out !== undefined ? " went out" : (winners.length > 1 ? " share the lowest hand" : " has the lowest hand (blocked)"))));
  title.id = "round-end-title";
  box.appendChild(title);
  const list = el("ul", null, "reveal");
  end.hands.forEach((hand, s) => {
    const li = el("li"); li.dataset.seat = String(s);
    if (winners.includes(s)) li.classList.add("won");
    li.appendChild(el("span", youName(m, s), "name"));
    const tiles = el("span", null, "tiles");
    if (hand.length) tiles.appendChild(el("span", "hand: " + hand.join(", "), "sr-only"));
    else tiles.appendChild(el("span", "out!", "out"));
    for (const t of hand) { const d = el("span", null, "mini"); d.dataset.revealed = t; d.innerHTML = domino(t, true); tiles.appendChild(d); }
    li.appendChild(tiles);
    li.appendChild(el("span", "+" + end.penalties[s], "penalty"));
    list.appendChild(li);
  });
  box.appendChild(list);
  const bar = el("div", null, "end-bar");
  box.insertBefore(bar, list);
  if (end.svg) {
    const board = el("details", null, "final");
    board.appendChild(el("summary", "The final board"));
    const pic = el("div", null, "final-picture"); pic.innerHTML = end.svg;
    if (pic.firstElementChild) nameTexts(m, pic.firstElementChild);
    board.appendChild(pic);
    board.open = window.innerWidth >= 700;
    box.appendChild(board);
  }
  const wrap = el("div", null, "scroll-x"); wrap.appendChild(sheet(m)); box.appendChild(wrap);
  const me = m.you !== null && m.seats[m.you].kind === "person";
  const waitingFor = ready => m.seats.filter(s => s.kind === "person" && s.connected && !ready.includes(s.seat)).map(s => s.name);
  if (m.over) {
    const order = m.seats.map(s => s.seat).sort((a, b) => m.totals[a] - m.totals[b]);
    const ol = el("ol", null, "standings");
    for (const s of order) ol.appendChild(el("li", nameOf(m, s) + ": " + m.totals[s]));
    box.insertBefore(el("p", named(m, m.result), "result"), bar);
    box.insertBefore(ol, bar);
    if (me) {
      const asked = (m.rematch || []).includes(m.you);
      const b = el("button", asked ? "Waiting for " + waitingFor(m.rematch || []).join(", ") : "Rematch: a new match, same seats", "primary");
      b.type = "button"; b.dataset.rematch = ""; b.disabled = asked;
      b.addEventListener("click", () => { client.send("rematch"); b.disabled = true; b.textContent = "Waiting for the others…"; });
      bar.appendChild(b);
    }
  } else if (m.pause) {
    const asked = m.pause.ready.includes(m.you);
    const left = el("span", "", "countdown");
    const until = Date.now() + m.pause.seconds * 1000;
    const count = () => { left.textContent = "Next round in " + Math.max(0, Math.ceil((until - Date.now()) / 1000)) + " s"; };
    count(); tick = setInterval(count, 500);
    if (me) {
      const b = el("button", asked ? "Waiting for " + waitingFor(m.pause.ready).join(", ") : "Deal the next round", "primary");
      b.type = "button"; b.dataset.next = ""; b.disabled = asked;
      b.addEventListener("click", () => { client.send("next"); b.disabled = true; });
      bar.appendChild(b);
    }
    bar.appendChild(left);
  } else {
    const b = el("button", "Back to the game"); b.type = "button";
    b.addEventListener("click", () => { dismissed = end.round; drawRoundEnd(last); });
    bar.appendChild(b);
  }
  if (!wasShown) box.focus({preventScroll: true});
}

// -- Records: this seat's copy, the public copy, the full copy of a finished round, as
// notation files (docs/notation.md), fetched with the seat's token and saved from a Blob. --
function recordLinks() {
  const box = $("record-links");
  if (!box) return;
  const links = [
    ["own", token || window.playRecord ? "Download my copy of this round" : "Download the public copy of this round", () => ({})],
    ["full", "Download the full copy of the last finished round", () => last && last.last_round ? {audience: "full", round: String(last.last_round.round)} : null],
  ];
  for (const [kind, label, query] of links) {
    const b = el("button", label); b.type = "button"; b.dataset.record = kind;
    b.addEventListener("click", () => downloadRecord(query()));
    box.appendChild(b);
  }
}
async function downloadRecord(query) {
  if (query === null) { showError("No round has finished yet: the full copy is given once a round is over."); return; }
  if (window.playRecord) {  // the Play page: the library in the browser writes it
    const d = JSON.parse(await window.playRecord(query));
    if (d.error) showError(d.error); else saveRecord(new Blob([d.text], {type: "text/plain"}), d.name);
    return;
  }
  const headers = token ? {Authorization: "Bearer " + token} : {};
  const r = await fetch("/api/tables/" + encodeURIComponent(tableId) + "/record?" + new URLSearchParams(query), {headers});
  if (!r.ok) { const d = await r.json().catch(() => ({})); showError(d.error || "The record could not be downloaded."); return; }
  const name = (/filename="([^"]+)"/.exec(r.headers.get("content-disposition") || "") || [])[1] || "round.cfn";
  saveRecord(await r.blob(), name);
}
function saveRecord(blob, name) {
  const a = el("a"); a.href = URL.createObjectURL(blob); a.download = name;
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
recordLinks();

function showError(text) { const e = $("error"); e.textContent = text; e.hidden = !text; }

const client = connectTable(tableId, token, {
  onView: drawTable,
  onGo,
  onError(text) { showError(text); },
  onStatus(text, online) { $("status").textContent = text; $("status").className = "status" + (online ? "" : " off"); },
});
