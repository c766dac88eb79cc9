// @ts-check
/**
 * The table screen: the table WebSocket, the UI-only state (the selected tile, an armed declaration, a
 * pending chow choice), sending actions the server offered, the countdown, and leaving.
 */

import { api, ApiError, socketUrl } from "../api.js";
import { ReconnectingSocket } from "../net.js";
import { groupActions, initialState, reduceMessage, secondsLeft } from "../state.js";
import { errorWords, has, localName, t } from "../i18n.js";
import { setChildren } from "../render/dom.js";
import { namer, tableEl } from "../render/table.js";
import { availableButtons, keysHelp, updateTimer } from "../render/actions.js";
import { verifyCommitment } from "../render/result.js";
import { $, announce, app, showError, showView, toast, TABLE_KEY } from "../app.js";
import { play, soundsFor } from "../sound.js";
import { callSound, callsOf, callWord, showCall } from "../render/calls.js";
import { sideOf } from "../seats.js";
import { provide, screens } from "../router.js";
import { hideElsewhere, showElsewhere } from "./elsewhere.js";
import { takeNotice } from "../notices.js";

/** @param {string} id */
export function enterTable(id) {
  if (app.tableId === id && app.tableSocket) {
    showView("table");
    return;
  }
  leaveTableView();
  app.tableId = id;
  app.table = initialState();
  app.ui.selected = null;
  app.ui.mode = null;
  app.verified = null;
  app.results = savedResults(id); // this tab's earlier results of the table survive a reload
  app.resultIndex = app.results.length - 1;
  screens.renderResultsButton();
  localStorage.setItem(TABLE_KEY, id);
  if (location.hash !== `#/table/${id}`) history.replaceState(null, "", `#/table/${id}`);
  showView("table");
  renderTable();
  app.tableSocket = new ReconnectingSocket({
    url: () => socketUrl(`/ws/table/${encodeURIComponent(id)}`, id),
    onMessage: onTableMessage,
    onStatus: (s) => renderConn(s),
    onClose: onTableClosed,
    ping: () => ({ type: "ping", t: Date.now() }),
  }).connect();
}

export function leaveTableView() {
  hideElsewhere();
  app.tableSocket?.close();
  app.tableSocket = null;
  app.tableId = null;
  const dialog = /** @type {HTMLDialogElement} */ ($("result-dialog"));
  if (dialog.open) dialog.close();
}

/** @param {import("../net.js").SocketStatus} s */
export function renderConn(s) {
  const el = $("conn-status");
  el.dataset.status = s;
  el.textContent = s === "open" ? t("table.connected") : s === "reconnecting" ? t("table.reconnecting") : s === "connecting" ? t("table.connecting") : "";
}

/** @param {number} code @param {string} reason */
function onTableClosed(code, reason) {
  app.tableSocket = null;
  if (code === 1000 || code === 4005) {
    renderTable(); // game over (4005: the table was closed, `game_over` reason table_closed): the dialog says so
    return;
  }
  if (code === 4001) { // replaced: this account opened the table in another tab or on another device
    const id = app.tableId;
    app.table = initialState(); // nothing of the board is kept: the game goes on over there
    app.ui.selected = null;
    app.ui.mode = null;
    const dialog = /** @type {HTMLDialogElement} */ ($("result-dialog"));
    if (dialog.open) dialog.close();
    showElsewhere(() => { if (id) enterTable(id); }); // "play here" takes the seat back
    return;
  }
  if (code === 1008 || code === 4401) {
    api.me().then(() => {
      toast(t("close.1008")); // the close reason is the server's English, not shown
      if (app.tableId) enterTable(app.tableId);
    }).catch(showError);
    return;
  }
  toast(has(`close.${code}`) ? t(`close.${code}`) : t("close.other", { code }));
  if (reason) console.info(`table socket closed: ${code} ${reason}`);
  if (code === 4003 || code === 4004) {
    localStorage.removeItem(TABLE_KEY);
    screens.enterLobby();
    if (code === 4004) screens.showLastStandings(); // the game ended while you were away: how it finished
  } else {
    renderTable();
  }
}

