// @ts-check
/**
 * The console's Processes tab (admins): every live server process with its address, version, start and
 * heartbeat, open sockets and the tables it owns, and a Drain button (GET /api/admin/processes,
 * POST /api/admin/processes/{id}/drain).  A drained process opens no new table; it shows as draining until
 * it is stopped.
 */

import { request } from "../api.js";
import { formatNumber, t } from "../i18n.js";
import { $, askReason, clearError, el, fillRows, showError } from "./page.js";

/** A Unix time in seconds as local "YYYY-MM-DD HH:MM:SS". @param {number | null} seconds */
export function clockTime(seconds) {
  if (seconds === null || seconds === undefined) return "—";
  const d = new Date(seconds * 1000);
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** @param {any} p one process's card */
function processRow(p) {
  const row = el("tr", "", { "data-process": p.id });
  const tables = el("td", "", { "data-tables": "" });
  tables.replaceChildren(...(p.tables.length ? p.tables.map((/** @type {string} */ id) => el("code", id, { "data-table": id }))
    : [document.createTextNode("—")]));
  const cells = [el("td", p.id), el("td", p.address ?? "—"), el("td", p.pid === null ? "—" : String(p.pid)),
    el("td", p.version ?? "—"), el("td", clockTime(p.started_at)), el("td", clockTime(p.heartbeat_at)), tables,
    el("td", p.sockets === null ? "—" : formatNumber(p.sockets)),
    el("td", t(p.draining ? "admin.proc.draining" : "admin.proc.serving"), { "data-state": p.draining ? "draining" : "serving" })];
  const act = el("td");
  if (!p.draining) {
    const drain = el("button", t("admin.proc.drain"), { type: "button", "data-drain": p.id });
    drain.addEventListener("click", () => drainProcess(p.id));
    act.appendChild(drain);
  }
  row.replaceChildren(...cells, act);
  return row;
}

export async function loadProcesses() {
  try {
    const processes = await request("/api/admin/processes");
    fillRows($("adm-procs"), processes.map(processRow), "admin.empty.processes");
  } catch (err) { showError(err); }
}

/** @param {string} id */
async function drainProcess(id) {
  clearError();
  const reason = await askReason(t("admin.ask.drain", { id }));
  if (reason === null) return;
  try {
    await request(`/api/admin/processes/${encodeURIComponent(id)}/drain`, { method: "POST", body: { reason } });
  } catch (err) { showError(err); return; }
  await loadProcesses();
}

/** Wire the tab: its refresh button, and a fresh list each time the tab is opened. */
export function bootProcesses() {
  $("adm-procs-refresh").addEventListener("click", loadProcesses);
  document.querySelector('[data-tab="processes"]')?.addEventListener("click", loadProcesses);
}
