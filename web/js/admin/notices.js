// @ts-check
/**
 * The console's Notices tab (admins): post a notice to every player in the three languages for a window
 * (POST /api/admin/notices), list those showing now or later (GET /api/admin/notices), end one early
 * (DELETE /api/admin/notices/{id}).  Players see it as a banner at once (web/js/notices.js).
 */

import { request } from "../api.js";
import { lang, t } from "../i18n.js";
import { noticeWords } from "../notices.js";
import { $, askReason, clearError, el, fillRows, showError } from "./page.js";

/** A datetime-local input's value as an ISO time with its zone (the browser's), or null when empty. @param {string} id */
function zoned(id) {
  const value = /** @type {HTMLInputElement} */ ($(id)).value;
  return value ? new Date(value).toISOString() : null;
}

/** @param {string} iso */
const shown = (iso) => new Date(iso).toLocaleString();

/** @param {any} n a notice */
function noticeRow(n) {
  const row = el("tr", "", { "data-notice": String(n.id) });
  const end = el("button", t("admin.notice.end"), { type: "button", "data-end-notice": String(n.id) });
  end.addEventListener("click", () => endNotice(n));
  const act = el("td");
  act.appendChild(end);
  row.replaceChildren(el("td", String(n.id)), el("td", noticeWords(n, lang())), el("td", shown(n.starts_at)),
    el("td", shown(n.ends_at)), act);
  return row;
}

export async function loadNotices() {
  try {
    const list = await request("/api/admin/notices");
    fillRows($("adm-notices"), list.map(noticeRow), "admin.empty.notices");
  } catch (err) { showError(err); }
}

/** @param {Event} event */
async function postNotice(event) {
  event.preventDefault();
  clearError();
  /** @param {string} k */
  const typed = (k) => /** @type {HTMLTextAreaElement} */ ($(`adm-n-${k}`)).value.trim();
  const text = { zh_hans: typed("zh_hans"), zh_hant: typed("zh_hant"), en: typed("en") };
  const reason = await askReason(t("admin.ask.notice", { text: noticeWords({ text }, lang()) }));
  if (reason === null) return;
  try {
    await request("/api/admin/notices", { method: "POST",
      body: { text, starts_at: zoned("adm-n-starts"), ends_at: zoned("adm-n-ends"), reason } });
    /** @type {HTMLFormElement} */ ($("adm-notice-form")).reset();
  } catch (err) { showError(err); return; }
  await loadNotices();
}

/** @param {any} n */
async function endNotice(n) {
  clearError();
  const reason = await askReason(t("admin.ask.notice_end", { text: noticeWords(n, lang()) }));
  if (reason === null) return;
  try {
    await request(`/api/admin/notices/${n.id}?reason=${encodeURIComponent(reason)}`, { method: "DELETE" });
  } catch (err) { showError(err); return; }
  await loadNotices();
}

export function bootNoticesTab() {
  $("adm-notice-form").addEventListener("submit", postNotice);
  document.querySelector('[data-tab="notices"]')?.addEventListener("click", loadNotices);
}
