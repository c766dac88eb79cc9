// @ts-check
/**
 * Your finished hands (#/hands) and the step-by-step replay of one hand (#/hand/ID): forward, back, a slider
 * and a list of discards to jump to; every hand face up (the record is public once the hand ended); the
 * wall commitment checked in this browser against the revealed seed; a shareable link.
 */

import { api } from "../api.js";
import { formatDateTime, formatNumber, localName, t } from "../i18n.js";
import { h, setChildren } from "../render/dom.js";
import { tableEl } from "../render/table.js";
import { resultEl, verifyCommitment } from "../render/result.js";
import { drawChecks } from "../seat_draw.js";
import { groupActions, initialState } from "../state.js";
import { tileLabel, tilesInWords } from "../tiles.js";
import { $, app, showError, showView, toast } from "../app.js";

/**
 * The replay on screen; `game`: the whole game it is part of (#/game/ID), its hands in play order.
 * @typedef {{id: string, hands: number[]}} GameReplay
 * @type {{id: number, data: any, step: number, verified: boolean | null, game: GameReplay | null} | null}
 */
let replay = null;

export async function enterHands() {
  showView("hands");
  if (location.hash !== "#/hands") history.replaceState(null, "", "#/hands");
  setChildren($("hands-view"), h("p", { class: "loading" }, t("hands.loading")));
  try {
    const [rows, games] = await Promise.all([api.myHands(), api.myGames(50).catch(() => [])]);
    renderHands(rows, games);
  } catch (err) {
    showError(err);
  }
}

/** A room's name in the language (the server's names), not its key. @param {string | null} key */
function roomWord(key) {
  const room = app.rooms.find((x) => x.key === key);
  return room ? localName(room.names, room.name) : key ?? "";
}

/**
 * Your hands grouped under their game (issue 33 item 5): one section per game, newest first, with its
 * place and totals and a replay of the whole game; a hand of a game not over yet is under its game too.
 * @param {any[]} rows GET /api/me/hands @param {any[]} games GET /api/me/games
 */
function renderHands(rows, games) {
  /** @type {Map<string, any[]>} */
  const byGame = new Map();
  for (const r of rows) {
    const key = r.game_id ?? `hand:${r.id}`;
    byGame.set(key, [...(byGame.get(key) ?? []), r]);
  }
  const records = new Map(games.map((g) => [g.id, g]));
  const groups = [...byGame.entries()].map(([key, hands]) => gameGroupEl(key, hands, records.get(key) ?? null));
  const body = rows.length ? groups : [h("p", { class: "empty" }, t("hands.none"))];
  setChildren($("hands-view"), h("div", { class: "card hands" },
    h("div", { class: "hands-head" }, h("h1", null, t("hands.title")), h("a", { href: "#/lobby", class: "button ghost" }, t("table.back_to_lobby"))),
    body));
}

/** @param {string} key @param {any[]} hands @param {any} game the game's record, if it ended */
function gameGroupEl(key, hands, game) {
  const first = hands[hands.length - 1];
  const mine = game && game.your_seat !== null ? game.seats[game.your_seat] : null;
  const where = first.practice ? t("table.practice") : roomWord(first.room);
  const head = `${t(`variant.${first.variant}`)} · ${where} · ${formatDateTime(first.created_at)}`;
  return h("section", { class: "game-group", "data-game-id": key },
    h("h2", { class: "game-head" }, head),
    h("p", { class: "game-sub" },
      mine ? t("hands.game_summary", { place: t(`standings.place.${mine.place}`), points: signed(mine.points), n: formatNumber(game.hands_played) })
        : t("hands.game_open"),
      game && game.hand_ids.length ? h("a", { class: "button replay-game", href: `#/game/${encodeURIComponent(game.id)}` }, t("hands.replay_game")) : null),
    h("table", { class: "hands-list" },
      h("thead", null, h("tr", null, ["hands.hand", "hands.date", "hands.result", "result.points", "result.coins", "hands.replay"]
        .map((k, i) => h("th", { scope: "col", class: i >= 3 && i < 5 ? "num" : undefined }, t(k))))),
      h("tbody", null, [...hands].reverse().map((r) => h("tr", { "data-hand-id": String(r.id), class: `outcome-${r.outcome}` },
        h("td", null, r.hand_no ? t("table.hand", { n: r.hand_no }) : "—"),
        h("td", null, formatDateTime(r.created_at)),
        h("td", null, t(`hands.outcome.${r.outcome}`)),
        h("td", { class: "num", "data-label": t("result.points") }, signed(r.points)),
        h("td", { class: "num", "data-label": t("result.coins") }, r.practice ? "—" : signed(r.coins)),
        h("td", { class: "replay-cell" }, h("a", { class: "replay-link button", href: `#/hand/${r.id}` }, t("hands.replay"))))))));
}

/** The whole game, replayed hand after hand (#/game/ID): its first hand, with the way to the next. @param {string} id */
export async function enterGameReplay(id) {
  showView("replay");
  setChildren($("replay-view"), h("p", { class: "loading" }, t("hands.loading")));
  try {
    const game = await api.game(id);
    if (!game.hand_ids.length) { setChildren($("replay-view"), h("p", { class: "empty" }, t("hands.none"))); return; }
    await enterReplay(game.hand_ids[0], { id, hands: game.hand_ids });
  } catch (err) {
    showError(err);
  }
}

