// The Puzzles page's board: a few puzzles to play in the page, in plain JavaScript (no
// Python in the browser). Its data, puzzles.json beside it, is made by
// tools/puzzles_page.py from chickenfoot.puzzles: each puzzle's picture (every hand open),
// its legal moves, the answer and the exact solver's penalties after each move. Choose a
// move; the page says whether it is the answer, shows the solver's values and, on the
// picture, the place of the answer. Every sentence goes through t() (i18n.js, the pages'
// catalogs, in the reader's language); everything comes from this site.
"use strict";
(function () {
  const root = document.getElementById("puzzle-play");
  if (!root) return;
  const make = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  let puzzles = [], at = 0;

  function penalties(values) { return values.map(v => I18N.number(v)).join(" · "); }

  function show(i) {
    at = i;
    const p = puzzles[i];
    const board = root.querySelector(".puzzle-board");
    board.textContent = "";
    const title = make("h3", t("Puzzle {id} (grade {grade} of 5)", {id: p.id, grade: p.grade}));
    title.id = "puzzle-title";
    title.tabIndex = -1;
    board.appendChild(title);
    board.appendChild(make("p", t("{n} of {count}", {n: i + 1, count: puzzles.length}), "puzzle-count"));
    board.appendChild(make("p", t("Seat {seat} is to play, with every hand open. Which move leaves seat {seat} the fewest points at the end of the round?", {seat: p.seat}), "puzzle-task"));
    const pic = make("div", null, "puzzle-picture");
    pic.innerHTML = p.svg;  // the library's picture, from this site's puzzles.json
    pic.tabIndex = 0;  // it pans on a phone: the keyboard pans it too
    const svg = pic.querySelector("svg");
    if (svg) {
      for (const title of svg.querySelectorAll(":scope > title")) title.remove();
      svg.setAttribute("role", "img");
      const hands = p.hands.map((h, s) => t("seat {seat}: {tiles}", {seat: s, tiles: h.length ? h.join(", ") : "—"})).join("; ");
      svg.setAttribute("aria-label", t("The table of puzzle {id}, every hand open ({hands})", {id: p.id, hands}));
      svg.removeAttribute("height");
    }
    board.appendChild(pic);
    const choices = make("div", null, "puzzle-moves");
    choices.setAttribute("role", "group");
    choices.setAttribute("aria-label", t("The legal moves of seat {seat}", {seat: p.seat}));
    for (const move of p.legal) {
      const b = make("button", move);
      b.type = "button";
      b.dataset.move = move;
      b.addEventListener("click", () => answer(p, move));
      choices.appendChild(b);
    }
    board.appendChild(choices);
    const said = make("div", null, "puzzle-said");
    said.setAttribute("aria-live", "polite");
    board.appendChild(said);
    root.querySelector("[data-prev]").disabled = i === 0;
    root.querySelector("[data-next]").disabled = i === puzzles.length - 1;
  }

  function answer(p, move) {
    const board = root.querySelector(".puzzle-board");
    const said = board.querySelector(".puzzle-said");
    said.textContent = "";
    const me = p.seat, best = p.values[p.legal.indexOf(p.answer)][me];
    const mine = p.values[p.legal.indexOf(move)][me];
    const right = move === p.answer;
    const verdict = make("p", right
      ? t("Right: {move} is the answer, {margin} points better for seat {seat} than any other move.", {move, margin: I18N.number(p.margin), seat: me})
      : t("Not this one: after {move} seat {seat} ends the round with {points} points; the answer, {answer}, leaves it {best}.", {move, seat: me, points: I18N.number(mine), answer: p.answer, best: I18N.number(best)}),
      right ? "puzzle-right" : "puzzle-wrong");
    verdict.dataset.verdict = right ? "right" : "wrong";
    said.appendChild(verdict);
    for (const b of board.querySelectorAll(".puzzle-moves button")) {
      b.classList.toggle("chosen", b.dataset.move === move);
      b.classList.toggle("answer", b.dataset.move === p.answer);
    }
    // the answer's place, on the picture
    for (const g of board.querySelectorAll(".puzzle-picture g.target")) g.classList.toggle("shown", g.dataset.move === p.answer);
    // the solver's values: every legal move, the penalties it leads to
    const wrap = make("div", null, "puzzle-values");
    const table = make("table");
    table.appendChild(make("caption", t("The exact solver's penalties at the end of the round after each move (every seat playing its best)")));
    const head = make("tr");
    head.appendChild(make("th", t("Move")));
    head.appendChild(make("th", t("Seat {seat}'s penalty", {seat: me})));
    head.appendChild(make("th", t("Every seat's penalty, seat 0 first")));
    for (const th of head.children) th.scope = "col";
    const thead = make("thead"); thead.appendChild(head); table.appendChild(thead);
    const body = make("tbody");
    p.legal.forEach((m, k) => {
      const tr = make("tr");
      if (m === p.answer) tr.className = "answer";
      const th = make("th", m === p.answer ? t("{move} (the answer)", {move: m}) : m);
      th.scope = "row";
      tr.appendChild(th);
      tr.appendChild(make("td", I18N.number(p.values[k][me])));
      tr.appendChild(make("td", penalties(p.values[k])));
      body.appendChild(tr);
    });
    table.appendChild(body);
    wrap.appendChild(table);
    said.appendChild(wrap);
  }

  function start(data) {
    puzzles = data.puzzles;
    root.textContent = "";
    root.appendChild(make("span")).id = "lang-slot";
    const bar = make("div", null, "puzzle-bar");
    const prev = make("button", t("Previous puzzle"));
    prev.type = "button"; prev.dataset.prev = "";
    prev.addEventListener("click", () => { show(at - 1); root.querySelector("#puzzle-title").focus(); });
    const next = make("button", t("Next puzzle"));
    next.type = "button"; next.dataset.next = "";
    next.addEventListener("click", () => { show(at + 1); root.querySelector("#puzzle-title").focus(); });
    bar.append(prev, next);
    root.appendChild(make("div", null, "puzzle-board"));
    root.appendChild(bar);
    show(0);
  }

  Promise.all([fetch(new URL("puzzles.json", document.currentScript ? document.currentScript.src : location.href)).then(r => r.json()), I18N.ready])
    .then(([data]) => start(data))
    .catch(() => { root.querySelector("p").textContent = t("The puzzles could not be loaded."); });
})();
