// @ts-check
/**
 * The console's recurring tournaments (定期比賽): a form for a tournament's settings plus a daily or weekly
 * recurrence at a local time in a named time zone, and the list of schedules with their next start, to pause,
 * resume or delete.  The server computes every occurrence (python-dateutil's rrule over zoneinfo).
 */

import { request } from "../api.js";
import { t } from "../i18n.js";
import { $, askReason, clearError, el, fillRows, showError } from "./page.js";

/** @param {string} id */
const value = (id) => /** @type {HTMLInputElement} */ ($(id)).value.trim();

function body() {
  const frequency = value("adm-s-frequency");
  const weekdays = frequency === "weekly"
    ? [...document.querySelectorAll("#adm-s-days input:checked")].map((box) => /** @type {HTMLInputElement} */ (box).value)
    : [];
  return {
    name: value("adm-s-name"), room: value("adm-s-room"), variant: value("adm-s-variant"),
    entry_fee: Number(value("adm-s-fee")), player_limit: Number(value("adm-s-players")),
    rounds: Number(value("adm-s-rounds")), hands_per_round: Number(value("adm-s-hands")),
    prize_split: value("adm-s-split").split(",").map((part) => Number(part.trim())),
    guarantee: Number(value("adm-s-guarantee")), options: JSON.parse(value("adm-s-options") || "{}"),
    recurrence: { frequency, weekdays, time: value("adm-s-time"), timezone: value("adm-s-zone"),
      lead_minutes: Number(value("adm-s-lead")) },
  };
}

/** @param {Event} event */
async function create(event) {
  event.preventDefault();
  clearError();
  try {
    const schedule = await request("/api/operator/tournament-schedules", { method: "POST", body: body() });
    $("adm-s-done").textContent = t("admin.s.created", { id: schedule.id, next: local(schedule.next_starts_at) });
    await loadSchedules();
  } catch (err) { showError(err); }
}

/** An instant in this browser's time: what the operator reads. @param {string | null} iso */
function local(iso) {
  return iso ? new Date(iso).toLocaleString() : "—";
}

/** @param {any} s */
function when(s) {
  const r = s.recurrence;
  const days = r.frequency === "weekly" ? r.weekdays.map((/** @type {string} */ d) => t(`admin.s.${d}`)).join("、") : t("admin.s.daily");
  return `${days} ${r.time} (${r.timezone})`;
}

/** @param {any} s @param {boolean} paused */
async function pause(s, paused) {
  clearError();
  const reason = await askReason(t(paused ? "admin.ask.pause_schedule" : "admin.ask.resume_schedule", { name: s.name }));
  if (reason === null) return;
  try {
    await request(`/api/operator/tournament-schedules/${s.id}/pause`, { method: "POST", body: { paused, reason } });
    await loadSchedules();
  } catch (err) { showError(err); }
}

/** @param {any} s */
async function remove(s) {
  clearError();
  const reason = await askReason(t("admin.ask.delete_schedule", { name: s.name }));
  if (reason === null) return;
  try {
    await request(`/api/operator/tournament-schedules/${s.id}?reason=${encodeURIComponent(reason)}`, { method: "DELETE" });
    await loadSchedules();
  } catch (err) { showError(err); }
}

export async function loadSchedules() {
  try {
    const schedules = await request("/api/operator/tournament-schedules");
    fillRows($("adm-schedules"), schedules.map((/** @type {any} */ s) => {
      const row = el("tr", "", { "data-schedule": String(s.id) });
      for (const cell of [`#${s.id}`, s.name, when(s), local(s.next_starts_at),
        t(s.paused ? "admin.s.paused" : "admin.s.active")]) row.appendChild(el("td", cell));
      const actions = el("td");
      const toggle = el("button", t(s.paused ? "admin.s.resume" : "admin.s.pause"), { type: "button", class: "pause" });
      toggle.addEventListener("click", () => pause(s, !s.paused));
      const del = el("button", t("admin.s.delete"), { type: "button", class: "delete" });
      del.addEventListener("click", () => remove(s));
      actions.append(toggle, del);
      row.appendChild(actions);
      return row;
    }), "admin.s.none");
  } catch (err) { showError(err); }
}

export function bootSchedules() {
  $("adm-sched-form").addEventListener("submit", create);
  const days = /** @type {HTMLFieldSetElement} */ ($("adm-s-days"));
  $("adm-s-frequency").addEventListener("change", () => { days.disabled = value("adm-s-frequency") !== "weekly"; });
  // The browser's own zone first, then every zone it knows (Intl), as suggestions for the zone field.
  const zone = /** @type {HTMLInputElement} */ ($("adm-s-zone"));
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (own) zone.value = own;
  const known = /** @type {any} */ (Intl).supportedValuesOf?.("timeZone") ?? [];
  $("adm-s-zones").replaceChildren(...known.map((/** @type {string} */ z) => el("option", "", { value: z })));
}
