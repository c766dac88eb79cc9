// @ts-check
/**
 * Console tabs about play: live tables (close one, or watch it as a spectator: the server sends only the
 * public view, seat -1), a finished hand in the players' replay board, and tournaments.
 */

import { request, socketUrl } from "../api.js";
import { formatNumber, t } from "../i18n.js";
import { $, askReason, clearError, el, fillRows, showError } from "./page.js";

/** @type {WebSocket | null} */
let watching = null;
const STANDINGS_POLL_MS = 5000;

async function loadTables() {
  try {
    const tables = await request("/api/operator/tables");
    fillRows($("adm-tables"), tables.map((/** @type {any} */ table) => {
      const row = el("tr", "", { "data-table": table.id });
      const names = table.seats.map((/** @type {any} */ s) => s.username ?? (s.bot ? "bot" : "—")).join(", ");
      for (const cell of [table.id, table.variant, table.status, names, `#${table.hand_no ?? 0}`]) row.appendChild(el("td", cell));
      const watch = el("button", t("admin.watch"), { type: "button", "data-watch": table.id });
      watch.addEventListener("click", () => spectate(table.id));
      const close = el("button", t("admin.close"), { type: "button" });
      close.addEventListener("click", () => closeTable(table.id, table.status === "playing"));
      row.append(el("td").appendChild(watch).parentElement ?? watch, el("td").appendChild(close).parentElement ?? close);
      return row;
    }), "admin.empty.tables");
  } catch (err) { showError(err); }
}

/** @param {string} id @param {boolean} force */
async function closeTable(id, force) {
  clearError();
  const reason = await askReason(t("admin.ask.close", { table: id }));
  if (reason === null) return;
  try {
    await request(`/api/operator/tables/${id}/close`, { method: "POST", body: { reason, force } });
    await loadTables();
  } catch (err) { showError(err); }
}

/** A line for one public event: who did what (a tile only when the event shows it to everyone). @param {any} e */
function describe(e) {
  const who = e.seat === undefined ? "" : ` seat ${e.seat}`;
  return `${e.type}${who}${e.tile ? ` ${e.tile}` : ""}`;
}

/** @param {string} tableId */
async function spectate(tableId) {
  watching?.close();
  $("adm-watch").hidden = false;
  $("adm-watch-title").textContent = t("admin.watching", { table: tableId });
  $("adm-watch-log").replaceChildren();
  const socket = new WebSocket(await socketUrl(`/ws/spectate/${tableId}`, tableId));
  watching = socket;
  const log = (/** @type {string} */ line, /** @type {Record<string, string>} */ attrs = {}) => {
    const item = el("li", line, attrs);
    $("adm-watch-log").prepend(item);
    return item;
  };
  socket.addEventListener("message", (message) => {
    const m = JSON.parse(message.data);
    if (m.type === "snapshot") {
      $("adm-watch-seats").replaceChildren(...(m.view?.players ?? m.table.seats).map((/** @type {any} */ p, /** @type {number} */ i) => {
        const name = m.table.seats[i]?.username ?? "bot";
        const held = p.concealed_count ?? p.concealed?.length ?? "?";
        return el("li", `${i}: ${name} · ${t("admin.held", { n: held })}`, { "data-seat": String(i) });
      }));
      log(`snapshot v${m.v}`);
    } else if (m.type === "event") {
      log(describe(m.event), { "data-event": m.event.type });
    } else if (m.type === "hand_result") {
      const item = log(t("admin.hand_over", { id: m.hand_id ?? "?" }), { "data-hand": String(m.hand_id ?? "") });
      if (m.hand_id) {
        const button = el("button", t("admin.tab.replay"), { type: "button", "data-replay": String(m.hand_id) });
        button.addEventListener("click", () => loadReplay(m.hand_id));
        item.append(" ", button);
      }
    } else if (m.type === "game_over") {
      log(`game over: ${m.reason}`);
    }
  });
  socket.addEventListener("close", (e) => log(`closed ${e.code}`));
}

/**
 * Open a finished hand in the players' replay board (index.html#/hand/ID, embedded with ?embed=replay): the
 * same forward / back / jump, face-up hands and in-browser wall check a player gets.  The record is fetched
 * here first so a refusal or an unknown hand shows as a console error, with its seed and commitment beside.
 * @param {number} id
 */
async function loadReplay(id) {
  clearError();
  document.querySelector('[data-tab="replay"]')?.dispatchEvent(new Event("click"));
  /** @type {HTMLInputElement} */ ($("adm-hand-id")).value = String(id);
  try {
    const h = await request(`/api/hands/${id}`);
    $("adm-replay").hidden = false;
    $("adm-replay-meta").textContent = t("admin.replay.meta", {
      id: h.id, variant: t(`variant.${h.variant}`), table: h.table_id ?? "—",
      when: new Date(h.created_at).toLocaleString(),
    });
    $("adm-replay-fair").textContent = `seed ${h.seed ?? "?"} · commitment ${h.commitment ?? "?"}`;
    $("adm-voided").textContent = "";
    const board = `./?embed=replay#/hand/${id}`;
    $("adm-replay-open").setAttribute("href", `./#/hand/${id}`);
    const frame = /** @type {HTMLIFrameElement} */ ($("adm-board"));
    frame.src = "about:blank"; // a new hand is a fresh load, not a hash change in the old one
    frame.src = board;
  } catch (err) {
    $("adm-replay").hidden = true;
    showError(err);
  }
}

