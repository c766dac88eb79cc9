// @ts-check
/**
 * Boot and glue: the account, the lobby (REST + lobby WebSocket) and the table (table WebSocket).
 * The table's state lives in state.js (pure); this module owns the sockets, the UI-only state (the
 * selected tile, an armed declaration, a pending chow choice) and when to draw.
 */

import { api, ApiError, getToken, setToken, socketUrl } from "./api.js";
import { ReconnectingSocket } from "./net.js";
import { groupActions, initialState, reduceMessage, secondsLeft, handForDisplay } from "./state.js";
import { applyI18n, formatNumber, lang, onLangChange, setLang, t } from "./i18n.js";
import { setChildren } from "./render/dom.js";
import { lobbyEl } from "./render/lobby.js";
import { namer, tableEl } from "./render/table.js";
import { BUTTONS, availableButtons, updateTimer } from "./render/actions.js";
import { resultEl, verifyCommitment } from "./render/result.js";

const TABLE_KEY = "mj.table";
const ONE_CLICK_KEY = "mj.oneClick";

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

const app = {
  /** @type {any} */ me: null,
  /** @type {"auth" | "lobby" | "table"} */ view: "auth",
  authMode: /** @type {"login" | "register"} */ ("login"),
  // lobby
  /** @type {any[]} */ rooms: [],
  /** @type {Map<string, any>} */ tables: new Map(),
  lobbyLive: false,
  /** @type {ReconnectingSocket | null} */ lobbySocket: null,
  busy: false,
  /** @type {Record<string, string>} */ createVariant: {},
  /** @type {any} */ returnTable: null, // a running table of yours (e.g. practice, not in the lobby list)
  // table
  /** @type {string | null} */ tableId: null,
  table: initialState(),
  /** @type {ReconnectingSocket | null} */ tableSocket: null,
  /** @type {import("./render/table.js").TableUi} */
  ui: { selected: null, mode: null, oneClick: localStorage.getItem(ONE_CLICK_KEY) === "1" },
  /** @type {boolean | null} */ verified: null,
  resultShownFor: -1,
};

// --- small UI helpers -----------------------------------------------------------------------------------

/** Show an error in words (never swallowed). @param {string} text @param {string} [kind] */
function toast(text, kind = "error") {
  const el = document.createElement("div");
  el.className = `toast ${kind}`;
  el.setAttribute("role", kind === "error" ? "alert" : "status");
  el.textContent = text;
  el.addEventListener("click", () => el.remove());
  $("toasts").append(el);
  setTimeout(() => el.remove(), kind === "error" ? 8000 : 4000);
}

/** @param {unknown} err */
function errorMessage(err) {
  if (err instanceof ApiError) return err.status === 0 ? `${t("error.network")} (${err.message})` : err.message;
  return err instanceof Error ? err.message : String(err);
}

/** @param {unknown} err */
function showError(err) {
  if (err instanceof ApiError && err.status === 401 && getToken()) {
    logout();
    toast(t("close.1008"));
    return;
  }
  toast(`${t("error.title")}: ${errorMessage(err)}`);
}

/** @param {"auth" | "lobby" | "table"} view */
function showView(view) {
  app.view = view;
  $("auth-view").hidden = view !== "auth";
  $("lobby-view").hidden = view !== "lobby";
  $("table-view").hidden = view !== "table";
  document.body.dataset.view = view;
  const controls = /** @type {HTMLElement} */ (document.querySelector(".table-controls"));
  controls.hidden = view !== "table";
  $("one-click-wrap").hidden = view !== "table";
  $("me-box").hidden = !app.me;
  $("logout").hidden = !app.me;
}

function renderMe() {
  const me = app.me;
  $("me-box").hidden = !me;
  $("logout").hidden = !me;
  if (!me) return;
  $("me-name").textContent = me.username;
  $("me-coins").textContent = formatNumber(me.coins);
  $("me-coins").dataset.coins = String(me.coins);
  $("me-points").textContent = formatNumber(me.rank_points);
  $("me-title").textContent = me.title;
}

async function refreshMe() {
  try {
    app.me = await api.me();
    renderMe();
    if (app.view === "lobby") renderLobby();
  } catch (err) {
    showError(err);
  }
}

// --- accounts -------------------------------------------------------------------------------------------

