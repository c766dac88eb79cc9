// @ts-check
/** The lobby: rooms and open tables over REST + the lobby WebSocket; create, sit, stand, practice. */

import { api, ApiError, socketUrl } from "../api.js";
import { ReconnectingSocket } from "../net.js";
import { t } from "../i18n.js";
import { setChildren } from "../render/dom.js";
import { botSpeed, lobbyEl } from "../render/lobby.js";
import { $, app, showError, showView, toast, TABLE_KEY } from "../app.js";
import { provide, screens } from "../router.js";
import { loadProgress, progressEl } from "./progress.js";
import { clock, waited } from "../render/quickplay.js";
import { play } from "../sound.js";
import { takeNotice } from "../notices.js";

function myLobbyTable() {
  for (const tb of app.tables.values()) {
    if (tb.seats.some((/** @type {any} */ s) => s.user_id === app.me?.id)) return tb;
  }
  return null;
}

export function renderLobby() {
  if (app.view !== "lobby") return;
  const mine = myLobbyTable();
  setChildren($("lobby-view"), lobbyEl({
    me: app.me, rooms: app.rooms, tables: [...app.tables.values()], live: app.lobbyLive,
    myTable: mine?.id ?? app.returnTable?.id ?? app.me?.table?.table_id ?? null, busy: app.busy, createVariant: app.createVariant,
    returnTable: app.returnTable, queue: app.queue, queueSizes: app.queueSizes, gameMinutes: app.gameMinutes,
  }, {
    onQuickPlay: (room, variant, rounds) => busy(async () => {
      app.queue = await api.queue(room, variant, rounds);
      tickQueue();
    }),
    onCancelQueue: (room) => busy(async () => {
      await api.leaveQueue(room);
      await refreshQueue();
    }),
    onPractice: (variant) => busy(async () => {
      const table = await api.practice(variant, {}, { bot_speed: botSpeed() });
      screens.enterTable(table.id);
    }),
    onCreate: (room, variant) => busy(async () => {
      const table = await api.createTable(room, variant);
      upsertTable(table);
      localStorage.setItem(TABLE_KEY, table.id);
      if (table.status === "playing") screens.enterTable(table.id);
    }),
    onSit: (id, seat) => busy(async () => {
      const table = await api.sit(id, seat);
      upsertTable(table);
      localStorage.setItem(TABLE_KEY, table.id);
      if (table.status === "playing") screens.enterTable(table.id);
    }),
    onStand: (id) => busy(async () => {
      const out = await api.stand(id);
      if (out.table) upsertTable(out.table);
      else app.tables.delete(id);
      localStorage.removeItem(TABLE_KEY);
      if (app.returnTable?.id === id) app.returnTable = null;
      await screens.refreshMe();
    }),
    onEnter: (id) => screens.enterTable(id),
    onBots: (id) => busy(async () => {
      const table = await api.fillWithBots(id);
      upsertTable(table);
      if (table.status === "playing") screens.enterTable(table.id);
    }),
    onCopyInvite: (link, button) => copyInvite(link, button),
  }), progressEl(renderLobby));
}

/** Copy the invite link (the field stays selectable where the clipboard is refused). @param {string} link @param {HTMLElement} button */
async function copyInvite(link, button) {
  try {
    await navigator.clipboard.writeText(link);
    toast(t("lobby.invite.copied"), "info");
    button.dataset.copied = "1";
  } catch {
    const input = /** @type {HTMLInputElement | null} */ (button.parentElement?.querySelector(".invite-url") ?? null);
    input?.focus();
    input?.select();
    toast(t("lobby.invite.select"), "info");
  }
}

/**
 * An invite link (#/join/ID) was opened: sit at that table (the first free seat), and go to it if that
 * filled it.  Already seated there: nothing to do.  Refusals (full, another table, not enough coins) say why.
 * @param {string} id
 */
async function joinFromLink(id) {
  const table = await api.table(id);
  if (table.seats.some((/** @type {any} */ s) => s.user_id === app.me?.id)) {
    upsertTable(table);
    if (table.status === "playing") screens.enterTable(table.id);
    return;
  }
  const seated = await api.sit(id);
  upsertTable(seated);
  localStorage.setItem(TABLE_KEY, seated.id);
  toast(t("lobby.joined"), "info");
  if (seated.status === "playing") screens.enterTable(seated.id);
}

/** @param {() => Promise<void>} fn */
async function busy(fn) {
  app.busy = true;
  renderLobby();
  try {
    await fn();
  } catch (err) {
    showError(err);
  } finally {
    app.busy = false;
    renderLobby();
  }
}

/** @param {any} table */
function upsertTable(table) {
  if (table.practice) return;
  const old = app.tables.get(table.id);
  if (old && old.version > table.version) return;
  app.tables.set(table.id, table);
}