/** @param {any} msg */
function onTableMessage(msg) {
  if (msg.type === "notice") { takeNotice(msg); return; }
  const before = app.table;
  const { state, resync } = reduceMessage(before, msg, performance.now());
  app.table = state;
  if (resync) app.tableSocket?.send({ type: "resync" });
  if (msg.type === "error") {
    toast(`${t("error.title")}: ${errorWords({ code: msg.code, params: msg.params, detail: msg.message })}`);
    app.tableSocket?.send({ type: "resync" }); // our optimistic view of the prompt may be wrong
  }
  if (state.prompt !== before.prompt) {
    app.ui.mode = null;
    if (!state.prompt) app.ui.selected = null;
  }
  if (msg.type === "snapshot") {
    renderTitle();
    if (state.table) screens.rememberTitle(state.table.id);
    // The phone's top bar shows your coins at a coin table (css/base.css), not at a practice table.
    document.body.toggleAttribute("data-coin-table", !!state.table && !state.table.practice && state.table.coins_per_point !== null);
  }
  if (msg.type === "event" && msg.event?.type === "hand_void") toast(t("table.hand_void"));
  // The next hand starts: the last hand's result gives way to the table (its tiles, its "your turn" bar);
  // the 結果 button brings it back.  The final standings stay.
  if (msg.type === "event" && msg.event?.type === "hand_start") {
    const d = /** @type {HTMLDialogElement} */ ($("result-dialog"));
    if (d.open && !d.querySelector(".standings")) d.close();
  }
  // 托管 switched on for you: say so (the action bar then offers "I'm back").
  if (msg.type === "event" && msg.event?.type === "auto_play" && msg.event.on && msg.event.seat === state.table?.seat) {
    const reason = ["timeouts", "chosen"].includes(msg.event.reason) ? msg.event.reason : "other";
    toast(t(`table.auto_on.${reason}`), "info");
    announce(t(`table.auto_on.${reason}`));
  }
  if (msg.type === "event" && state !== before) {
    for (const name of soundsFor(msg.event)) play(name);
    showCalls(msg.event, state);
    if (msg.event?.type === "discard") app.ui.fresh = "discard";
    if (msg.event?.type === "draw" && msg.event.seat === state.table?.seat) app.ui.fresh = "draw";
    if (["chow", "pong", "kong"].includes(msg.event?.type) && typeof msg.event.seat === "number") app.ui.freshMeld = msg.event.seat;
  }
  // A snapshot in the pause between hands is followed by the last result again (it may never have
  // arrived: a dropped socket, a restarted server); one this visit already has is not shown twice.
  const freshResult = msg.type === "hand_result"
    && !app.results.some((e) => e.msg.hand_no === msg.hand_no && e.msg.hand_id === msg.hand_id);
  if (freshResult && (msg.result?.winners ?? []).length) play("win");
  if (freshResult) {
    const entry = { msg, state, verified: /** @type {boolean | null} */ (null) };
    app.results.push(entry);
    saveResults();
    verifyCommitment(msg.seed, msg.salt, msg.commitment).then((ok) => { entry.verified = ok; screens.renderResult(); });
    screens.refreshMe();
    screens.showResult(app.results.length - 1);
    screens.renderResultsButton();
  } else if (msg.type === "game_over" && !leaving) {
    // (Leaving a practice table ends it: its `game_over` table_closed is the player's own doing, not a result.)
    screens.saveStandings(msg);
    // The account (coins, 積分, title) after the game, then the last result with its way to the standings.
    const at = app.tableId;
    screens.refreshMe().then(() => {
      if (app.tableId !== at || app.view !== "table") return; // the player went elsewhere meanwhile
      if (app.results.length) screens.showResult(app.results.length - 1);
      else screens.showStandings();
    });
  } else if (msg.type === "prompt" && state.prompt) {
    promptToFocus = state.prompt.v;
    announce(state.prompt.kind === "turn" ? t("table.your_turn") : availableButtons(groupActions(state.prompt)).map((id) => t(`act.${id}`)).join(" · "));
    // The result stays until dismissed: it says a decision is waiting and shows the countdown.
    if (/** @type {HTMLDialogElement} */ ($("result-dialog")).open) screens.renderResult();
  }
  scheduleRender();
}

/**
 * The banners (and spoken calls) of one event: at the caller's side of the table, for about a second.
 * @param {any} ev @param {import("../state.js").TableState} state
 */