function renderAuth() {
  const register = app.authMode === "register";
  const heading = register ? "auth.register" : "auth.login";
  $("auth-heading").dataset.i18n = heading;
  $("auth-submit").dataset.i18n = heading;
  $("auth-switch").dataset.i18n = register ? "auth.have_account" : "auth.need_account";
  $("auth-password").setAttribute("autocomplete", register ? "new-password" : "current-password");
  applyI18n($("auth-view"));
}

/** @param {SubmitEvent} e */
async function onAuthSubmit(e) {
  e.preventDefault();
  const username = /** @type {HTMLInputElement} */ ($("auth-username")).value.trim();
  const password = /** @type {HTMLInputElement} */ ($("auth-password")).value;
  $("auth-error").textContent = "";
  try {
    const body = app.authMode === "register" ? await api.register(username, password) : await api.login(username, password);
    setToken(body.access_token);
    app.me = body.user;
    renderMe();
    enterLobby();
  } catch (err) {
    $("auth-error").textContent = errorMessage(err);
  }
}

function logout() {
  setToken(null);
  app.me = null;
  leaveTableView();
  app.lobbySocket?.close();
  app.lobbySocket = null;
  localStorage.removeItem(TABLE_KEY);
  showView("auth");
  renderAuth();
  location.hash = "";
}

// --- lobby ----------------------------------------------------------------------------------------------

function myLobbyTable() {
  for (const tb of app.tables.values()) {
    if (tb.seats.some((/** @type {any} */ s) => s.user_id === app.me?.id)) return tb;
  }
  return null;
}

function renderLobby() {
  if (app.view !== "lobby") return;
  const mine = myLobbyTable();
  setChildren($("lobby-view"), lobbyEl({
    me: app.me, rooms: app.rooms, tables: [...app.tables.values()], live: app.lobbyLive,
    myTable: mine?.id ?? app.returnTable?.id ?? null, busy: app.busy, createVariant: app.createVariant,
    returnTable: app.returnTable,
  }, {
    onPractice: (variant) => busy(async () => {
      const table = await api.practice(variant);
      enterTable(table.id);
    }),
    onCreate: (room, variant) => busy(async () => {
      const table = await api.createTable(room, variant);
      upsertTable(table);
      localStorage.setItem(TABLE_KEY, table.id);
      if (table.status === "playing") enterTable(table.id);
    }),
    onSit: (id, seat) => busy(async () => {
      const table = await api.sit(id, seat);
      upsertTable(table);
      localStorage.setItem(TABLE_KEY, table.id);
      if (table.status === "playing") enterTable(table.id);
    }),
    onStand: (id) => busy(async () => {
      const out = await api.stand(id);
      if (out.table) upsertTable(out.table);
      else app.tables.delete(id);
      localStorage.removeItem(TABLE_KEY);
    }),
    onEnter: (id) => enterTable(id),
  }));
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
  const before = myLobbyTable()?.status ?? null;
  if (msg.type === "snapshot") {
    app.tables = new Map();
    for (const tb of msg.tables ?? []) upsertTable(tb);
  } else if (msg.type === "table_removed") {
    const old = app.tables.get(msg.table.id);
    if (!old || old.version <= msg.table.version) app.tables.delete(msg.table.id);
  } else if (msg.table) {
    upsertTable(msg.table);
  }
  const mine = myLobbyTable();
  // Your table just filled: go and play.  (Coming back to the lobby on purpose does not bounce you.)
  if (mine && mine.status === "playing" && before !== "playing" && app.view === "lobby") {
    enterTable(mine.id);
    return;
  }
  renderLobby();
}

function connectLobby() {
  if (app.lobbySocket) return;
  app.lobbySocket = new ReconnectingSocket({
    url: () => socketUrl("/ws/lobby"),
    onMessage: onLobbyMessage,
    onStatus: (s) => { app.lobbyLive = s === "open"; renderLobby(); },
    onClose: (code) => {
      app.lobbySocket = null;
      if (code === 1008) { logout(); toast(t("close.1008")); }
    },
    finalCodes: new Set([1008]),
  }).connect();
}

async function enterLobby() {
  leaveTableView();
  showView("lobby");
  if (location.hash !== "#/lobby") history.replaceState(null, "", "#/lobby");
  renderLobby();
  connectLobby();
  try {
    if (!app.rooms.length) app.rooms = await api.rooms();
    await refreshMe();
    await findReturnTable();
  } catch (err) {
    showError(err);
  }
  renderLobby();
}