/** @param {any} msg */
function onLobbyMessage(msg) {
  if (msg.type === "notice") { takeNotice(msg); return; }
  const before = myLobbyTable()?.status ?? null;
  if (msg.type === "matched") {
    matched(msg.table_id);
    return;
  }
  if (msg.type === "snapshot" || msg.type === "queue_sizes") setQueueSizes(msg.queues ?? []);
  if (msg.type === "queue_sizes") {
    renderLobby();
    return;
  }
  if (msg.type === "snapshot") {
    app.tables = new Map();
    for (const tb of msg.tables ?? []) upsertTable(tb);
    refreshQueue().catch(showError); // a push missed while the socket was down
  } else if (msg.type === "table_removed") {
    const old = app.tables.get(msg.table.id);
    if (!old || old.version <= msg.table.version) app.tables.delete(msg.table.id);
  } else if (msg.table) {
    upsertTable(msg.table);
  }
  const mine = myLobbyTable();
  // Your table just filled: go and play.  (Coming back to the lobby on purpose does not bounce you.)
  if (mine && mine.status === "playing" && before !== "playing" && app.view === "lobby") {
    if (app.queue?.queued) matched(mine.id); // quick play's table, seen before its `matched` push
    else screens.enterTable(mine.id);
    return;
  }
  renderLobby();
}

/** @param {{room: string, variant: string, rounds: number, minutes?: number, queued: number}[]} queues */
function setQueueSizes(queues) {
  app.queueSizes = new Map(queues.map((q) => [`${q.room}:${q.variant}:${q.rounds}`, q.queued]));
  for (const q of queues) if (q.minutes) app.gameMinutes.set(`${q.variant}:${q.rounds}`, q.minutes);
}

/** The table quick play last seated you at: its push and the lobby's table update both say so; one toast. */
let lastMatched = "";

/** Quick play seated you: go to the table at once, with a sound. @param {string} tableId */
function matched(tableId) {
  const wasWaiting = !!app.queue?.queued;
  app.queue = null;
  localStorage.setItem(TABLE_KEY, tableId);
  if (lastMatched !== tableId) {
    lastMatched = tableId;
    play("matched");
    toast(t("lobby.quick.matched"), "info");
  }
  if ((wasWaiting || app.view === "lobby") && !(app.view === "table" && app.tableId === tableId)) screens.enterTable(tableId);
}

/** Your queue as the server has it; a match the lobby push did not bring (a lost event) enters the table. */
async function refreshQueue() {
  const before = app.queue;
  const now = await api.myQueue();
  if (before?.queued && !now.queued && now.table_id) {
    matched(now.table_id);
    return;
  }
  app.queue = now.queued ? now : null;
  tickQueue();
  renderLobby();
}

let queueTimer = 0;
let queueTicks = 0;

/** While waiting: the elapsed time every second, and the server's status every 5 s (in case a push is lost). */
function tickQueue() {
  clearInterval(queueTimer);
  if (!app.queue?.queued) return;
  queueTicks = 0;
  queueTimer = window.setInterval(() => {
    if (!app.queue?.queued) { clearInterval(queueTimer); return; }
    const el = document.getElementById("queue-elapsed");
    if (el) el.textContent = t("lobby.quick.elapsed", { time: clock(waited(app.queue)) });
    if (++queueTicks % 5 === 0) refreshQueue().catch(() => { /* the next tick asks again */ });
  }, 1000);
}

export function connectLobby() {
  if (app.lobbySocket) return;
  app.lobbySocket = new ReconnectingSocket({
    url: () => socketUrl("/ws/lobby"),
    onMessage: onLobbyMessage,
    onStatus: (s) => { app.lobbyLive = s === "open"; renderLobby(); },
    onClose: (code) => {
      app.lobbySocket = null;
      if (code !== 1008 && code !== 4401) return;
      // The socket's session ended; the browser's cookie may carry a newer one (a login in another tab).
      api.me().then(() => { if (app.me) connectLobby(); }).catch((err) => {
        if (err instanceof ApiError && err.status === 401) { screens.logout(); toast(t("close.1008")); } else showError(err);
      });
    },
    finalCodes: new Set([1008, 4401]),
  }).connect();
}

export async function enterLobby() {
  const join = location.hash.match(/^#\/join\/([\w-]+)$/)?.[1] ?? null; // an invite link, kept across logging in
  screens.leaveTableView();
  showView("lobby");
  if (location.hash !== "#/lobby") history.replaceState(null, "", "#/lobby");
  renderLobby();
  connectLobby();
  try {
    if (!app.rooms.length) app.rooms = await api.rooms();
    await screens.refreshMe();
    loadProgress(renderLobby);
    if (join) await joinFromLink(join);
    await findReturnTable();
  } catch (err) {
    showError(err);
  }
  renderLobby();
}

/**
 * A table you are still seated at and that is playing (a practice table is not in the lobby list).  The
 * server says where this account sits (/api/me `table`), so a table opened on another device is found too.
 */
async function findReturnTable() {
  app.returnTable = null;
  const id = app.me?.table?.table_id ?? localStorage.getItem(TABLE_KEY);
  if (!id) return;
  try {
    const table = await api.table(id);
    const seated = table.seats.some((/** @type {any} */ s) => s.user_id === app.me?.id);
    if (seated && table.status === "playing") app.returnTable = table;
    else if (!seated) localStorage.removeItem(TABLE_KEY);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) localStorage.removeItem(TABLE_KEY);
    else throw err;
  }
}

/**
 * Quick play from anywhere (the result's "play again", once the player has left the finished table): queue
 * for this room and variant, then show the lobby with its waiting panel; a refusal (e.g. too few coins left
 * for the room) is shown in words.
 * @param {string} room @param {string} variant @param {number} [rounds] the finished game's length
 */
async function quickPlay(room, variant, rounds) {
  try {
    app.queue = await api.queue(room, variant, rounds);
  } catch (err) {
    showError(err);
  }
  screens.enterLobby();
  tickQueue();
}

provide({ enterLobby, renderLobby, quickPlay });
