// The Play page's review after a round and its hints (docs/analysis.md), added to the
// table page of `chickenfoot serve` (table.js, unchanged) by the site's build: a file of
// its own, loaded after the client. The worker's table answers (tableplay.py: review,
// hint) through socket.js (window.playAsk): the library's analysis, in the browser.
//
// At a round's end, "Review my decisions" shows your decisions of that round valued from
// what you knew then, biggest loss first, each with the table as you saw it and the
// better move glowing where it goes. With hints (the Play page's option, off by default;
// the table says while they are on), "Show a hint" gives the search player's move from
// your own view. Every sentence goes through t() (i18n.js); the pictures are the
// library's, made by the worker from this site's own files.
"use strict";
(function () {
  const $ = id => document.getElementById(id);
  const settings = window.playSettings || {};
  const make = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const timings = window.playTimings || {};
  timings.review = [];
  timings.hint = [];

  // -- the review, beside the round's end --
  const box = make("section", null, "play-review");
  box.id = "play-review";
  box.hidden = true;
  box.setAttribute("aria-labelledby", "play-review-title");
  const end = $("round-end");
  end.after(box);
  let offers = 0;        // round ends seen: a review answers the one it was asked at
  let seen = null;       // the round whose end is shown now
  let kept = false;      // a review made stays, through the next round, until closed

  function roundShown() {
    if (end.hidden || !end.dataset.round) return null;
    const n = Number(end.dataset.round.split(":")[0]);
    return Number.isInteger(n) ? n : null;
  }

  function offer(round) {
    offers += 1;
    kept = false;
    box.textContent = "";
    box.hidden = false;
    box.dataset.round = String(round);
    const title = make("h2", t("Your decisions in this round, biggest loss first"));
    title.id = "play-review-title";
    box.appendChild(title);
    const b = make("button", t("Review my decisions"), "primary");
    b.type = "button";
    b.dataset.review = "";
    const asked = offers;
    b.addEventListener("click", () => review(round, b, asked));
    box.appendChild(b);
    box.appendChild(make("p", t("The library replays each of your decisions on deals sampled from what you could see; it takes a few seconds."), "hint"));
  }

  function sentence(d) {
    const said = {number: d.number, move: d.move, best: d.best, points: I18N.number(d.loss)};
    if (d.glyph === "?!") return t("Move {number}: you played {move}; {best} was better by {points} expected penalty points (an inaccuracy, ?!).", said);
    if (d.glyph === "?") return t("Move {number}: you played {move}; {best} was better by {points} expected penalty points (a mistake, ?).", said);
    if (d.glyph === "??") return t("Move {number}: you played {move}; {best} was better by {points} expected penalty points (a blunder, ??).", said);
    return t("Move {number}: you played {move}; {best} was better by {points} expected penalty points.", said);
  }

  async function review(round, button, asked) {
    button.disabled = true;
    const status = make("p", t("Reviewing your decisions…"), "hint");
    status.setAttribute("role", "status");
    box.appendChild(status);
    const began = performance.now();
    const reply = await window.playAsk("review", {round, lang: I18N.lang()});
    const answer = JSON.parse(reply.answer);
    timings.review.push({ms: performance.now() - began, worker: reply.ms, decisions: answer.decisions_count});
    if (asked !== offers) return;  // another round's end meanwhile
    kept = true;
    button.remove();
    status.remove();
    for (const p of box.querySelectorAll("p.hint")) p.remove();
    if (answer.error) { box.appendChild(make("p", t("The review could not be made: {reason}", {reason: answer.error}), "error")); return; }
    if (!answer.decisions_count) box.appendChild(make("p", t("You had no choice to make in this round: nothing to review.")));
    else if (!answer.decisions.length) box.appendChild(make("p", t("Every move you chose was the best one found from what you could see.")));
    const list = make("ol", null, "review-list");
    for (const d of answer.decisions) {
      const li = make("li");
      li.dataset.ply = String(d.ply);
      li.dataset.best = d.best;
      const fig = make("figure");
      fig.appendChild(make("figcaption", sentence(d)));
      const pic = make("div", null, "review-picture");
      pic.innerHTML = d.svg;  // the library's picture, made by the worker from this site's files
      const svg = pic.querySelector("svg");
      if (svg) {
        svg.setAttribute("role", "img");
        svg.setAttribute("aria-label", d.best === "draw" || d.best === "pass"
          ? t("The table before move {number}, as you saw it.", d)
          : t("The table before move {number}, as you saw it: the place of {best} glows.", d));
        for (const title of svg.querySelectorAll("title")) title.remove();
        svg.removeAttribute("height");
      }
      fig.appendChild(pic);
      li.appendChild(fig);
      list.appendChild(li);
    }
    box.appendChild(list);
    const seconds = I18N.number(Math.round(reply.ms / 100) / 10);
    box.appendChild(make("p", tn("Reviewed {n} decision, from {deals} sampled deals each, in {seconds} s.",
      "Reviewed {n} decisions, from {deals} sampled deals each, in {seconds} s.", answer.decisions_count,
      {n: I18N.number(answer.decisions_count), deals: I18N.number(answer.iterations), seconds}), "hint"));
    const close = make("button", t("Close the review"));
    close.type = "button";
    close.addEventListener("click", () => { kept = false; box.hidden = true; box.textContent = ""; });
    box.appendChild(close);
  }

  // The offer follows the round's end; a review made stays until closed.
  function follow() {
    const round = roundShown();
    if (round !== null && round !== seen) { seen = round; offer(round); }
    else if (round === null) {
      seen = null;
      if (!kept) { box.hidden = true; box.textContent = ""; delete box.dataset.round; }
    }
  }
  new MutationObserver(follow).observe(end, {attributes: true, attributeFilter: ["hidden", "data-round"]});

  // -- hints, when the game was started with them (made once the page's words are known) --
  function hints() {
    const hintBox = make("div", null, "play-hints");
    hintBox.id = "play-hints";
    const on = make("p", t("Hints are on at this table: ask for one at your turn."), "hints-on");
    const ask = make("button", t("Show a hint"));
    ask.type = "button";
    ask.dataset.hint = "";
    const said = make("p", "", "hint-said");
    said.setAttribute("aria-live", "polite");
    hintBox.append(on, ask, said);
    $("hand-box").insertBefore(hintBox, $("hand"));
    let asked = null;
    ask.addEventListener("click", async () => {
      if (!document.querySelector("#hand button.tile.playable, #actions button[data-move]")) {
        said.textContent = t("A hint is for your turn.");
        return;
      }
      ask.disabled = true;
      said.textContent = t("Thinking…");
      const n = document.body.dataset.n;
      asked = n;
      const began = performance.now();
      const reply = await window.playAsk("hint", {});
      timings.hint.push(performance.now() - began);
      ask.disabled = false;
      if (asked !== document.body.dataset.n) return;  // a move was made meanwhile
      const h = JSON.parse(reply.answer);
      said.textContent = h.error ? t("No hint: {reason}", {reason: h.error})
        : t("Hint: {move} (expected penalty {penalty}, win share {share}%, from {deals} sampled deals).",
          {move: h.move, penalty: I18N.number(h.penalty), share: h.win, deals: I18N.number(h.deals)});
      said.dataset.move = h.move || "";
    });
    // a hint is for the move it was asked at
    new MutationObserver(() => { if (asked !== document.body.dataset.n) { said.textContent = ""; delete said.dataset.move; } })
      .observe(document.body, {attributes: true, attributeFilter: ["data-n"]});
  }

  // the Play page around this frame: its words marked data-t (the settings) in this language
  I18N.ready.then(() => {
    if (settings.hints) hints();
    try { if (window.parent !== window && window.parent.document) I18N.translatePage(window.parent.document); } catch (e) { /* another site's frame */ }
  });
})();
