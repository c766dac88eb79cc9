// @ts-check
/**
 * Console tabs about play: live tables (close one, or watch it as a spectator: the server sends only the
 * public view, seat -1), a finished hand in the players' replay board, and tournaments.
 */

import { request, socketUrl } from "../api.js";
import { formatNumber, t } from "../i18n.js";
import { $, clearError, el, showError } from "./page.js";

/** @type {WebSocket | null} */
let watching = null;

async function loadTables() {
  try {
    const tables = await request("/api/operator/tables");
    $("adm-tables").replaceChildren(...tables.map((/** @type {any} */ table) => {
      const row = el("tr", "", { "data-table": table.id });
      const names = table.seats.map((/** @type {any} */ s) => s.username ?? (s.bot ? "bot" : "—")).join(", ");
      for (const cell of [table.id, table.variant, table.status, names, `#${table.hand_no ?? 0}`]) row.appendChild(el("td", cell));
      const watch = el("button", t("admin.watch"), { type: "button", "data-watch": table.id });
      watch.addEventListener("click", () => spectate(table.id));
      const close = el("button", t("admin.close"), { type: "button" });
      close.addEventListener("click", () => closeTable(table.id, table.status === "playing"));
      row.append(el("td").appendChild(watch).parentElement ?? watch, el("td").appendChild(close).parentElement ?? close);
      return row;
    }));
  } catch (err) { showError(err); }
}

/** @param {string} id @param {boolean} force */
async function closeTable(id, force) {
  const reason = window.prompt(t("admin.reason")) ?? "";
  if (!reason) return;
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
function spectate(tableId) {
  watching?.close();
  $("adm-watch").hidden = false;
  $("adm-watch-title").textContent = t("admin.watching", { table: tableId });
  $("adm-watch-log").replaceChildren();
  const socket = new WebSocket(socketUrl(`/ws/spectate/${tableId}`));
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
  const reason = window.prompt(t("admin.reason")) ?? "";
  if (!id || !reason.trim()) return;
  try {
    const result = await request(`/api/admin/hands/${id}/void`, { method: "POST", body: { reason } });
    $("adm-voided").textContent = t("admin.void.done", { id, n: result.entries.length });
  } catch (err) { showError(err); }
}

async function loadTournaments() {
  try {
    const list = await request("/api/tournaments");
    $("adm-tourneys").replaceChildren(...list.map((/** @type {any} */ tt) => {
      const row = el("tr", "", { "data-tournament": String(tt.id) });
      for (const cell of [`#${tt.id}`, tt.name, tt.variant, tt.state, `${tt.registered}/${tt.player_limit}`,
        formatNumber(tt.pool), tt.standings.map((/** @type {any} */ s) => `${s.username} ${s.points}`).join(", ")]) {
        row.appendChild(el("td", String(cell)));
      }
      // Only what the tournament's state allows (the server's ``actions``); the report is always there.
      const offered = [["admin.t.start_now", "start"], ["admin.t.cancel", "cancel"], ["admin.t.report", "report"]]
        .filter(([, action]) => action === "report" || tt.actions.includes(action));
      for (const [label, action] of offered) {
        const button = el("button", t(label), { type: "button", "data-action": action });
        button.addEventListener("click", () => tournamentAction(tt.id, action));
        row.appendChild(el("td").appendChild(button).parentElement ?? button);
      }
      return row;
    }));
  } catch (err) { showError(err); }
}

/** @param {number} id @param {string} action */
async function tournamentAction(id, action) {
  clearError();
  try {
    if (action === "report") {
      $("adm-t-report").textContent = JSON.stringify(await request(`/api/operator/tournaments/${id}/report`), null, 2);
      return;
    }
    const body = action === "cancel" ? { reason: window.prompt(t("admin.reason")) || "console" } : undefined;
    await request(`/api/operator/tournaments/${id}/${action}`, { method: "POST", body });
    await loadTournaments();
  } catch (err) { showError(err); }
}

/** @param {Event} event */
async function createTournament(event) {
  event.preventDefault();
  clearError();
  const value = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id)).value;
  try {
    await request("/api/operator/tournaments", { method: "POST", body: {
      name: value("adm-t-name"), room: value("adm-t-room"), variant: value("adm-t-variant"),
      entry_fee: Number(value("adm-t-fee")), player_limit: Number(value("adm-t-players")),
      rounds: Number(value("adm-t-rounds")), hands_per_round: Number(value("adm-t-hands")),
      prize_split: value("adm-t-split").split(",").map(Number),
      starts_at: new Date(value("adm-t-start")).toISOString(), options: {},
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
  void hooks;
}
