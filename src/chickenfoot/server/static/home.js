// The home page of chickenfoot serve: make a table (its seats, rules and invite links), or
// play against bots in one click. A file of its own: the pages run no inline script.
"use strict";
const form = document.getElementById("make");
const seatsBox = document.getElementById("seats");
let engines = [], policies = [], inviteUrls = null;
// Opened as 127.0.0.1 or localhost, the page is on this computer: links made from its own
// address would work nowhere else. The server says where the network reaches it.
const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/;
function inviteBase() {
  if (!LOOPBACK.test(location.hostname) || !inviteUrls || !inviteUrls.length) return location.origin;
  return inviteUrls[0];
}
function inviteNote() {
  if (!LOOPBACK.test(location.hostname) || inviteUrls === null) return "";
  if (!inviteUrls.length) {
    return t("This server listens on this computer only, so these links open here and nowhere else. To invite people on your network, start it again with chickenfoot serve --host 0.0.0.0.");
  }
  const values = {host: location.hostname, url: inviteUrls[0], others: inviteUrls.slice(1).join(", ")};
  return inviteUrls.length > 1
    ? t("You opened this page as {host}, which is this computer: the links below use {url}, where the people on your network reach this server (it also answers at {others}).", values)
    : t("You opened this page as {host}, which is this computer: the links below use {url}, where the people on your network reach this server.", values);
}
// The levels (chickenfoot.levels), weakest first, each with its label (whole, to translate).
const LEVELS = ["level:1", "level:2", "level:3", "level:4", "level:5"];
function levelLabel(v) {
  switch (v) {
    case "level:1": return t("bot: level 1, beginner");
    case "level:2": return t("bot: level 2, novice");
    case "level:3": return t("bot: level 3, intermediate");
    case "level:4": return t("bot: level 4, advanced");
    case "level:5": return t("bot: level 5, expert");
    default: return null;
  }
}
function bots() {
  return ["heuristic", "greedy", "random", "search:64"].concat(LEVELS,
    engines.map(e => "engine:" + e), policies.map(p => "policy:" + p));
}
// The seats' rows, made once each and kept: changing the number of players adds or takes
// rows at the end and never remakes a row, so a name being typed (or a box just clicked)
// stays where it is, and a row taken away comes back as it was.
const rows = [];
function seatRow(i) {
  const div = document.createElement("div");
  div.className = "seat";
  const label = document.createElement("label");
  label.textContent = t("Seat {seat}", {seat: i + 1}) + " ";
  const sel = document.createElement("select");
  sel.dataset.first = i < 2 ? "person" : "heuristic";
  const name = document.createElement("input"); name.placeholder = t("name"); name.maxLength = 40;
  name.setAttribute("aria-label", t("Seat {seat} name", {seat: i + 1}));
  label.appendChild(sel); label.appendChild(document.createTextNode(" ")); label.appendChild(name);
  div.appendChild(label);
  return div;
}
function fillBots(sel) {  // the choices of a seat, the engines included once they are known
  const values = ["person"].concat(bots());
  if (sel.options.length === values.length) return;
  const chosen = sel.value || sel.dataset.first;
  sel.textContent = "";
  for (const v of values) {
    const o = document.createElement("option"); o.value = v; o.textContent = v === "person" ? t("a person (invite link)") : (levelLabel(v) || t("bot: {name}", {name: v})); sel.appendChild(o);
  }
  sel.value = values.includes(chosen) ? chosen : sel.dataset.first;
}
function drawSeats() {
  const n = Math.max(2, Math.min(8, parseInt(form.players.value, 10) || 4));
  while (rows.length < n) rows.push(seatRow(rows.length));
  rows.forEach((row, i) => {
    if (i < n && row.parentNode !== seatsBox) seatsBox.appendChild(row);
    else if (i >= n && row.parentNode === seatsBox) row.remove();
    fillBots(row.querySelector("select"));
  });
}
// Why the server made no table, in the reader's language: by the answer's status (the
// server's sentence, English, inside a translated one where the status says no more: a
// table's options the server refuses are named in the library's words).
function refusal(r, out) {
  const seconds = parseInt(r.headers.get("retry-after") || "", 10);
  if (r.status === 429 && seconds > 0) return tn("Too many tables were made from your address: try again in {n} second.", "Too many tables were made from your address: try again in {n} seconds.", seconds, {n: seconds});
  if (r.status === 403) return t("Making tables on this server needs its table key: ask the person who runs it.");
  if (r.status === 503) return t("The server cannot make a table now: try again in a moment.");
  return out.error ? t("The table could not be made: {reason}", {reason: out.error}) : t("The table could not be made.");
}
async function post(url, data) {
  const headers = {"Content-Type": "application/json"};
  const key = document.getElementById("key").value;
  // percent-encoded: a header cannot carry every character a key may have (the server
  // takes the key's UTF-8 bytes as they are, or percent-encoded)
  if (key) { headers["X-Table-Key"] = encodeURIComponent(key); sessionStorage.setItem("tableKey", key); }
  const r = await fetch(url, {method: "POST", headers, body: JSON.stringify(data)});
  const out = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(refusal(r, out));
  return out;
}
form.players.addEventListener("input", drawSeats);  // as it is typed, not on leaving it
form.players.addEventListener("change", drawSeats);
form.addEventListener("submit", async ev => {
  ev.preventDefault();
  const err = document.getElementById("error"); err.textContent = "";
  const rules = {};
  if (form.max_pip.value) rules.max_pip = parseInt(form.max_pip.value, 10);
  if (form.hand_size.value) rules.hand_size = parseInt(form.hand_size.value, 10);
  if (form.rounds.value) rules.match = {rounds: parseInt(form.rounds.value, 10)};
  if (form.draw.value) rules.draw = form.draw.value;
  if (form.centre.value) rules.centre = form.centre.value;
  const seats = [...seatsBox.querySelectorAll(".seat")].map(d => {
    const kind = d.querySelector("select").value, name = d.querySelector("input").value || undefined;
    return kind === "person" ? {kind: "person", name} : {kind: "bot", spec: kind, name};
  });
  try {
    const made = await post("/api/tables", {preset: form.preset.value, players: seats.length, rules, seats, hints: form.hints.checked});
    const ul = document.getElementById("links"); ul.textContent = "";
    const invite = (who, link, note) => {
      const url = inviteBase() + link;
      const li = document.createElement("li");
      const title = document.createElement("span"); title.className = "who"; title.textContent = who; li.appendChild(title);
      const box = document.createElement("input"); box.readOnly = true; box.value = url; box.setAttribute("aria-label", t("Link for {player}", {player: who}));
      box.addEventListener("focus", () => box.select()); li.appendChild(box);
      const buttons = document.createElement("div"); buttons.className = "buttons";
      const open = document.createElement("a"); open.className = "button"; open.href = link; open.textContent = note; open.target = "_blank"; open.rel = "noopener";
      buttons.appendChild(open);
      const copy = document.createElement("button"); copy.type = "button"; copy.textContent = t("Copy link"); copy.dataset.copy = url;
      copy.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(url); } catch (e) { box.focus(); box.select(); document.execCommand("copy"); }
        copy.textContent = t("Copied ✓");
      });
      buttons.appendChild(copy);
      if (navigator.share) {
        const share = document.createElement("button"); share.type = "button"; share.textContent = t("Share…");
        share.addEventListener("click", () => navigator.share({title: "Chicken Foot", text: t("Your seat at our Chicken Foot table ({player})", {player: who}), url}).catch(() => {}));
        buttons.appendChild(share);
      }
      li.appendChild(buttons);
      ul.appendChild(li);
    };
    let first = true;
    for (const s of made.seats) {
      if (!s.link) continue;
      invite(s.name, s.link, first ? t("Open my seat") : t("Open this seat"));
      first = false;
    }
    invite(t("Anyone watching (no hand)"), made.watch, t("Watch"));
    const note = document.getElementById("invite-note");
    note.textContent = inviteNote();
    note.hidden = !note.textContent;
    document.getElementById("made").hidden = false;
    document.getElementById("made-title").focus();
  } catch (e) { err.textContent = e.message; }
});
document.getElementById("quick").addEventListener("click", async () => {
  try {
    const made = await post("/api/play", {players: parseInt(document.getElementById("quick-players").value, 10), bot: document.getElementById("quick-bot").value, hints: document.getElementById("quick-hints").checked});
    location.href = made.link;
  } catch (e) { document.getElementById("quick-error").textContent = e.message; }
});
document.getElementById("key").value = sessionStorage.getItem("tableKey") || "";
// the seats' rows are made in the page's language: once its words are known (i18n.js)
I18N.ready.then(() => fetch("/api/options")).then(r => r.json()).then(o => {
  engines = o.engines || [];
  policies = o.policies || [];
  inviteUrls = Array.isArray(o.invite_urls) ? o.invite_urls : null;
  document.getElementById("key-row").hidden = !o.key;
  drawSeats();
}).catch(drawSeats);
I18N.ready.then(drawSeats);
