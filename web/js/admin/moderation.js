// @ts-check
/**
 * Beside an account in the console's players tab: its title ladder next to the rank adjustment (each title's
 * 積分 threshold, and what the typed adjustment would leave), the moderators' notes on it (read, add) and its
 * live login sessions (end one); below, the collusion report.  Writing a note and ending a session are audited
 * by the server.
 */

import { request } from "../api.js";
import { formatNumber, localName, t } from "../i18n.js";
import { afterAdjustment, titleIndexAt } from "./ladder.js";
import { $, askReason, clearError, el, fillRows, showError } from "./page.js";

/** @type {{player: any}} */
const state = { player: null };

/** Each title's threshold, the held one marked, and the result of the typed 積分 adjustment. */
function showLadder() {
  const p = state.player;
  const steps = p?.title_ladder ?? [];
  const held = titleIndexAt(steps, p?.rank_points ?? 0);
  $("adm-ladder-steps").replaceChildren(...steps.map((/** @type {any} */ step, /** @type {number} */ i) => {
    const item = el("li", t("admin.ladder.step", { title: localName(step.title), at: formatNumber(step.at) }),
      { "data-at": String(step.at) });
    if (i === held) { item.classList.add("held"); item.setAttribute("aria-current", "true"); }
    return item;
  }));
  const asset = /** @type {HTMLSelectElement} */ ($("adm-asset")).value;
  const delta = Number(/** @type {HTMLInputElement} */ ($("adm-delta")).value);
  const line = $("adm-ladder-after");
  if (asset !== "rank_points" || !delta || !steps.length) { line.textContent = ""; return; }
  const after = afterAdjustment(steps, p.rank_points, delta);
  line.textContent = after.valid
    ? t("admin.ladder.after", { points: formatNumber(after.points), title: localName(steps[after.index].title) })
    : t("admin.ladder.negative");
}

async function loadNotes() {
  const notes = await request(`/api/admin/users/${state.player.id}/notes`);
  const list = $("adm-notes");
  list.replaceChildren(...notes.map((/** @type {any} */ n) => {
    const item = el("li", "", { "data-note": String(n.id) });
    item.append(el("span", `${n.created_at.replace("T", " ").slice(0, 16)} · ${n.author_name}`, { class: "adm-note-by" }),
      el("p", n.text));
    return item;
  }));
  if (!notes.length) list.replaceChildren(el("li", t("admin.notes.none"), { class: "adm-empty" }));
}

/** @param {Event} event */
async function addNote(event) {
  event.preventDefault();
  clearError();
  const box = /** @type {HTMLTextAreaElement} */ ($("adm-note-text"));
  const text = box.value.trim();
  if (!text) return;
  try {
    await request(`/api/admin/users/${state.player.id}/notes`, { method: "POST", body: { text } });
    box.value = "";
    await loadNotes();
  } catch (err) { showError(err); }
}

async function loadSessions() {
  const rows = await request(`/api/admin/users/${state.player.id}/sessions`);
  fillRows($("adm-sessions"), rows.map((/** @type {any} */ s) => {
    const row = el("tr", "", { "data-session": s.id });
    for (const cell of [s.created_at, s.last_seen_at]) row.appendChild(el("td", cell.replace("T", " ").slice(0, 16)));
    row.append(el("td", s.address), el("td", s.user_agent));
    const end = el("button", t("admin.sessions.end"), { type: "button" });
    end.addEventListener("click", () => endSession(s.id));
    row.appendChild(el("td")).appendChild(end);
    return row;
  }), "admin.sessions.none");
}

/** @param {string} sessionId */
async function endSession(sessionId) {
  clearError();
  const reason = await askReason(t("admin.ask.end_session", { name: state.player.username }));
  if (reason === null) return;
  try {
    await request(`/api/admin/users/${state.player.id}/sessions/${sessionId}?reason=${encodeURIComponent(reason)}`,
      { method: "DELETE" });
    await loadSessions();
  } catch (err) { showError(err); }
}

/**
 * Show the ladder, notes and sessions of the account the players tab just opened.
 * @param {any} player the admin's detail of the account (GET /api/admin/users/{id})
 */
export async function showModeration(player) {
  state.player = player;
  showLadder();
  try {
    await Promise.all([loadNotes(), loadSessions()]);
  } catch (err) { showError(err); }
}

/** The collusion report since the chosen day (local midnight), highest score first. @param {Event} event */
async function loadCollusion(event) {
  event.preventDefault();
  clearError();
  const day = /** @type {HTMLInputElement} */ ($("adm-coll-since")).value;
  if (!day) return;
  try {
    const since = new Date(`${day}T00:00:00`).toISOString();
    const pairs = await request(`/api/admin/reports/collusion?since=${encodeURIComponent(since)}`);
    fillRows($("adm-collusion"), pairs.map((/** @type {any} */ p) => {
      const row = el("tr", "", { "data-pair": `${p.giver.id}-${p.receiver.id}` });
      const shared = [p.shared_address && t("admin.sessions.address"), p.shared_device && t("admin.sessions.agent")]
        .filter(Boolean).join("、") || "—";
      for (const cell of [`${p.giver.username} (#${p.giver.id})`, `${p.receiver.username} (#${p.receiver.id})`,
        p.score.toFixed(2), `${formatNumber(p.hands_together)} / ${formatNumber(p.tables_together)}`,
        formatNumber(p.net_coins), `${Math.round(p.loss_share * 100)}%`, `${p.fed_wins} / ${p.fed_wins_back}`, shared]) {
        row.appendChild(el("td", String(cell)));
      }
      return row;
    }), "admin.coll.none");
  } catch (err) { showError(err); }
}

export function bootModeration() {
  $("adm-note-form").addEventListener("submit", addNote);
  $("adm-coll-form").addEventListener("submit", loadCollusion);
  const weekAgo = new Date(Date.now() - 7 * 86_400_000);
  /** @type {HTMLInputElement} */ ($("adm-coll-since")).value = weekAgo.toLocaleDateString("en-CA"); // YYYY-MM-DD
  $("adm-asset").addEventListener("change", showLadder);
  $("adm-delta").addEventListener("input", showLadder);
}
