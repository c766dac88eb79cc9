// @ts-check
/**
 * "Sessions": the player's live logins (GET /api/me/sessions) in a small dialog, each with an End button
 * (DELETE /api/me/sessions/{id}: that browser's token stops working and its sockets close with 4401).
 * Ending the current one is logging out.
 */

import { api } from "../api.js";
import { t } from "../i18n.js";
import { h, setChildren } from "../render/dom.js";
import { $, showError } from "../app.js";
import { screens } from "../router.js";

/** @param {string} iso */
const when = (iso) => new Date(iso).toLocaleString();

/**
 * "Chrome on Android" in the player's language, from the server's reading of the User-Agent.
 * @param {{browser: string | null, os: string | null} | null | undefined} device
 */
export function deviceName(device) {
  const { browser, os } = device ?? { browser: null, os: null };
  if (browser && os) return t("sessions.device", { browser, os });
  return browser || os || t("sessions.device.unknown");
}

async function renderSessions() {
  const rows = await api.sessions();
  setChildren($("sessions-list"), ...rows.map((/** @type {any} */ s) => h("li", { class: "session", "data-session": s.id },
    h("div", { class: "session-head" },
      h("strong", { class: "session-device", title: s.user_agent || null }, deviceName(s.device)),
      s.current ? h("span", { class: "session-current" }, t("sessions.current")) : null),
    h("small", { class: "session-meta" }, t("sessions.since", { created: when(s.created_at), seen: when(s.last_seen_at), address: s.address })),
    h("button", { type: "button", class: "ghost", "data-end": s.id, "data-current": s.current ? "1" : "" }, t("sessions.end")))));
}

/** @param {Event} e */
async function onEnd(e) {
  const button = /** @type {HTMLElement} */ (e.target).closest("button[data-end]");
  if (!(button instanceof HTMLButtonElement)) return;
  if (button.dataset.current) {
    /** @type {HTMLDialogElement} */ ($("sessions-dialog")).close();
    screens.logout();
    return;
  }
  try {
    await api.endSession(button.dataset.end ?? "");
    await renderSessions();
  } catch (err) { showError(err); }
}

/** Wire the top bar's Sessions button and its dialog. */
export function bootSessions() {
  const dialog = /** @type {HTMLDialogElement} */ ($("sessions-dialog"));
  $("sessions-open").addEventListener("click", async () => {
    try {
      await renderSessions();
      dialog.showModal();
    } catch (err) { showError(err); }
  });
  $("sessions-close").addEventListener("click", () => dialog.close());
  $("sessions-list").addEventListener("click", onEnd);
}
