// The Play page without the site search (docs_overrides/play.html): the theme fetches the
// search index whenever the page holds a form named "search", so the form loses its name
// (and is hidden) before the theme's script runs. A file: no inline script on this page.
"use strict";
for (const form of document.querySelectorAll('form[name="search"]')) {
  form.removeAttribute("name");
  const box = form.closest(".md-search");
  if (box) box.hidden = true;
}
