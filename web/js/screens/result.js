// @ts-check
/**
 * The result dialog after a hand, and the game-over summary.  A result stays until the player dismisses
 * it; when the next hand already asks for a decision, the dialog says so and shows that countdown.  Every
 * result of this table visit can be reopened (the 結果 button in the top bar, ‹ › inside the dialog).
 */

import { t } from "../i18n.js";
import { api, ApiError } from "../api.js";
import { h, setChildren } from "../render/dom.js";
import { namer } from "../render/table.js";
import { resultEl } from "../render/result.js";
import { timerEl } from "../render/actions.js";
import { standingsEl } from "../render/standings.js";
import { botSpeed } from "../render/lobby.js";
import { $, app, showError, toast } from "../app.js";
import { provide, screens } from "../router.js";

/** The last game's final standings, kept in this browser so the screen comes back after a reload. */
const STANDINGS_KEY = "mj.standings";
/** The game whose standings were dismissed here ("play again" / "back to lobby"): not shown again. */
const DISMISSED_KEY = "mj.standings.dismissed";
/** A game the server recorded longer ago than this is no longer opened by itself after a reload. */
const STANDINGS_FRESH_MS = 30 * 60 * 1000;

const dialog = () => /** @type {HTMLDialogElement} */ ($("result-dialog"));

/** Open the dialog on result `index` of this visit (the last one by default). @param {number} [index] */
export function showResult(index = app.results.length - 1) {
  app.resultIndex = index;
  const d = dialog();
  renderResult();
  if (!d.open && (app.results[index] || app.table.game_over)) {
    d.showModal();
    d.scrollTop = 0;
    /** @type {HTMLElement | null} */ (d.querySelector(".buttons button.next, button.to-standings, button.lobby"))?.focus({ preventScroll: true });
  }
}

export function renderResult() {
  const d = dialog();
  // The final standings stay the standings when drawn again (a language change), not the last hand's result.
  const standing = d.open && d.querySelector(".standings") ? savedStandings() : null;
  if (standing) { setChildren(d, standingsEl(standing, standingsHandlers(standing))); return; }
  const entry = app.results[app.resultIndex];
  const over = app.table.game_over;
  if (!entry && !over) return;
  const toLobby = () => { d.close(); screens.leaveTable(); };
  if (entry) {
    const nameOf = namer(entry.state);
    const el = resultEl(entry.msg, entry.state, nameOf, {
      verified: entry.verified, gameOver: over, onNext: () => d.close(), onLobby: toLobby,
    });
    el.prepend(...[pagerEl(), waitingEl()].filter((x) => x !== null));
    setChildren(d, el);
  } else {
    const saved = savedStandings();
    if (saved) setChildren(d, standingsEl(saved, standingsHandlers(saved)));
  }
  // The game is over: from its results the way on is the final standings (they lead to the lobby).
  if (entry && over && savedStandings()) {
    /** @type {HTMLElement | null} */ (d.querySelector(".buttons button.lobby"))?.replaceWith(
      h("button", { type: "button", class: "primary next to-standings", onclick: () => showStandings() }, t("standings.show")));
  }
}

/**
 * The final standings of the game that just ended, saved for a reload (issue 26 item 1).
 * @param {any} over the game_over message
 * @returns {import("../render/standings.js").Standings | null}
 */
export function saveStandings(over) {
  const table = app.table.table;
  if (!table) return null;
  const nameOf = namer(app.table);
  /** @type {import("../render/standings.js").Standings} */
  const s = {
    table_id: table.id, variant: table.variant, practice: table.practice, room: table.room,
    coin_table: !table.practice && table.coins_per_point !== null, seat: table.seat, game_id: over.game_id,
    names: table.seats.map((_, i) => nameOf(i)), bots: table.seats.map((x) => x.bot), over,
    title_before: titleAtStart(table.id), options: table.options, hands_limit: table.hands_limit ?? null,
  };
  store(s);
  return s;
}