/** A table you are still seated at and that is playing (a practice table is not in the lobby list). */
async function findReturnTable() {
  app.returnTable = null;
  const id = localStorage.getItem(TABLE_KEY);
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

// --- the table ------------------------------------------------------------------------------------------

/** @param {string} id */
function enterTable(id) {
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
  app.resultShownFor = -1;
  localStorage.setItem(TABLE_KEY, id);
  if (location.hash !== `#/table/${id}`) history.replaceState(null, "", `#/table/${id}`);
  showView("table");
  renderTable();
  app.tableSocket = new ReconnectingSocket({
    url: () => socketUrl(`/ws/table/${encodeURIComponent(id)}`),
    onMessage: onTableMessage,
    onStatus: (s) => renderConn(s),
    onClose: onTableClosed,
    ping: () => ({ type: "ping", t: Date.now() }),
  }).connect();
}

function leaveTableView() {
  app.tableSocket?.close();
  app.tableSocket = null;
  app.tableId = null;
  const dialog = /** @type {HTMLDialogElement} */ ($("result-dialog"));
  if (dialog.open) dialog.close();
}

/** @param {import("./net.js").SocketStatus} s */
function renderConn(s) {
  const el = $("conn-status");
  el.dataset.status = s;
  el.textContent = s === "open" ? t("table.connected") : s === "reconnecting" ? t("table.reconnecting") : s === "connecting" ? t("table.connecting") : "";
}

/** @param {number} code @param {string} reason */
function onTableClosed(code, reason) {
  app.tableSocket = null;
  if (code === 1000) {
    renderTable(); // game over: the dialog says so
    return;
  }
  if (code === 1008) {
    api.me().then(() => {
      toast(reason || t("close.1008"));
      if (app.tableId) enterTable(app.tableId);
    }).catch(showError);
    return;
  }
  const text = t(`close.${code}`);
  toast(text.startsWith("close.") ? `${code} ${reason}` : text);
  if (code === 4003 || code === 4004) {
    localStorage.removeItem(TABLE_KEY);
    enterLobby();
  } else {
    renderTable();
  }
}

/** @param {any} msg */
function onTableMessage(msg) {
  const before = app.table;
  const { state, resync } = reduceMessage(before, msg, performance.now());
  app.table = state;
  if (resync) app.tableSocket?.send({ type: "resync" });
  if (msg.type === "error") {
    toast(`${t("error.title")}: ${t(`error.code.${msg.code}`)} — ${msg.message}`);
    app.tableSocket?.send({ type: "resync" }); // our optimistic view of the prompt may be wrong
  }
  if (state.prompt !== before.prompt) {
    app.ui.mode = null;
    if (!state.prompt) app.ui.selected = null;
  }
  if (msg.type === "snapshot") renderTitle();
  if (msg.type === "event" && msg.event?.type === "hand_void") toast(t("table.hand_void"));
  if (msg.type === "hand_result") {
    app.verified = null;
    verifyCommitment(msg.seed, msg.salt, msg.commitment).then((ok) => { app.verified = ok; renderResult(); });
    refreshMe();
    showResult();
  } else if (msg.type === "game_over") {
    refreshMe();
    showResult();
  } else if (msg.type === "prompt" && state.prompt) {
    announce(state.prompt.kind === "turn" ? t("table.your_turn") : availableButtons(groupActions(state.prompt)).map((id) => t(`act.${id}`)).join(" · "));
    // A decision is due: the result dialog must not hide the table.
    const dialog = /** @type {HTMLDialogElement} */ ($("result-dialog"));
    if (dialog.open) dialog.close();
  }
  scheduleRender();
}

/** Say it to screen readers (a polite live region). @param {string} text */
function announce(text) {
  const el = $("announcer");
  el.textContent = "";
  requestAnimationFrame(() => { el.textContent = text; });
}

function renderTitle() {
  const title = $("table-title");
  const tb = app.table.table;
  if (!tb) return;
  const room = app.rooms.find((r) => r.key === tb.room);
  title.textContent = `${t(`variant.${tb.variant}`)} · ${tb.practice ? t("table.practice") : room ? roomName(room) : tb.room ?? ""}`;
  title.dataset.tableId = tb.id;
}

/** @param {{key: string, name: string}} room */
function roomName(room) {
  return lang() === "en" ? `${room.name} ${t(`room.${room.key}`)}` : room.name;
}

let renderQueued = false;
function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    renderTable();
  });
}