function showCalls(ev, state) {
  const calls = callsOf(ev);
  if (!calls.length) return;
  const n = state.view?.n_seats ?? state.table?.seats.length ?? 4;
  const me = state.table?.seat ?? 0;
  const nameOf = namer(state);
  for (const { seat, call } of calls) {
    showCall($("call-layer"), sideOf(seat, me, n), call, document.querySelector(`#table-root .plate[data-seat="${seat}"]`));
    play(callSound(call));
  }
  announce(calls.map(({ seat, call }) => `${nameOf(seat)}: ${callWord(call)}`).join(" · "));
}

/** @param {string} tableId */
const resultsKey = (tableId) => `mj.results.${tableId}`;

/** The results this tab has seen at table `tableId` (sessionStorage: gone with the tab). @param {string} tableId */
function savedResults(tableId) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(resultsKey(tableId)) ?? "[]");
    return Array.isArray(saved) ? saved.map((e) => ({ msg: e.msg, state: e.state, verified: e.verified ?? null })) : [];
  } catch {
    return [];
  }
}

function saveResults() {
  if (!app.tableId) return;
  try {
    sessionStorage.setItem(resultsKey(app.tableId), JSON.stringify(app.results));
  } catch { /* full or private mode: this page keeps them until it closes */ }
}

export function renderTitle() {
  const title = $("table-title");
  const tb = app.table.table;
  if (!tb) return;
  const room = app.rooms.find((r) => r.key === tb.room);
  /** @type {HTMLAnchorElement} */ ($("rules-link")).href = `#/rules/${tb.variant}/${encodeURIComponent(tb.id)}`; // with this table's options
  title.textContent = `${t(`variant.${tb.variant}`)} · ${tb.practice ? t("table.practice") : room ? roomName(room) : tb.room ?? ""}`;
  title.dataset.tableId = tb.id;
  const help = document.querySelector("#table-view .keys-help");
  if (help) help.textContent = keysHelp(tb.variant); // only this variant's own actions (no 聽 where never offered)
}

/** @param {{key: string, name: string, names?: Record<string, string>}} room */
function roomName(room) {
  return localName(room.names, room.name);
}

let renderQueued = false;
export function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    renderTable();
  });
}

export function currentOffer() {
  return groupActions(app.table.prompt);
}

export function renderTable() {
  if (app.view !== "table") return;
  // Standing up from a coin game that is on is refused (game_in_progress): do not offer it.  The brand
  // link still goes to the lobby, which keeps the seat.
  const tb = app.table.table;
  $("leave-table").hidden = !!tb && !tb.practice && !app.table.game_over && app.tableSocket !== null;
  const offer = currentOffer();
  const focused = focusKey();
  setChildren($("table-root"), tableEl(app.table, offer, app.ui, {
    onTile, onButton, onChoice: sendAction, onCancel: () => { app.ui.mode = null; renderTable(); },
    onBack: () => app.tableSocket?.send({ type: "back" }),
    onFairness: () => { app.ui.fairness = !app.ui.fairness; renderTable(); },
    onAuto: () => app.tableSocket?.send({ type: "auto_play" }),
  }));
  app.ui.fresh = null; // animate a discard (or a claim) once, not on every later render
  app.ui.freshMeld = null;
  if (promptToFocus !== null && app.table.prompt?.v === promptToFocus) focusPrompt();
  else if (focused) /** @type {HTMLElement | null} */ (document.querySelector(`#table-root ${focused}`))?.focus({ preventScroll: true });
  tick();
}

/** The prompt that just arrived and has not had the focus yet (issue 33 item 5: focus moves to the prompt). */
let promptToFocus = /** @type {number | null} */ (null);

/** What has the keyboard focus at the table, as a selector that finds it again after a render. */
function focusKey() {
  const el = /** @type {HTMLElement | null} */ (document.activeElement);
  if (!el || !$("table-root").contains(el)) return null;
  if (el.dataset.action) return `.actions [data-action="${el.dataset.action}"]`;
  if (el.dataset.index) return `.my-hand .tile[data-index="${el.dataset.index}"]`;
  return null;
}