/** @param {import("../render/standings.js").Standings} s */
function store(s) {
  try { localStorage.setItem(STANDINGS_KEY, JSON.stringify(s)); } catch { /* private mode: this page only */ }
}

/** The saved standings, if any. @returns {import("../render/standings.js").Standings | null} */
export function savedStandings() {
  try { return JSON.parse(localStorage.getItem(STANDINGS_KEY) ?? "null"); } catch { return null; }
}

/** Dismissed for good (back to the lobby or play again): a reload no longer shows it. @param {string} [gameId] */
function forgetStandings(gameId) {
  try {
    localStorage.removeItem(STANDINGS_KEY);
    if (gameId) localStorage.setItem(DISMISSED_KEY, gameId);
  } catch { /* storage disabled */ }
}

/** @param {string} gameId */
function dismissed(gameId) {
  try { return localStorage.getItem(DISMISSED_KEY) === gameId; } catch { return false; }
}

/**
 * The standings screen's data from the server's record of a game (GET /api/games/{id}): every seat's title
 * change included.
 * @param {any} game @returns {import("../render/standings.js").Standings}
 */
export function fromRecord(game) {
  const seats = /** @type {any[]} */ (game.seats);
  const mine = game.your_seat === null ? null : seats[game.your_seat];
  return {
    table_id: game.table_id, variant: game.variant, practice: game.kind === "practice", room: game.room,
    coin_table: game.kind === "coin", seat: game.your_seat ?? -1, game_id: game.id,
    names: seats.map((x) => x.username ?? `${t("table.bot")} ${x.seat + 1}`), bots: seats.map((x) => x.bot),
    over: {
      game_id: game.id, reason: game.reason, hands_played: game.hands_played, points: seats.map((x) => x.points),
      coins: seats.map((x) => x.coins), places: seats.map((x) => x.place),
      stood_up: seats.filter((x) => x.stood_up).map((x) => x.seat),
    },
    titles: seats.map((x) => (x.bot ? null : { before: x.title_before, after: x.title_after })),
    rank: seats.map((x) => (x.bot ? null : { before: x.rank_points_before, after: x.rank_points_after })),
    title_before: mine?.title_before ?? null, title_after: mine?.title_after ?? null,
    options: game.options, hands_limit: game.hands_limit,
  };
}

/**
 * Your last game's final standings, from the server: after a reload, on another device, or when the table
 * ended while you were away.  Not a game whose standings you dismissed here, nor one that ended long ago, nor
 * a practice table you left (its end was your own doing).  The server unreachable: the copy in this browser.
 */
export async function showLastStandings() {
  const saved = savedStandings();
  let s = saved;
  try {
    const [game] = await api.myGames(1);
    const left = game?.kind === "practice" && game.reason === "table_closed";
    const fresh = game && Date.now() - Date.parse(game.ended_at) < STANDINGS_FRESH_MS;
    if (game && !dismissed(game.id) && !left && (fresh || game.id === saved?.game_id)) s = fromRecord(game);
  } catch { /* the server is away: what this browser kept */ }
  if (!s || (s.game_id && dismissed(s.game_id))) return;
  store(s);
  showStandings();
}

/**
 * Every seat's title change comes with the game's record, written just after game_over: read it (once more
 * a moment later if it is not there yet) and draw the standings again if they are still open.
 * @param {import("../render/standings.js").Standings} s
 */
async function addTitles(s) {
  const id = s.game_id;
  if (!id) return;
  for (const wait of [0, 1000, 3000]) {
    if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      const record = fromRecord(await api.game(id));
      const now = savedStandings();
      if (now?.game_id !== id) return; // dismissed, or another game's since
      const merged = { ...now, titles: record.titles, rank: record.rank, title_before: record.title_before ?? now.title_before,
        title_after: record.title_after ?? now.title_after };
      store(merged);
      const d = dialog();
      if (d.open && d.querySelector(`.standings[data-table="${CSS.escape(s.table_id)}"]`)) {
        setChildren(d, standingsEl(merged, standingsHandlers(merged)));
      }
      return;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) return;
    }
  }
}