/** Admins: void the loaded hand (its ledger movements reversed by new entries naming it; exactly once). */
async function voidHand() {
  clearError();
  const id = Number(/** @type {HTMLInputElement} */ ($("adm-hand-id")).value);
  if (!id) return;
  const reason = await askReason(t("admin.ask.void", { id }));
  if (reason === null) return;
  try {
    const result = await request(`/api/admin/hands/${id}/void`, { method: "POST", body: { reason } });
    $("adm-voided").textContent = t("admin.void.done", { id, n: result.entries.length });
  } catch (err) { showError(err); }
}

const ACTION_LABEL = { start: "admin.t.start_now", cancel: "admin.t.cancel", report: "admin.t.report" };
let anyRunning = false;

/** The pool column: the pool now, what a finished one paid out, or who a cancelled one refunded. @param {any} tt */
function money(tt) {
  if (tt.state === "finished") return t("admin.t.paid_out", { coins: formatNumber(tt.paid_out) });
  if (tt.state === "cancelled") {
    const who = tt.refunds.map((/** @type {any} */ r) => `${r.username} ${formatNumber(r.coins)}`).join(", ");
    return t("admin.t.refunds", { list: who || "—" });
  }
  return formatNumber(tt.pool);
}

async function loadTournaments() {
  try {
    const list = await request("/api/tournaments");
    anyRunning = list.some((/** @type {any} */ tt) => tt.state === "running");
    fillRows($("adm-tourneys"), list.map((/** @type {any} */ tt) => {
      const row = el("tr", "", { "data-tournament": String(tt.id), "data-state": tt.state });
      const standings = tt.standings.map((/** @type {any} */ s) => `${s.username} ${s.points}`
        + (s.prize ? ` (${formatNumber(s.prize)})` : "")).join(", ");
      for (const cell of [`#${tt.id}`, tt.name, t(`variant.${tt.variant}`), t(`admin.t.state.${tt.state}`),
        `${tt.registered}/${tt.player_limit}`, money(tt),
        standings || (tt.state === "cancelled" && tt.refunds.length ? "—" : t("admin.empty.standings"))]) {
        row.appendChild(el("td", String(cell)));
      }
      // Only what the tournament's state allows (the server's ``actions``); the report is always there.
      const actions = el("td");
      for (const action of ["start", "cancel", "report"].filter((a) => a === "report" || tt.actions.includes(a))) {
        const button = el("button", t(/** @type {Record<string, string>} */ (ACTION_LABEL)[action]),
          { type: "button", "data-action": action });
        button.addEventListener("click", () => tournamentAction(tt, action));
        actions.appendChild(button);
      }
      row.appendChild(actions);
      return row;
    }), "admin.empty.tournaments");
  } catch (err) { showError(err); }
}

/** @param {any} tt @param {string} action */
async function tournamentAction(tt, action) {
  clearError();
  try {
    if (action === "report") {
      $("adm-t-report").textContent = JSON.stringify(await request(`/api/operator/tournaments/${tt.id}/report`), null, 2);
      return;
    }
    const reason = await askReason(t(action === "cancel" ? "admin.ask.cancel" : "admin.ask.start", { name: tt.name }));
    if (reason === null) return;
    await request(`/api/operator/tournaments/${tt.id}/${action}`, { method: "POST", body: { reason } });
    await loadTournaments();
  } catch (err) { showError(err); }
}

/** @param {Event} event */
async function createTournament(event) {
  event.preventDefault();
  clearError();
  const value = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id)).value;
  /** @type {any} */
  let options;
  try {
    options = JSON.parse(value("adm-t-options") || "{}");
  } catch {
    showError(new Error(t("admin.t.options_bad")));
    return;
  }
  const hands = value("adm-t-hands");
  try {
    await request("/api/operator/tournaments", { method: "POST", body: {
      name: value("adm-t-name"), room: value("adm-t-room"), variant: value("adm-t-variant"),
      entry_fee: Number(value("adm-t-fee")), player_limit: Number(value("adm-t-players")),
      rounds: Number(value("adm-t-rounds")), hands_per_round: hands ? Number(hands) : null,
      prize_split: value("adm-t-split").split(",").map(Number), guarantee: Number(value("adm-t-guarantee") || 0),
      starts_at: new Date(value("adm-t-start")).toISOString(),
      opens_at: value("adm-t-opens") ? new Date(value("adm-t-opens")).toISOString() : null, options,
    } });
    await loadTournaments();
  } catch (err) { showError(err); }
}

/** @param {{openTab: (name: string) => void}} hooks */
export function bootLive(hooks) {
  for (const [tab, load] of [["tables", loadTables], ["tournaments", loadTournaments]]) {
    document.querySelector(`[data-tab="${tab}"]`)?.addEventListener("click", () => /** @type {any} */ (load)());
  }
  $("adm-tables-refresh").addEventListener("click", loadTables);
  $("adm-replay-form").addEventListener("submit", (e) => {
    e.preventDefault();
    loadReplay(Number(/** @type {HTMLInputElement} */ ($("adm-hand-id")).value));
  });
  $("adm-tourney-form").addEventListener("submit", createTournament);
  $("adm-void").addEventListener("click", voidHand);
  document.addEventListener("replay", (e) => loadReplay(/** @type {CustomEvent} */ (e).detail));
  const start = new Date(Date.now() + 3600_000);
  /** @type {HTMLInputElement} */ ($("adm-t-start")).value = new Date(start.getTime() - start.getTimezoneOffset() * 60_000)
    .toISOString().slice(0, 16);
  // Standings move after every hand: while a tournament runs and its tab is open, read them again.
  setInterval(() => { if (anyRunning && !$("tab-tournaments").hidden) loadTournaments(); }, STANDINGS_POLL_MS);
  void hooks;
}
