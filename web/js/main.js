// @ts-check
/**
 * Boot and routing. Each screen is its own module under screens/ (auth, lobby, table + keys, result);
 * the shared UI-only state and helpers are in app.js; the table's game state is in state.js (pure).
 */

import { api, ApiError } from "./api.js";
import { applyI18n, isLang, lang, onLangChange, setLang } from "./i18n.js";
import { $, app, showError, showView, ONE_CLICK_KEY, TABLE_KEY } from "./app.js";
import { bootAuth, chooseLanguage, renderAuth, renderMe, signedOut, syncLanguage } from "./screens/auth.js";
import { connectLobby, enterLobby, renderLobby } from "./screens/lobby.js";
import { enterTable, frame, leaveTable, leaveTableView, renderConn, renderTable, renderTitle } from "./screens/table.js";
import { onKey } from "./screens/keys.js";
import { enterGameReplay, enterHands, enterReplay, onReplayKey, renderReplay } from "./screens/history.js";
import { enterRules } from "./screens/rules.js";
import { bootSessions } from "./screens/sessions.js";
import { bootMenu } from "./screens/menu.js";
import { renderResult, showLastStandings, showResult } from "./screens/result.js";
import { isMuted, played, setMuted } from "./sound.js";
import { onOtherTabs } from "./tabs.js";
import { bootNotices } from "./notices.js";

/** Bumped on every hash change: a route() that awaited the server gives way to a newer navigation. */
let navigations = 0;

/** The replay board inside the operator console (admin.html embeds #/hand/ID with ?embed=replay): no top bar
 * and no lobby socket, only the board. */
const EMBEDDED = new URLSearchParams(location.search).get("embed") === "replay";

async function route() {
  try {
    app.me = await api.me(); // the session cookie, if this browser has a live one
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) { // not logged in (route runs while app.me is null)
      showView("auth");
      renderAuth();
      return;
    }
    showError(err);
    return;
  }
  syncLanguage(app.me);
  renderMe();
  $("admin-link").hidden = !["operator", "admin"].includes(app.me.role); // also set by showView
  $("tournaments-link").hidden = false;
  api.rooms().then((rooms) => { app.rooms = rooms; renderTitle(); }).catch(showError);
  if (routeHistory()) { if (!EMBEDDED) connectLobby(); return; }
  if (location.hash.startsWith("#/join/")) { enterLobby(); return; } // an invite link: the lobby sits you down
  const navigation = navigations;
  const m = location.hash.match(/^#\/table\/([\w-]+)/);
  const id = m?.[1] ?? localStorage.getItem(TABLE_KEY);
  if (id) {
    try {
      const table = await api.table(id);
      // The player went elsewhere (a replay link, the lobby) while we asked: that choice stands.
      if (navigation !== navigations) { connectLobby(); return; }
      const seated = table.seats.some((/** @type {any} */ s) => s.user_id === app.me.id);
      if (seated && table.status === "playing") { enterTable(id); connectLobby(); return; }
      if (!seated) localStorage.removeItem(TABLE_KEY);
    } catch {
      localStorage.removeItem(TABLE_KEY);
    }
  }
  enterLobby();
  showLastStandings(); // the last game's final standings (from the server), until dismissed
}

/** The switch shows which of 简体 / 繁體 / English is on. */
function renderLangSwitch() {
  for (const button of document.querySelectorAll("#lang-switch [data-lang]")) {
    button.setAttribute("aria-pressed", String(/** @type {HTMLElement} */ (button).dataset.lang === lang()));
  }
}

/** #/hands and #/hand/ID (a shared replay link): true when the hash named one of them. */
function routeHistory() {
  if (location.hash === "#/hands") { leaveTableView(); enterHands(); return true; }
  const m = location.hash.match(/^#\/hand\/(\d+)$/);
  if (m) { leaveTableView(); enterReplay(Number(m[1])); return true; }
  const g = location.hash.match(/^#\/game\/([^/]+)$/);
  if (g) { leaveTableView(); enterGameReplay(decodeURIComponent(g[1])); return true; }
  // #/rules/VARIANT, or #/rules/VARIANT/TABLE_ID from a table or its result: that table's own option values.
  const r = location.hash.match(/^#\/rules\/(\w+)(?:\/([\w-]+))?$/);
  if (r) { leaveTableView(); enterRules(r[1], null, r[2] ?? null); return true; }
  return false;
}

function boot() {
  if (EMBEDDED) document.documentElement.classList.add("embedded");
  setLang(lang(), { remember: false }); // guessed from the browser until the player picks one
  applyI18n(document);
  renderLangSwitch();
  bootAuth();
  bootSessions();
  bootMenu();
  $("lang-switch").addEventListener("click", (e) => {
    const button = /** @type {HTMLElement} */ (e.target).closest("[data-lang]");
    const next = /** @type {HTMLElement | null} */ (button)?.dataset.lang;
    if (isLang(next)) chooseLanguage(next);
  });
  $("leave-table").addEventListener("click", leaveTable);
  $("show-results").addEventListener("click", () => showResult());
  const mute = $("mute-toggle");
  const showMute = () => { mute.setAttribute("aria-pressed", String(isMuted())); mute.classList.toggle("muted", isMuted()); };
  mute.addEventListener("click", () => { setMuted(!isMuted()); showMute(); });
  showMute();
  const oneClick = /** @type {HTMLInputElement} */ ($("one-click"));
  oneClick.checked = app.ui.oneClick;
  oneClick.addEventListener("change", () => {
    app.ui.oneClick = oneClick.checked;
    localStorage.setItem(ONE_CLICK_KEY, oneClick.checked ? "1" : "0");
  });
  onLangChange(() => {
    applyI18n(document);
    renderLangSwitch();
    renderAuth();
    renderMe();
    renderLobby();
    renderTable();
    if (/** @type {HTMLDialogElement} */ ($("result-dialog")).open) renderResult();
    if (app.tableSocket) renderConn(app.tableSocket.status);
    renderTitle();
    // The history, a replay and the rules page are drawn once from the server's data: draw them again.
    if (app.view === "replay") renderReplay(); // at the same step
    else if (app.view === "hands" || app.view === "rules") routeHistory();
  });
  onOtherTabs((news) => {
    if (news.type === "logout") { if (app.me) signedOut(); return; }
    // Another tab logged in: this one follows (as another account: start afresh, nothing of the old one kept).
    if (!app.me) route();
    else if (app.me.id !== news.userId) location.reload();
  });
  document.addEventListener("keydown", onKey);
  document.addEventListener("keydown", onReplayKey);
  window.addEventListener("hashchange", () => {
    navigations += 1;
    if (app.me && routeHistory()) return;
    if (app.me && location.hash.startsWith("#/join/")) { leaveTableView(); enterLobby(); return; }
    // The brand link: back to the lobby; a running table keeps your seat (the lobby offers the way back).
    if (location.hash === "#/lobby" && app.me && app.view !== "lobby") enterLobby();
    const m = location.hash.match(/^#\/table\/([\w-]+)/);
    if (m && app.view !== "table" && app.me) enterTable(m[1]);
  });
  requestAnimationFrame(frame);
  // For the browser tests and for debugging: the table state and a way to drop the socket.
  Object.assign(window, {
    __mj: {
      state: () => app.table,
      drop: () => app.tableSocket?.drop(),
      send: (/** @type {any} */ msg) => app.tableSocket?.send(msg),
      me: () => app.me,
      sounds: () => [...played],
    },
  });
  bootNotices();
  route();
}

boot();
