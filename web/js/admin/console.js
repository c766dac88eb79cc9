// @ts-check
/**
 * The operator / admin console (admin.html): tabs for players (admins), live tables with a spectator view,
 * hand replay, the audit log (admins) and tournaments.  It reuses the client's token, API and strings; the
 * server refuses everything to lesser roles anyway (403), this page only hides what cannot work.
 */

import { ApiError, request } from "../api.js";
import { applyI18n, formatNumber, lang, setLang, t } from "../i18n.js";
import { bootLive } from "./live.js";
import { bootModeration, showModeration } from "./moderation.js";
import { bootSchedules, loadSchedules } from "./schedules.js";
import { selectTab, wireTabKeys } from "./tabs.js";
import { $, askReason, clearError, el, fillRows, showError } from "./page.js";
import { bootHouse } from "./house.js";
import { bootNoticesTab } from "./notices.js";
import { bootProcesses } from "./processes.js";

/** @type {{me: any, player: any}} */
const state = { me: null, player: null };

/** @param {string} name */
function openTab(name) {
  for (const section of document.querySelectorAll(".adm-tab")) {
    /** @type {HTMLElement} */ (section).hidden = section.id !== `tab-${name}`;
  }
  selectTab(document, name); // aria-selected and the roving tabindex (js/admin/tabs.js)
  clearError();
}

/** @param {Event} event */
async function findPlayers(event) {
  event.preventDefault();
  clearError();
  const prefix = /** @type {HTMLInputElement} */ ($("adm-prefix")).value.trim();
  const asId = /^\d+$/.test(prefix) ? `id=${prefix}` : `prefix=${encodeURIComponent(prefix)}`;
  try {
    const users = await request(`/api/admin/users?${asId}`);
    const list = $("adm-results");
    list.replaceChildren(...users.map((/** @type {any} */ u) => {
      const button = el("button", `${u.username} (#${u.id})`, { type: "button", "data-user": String(u.id) });
      button.addEventListener("click", () => showPlayer(u.id));
      return el("li").appendChild(button).parentElement ?? button;
    }));
    if (users.length === 0) list.replaceChildren(el("li", t("admin.find.none")));
  } catch (err) { showError(err); }
}

/** @param {number} id */
async function showPlayer(id) {
  try {
    const p = await request(`/api/admin/users/${id}`);
    state.player = p;
    $("adm-detail").hidden = false;
    $("adm-name").textContent = `${p.username} (#${p.id})`;
    $("adm-coins").textContent = formatNumber(p.coins);
    $("adm-points").textContent = formatNumber(p.rank_points);
    $("adm-title").textContent = p.title_names?.[lang() === "zh-Hans" ? "zh_hans" : lang() === "en" ? "en" : "zh_hant"] ?? p.title;
    $("adm-role").textContent = p.role;
    $("adm-frozen").textContent = p.frozen ? t("admin.yes") : t("admin.no");
    $("adm-table").textContent = p.current_table ?? "—";
    $("adm-hands").replaceChildren(...p.recent_hands.map((/** @type {number} */ h) => {
      const a = el("a", `#${h}`, { href: `#replay/${h}` });
      a.addEventListener("click", () => { openTab("replay"); document.dispatchEvent(new CustomEvent("replay", { detail: h })); });
      return a;
    }));
    if (!p.recent_hands.length) $("adm-hands").textContent = "—";
    fillRows($("adm-ledger"), p.ledger.map((/** @type {any} */ e) => {
      const row = el("tr", "", { "data-entry": String(e.id) });
      for (const cell of [e.id, e.asset, e.delta, e.balance_after, e.note ? `${e.reason}: ${e.note}` : e.reason]) {
        row.appendChild(el("td", typeof cell === "number" ? formatNumber(cell) : String(cell)));
      }
      return row;
    }), "admin.empty.ledger");
    // Only what can happen is offered: freeze a player who is not frozen, unfreeze one who is.
    $("adm-freeze").hidden = p.frozen;
    $("adm-unfreeze").hidden = !p.frozen;
    await showModeration(p); // the title ladder, notes and sessions beside the account
  } catch (err) { showError(err); }
}