/** @param {number} x */
function signed(x) {
  return x > 0 ? `+${formatNumber(x)}` : formatNumber(x);
}

/** @param {number} id @param {GameReplay | null} [game] the whole game this hand is replayed in */
export async function enterReplay(id, game = null) {
  showView("replay");
  const hash = game ? `#/game/${encodeURIComponent(game.id)}` : `#/hand/${id}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
  setChildren($("replay-view"), h("p", { class: "loading" }, t("hands.loading")));
  try {
    const data = await api.handReplay(id);
    replay = { id, data, step: 0, verified: null, game };
    const hand = data.hand;
    verifyCommitment(hand.seed, hand.result?.salt, hand.commitment).then((ok) => {
      if (replay?.id === id) { replay.verified = ok; renderReplay(); }
    });
    renderReplay();
  } catch (err) {
    showError(err);
  }
}

/** Move to step `n` (clamped). @param {number} n */
export function goToStep(n) {
  if (!replay) return;
  replay.step = Math.max(0, Math.min(replay.data.frames.length - 1, n));
  renderReplay();
}

/** The replay frame as a table state the table renderer draws. */
function frameState() {
  const r = /** @type {NonNullable<typeof replay>} */ (replay);
  const { data, step } = r;
  const frame = data.frames[step];
  const view = frame.view;
  const last = step === data.frames.length - 1;
  return {
    ...initialState(), synced: true, v: step, hand_no: data.hand.result?.hand_no ?? 0, commitment: data.hand.commitment,
    table: {
      id: data.hand.table_id ?? "", variant: data.hand.variant, practice: data.hand.practice, room: data.hand.room,
      coins_per_point: null, options: {}, seat: data.seat, hand_no: data.hand.result?.hand_no ?? 0, hands_played: 0,
      onlooker: data.hand.seats[data.seat] !== app.me?.id, // an operator's console, a public link: not "you"
      dealer: view.dealer, round_wind: view.round_wind, dealer_streak: view.dealer_streak,
      seats: data.names.map((/** @type {string | null} */ name, /** @type {number} */ i) => ({ seat: i, username: name, bot: name === null, connected: true, auto_play: false })),
    },
    view: { ...view, phase: last ? "ended" : view.phase },
  };
}

/**
 * The game's first dealer and whether the recorded draw matches its commitment (F-1): recomputed here, as
 * the player verifies the wall.  Nothing for a hand recorded before the draw existed.
 * @param {any} result @param {string[]} names
 */
function firstDealerEl(result, names) {
  const ok = drawChecks(result, names.length);
  if (ok === null) return null;
  return h("p", { class: ["replay-first-dealer", ok ? "ok" : "bad"], "data-first-dealer": String(result.first_dealer) },
    t(ok ? "replay.first_dealer" : "replay.first_dealer_bad", { name: names[result.first_dealer] ?? "" }));
}

/** Draw the replay at its current step (again after a language change). */
export function renderReplay() {
  if (!replay || app.view !== "replay") return;
  const { data, step, verified } = replay;
  const frames = data.frames;
  /** @type {{f: any, i: number}[]} */
  const discards = frames.map((/** @type {any} */ f, /** @type {number} */ i) => ({ f, i })).filter((/** @type {{f: any}} */ x) => x.f.action?.kind === "discard");
  const state = frameState();
  const action = frames[step].action;
  const names = data.names.map((/** @type {string | null} */ n, /** @type {number} */ i) => n ?? `${t("table.bot")} ${i + 1}`);
  const board = tableEl(/** @type {any} */ (state), groupActions(null), { selected: null, mode: null, oneClick: false },
    { onTile: () => {}, onButton: () => {}, onChoice: () => {}, onCancel: () => {}, onBack: () => {} });
  const link = `${location.origin}${location.pathname}#/hand/${replay.id}`;
  setChildren($("replay-view"),
    h("h1", { class: "sr-only" }, t("hands.replay")),
    replay.game ? gameBarEl(replay.game, replay.id) : null,
    h("div", { class: "replay-bar", role: "toolbar", "aria-label": t("hands.replay") },
      h("button", { type: "button", class: "ghost first", "aria-label": t("replay.first"), onclick: () => goToStep(0) }, "«"),
      h("button", { type: "button", class: "ghost prev", "aria-label": t("replay.back"), onclick: () => goToStep(step - 1), disabled: step === 0 }, "◀"),
      h("span", { class: "step", "data-step": String(step) }, t("replay.step", { n: step, total: frames.length - 1 })),
      h("button", { type: "button", class: "ghost next", "aria-label": t("replay.forward"), onclick: () => goToStep(step + 1), disabled: step === frames.length - 1 }, "▶"),
      h("button", { type: "button", class: "ghost last", "aria-label": t("replay.last"), onclick: () => goToStep(frames.length - 1) }, "»"),
      h("input", { type: "range", class: "scrub", min: "0", max: String(frames.length - 1), value: String(step), "aria-label": t("replay.step_label"),
        oninput: (/** @type {Event} */ e) => goToStep(Number(/** @type {HTMLInputElement} */ (e.target).value)) }),
      h("select", { class: "jump", "aria-label": t("replay.jump"), onchange: (/** @type {Event} */ e) => goToStep(Number(/** @type {HTMLSelectElement} */ (e.target).value)) },
        h("option", { value: "", disabled: true, selected: true }, t("replay.jump")),
        discards.map(({ f, i }, /** @type {number} */ k) => h("option", { value: String(i) }, `${k + 1}. ${names[f.action.seat] ?? ""} ${tileLabel(f.action.tile)}`))),
      h("span", { class: ["verified", verified === true && "ok", verified === false && "bad"], "data-verified": String(verified) },
        verified === true ? t("result.verified") : verified === false ? t("result.mismatch") : t("result.not_verified")),
      h("button", { type: "button", class: "ghost share", onclick: () => share(link) }, t("replay.share"))),
    h("p", { class: "replay-action", role: "status" }, action ? describe(action, names) : t("replay.deal")),
    firstDealerEl(data.hand.result, names),
    h("div", { class: "replay-board" }, board),
    step === frames.length - 1 ? replayResultEl(state, names) : null);
}

