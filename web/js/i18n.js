// @ts-check
/**
 * The client's three languages: 简体中文 (`zh-Hans`), 繁體中文 (`zh-Hant`) and English (`en`).
 *
 * Every string lives once, in `strings.json`: one row per key with all three languages side by side (a test
 * fails if a row lacks one, and checks with OpenCC that the 简体 and 繁體 columns correspond).  Names the
 * server owns (rooms, rank titles, scoring items) arrive as `{zh_hans, zh_hant, en}` and are picked with
 * `localName`.  `t(key, params)` fills `{name}` placeholders; elements with `data-i18n="key"` (text) or
 * `data-i18n-attr="attr:key,attr:key"` are refreshed by `applyI18n(root)`.
 *
 * The language: the player's last choice in this browser (localStorage), else the account's (set by the
 * caller after login), else the browser's languages on a first visit (`detectLanguage`).
 */

import STRINGS from "./strings.json" with { type: "json" };

/** @typedef {"zh-Hans" | "zh-Hant" | "en"} Lang */

/** @type {readonly Lang[]} */
export const LANGS = ["zh-Hans", "zh-Hant", "en"];

const STORAGE_KEY = "mj.lang";

/** @type {Record<string, Record<Lang, string>>} */
const TABLE = STRINGS;

/**
 * The language for a browser's preference list (navigator.languages / Accept-Language), first match wins:
 * zh-CN, zh-SG, zh-Hans* → 简体; zh-TW, zh-HK, zh-MO, zh-Hant* → 繁體; another zh → 简体 (most readers);
 * en* → English; anything else is skipped, and English if nothing matches.
 * @param {readonly string[]} languages @returns {Lang}
 */
export function detectLanguage(languages) {
  for (const raw of languages) {
    const tag = String(raw).trim().toLowerCase().replace(/_/g, "-");
    if (tag === "zh" || tag.startsWith("zh-")) {
      const parts = tag.split("-");
      if (parts.includes("hant")) return "zh-Hant";
      if (parts.includes("hans")) return "zh-Hans";
      if (parts.some((p) => p === "tw" || p === "hk" || p === "mo")) return "zh-Hant";
      return "zh-Hans";
    }
    if (tag === "en" || tag.startsWith("en-")) return "en";
  }
  return "en";
}

/** A stored choice, if it names a language ("zh" from before 简体 existed meant 繁體). @returns {Lang | null} */
function savedLanguage() {
  try {
    const saved = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (saved === "zh") return "zh-Hant";
    return LANGS.includes(/** @type {Lang} */ (saved)) ? /** @type {Lang} */ (saved) : null;
  } catch {
    return null; // storage may be unavailable (private mode)
  }
}

/** Was a language chosen in this browser (rather than guessed from its settings)? */
export function languageChosenHere() {
  return savedLanguage() !== null;
}

/** @returns {Lang} */
function initialLanguage() {
  const nav = globalThis.navigator;
  return savedLanguage() ?? detectLanguage(nav?.languages?.length ? nav.languages : [nav?.language ?? "en"]);
}

/** @type {Lang} */
let current = initialLanguage();
/** @type {Set<(lang: Lang) => void>} */
const listeners = new Set();

export function lang() {
  return current;
}

/** @param {unknown} value @returns {value is Lang} */
export function isLang(value) {
  return LANGS.includes(/** @type {Lang} */ (value));
}

/**
 * Switch the language and tell every listener (which re-render); `remember` (the default) keeps it as this
 * browser's choice, which a later visit prefers to the browser's settings.
 * @param {Lang} next @param {{remember?: boolean}} [options]
 */
export function setLang(next, { remember = true } = {}) {
  if (!isLang(next)) return;
  current = next;
  if (remember) {
    try { globalThis.localStorage?.setItem(STORAGE_KEY, next); } catch { /* ignore */ }
  }
  if (globalThis.document) {
    document.documentElement.lang = next;
    document.title = t("app.title");
  }
  for (const fn of listeners) fn(next);
}

/** @param {(lang: Lang) => void} fn */
export function onLangChange(fn) {
  listeners.add(fn);
}

/**
 * @param {string} key @param {Record<string, string | number>} [params] @param {Lang} [language]
 * @returns {string}
 */
export function t(key, params = {}, language = current) {
  const text = TABLE[key]?.[language] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Is there a string for `key`? @param {string} key */
export function has(key) {
  return Object.hasOwn(TABLE, key);
}

/** The field of a server name object for a language. @param {Lang} language */
function nameField(language) {
  return language === "zh-Hans" ? "zh_hans" : language === "zh-Hant" ? "zh_hant" : "en";
}

/**
 * A server-owned name (`{zh_hans, zh_hant, en}`: rooms, titles, scoring items) in the current language;
 * `fallback` (e.g. the item key) when the server sent none.
 * @param {Record<string, string> | null | undefined} names @param {string} [fallback]
 */
export function localName(names, fallback = "") {
  return names?.[nameField(current)] ?? fallback;
}

/** @param {number} n */
export function formatNumber(n) {
  return new Intl.NumberFormat(current).format(n);
}

/** A date and time in the chosen language (not the browser's: an English page says "AM", not 上午). @param {string | number | Date} when */
export function formatDateTime(when) {
  return new Date(when).toLocaleString(current);
}

/**
 * A server error in words of the current language: its stable `code` (with `params`) if the table knows it,
 * else a message for the HTTP status, else a generic one.  The server's English `detail` is never shown in
 * a Chinese UI.
 * @param {{code?: string | null, params?: Record<string, any> | null, status?: number, detail?: string | null}} err
 */
export function errorWords(err) {
  /** @type {Record<string, string | number>} */
  const params = {};
  for (const [name, value] of Object.entries(err.params ?? {})) {
    params[name] = typeof value === "number" ? formatNumber(value) : String(value);
  }
  // The server names the rule a value broke (invalid_username: too_short, too_long, characters): say that one.
  const rule = err.params?.rule;
  if (err.code && typeof rule === "string" && has(`error.code.${err.code}.${rule}`)) {
    const text = t(`error.code.${err.code}.${rule}`, params);
    if (!/\{\w+\}/.test(text)) return text;
  }
  if (err.code && has(`error.code.${err.code}`)) {
    const text = t(`error.code.${err.code}`, params);
    if (!/\{\w+\}/.test(text)) return text; // a parameter the server left out: say it more generally below
  }
  if (current === "en" && err.detail) return err.detail;
  if (err.status && has(`error.http.${err.status}`)) return t(`error.http.${err.status}`);
  return t("error.unknown");
}

/** Refresh `data-i18n` text and `data-i18n-attr` attributes under `root`. @param {ParentNode} root */
export function applyI18n(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n ?? "");
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of (/** @type {HTMLElement} */ (el).dataset.i18nAttr ?? "").split(",")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}
