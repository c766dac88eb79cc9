// @ts-check
/**
 * The console page's small DOM helpers (its error line, element builder), shared by the console's tabs
 * (console.js) and its live-tables view (live.js) without those two importing each other.
 */

import { ApiError } from "../api.js";
import { errorWords, t } from "../i18n.js";

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

/**
 * Fill a table body with rows, or with one row saying the list is empty (so an empty list is never a blank).
 * @param {HTMLElement} body @param {HTMLElement[]} rows @param {string} emptyKey the i18n key of the empty text
 */
export function fillRows(body, rows, emptyKey) {
  if (rows.length) { body.replaceChildren(...rows); return; }
  const columns = body.closest("table")?.querySelectorAll("thead th") ?? [];
  const span = [...columns].reduce((n, th) => n + Number(th.getAttribute("colspan") ?? 1), 0) || 1;
  const cell = el("td", t(emptyKey), { colspan: String(span), class: "adm-empty" });
  const row = el("tr", "", { "data-empty": emptyKey });
  row.appendChild(cell);
  body.replaceChildren(row);
}

/**
 * Ask for the reason of an act in the console's dialog: resolves to the reason, or null when the operator
 * goes back (button or Escape).  A blank reason is not accepted: the audit log keeps every act's why.
 * @param {string} title what is about to happen, in words
 * @returns {Promise<string | null>}
 */
export function askReason(title) {
  const dialog = /** @type {HTMLDialogElement} */ ($("adm-ask"));
  const form = /** @type {HTMLFormElement} */ ($("adm-ask-form"));
  const reason = /** @type {HTMLTextAreaElement} */ ($("adm-ask-reason"));
  $("adm-ask-title").textContent = title;
  $("adm-ask-error").textContent = "";
  reason.value = "";
  return new Promise((resolve) => {
    /** @param {string | null} value */
    const done = (value) => {
      form.onsubmit = null;
      $("adm-ask-back").onclick = null;
      dialog.oncancel = null;
      dialog.close();
      resolve(value);
    };
    form.onsubmit = (event) => {
      event.preventDefault();
      const text = reason.value.trim();
      if (!text) { $("adm-ask-error").textContent = t("admin.dialog.reason_needed"); reason.focus(); return; }
      done(text);
    };
    $("adm-ask-back").onclick = () => done(null);
    dialog.oncancel = (event) => { event.preventDefault(); done(null); };
    dialog.showModal();
    reason.focus();
  });
}
