// @ts-check
/**
 * The players' tournament page (tournaments.html): every tournament, register / leave, the live standings
 * (pushed as `tournament_updated` on the lobby socket) and, while it runs, a link to the player's table.
 */

import { ApiError, request, socketUrl } from "../api.js";
import { applyI18n, errorWords, formatNumber, lang, setLang, t } from "../i18n.js";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @type {{me: any, open: number | null}} */
const state = { me: null, open: null };

/** @param {unknown} err */
function showError(err) {
  const e = /** @type {any} */ (err);
  $("tp-error").textContent = err instanceof ApiError
    ? errorWords({ code: e.code, params: e.params, status: e.status, detail: e.message }) : String(err);
}

/** @param {string} tag @param {string} text @param {Record<string, string>} [attrs] */
function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

async function loadList() {
  try {
    const list = await request("/api/tournaments");
    $("tp-list").replaceChildren(...list.map((/** @type {any} */ tt) => {
      const row = el("tr", "", { "data-tournament": String(tt.id) });
      // A finished tournament's pool is empty because it was paid out: show what it paid.
      const pool = tt.state === "finished" ? tt.paid_out : tt.pool;
      for (const cell of [tt.name, tt.variant, t(`tournament.state.${tt.state}`), `${tt.registered}/${tt.player_limit}`,
        formatNumber(tt.entry_fee), formatNumber(pool)]) {
        row.appendChild(el("td", String(cell)));
      }
      row.addEventListener("click", () => show(tt));
      return row;
    }));
    // No tournament at all: say so rather than show an empty table (issue 26 item 11).
    if (!list.length) {
      const cols = String(document.querySelectorAll("#tp-list")[0]?.closest("table")?.querySelectorAll("thead th").length || 6);
      $("tp-list").replaceChildren(el("tr", "", { class: "empty" }).appendChild(el("td", t("tournament.none"), { colspan: cols })).parentElement ?? "");
    }
  } catch (err) { showError(err); }
}

/** @param {any} tt */
function show(tt) {
  state.open = tt.id;
  $("tp-detail").hidden = false;
  $("tp-name").textContent = tt.name;
  $("tp-state").textContent = `${t(`tournament.state.${tt.state}`)} · ${t("tournament.round", { n: tt.current_round, of: tt.rounds })}`;
  const mine = tt.standings.some((/** @type {any} */ s) => s.user_id === state.me.id);
  /** @type {HTMLButtonElement} */ ($("tp-register")).hidden = mine || tt.state !== "registering";
  /** @type {HTMLButtonElement} */ ($("tp-unregister")).hidden = !mine || !["registering", "scheduled"].includes(tt.state);
  const table = tt.tables.find((/** @type {any} */ g) => !g.finished && g.table_id && g.seats.includes(state.me.id));
  const link = /** @type {HTMLAnchorElement} */ ($("tp-my-table"));
  link.hidden = !table;
  if (table) link.href = `./#/table/${table.table_id}`;
  $("tp-standings").replaceChildren(...tt.standings.map((/** @type {any} */ s, /** @type {number} */ i) => {
    const row = el("tr", "", { "data-user": String(s.user_id) });
    for (const cell of [s.place ?? i + 1, s.username, s.points, s.prize ? formatNumber(s.prize) : ""]) {
      row.appendChild(el("td", String(cell)));
    }
    return row;
  }));
}

/** @param {"POST" | "DELETE"} method */
async function registration(method) {
  if (state.open === null) return;
  try {
    show(await request(`/api/tournaments/${state.open}/register`, { method }));
    await loadList();
  } catch (err) { showError(err); }
}

async function listen() {
  let socket;
  try { socket = new WebSocket(await socketUrl("/ws/lobby")); } catch { setTimeout(listen, 2000); return; }
  socket.addEventListener("message", (message) => {
    const m = JSON.parse(message.data);
    if (m.type !== "tournament_updated") return;
    if (m.tournament.id === state.open) show(m.tournament);
    loadList();
  });
  socket.addEventListener("close", () => setTimeout(listen, 2000));
}

async function boot() {
  setLang(lang(), { remember: false });
  applyI18n(document);
  try {
    state.me = await request("/api/me"); // the session cookie
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) location.href = "./"; // not logged in: the client's form
    else showError(err);
    return;
  }
  $("tp-me").textContent = state.me.username;
  $("tp-register").addEventListener("click", () => registration("POST"));
  $("tp-unregister").addEventListener("click", () => registration("DELETE"));
  await loadList();
  listen();
}

boot();
