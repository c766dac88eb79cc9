// @ts-check
/**
 * The console page's small DOM helpers (its error line, element builder), shared by the console's tabs
 * (console.js) and its live-tables view (live.js) without those two importing each other.
 */

import { ApiError } from "../api.js";
import { errorWords } from "../i18n.js";

/** @param {string} id */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {unknown} err */
export function showError(err) {
  const e = /** @type {any} */ (err);
  $("adm-error").textContent = err instanceof ApiError
    ? errorWords({ code: e.code, params: e.params, status: e.status, detail: e.message })
    : String(e?.message ?? err);
}

export function clearError() { $("adm-error").textContent = ""; }

/** @param {string} tag @param {string} [text] @param {Record<string, string>} [attrs] */
export function el(tag, text = "", attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}