function currentOffer() {
  return groupActions(app.table.prompt);
}

function renderTable() {
  if (app.view !== "table") return;
  const offer = currentOffer();
  setChildren($("table-root"), tableEl(app.table, offer, app.ui, {
    onTile, onButton, onChoice: sendAction, onCancel: () => { app.ui.mode = null; renderTable(); },
    onBack: () => app.tableSocket?.send({ type: "back" }),
  }));
  tick();
}

/** @param {any} action */
function sendAction(action) {
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
function focusTile(index) {
  const el = /** @type {HTMLElement | null} */ (document.querySelector(`.my-hand .tile[data-index="${index}"]`));
  el?.focus({ preventScroll: true });
}

/** @param {string} id */
function onButton(id) {
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

/** @param {KeyboardEvent} e */
function onKey(e) {
  if (app.view !== "table" || e.ctrlKey || e.metaKey || e.altKey) return;
  const target = /** @type {HTMLElement} */ (e.target);
  if (target.closest("input, select, textarea, dialog[open]")) return;
  const offer = currentOffer();
  const available = availableButtons(offer);
  const key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
  if (app.ui.mode?.type === "choose" && /^[1-9]$/.test(key)) {
    const list = app.ui.mode.kind === "chow" ? offer.chows : offer.kongs;
    const action = list[Number(key) - 1];
    if (action) { e.preventDefault(); sendAction(action); }
    return;
  }
  if (key === "Escape") {
    app.ui.mode = null;
    app.ui.selected = null;
    renderTable();
    return;
  }
  if (key === " " || key === "Spacebar") {
    if (available.includes("pass")) { e.preventDefault(); onButton("pass"); }
    return;
  }
  const button = BUTTONS.find((b) => b.key === key && b.key.length === 1);
  if (button && available.includes(button.id)) {
    e.preventDefault();
    onButton(button.id);
    return;
  }
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const me = app.table.table?.seat ?? 0;
    const { tiles, drawn } = handForDisplay(app.table.view?.players[me]);
    const count = tiles.length + (drawn ? 1 : 0);
    if (!count) return;
    e.preventDefault();
    const cur = app.ui.selected ?? (key === "ArrowLeft" ? count : -1);
    app.ui.selected = (cur + (key === "ArrowLeft" ? -1 : 1) + count) % count;
    renderTable();
    focusTile(app.ui.selected);
    return;
  }
  if ((key === "Enter" || key === "ArrowUp") && app.ui.selected !== null) {
    if (key === "Enter" && target.closest("button")) return; // the focused tile's own click does it
    const me = app.table.table?.seat ?? 0;
    const { tiles, drawn } = handForDisplay(app.table.view?.players[me]);
    const tile = (drawn ? [...tiles, drawn] : tiles)[app.ui.selected];
    const mode = app.ui.mode;
    const action = tile && (mode?.type === "declare" ? offer.declares.get(mode.declare)?.get(tile) : offer.discards.get(tile));
    if (action) {
      e.preventDefault();
      sendAction(action);
    }
  }
}

// The countdown runs every frame, touching only the timer element.
function tick() {
  const prompt = app.table.prompt;
  const el = /** @type {HTMLElement | null} */ (document.querySelector("#table-root .timer"));
  if (!prompt || !el) return;
  const now = performance.now();
  const total = ((prompt.deadline_at ?? now) - (prompt.received_at ?? now)) / 1000;
  updateTimer(el, secondsLeft(prompt, now), total);
}
function frame() {
  if (app.view === "table") tick();
  requestAnimationFrame(frame);
}

// --- the result dialog ----------------------------------------------------------------------------------

function showResult() {
  const dialog = /** @type {HTMLDialogElement} */ ($("result-dialog"));
  renderResult();
  if (!dialog.open && (app.table.result || app.table.game_over)) {
    dialog.showModal();
    dialog.scrollTop = 0;
    /** @type {HTMLElement | null} */ (dialog.querySelector(".buttons button, button.lobby"))?.focus({ preventScroll: true });
  }
}

function renderResult() {
  const dialog = /** @type {HTMLDialogElement} */ ($("result-dialog"));
  const result = app.table.result;
  const over = app.table.game_over;
  if (!result && !over) return;
  const nameOf = namer(app.table);
  const toLobby = () => { dialog.close(); leaveTable(); };
  if (result) {
    setChildren(dialog, resultEl(result, app.table, nameOf, {
      verified: app.verified, gameOver: over, onNext: () => dialog.close(), onLobby: toLobby,
    }));
  } else {
    setChildren(dialog, gameOverEl(over, nameOf, toLobby));
  }
}

/** @param {any} over @param {(seat: number) => string} nameOf @param {() => void} toLobby */
function gameOverEl(over, nameOf, toLobby) {
  const wrap = document.createElement("div");
  wrap.className = "result";
  const h2 = document.createElement("h2");
  h2.id = "result-title";
  h2.textContent = t("table.game_over");
  const p = document.createElement("p");
  p.textContent = t(`table.game_over.${over.reason}`);
  const list = document.createElement("ul");
  (over.coins ?? []).forEach((/** @type {number} */ c, /** @type {number} */ i) => {
    const li = document.createElement("li");
    li.textContent = `${nameOf(i)}: ${over.points?.[i] ?? 0} · ${formatNumber(c)} ${t("me.coins")}`;
    list.append(li);
  });
  const button = document.createElement("button");
  button.className = "primary lobby";
  button.textContent = t("table.back_to_lobby");
  button.addEventListener("click", toLobby);
  wrap.append(h2, p, list, button);
  return wrap;
}

async function leaveTable() {
  const id = app.tableId ?? localStorage.getItem(TABLE_KEY);
  if (id) {
    try {
      await api.stand(id);
    } catch (err) {
      // Standing up from a running coin game is refused: say so and stay.
      if (err instanceof ApiError && err.status === 409 && app.table.game_over === null && app.tableSocket) {
        showError(err);
        return;
      }
      if (!(err instanceof ApiError && (err.status === 404 || err.status === 409))) showError(err);
    }
  }
  localStorage.removeItem(TABLE_KEY);
  enterLobby();
}

// --- boot -----------------------------------------------------------------------------------------------

async function route() {
  if (!getToken()) {
    showView("auth");
    renderAuth();
    return;
  }
  try {
    app.me = await api.me();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) { logout(); return; }
    showError(err);
    return;
  }
  renderMe();
  api.rooms().then((rooms) => { app.rooms = rooms; renderTitle(); }).catch(showError);
  const m = location.hash.match(/^#\/table\/([\w-]+)/);
  const id = m?.[1] ?? localStorage.getItem(TABLE_KEY);
  if (id) {
    try {
      const table = await api.table(id);
      const seated = table.seats.some((/** @type {any} */ s) => s.user_id === app.me.id);
      if (seated && table.status === "playing") { enterTable(id); connectLobby(); return; }
      if (!seated) localStorage.removeItem(TABLE_KEY);
    } catch {
      localStorage.removeItem(TABLE_KEY);
    }
  }
  enterLobby();
}

function boot() {
  setLang(lang());
  applyI18n(document);
  $("auth-form").addEventListener("submit", (e) => onAuthSubmit(/** @type {SubmitEvent} */ (e)));
  $("auth-switch").addEventListener("click", () => {
    app.authMode = app.authMode === "login" ? "register" : "login";
    $("auth-error").textContent = "";
    renderAuth();
  });
  $("logout").addEventListener("click", logout);
  $("lang-toggle").addEventListener("click", () => setLang(lang() === "zh" ? "en" : "zh"));
  $("leave-table").addEventListener("click", leaveTable);
  const oneClick = /** @type {HTMLInputElement} */ ($("one-click"));
  oneClick.checked = app.ui.oneClick;
  oneClick.addEventListener("change", () => {
    app.ui.oneClick = oneClick.checked;
    localStorage.setItem(ONE_CLICK_KEY, oneClick.checked ? "1" : "0");
  });
  onLangChange(() => {
    applyI18n(document);
    renderAuth();
    renderMe();
    renderLobby();
    renderTable();
    if (/** @type {HTMLDialogElement} */ ($("result-dialog")).open) renderResult();
    if (app.tableSocket) renderConn(app.tableSocket.status);
    renderTitle();
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => {
    // The brand link: back to the lobby; a running table keeps your seat (the lobby offers the way back).
    if (location.hash === "#/lobby" && app.view === "table") enterLobby();
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
    },
  });
  route();
}

boot();