/**
 * The whole game's bar: which hand of how many, and the way to the previous and the next hand.
 * @param {GameReplay} game @param {number} handId
 */
function gameBarEl(game, handId) {
  const at = game.hands.indexOf(handId);
  const go = (/** @type {number} */ k) => { const next = game.hands[k]; if (next !== undefined) enterReplay(next, game); };
  return h("div", { class: "game-bar", role: "toolbar", "aria-label": t("hands.replay_game") },
    h("button", { type: "button", class: "ghost prev-hand", disabled: at <= 0, onclick: () => go(at - 1) }, t("replay.prev_hand")),
    h("span", { class: "game-hand", "data-hand-index": String(at) }, t("replay.game_hand", { n: at + 1, total: game.hands.length })),
    h("button", { type: "button", class: "ghost next-hand", disabled: at >= game.hands.length - 1, onclick: () => go(at + 1) }, t("replay.next_hand")));
}

/**
 * The replay's last step shows the hand's result as the table's result dialog did (issue 26 item 7),
 * rebuilt from the stored record: the result, its payments (coins at the room's rate), the settlement.
 * @param {any} state @param {string[]} names
 */
function replayResultEl(state, names) {
  const r = /** @type {NonNullable<typeof replay>} */ (replay);
  const hand = r.data.hand;
  const result = hand.result ?? {};
  const settlement = hand.settlement ?? {};
  const rate = hand.practice ? 0 : app.rooms.find((x) => x.key === hand.room)?.coins_per_point ?? 0;
  const bots = new Set(r.data.names.map((/** @type {any} */ n, /** @type {number} */ i) => (n === null ? i : -1)));
  const payments = (result.score?.payments ?? []).map((/** @type {any} */ p) => {
    const bot = bots.has(p.payer) || bots.has(p.payee);
    return { ...p, bot: bot && rate > 0, coins: bot ? 0 : p.points * rate };
  });
  const msg = {
    hand_no: result.hand_no, hand_id: hand.id, void: false, practice: hand.practice, result, payments,
    coin_deltas: settlement.coin_deltas ?? [], forfeited: settlement.forfeited ?? [], coins_after: settlement.coins_after ?? [],
    seed: hand.seed, salt: result.salt, commitment: hand.commitment,
  };
  const panel = resultEl(msg, state, (seat) => names[seat] ?? "", {
    verified: r.verified, gameOver: null, onNext: () => goToStep(0), onLobby: () => {},
  });
  return h("section", { class: "replay-result", "aria-label": t("result.title") }, panel);
}

/** @param {any} action @param {string[]} names */
function describe(action, names) {
  const who = names[action.seat] ?? "";
  const what = t(`act.${action.kind}`);
  return `${who} · ${what.startsWith("act.") ? action.kind : what}${action.tile ? ` ${tileLabel(action.tile)}` : ""}${action.tiles ? ` ${tilesInWords(action.tiles)}` : ""}`;
}

/** @param {string} link */
async function share(link) {
  try {
    await navigator.clipboard.writeText(link);
    toast(t("replay.copied"), "info");
  } catch {
    toast(link, "info"); // no clipboard (e.g. plain http): show the link to copy by hand
  }
}

/** Keys in the replay: ← → step, Home / End. @param {KeyboardEvent} e */
export function onReplayKey(e) {
  if (app.view !== "replay" || !replay || /** @type {HTMLElement} */ (e.target).closest("input, select")) return;
  const moves = { ArrowLeft: -1, ArrowRight: 1 };
  if (e.key in moves) { e.preventDefault(); goToStep(replay.step + moves[/** @type {"ArrowLeft" | "ArrowRight"} */ (e.key)]); }
  else if (e.key === "Home") goToStep(0);
  else if (e.key === "End") goToStep(replay.data.frames.length - 1);
}
