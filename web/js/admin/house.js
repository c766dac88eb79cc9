// @ts-check
/**
 * Funding the house (admins, in the Tournaments tab): the house account pays tournament guarantees, and is
 * funded or drained only through POST /api/admin/house with a reason (audited as house.adjust); the players'
 * adjustment refuses it.  Submitting the same amount again after a failure reuses its idempotency key, so a
 * request that did reach the server books once; a new amount, or a success, starts a new key.
 */

import { request } from "../api.js";
import { formatNumber, t } from "../i18n.js";
import { $, askReason, clearError, showError } from "./page.js";

/** @type {string | null} */
let pendingKey = null;

/** 32 hex digits (getRandomValues works outside secure contexts too, unlike randomUUID). */
function newKey() {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {Event} event */
async function fundHouse(event) {
  event.preventDefault();
  clearError();
  const delta = Number(/** @type {HTMLInputElement} */ ($("adm-house-delta")).value);
  const reason = await askReason(t("admin.ask.house", { delta: formatNumber(delta) }));
  if (reason === null) return;
  try {
    const entry = await request("/api/admin/house", {
      method: "POST", body: { delta, reason, idempotency_key: (pendingKey ??= newKey()) } });
    pendingKey = null;
    $("adm-house-done").textContent = t("admin.house.done", { id: entry.id, balance: formatNumber(entry.balance_after) });
  } catch (err) { showError(err); }
}

export function bootHouse() {
  $("adm-house-form").addEventListener("submit", fundHouse);
  $("adm-house-delta").addEventListener("input", () => { pendingKey = null; });
}