/** @param {Event} event */
async function adjust(event) {
  event.preventDefault();
  clearError();
  const delta = Number(/** @type {HTMLInputElement} */ ($("adm-delta")).value);
  const asset = /** @type {HTMLSelectElement} */ ($("adm-asset")).value;
  const reason = await askReason(t("admin.ask.adjust", {
    name: state.player.username, asset: t(asset === "coins" ? "me.coins" : "me.points"), delta: formatNumber(delta) }));
  if (reason === null) return;
  try {
    const entry = await request(`/api/admin/users/${state.player.id}/adjustments`,
      { method: "POST", body: { asset, delta, reason } });
    $("adm-adjusted").textContent = t("admin.adjust.done", { id: entry.id, balance: formatNumber(entry.balance_after) });
    await showPlayer(state.player.id);
  } catch (err) { showError(err); }
}

/** @param {boolean} frozen */
async function freeze(frozen) {
  clearError();
  const reason = await askReason(t(frozen ? "admin.ask.freeze" : "admin.ask.unfreeze", { name: state.player.username }));
  if (reason === null) return;
  try {
    await request(`/api/admin/users/${state.player.id}/freeze`, { method: "POST", body: { frozen, reason } });
    await showPlayer(state.player.id);
  } catch (err) { showError(err); }
}

async function setRole() {
  clearError();
  const role = /** @type {HTMLSelectElement} */ ($("adm-new-role")).value;
  if (role === state.player.role) return; // nothing would change
  const reason = await askReason(t("admin.ask.role", { name: state.player.username, role }));
  if (reason === null) return;
  try {
    await request(`/api/admin/users/${state.player.id}/role`, { method: "POST", body: { role, reason } });
    await showPlayer(state.player.id);
  } catch (err) { showError(err); }
}

/** Who acted, by name: an account (with its id), the tournament director, or the command line. @param {any} e */
function actorName(e) {
  if (e.actor_id === null) return t("admin.actor.cli");
  if (e.actor_name === "director") return t("admin.actor.director");
  return `${e.actor_name} (#${e.actor_id})`;
}

/** @param {Event} [event] */
async function loadAudit(event) {
  event?.preventDefault();
  const action = /** @type {HTMLInputElement} */ ($("adm-audit-action")).value.trim();
  const target = /** @type {HTMLInputElement} */ ($("adm-audit-target")).value.trim();
  const query = new URLSearchParams();
  if (action) query.set("action", action);
  if (target) query.set("target_id", target);
  try {
    const entries = await request(`/api/admin/audit?${query}`);
    fillRows($("adm-audit"), entries.map((/** @type {any} */ e) => {
      const row = el("tr", "", { "data-audit": String(e.id) });
      const target = `${e.target_type} ${e.target_id}`;
      for (const cell of [e.created_at.replace("T", " ").slice(0, 19), e.action,
        e.target_name ? `${e.target_name} (${target})` : target, actorName(e),
        JSON.stringify(e.before), JSON.stringify(e.after), e.reason ?? ""]) {
        row.appendChild(el("td", String(cell)));
      }
      return row;
    }), "admin.empty.audit");
  } catch (err) { showError(err); }
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
  $("adm-me").textContent = `${state.me.username} · ${state.me.role}`;
  const isAdmin = state.me.role === "admin";
  if (!isAdmin && state.me.role !== "operator") {
    $("adm-denied").hidden = false;
    /** @type {HTMLElement} */ (document.querySelector(".admin-tabs")).hidden = true;
    return;
  }
  // Admin-only tabs and buttons (e.g. voiding a hand) are hidden from operators; the server refuses them anyway.
  for (const node of document.querySelectorAll('[data-role="admin"]')) /** @type {HTMLElement} */ (node).hidden = !isAdmin;
  for (const button of document.querySelectorAll("[data-tab]")) {
    const b = /** @type {HTMLElement} */ (button);
    b.addEventListener("click", () => {
      openTab(b.dataset.tab ?? "tables");
      if (b.dataset.tab === "audit") loadAudit();
      if (b.dataset.tab === "schedules") loadSchedules();
    });
  }
  wireTabKeys(/** @type {HTMLElement} */ (document.querySelector(".admin-tabs")));
  bootModeration();
  bootSchedules();
  $("adm-find").addEventListener("submit", findPlayers);
  $("adm-adjust").addEventListener("submit", adjust);
  $("adm-freeze").addEventListener("click", () => freeze(true));
  $("adm-unfreeze").addEventListener("click", () => freeze(false));
  $("adm-set-role").addEventListener("click", setRole);
  $("adm-audit-form").addEventListener("submit", loadAudit);
  bootLive({ openTab });
  if (isAdmin) { bootProcesses(); bootHouse(); bootNoticesTab(); }
  openTab(isAdmin ? "players" : "tables");
}

boot();