/** Put the focus on the prompt: its first button (a claim), else the drawn or first playable tile (a turn). */
function focusPrompt() {
  promptToFocus = null;
  if (/** @type {HTMLDialogElement} */ ($("result-dialog")).open) return; // the dialog keeps it; its banner says so
  const target = /** @type {HTMLElement | null} */ (document.querySelector(
    "#table-root .actions .act:not([disabled])") ?? document.querySelector("#table-root .my-hand .tile.drawn:not([disabled])")
    ?? document.querySelector("#table-root .my-hand .tile:not([disabled])"));
  target?.focus({ preventScroll: true });
}

/** @param {any} action */
export function sendAction(action) {
  const prompt = app.table.prompt;
  if (!prompt || !app.tableSocket) return;
  /** @type {Record<string, any>} */
  const out = { kind: action.kind };
  for (const key of ["tile", "tiles", "declare"]) if (action[key] !== null && action[key] !== undefined) out[key] = action[key];
  if (!app.tableSocket.send({ type: "action", v: prompt.v, action: out })) {
    toast(t("table.reconnecting"));
    return;
  }
  app.table = { ...app.table, prompt: null }; // answered: wait for the server's next word
  app.ui.selected = null;
  app.ui.mode = null;
  scheduleRender();
}

/** @param {string} tile @param {number} index */
function onTile(tile, index) {
  const offer = currentOffer();
  const mode = app.ui.mode;
  if (mode?.type === "declare") {
    const action = offer.declares.get(mode.declare)?.get(tile);
    if (action) sendAction(action);
    return;
  }
  const action = offer.discards.get(tile);
  if (!action) return;
  if (app.ui.oneClick || app.ui.selected === index) {
    sendAction(action);
  } else {
    app.ui.selected = index;
    renderTable();
    focusTile(index);
  }
}

/** @param {number} index */
export function focusTile(index) {
  const el = /** @type {HTMLElement | null} */ (document.querySelector(`.my-hand .tile[data-index="${index}"]`));
  el?.focus({ preventScroll: true });
}

/** @param {string} id */
export function onButton(id) {
  const offer = currentOffer();
  switch (id) {
    case "chow":
    case "kong": {
      const list = id === "chow" ? offer.chows : offer.kongs;
      if (list.length === 1) sendAction(list[0]);
      else if (list.length > 1) { app.ui.mode = { type: "choose", kind: id }; renderTable(); }
      break;
    }
    case "pong":
      if (offer.pongs[0]) sendAction(offer.pongs[0]);
      break;
    case "win":
      if (offer.win) sendAction(offer.win);
      break;
    case "kill_pig":
      if (offer.killPig) sendAction(offer.killPig);
      break;
    case "pass":
      if (offer.pass) sendAction(offer.pass);
      break;
    case "ready":
    case "eye":
    case "miji":
      if (!offer.declares.has(id)) break;
      app.ui.mode = app.ui.mode?.type === "declare" && app.ui.mode.declare === id ? null : { type: "declare", declare: id };
      renderTable();
      break;
    default:
      break;
  }
}

// The countdown runs every frame, touching only the timer elements (the table's and the result's).
function tick() {
  const prompt = app.table.prompt;
  if (!prompt) return;
  const now = performance.now();
  const total = ((prompt.deadline_at ?? now) - (prompt.received_at ?? now)) / 1000;
  for (const el of document.querySelectorAll("#table-root .timer, #result-dialog .timer")) {
    updateTimer(/** @type {HTMLElement} */ (el), secondsLeft(prompt, now), total);
  }
}
export function frame() {
  if (app.view === "table") tick();
  requestAnimationFrame(frame);
}

/** True while this player stands up: what the table says as it closes behind them is not shown. */
let leaving = false;

export async function leaveTable() {
  const id = app.tableId ?? localStorage.getItem(TABLE_KEY);
  if (id) {
    leaving = true;
    try {
      await api.stand(id);
    } catch (err) {
      // Standing up from a running coin game is refused: say so and stay.
      if (err instanceof ApiError && err.status === 409 && app.table.game_over === null && app.tableSocket) {
        leaving = false;
        showError(err);
        return;
      }
      if (!(err instanceof ApiError && (err.status === 404 || err.status === 409))) showError(err);
    }
  }
  localStorage.removeItem(TABLE_KEY);
  screens.enterLobby();
  leaving = false;
}

provide({ enterTable, leaveTable, leaveTableView });
