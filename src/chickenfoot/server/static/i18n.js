// chickenfoot serve: the pages' words in the reader's language. No build step, no dependency.
// docs/contributors/translations.md says how to add a sentence.
//
// The server writes the page's language in <html lang> (a chosen language remembered in the
// cookie chickenfoot_lang, else the browser's Accept-Language, else English); a static copy
// of a page (the docs' Play page) chooses from its address's lang= (a translated Play page
// asks for its own), else localStorage, else navigator.languages. This
// file loads that language's catalog (i18n/<lang>.json beside it, compiled from the gettext
// catalogs) and gives the pages:
//   t("English sentence with {name}", {name: value})  -> the sentence in the language
//   tn("{n} tile", "{n} tiles", n, {n})               -> its plural form for n
//   I18N.number(n)                                     -> n written as the language writes it
// A sentence the catalog lacks (a new one, not yet translated), or whose translation names
// other placeholders than the English, is shown in English: never a message id. Every
// result is text, to be put in the page with textContent (never innerHTML), so that no
// translation can add markup. Elements marked data-t have their text translated, and the
// attributes named in data-t-attr (e.g. "aria-label"); a language switcher goes into the
// element #lang-slot (or the header).
"use strict";
const I18N = (() => {
  const NAMES = {en: "English", el: "Ελληνικά", hr: "Hrvatski", ro: "Română", lv: "Latviešu"};
  // The plural rules of the catalogs' Plural-Forms (CLDR's, as Babel writes them): the
  // index of the form for n. tests/test_i18n_catalogs.py checks them against the headers.
  const PLURAL = {
    en: n => (n !== 1 ? 1 : 0),
    el: n => (n !== 1 ? 1 : 0),
    hr: n => (n % 10 === 1 && n % 100 !== 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2),
    ro: n => (n === 1 ? 0 : n === 0 || (n !== 1 && n % 100 >= 1 && n % 100 <= 19) ? 1 : 2),
    lv: n => (n % 10 === 0 || (n % 100 >= 11 && n % 100 <= 19) ? 0 : n % 10 === 1 && n % 100 !== 11 ? 1 : 2),
  };
  const COOKIE = "chickenfoot_lang";
  const known = code => Object.prototype.hasOwnProperty.call(NAMES, code);
  // The catalogs beside this script (/static/i18n/ when served; the Play page's copies).
  const HERE = document.currentScript ? document.currentScript.src : location.href;
  // Served, the page says its language (data-lang="server"); a static copy (the docs'
  // Play page) chooses here: the remembered choice, else the browser's languages.
  function browserChoice() {
    // a translated Play page of the docs asks for its own language (table.html?lang=el)
    const asked = new URLSearchParams(location.search).get("lang");
    if (known(asked)) return asked;
    let saved = null;
    try { saved = localStorage.getItem(COOKIE); } catch (e) { saved = null; }
    if (known(saved)) return saved;
    for (const tag of navigator.languages || [navigator.language || ""]) {
      const code = String(tag).split("-")[0].toLowerCase();
      if (known(code)) return code;
    }
    return "en";
  }
  const root = document.documentElement;
  let lang = root.dataset.lang === "server" ? (known(root.lang) ? root.lang : "en") : browserChoice();
  root.lang = lang;
  let messages = Object.create(null);

  const names = text => {
    const found = new Set();
    String(text).replace(/\{(\w+)\}/g, (_, name) => { found.add(name); return ""; });
    return [...found].sort().join(",");
  };
  function fill(said, english, values) {
    if (typeof said !== "string" || names(said) !== names(english)) said = english;
    return said.replace(/\{(\w+)\}/g, (whole, name) =>
      values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole);
  }
  function t(english, values) {
    const said = Object.prototype.hasOwnProperty.call(messages, english) ? messages[english] : null;
    return fill(typeof said === "string" ? said : null, english, values);
  }
  function tn(singular, plural, n, values) {
    const english = n === 1 ? singular : plural;
    const forms = Object.prototype.hasOwnProperty.call(messages, singular) ? messages[singular] : null;
    let said = null;
    if (Array.isArray(forms)) said = forms[(PLURAL[lang] || PLURAL.en)(Math.abs(n))];
    return fill(said, english, values);
  }
  function number(n) {
    try { return new Intl.NumberFormat(lang).format(n); } catch (e) { return String(n); }
  }
  // Translate what the HTML marks: each [data-t] element's text (its English is its key)
  // and the attributes its data-t-attr names.
  function translatePage(root) {
    for (const e of (root || document).querySelectorAll("[data-t]")) {
      if (!e.dataset.tEnglish) e.dataset.tEnglish = e.textContent.replace(/\s+/g, " ").trim();
      e.textContent = t(e.dataset.tEnglish);
    }
    for (const e of (root || document).querySelectorAll("[data-t-attr]")) {
      for (const a of e.dataset.tAttr.split(/\s+/).filter(Boolean)) {
        const key = "tEnglish" + a.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase());
        if (!e.dataset[key]) e.dataset[key] = e.getAttribute(a) || "";
        if (e.dataset[key]) e.setAttribute(a, t(e.dataset[key]));
      }
    }
  }
  function choose(next) {
    document.cookie = COOKIE + "=" + next + "; path=/; max-age=31536000; SameSite=Lax";
    try { localStorage.setItem(COOKIE, next); } catch (e) { /* private mode: the cookie stays */ }
    const here = new URL(location.href);
    if (here.searchParams.has("lang")) { here.searchParams.set("lang", next); location.replace(here.href); }
    else location.reload();
  }
  function switcher() {
    const label = document.createElement("label");
    label.className = "lang";
    const sel = document.createElement("select");
    sel.id = "lang";
    sel.setAttribute("aria-label", t("Language"));
    for (const code of Object.keys(NAMES)) {
      const o = document.createElement("option");
      o.value = code; o.textContent = NAMES[code]; o.lang = code;
      sel.appendChild(o);
    }
    sel.value = lang;
    sel.addEventListener("change", () => choose(sel.value));
    label.appendChild(sel);
    const slot = document.getElementById("lang-slot") || document.querySelector("header");
    if (slot) slot.appendChild(label);
  }
  // The catalog, then the page: ready() resolves once the words are known (English when
  // the catalog cannot be had: a failed request or a broken file).
  const ready = (lang === "en" ? Promise.resolve(null)
    : fetch(new URL("i18n/" + lang + ".json", HERE)).then(r => (r.ok ? r.json() : null)).catch(() => null))
    .then(data => {
      if (data && typeof data.messages === "object" && data.messages !== null && data.lang === lang) {
        messages = Object.assign(Object.create(null), data.messages);
      } else if (lang !== "en") {
        lang = "en"; document.documentElement.lang = "en";
      }
      translatePage();
      switcher();
    });
  return {t, tn, number, ready, translatePage, lang: () => lang, NAMES, PLURAL};
})();
const t = I18N.t, tn = I18N.tn;
