// chickenfoot serve: hints during a round and the review after it (docs/serve.md, "Hints and
// reviews"; the analysis: docs/analysis.md). table.js hands every message to coachMessage and
// the round-end view's button bar to roundEndExtras; this file asks through table.js's client
// ({type: "hint"}, {type: "review"}) and draws the answers, which only this seat is sent.
"use strict";

(() => {
  const DOCS = "https://chickenfoot.readthedocs.io/en/latest/serve/#hints-and-reviews";
  const ANALYSIS = "https://chickenfoot.readthedocs.io/en/latest/analysis/";
  const byId = id => document.getElementById(id);
  let hints = false, you = null, goN = null, asking = false, shown = null, reviewing = null, view = null;

  function drawHints() {
    byId("coach-on").hidden = !hints;
    byId("coach-box").hidden = !(hints && you !== null);
    const ask = byId("coach-ask");
    ask.disabled = asking || goN === null;
    ask.textContent = asking ? t("Working out a hint…") : t("Ask for a hint");
    if (shown !== null && shown !== goN) { byId("coach-answer").textContent = ""; shown = null; }
  }

  function hintText(m) {
    return t("Hint: {move} (expected penalty {penalty}, win share {share}%, from {deals} sampled deals).",
      {move: m.move, penalty: I18N.number(m.penalty), share: I18N.number(Math.round(100 * m.win)), deals: I18N.number(m.deals)});
  }

  function lossText(d) {
    const said = {number: I18N.number(d.ply + 1), move: d.move, best: d.best, points: I18N.number(d.loss)};
    if (d.glyph === "?!") return t("Move {number}: you played {move}; {best} was better by {points} expected penalty points (an inaccuracy, ?!).", said);
    if (d.glyph === "?") return t("Move {number}: you played {move}; {best} was better by {points} expected penalty points (a mistake, ?).", said);
    if (d.glyph === "??") return t("Move {number}: you played {move}; {best} was better by {points} expected penalty points (a blunder, ??).", said);
    return t("Move {number}: you played {move}; {best} was better by {points} expected penalty points.", said);
  }

  function link(text, href) {
    const a = document.createElement("a"); a.href = href; a.textContent = text; a.target = "_blank"; a.rel = "noopener";
    return a;
  }

  function drawReview(m) {
    const box = byId("review-box");
    box.textContent = "";
    box.hidden = false;
    const title = el("h2", t("Your decisions in this round, biggest loss first")); title.id = "review-title";
    box.appendChild(title);
    if (m === null) {
      box.appendChild(el("p", t("Working out the review…"), "hint"));
    } else if (m.error) {
      box.appendChild(el("p", m.error, "error"));
    } else if (m.decisions === 0) {
      box.appendChild(el("p", t("You had no choice to make in this round: nothing to review.")));
    } else if (!m.lost.length) {
      box.appendChild(el("p", t("Every move you chose was the best one found from what you could see.")));
    }
    const list = el("ol", null, "review");
    for (const d of (m && m.lost) || []) {
      const li = el("li");
      li.appendChild(el("p", lossText(d), "loss"));
      const pic = el("div", null, "review-picture"); pic.innerHTML = d.svg;
      const picture = pic.firstElementChild;
      if (picture) {
        picture.setAttribute("role", "img");
        picture.setAttribute("aria-label", t("The table at move {number}, with the better move's place glowing", {number: I18N.number(d.ply + 1)}));
        if (view) nameTexts(view, picture);
      }
      li.appendChild(pic);
      list.appendChild(li);
    }
    if (list.childElementCount) box.appendChild(list);
    const bar = el("div", null, "end-bar");
    const close = el("button", t("Close the review")); close.type = "button";
    close.addEventListener("click", () => { box.hidden = true; box.textContent = ""; reviewing = null; });
    bar.appendChild(close);
    bar.appendChild(link(t("How hints and reviews work"), DOCS));
    bar.appendChild(link(t("How the analysis values a move"), ANALYSIS));
    box.appendChild(bar);
    box.focus({preventScroll: false});
  }

  window.coachMessage = m => {
    if (m.type === "table") {
      view = m; hints = Boolean(m.hints); you = m.you;
      goN = null;  // a go follows when this seat is to choose
    } else if (m.type === "go") {
      goN = m.id;
    } else if (m.type === "moved") {
      goN = null;
    } else if (m.type === "hint") {
      asking = false;
      if (m.n === goN) { byId("coach-answer").textContent = hintText(m); shown = m.n; }
    } else if (m.type === "review") {
      if (reviewing !== null) drawReview(m);
    } else if (m.type === "error" && /hint|review/.test(m.message || "")) {
      if (asking) asking = false;
      else if (reviewing !== null) drawReview({error: m.message});
    }
    drawHints();
  };

  // The round-end view (table.js drawRoundEnd): a seat's button to open its review.
  window.roundEndExtras = (m, bar) => {
    if (!m.reviews || m.you === null || m.you === undefined || !m.last_round) return;
    const b = el("button", t("Review my decisions")); b.type = "button"; b.dataset.review = "";
    b.addEventListener("click", () => {
      reviewing = m.last_round.round;
      drawReview(null);
      client.sendMessage({type: "review", round: m.last_round.round});
    });
    bar.appendChild(b);
  };

  byId("coach-ask").addEventListener("click", () => {
    if (goN === null || asking) return;
    asking = true; drawHints();
    client.sendMessage({type: "hint", id: goN});
  });
  const more = byId("coach-docs");
  if (more) more.href = DOCS;
})();