/** Your title when you sat down at this table (kept per table for the standings' title change). @param {string} tableId */
function titleAtStart(tableId) {
  try { return JSON.parse(sessionStorage.getItem(`mj.title.${tableId}`) ?? "null"); } catch { return null; }
}

/** Remember your title as this table starts (once per table: a reload mid-game keeps the first). @param {string} tableId */
export function rememberTitle(tableId) {
  const key = `mj.title.${tableId}`;
  if (!app.me || sessionStorage.getItem(key)) return;
  sessionStorage.setItem(key, JSON.stringify({ title: app.me.title, title_names: app.me.title_names }));
}

/** Open the final standings (from the game just ended, or saved before a reload). */
export function showStandings() {
  const s = savedStandings();
  if (!s) return;
  if (app.me && !s.title_after) {
    s.title_after = { title: app.me.title, title_names: app.me.title_names };
    store(s);
  }
  const d = dialog();
  setChildren(d, standingsEl(s, standingsHandlers(s)));
  if (!d.open) d.showModal();
  d.scrollTop = 0;
  /** @type {HTMLElement | null} */ (d.querySelector("button.again"))?.focus({ preventScroll: true });
  if (!s.titles) addTitles(s);
}

/** @param {import("../render/standings.js").Standings} s */
function standingsHandlers(s) {
  return {
    onAgain: () => { dialog().close(); forgetStandings(s.game_id); playAgain(s); },
    onLobby: () => { dialog().close(); forgetStandings(s.game_id); screens.leaveTable(); },
  };
}

/**
 * "Play again": a new practice table of the same variant and options at practice tables; at coin tables,
 * quick play's queue for the same room and variant (the lobby then seats you when matched).
 * @param {import("../render/standings.js").Standings} s
 */
async function playAgain(s) {
  try {
    if (s.practice || !s.room) {
      const extra = { bot_speed: botSpeed(), ...(s.hands_limit ? { hands: s.hands_limit } : {}) };
      const table = await api.practice(s.variant, s.options ?? {}, extra);
      screens.enterTable(table.id);
    } else {
      // quick play, the same length as the game just played: the lobby shows the wait and seats you when matched
      await api.queue(s.room, s.variant, s.options?.rounds === 4 ? 4 : 1);
      screens.leaveTable();
      toast(t("standings.queued"), "info");
    }
  } catch (err) {
    showError(err);
  }
}

/** The next hand already asks you: say so, with its countdown (the table waits behind the dialog). */
function waitingEl() {
  const prompt = app.table.prompt;
  if (!prompt || app.table.game_over) return null;
  return h("div", { class: "waiting", role: "status" },
    h("span", null, t(prompt.kind === "turn" ? "result.waiting_turn" : "result.waiting_claim")),
    timerEl(),
    h("button", { type: "button", class: "primary to-table", onclick: () => dialog().close() }, t("result.to_table")));
}

/** ‹ 第 n / m 局 › between this table's results, counted by hand number like the result's title. */
function pagerEl() {
  if (app.results.length < 2) return null;
  const i = app.resultIndex;
  const last = app.results[app.results.length - 1].msg.hand_no;
  /** @param {number} to */
  const go = (to) => { app.resultIndex = to; renderResult(); };
  return h("nav", { class: "pager", "aria-label": t("result.history") },
    h("button", { type: "button", class: "ghost prev", disabled: i <= 0, "aria-label": t("result.prev"), onclick: () => go(i - 1) }, "‹"),
    h("span", { "data-index": String(i + 1) }, t("result.pager", { n: app.results[i].msg.hand_no, total: last })),
    h("button", { type: "button", class: "ghost next-result", disabled: i >= app.results.length - 1, "aria-label": t("result.next_result"), onclick: () => go(i + 1) }, "›"));
}

/** The top bar's 結果 button: shown once this visit has a result. */
export function renderResultsButton() {
  const button = $("show-results");
  if (button) button.hidden = !app.results.length;
}

provide({ showResult, renderResult, renderResultsButton, showStandings, saveStandings, rememberTitle, savedStandings,
  showLastStandings });
