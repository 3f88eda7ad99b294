// The Play page's own script: the table frame as tall as its page (so that the page
// scrolls, not the frame), and a new game from the settings. A file of its own: the site's
// Content-Security-Policy runs no inline script but the theme's, by their hashes.
"use strict";
(function () {
  const frame = document.getElementById("play-table");
  const form = document.getElementById("play-settings");
  // the table page's height, so that the page scrolls, not the frame
  let watch = null;
  frame.addEventListener("load", () => {
    if (watch) watch.disconnect();
    const doc = frame.contentDocument;
    if (!doc) return;
    const fit = () => { frame.style.height = doc.body.scrollHeight + "px"; };
    watch = new ResizeObserver(fit);
    watch.observe(doc.body);
    fit();
  });
  form.addEventListener("submit", ev => {
    ev.preventDefault();
    const q = new URLSearchParams(new FormData(form));
    // beside the table page this frame shows (a translated page, el/play/, shows the
    // English page's play/table.html), in the language it was given (lang=el)
    const shown = new URL(frame.src, location.href);
    const lang = shown.searchParams.get("lang");
    if (lang) q.set("lang", lang);
    frame.src = new URL("table.html?" + q.toString(), shown).href;
  });
})();
