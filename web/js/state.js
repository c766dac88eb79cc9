// @ts-check
/**
 * The table as this client knows it: the server's snapshot plus the events since, reduced in order.
 * Pure: no DOM, no clock, no sockets.  The client implements no rules: legal actions come only from
 * the server's prompt, and every event carries what changed (engine/events.py, app/tables/protocol/).
 *
 * `reduceMessage(state, msg, now)` takes any server message and returns `{state, resync}`; `resync` is
 * true when an event number was skipped (the caller then asks the server for a fresh snapshot).
 */

import { sortTiles, withoutTiles } from "./tiles.js";

/**
 * @typedef {{kind: string, added?: boolean, tiles: (string|null)[], claimed?: string, from?: number}} Meld
 * @typedef {{seat: number, wind: number, concealed_count: number, concealed: string[] | null,
 *   melds: Meld[], flowers: string[], river: string[], declaration: string | null, drawn?: string | null,
 *   just_drew?: boolean, split_tile?: string | null}} Player
 * @typedef {{variant: string, seat: number | null, n_seats: number, dealer: number, dealer_streak: number,
 *   round_wind: number, dice: number[], open_seat: number | null, wildcards: string[], indicators: string[],
 *   wall_remaining: number, reserve?: number | null, phase: string, current: number | null,
 *   last_discard: {seat: number, tile: string} | null, players: Player[], result?: any}} View
 * @typedef {{kind: string, seat: number, tile?: string | null, tiles?: string | null,
 *   declare?: string | null}} Action
 * @typedef {{v: number, hand_no: number, kind: string, actions: Action[], deadline_ms: number,
 *   expires_in_ms: number, auto_play: boolean, received_at?: number, deadline_at?: number, hints?: any}} Prompt
 * @typedef {{seat: number, username: string | null, bot: boolean, connected: boolean, auto_play: boolean}} SeatInfo
 * @typedef {{id: string, variant: string, practice: boolean, room: string | null,
 *   coins_per_point: number | null, options: Record<string, any>, seat: number, seats: SeatInfo[],
 *   hand_no: number, hands_played: number, dealer: number, round_wind: number, dealer_streak: number,
 *   discard_row?: number, onlooker?: boolean, game_points?: number[], game_coins?: number[],
 *   hands_limit?: number | null, first_dealer?: number | null, first_commitment?: string | null}} TableInfo
 * @typedef {{v: number, synced: boolean, table: TableInfo | null, view: View | null, prompt: Prompt | null,
 *   commitment: string | null, hand_no: number, result: any | null, game_over: any | null,
 *   last_error: {code: string, message: string} | null, notice: {type: string, seat?: number, tile?: string} | null,
 *   clock_offset_ms: number, waits?: {tile: string, unseen: number}[] | null}} TableState
 */

const TABLE_NOTICES = new Set(["presence", "auto_play"]);

/** @returns {TableState} */
export function initialState() {
  return {
    v: 0, synced: false, table: null, view: null, prompt: null, commitment: null, hand_no: 0,
    result: null, game_over: null, last_error: null, notice: null, clock_offset_ms: 0, waits: null,
  };
}

/**
 * @param {TableState} state @param {any} msg a parsed server message @param {number} now ms (performance.now())
 * @returns {{state: TableState, resync: boolean}}
 */
export function reduceMessage(state, msg, now = 0) {
  switch (msg.type) {
    case "snapshot":
      return { state: applySnapshot(state, msg, now), resync: false };
    case "event":
      return applyEventMessage(state, msg);
    case "prompt":
      if (!state.synced || msg.v < state.v) return { state, resync: false }; // stale
      return { state: { ...state, prompt: withDeadline(msg, now) }, resync: false };
    case "hand_result":
      return { state: { ...state, result: msg, prompt: null, table: withTotals(state.table, msg) }, resync: false };
    case "game_over":
      return { state: { ...state, game_over: msg, prompt: null, table: withTotals(state.table, msg) }, resync: false };
    case "error":
      return { state: { ...state, last_error: { code: msg.code, message: msg.message } }, resync: false };
    case "pong":
      return { state, resync: false };
    case "hints": // your waits while ready (server-side, from your own view); never ahead of v
      if (!state.synced || msg.v < state.v) return { state, resync: false };
      return { state: { ...state, waits: msg.waits }, resync: false };
    default:
      return { state, resync: false };
  }
}

/**
 * The game's running totals per seat (the plates' scores) after a hand result or at game over.
 * @param {TableInfo | null} table @param {any} msg @returns {TableInfo | null}
 */
function withTotals(table, msg) {
  if (!table) return table;
  const points = msg.game_points ?? msg.points;
  const coins = msg.game_coins ?? msg.coins;
  return { ...table, game_points: points ?? table.game_points, game_coins: coins ?? table.game_coins };
}

/** @param {any} prompt @param {number} now @returns {Prompt} */
function withDeadline(prompt, now) {
  return { ...prompt, received_at: now, deadline_at: now + Math.max(0, prompt.expires_in_ms ?? 0) };
}

/** @param {TableState} state @param {any} msg @param {number} now @returns {TableState} */
export function applySnapshot(state, msg, now = 0) {
  const view = msg.view ? normaliseView(structuredClone(msg.view)) : null;
  return {
    ...state,
    v: msg.v,
    synced: true,
    table: structuredClone(msg.table),
    view,
    prompt: msg.prompt ? withDeadline(msg.prompt, now) : null,
    waits: null, // the server follows a snapshot with a fresh `hints` message when the hand is ready
    commitment: msg.commitment ?? null,
    hand_no: msg.table?.hand_no ?? state.hand_no,
    clock_offset_ms: typeof msg.server_ms === "number" ? msg.server_ms - Date.now() : state.clock_offset_ms,
  };
}

/** @param {View} view */
function normaliseView(view) {
  for (const p of view.players) {
    p.melds ??= [];
    p.flowers ??= [];
    p.river ??= [];
  }
  return view;
}

/**
 * @param {TableState} state @param {any} msg {type:"event", v, hand_no, event}
 * @returns {{state: TableState, resync: boolean}}
 */
function applyEventMessage(state, msg) {
  if (!state.synced) return { state, resync: false }; // wait for the snapshot
  if (msg.v <= state.v) return { state, resync: false }; // already seen
  if (msg.v !== state.v + 1) return { state: { ...state, synced: false }, resync: true };
  /** @type {TableState} */
  let next = { ...state, v: msg.v, hand_no: msg.hand_no ?? state.hand_no, last_error: null };
  // The hand moved on: an open prompt is stale.  (Presence and 托管 notices do not change the hand.)
  if (next.prompt && msg.v > next.prompt.v && !TABLE_NOTICES.has(msg.event?.type)) next.prompt = null;
  next = applyTableEvent(next, msg.event, msg.hand_no);
  return { state: next, resync: false };
}

/**
 * Table events (hand_start, presence, auto_play) change the table; engine events change the view.
 * @param {TableState} state @param {any} ev @param {number} handNo @returns {TableState}
 */
function applyTableEvent(state, ev, handNo) {
  const table = state.table ? structuredClone(state.table) : null;
  switch (ev.type) {
    case "hand_start":
      if (table) {
        table.hand_no = ev.hand_no ?? handNo;
        table.dealer = ev.dealer ?? table.dealer;
        table.round_wind = ev.round_wind ?? table.round_wind;
        table.dealer_streak = ev.dealer_streak ?? table.dealer_streak;
        table.first_dealer = ev.first_dealer ?? table.first_dealer;
        table.first_commitment = ev.first_commitment ?? table.first_commitment;
      }
      // The game's first hand opens with the seat draw that chose its dealer (F-1), shown until the first discard.
      const draw = ev.hand_no === 1 && typeof ev.first_dealer === "number"
        ? { type: "first_dealer", seat: ev.first_dealer } : null;
      return { ...state, table, view: null, result: null, commitment: ev.commitment ?? null, notice: draw };
    case "hand_void":
      // The server broke the hand: no coins move and the next hand is dealt.
      return { ...state, table, prompt: null, notice: { type: "hand_void" } };
    case "presence":
      if (table?.seats[ev.seat]) {
        table.seats[ev.seat].connected = !!ev.connected;
        // 托管 follows presence: an absent seat is auto-played; one that is back is not (unless timed out).
        if (typeof ev.auto_play === "boolean") table.seats[ev.seat].auto_play = ev.auto_play;
      }
      return { ...state, table };
    case "auto_play":
      if (table?.seats[ev.seat]) table.seats[ev.seat].auto_play = !!ev.on;
      return { ...state, table };
    default: {
      const me = table?.seat ?? state.view?.seat ?? 0;
      const view = reduceEvent(state.view, ev, me, table);
      const drawOver = state.notice?.type === "first_dealer" && ev.type === "discard";
      const notice = ["kong_attempt", "split_deal", "reveal"].includes(ev.type)
        ? { type: ev.type, seat: ev.seat ?? ev.from, tile: ev.tile } : drawOver ? null : state.notice;
      return { ...state, view, notice };
    }
  }
}

/**
 * One engine event applied to the view `me` holds.  Returns a new view (the input is not changed).
 * @param {View | null} view @param {any} ev @param {number} me @param {TableInfo | null} [table]
 * @returns {View | null}
 */
export function reduceEvent(view, ev, me, table = null) {
  if (ev.type === "deal") return dealView(ev, me, table);
  if (!view) return view;
  const v = /** @type {View} */ (structuredClone(view));
  const p = typeof ev.seat === "number" ? v.players[ev.seat] : undefined;
  if (typeof ev.wall === "number") v.wall_remaining = ev.wall;
  switch (ev.type) {
    case "draw":
      if (!p) break;
      if (v.phase === "split") {
        p.split_tile = ev.tile ?? "?";
        v.current = ev.seat;
        break;
      }
      p.concealed_count += 1;
      if (p.concealed && ev.tile) p.concealed = sortTiles([...p.concealed, ev.tile]);
      if (v.phase === "deal") {
        // 補花 right after the deal: only the dealer's replacement is "the drawn tile" (engine view).
        if (ev.seat === me && ev.seat === v.dealer) p.drawn = ev.tile ?? null;
      } else {
        v.phase = "turn";
        v.current = ev.seat;
        for (const o of v.players) o.just_drew = false;
        p.just_drew = true;
        if (ev.seat === me) p.drawn = ev.tile ?? null;
      }
      break;
    case "flower":
      if (!p) break;
      p.flowers = [...p.flowers, ev.tile];
      p.concealed_count = Math.max(0, p.concealed_count - 1);
      if (p.concealed) p.concealed = withoutTiles(p.concealed, [ev.tile]);
      if (p.drawn === ev.tile) p.drawn = null;
      break;
    case "discard":
      if (!p) break;
      p.river = [...p.river, ev.tile];
      p.concealed_count = Math.max(0, p.concealed_count - 1);
      if (p.concealed) p.concealed = withoutTiles(p.concealed, [ev.tile]);
      p.drawn = ev.seat === me ? null : p.drawn;
      p.just_drew = false;
      if (ev.declare) p.declaration = ev.declare;
      v.last_discard = { seat: ev.seat, tile: ev.tile };
      v.phase = "claims";
      break;
    case "reveal":
      for (const [seat, tiles] of Object.entries(ev.hands ?? {})) {
        const o = v.players[Number(seat)];
        if (o) {
          o.concealed = sortTiles(tiles);
          o.concealed_count = tiles.length;
        }
      }
      break;
    case "chow":
    case "pong":
    case "kong":
      if (!p) break;
      if (typeof ev.from === "number") claimMeld(v, p, ev, me);
      else ownKong(v, p, ev, me);
      break;
    case "kong_attempt":
      v.phase = "rob";
      break;
    case "split_deal":
      v.phase = "split";
      v.current = ev.from ?? v.current;
      for (const o of v.players) o.just_drew = false;
      break;
    case "hand_end":
      v.phase = "ended";
      v.result = ev;
      (ev.hands ?? []).forEach((/** @type {string[]} */ tiles, /** @type {number} */ i) => {
        const o = v.players[i];
        if (o) {
          o.concealed = sortTiles(tiles);
          o.concealed_count = tiles.length;
          o.just_drew = false;
        }
      });
      break;
    default:
      break;
  }
  return v;
}

/** @param {any} ev @param {number} me @param {TableInfo | null} table @returns {View} */
function dealView(ev, me, table) {
  const n = ev.seat_winds?.length ?? table?.seats.length ?? 4;
  const mine = sortTiles(ev.tiles ?? []);
  const handSize = mine.length - (me === ev.dealer ? 1 : 0);
  /** @type {Player[]} */
  const players = Array.from({ length: n }, (_, i) => ({
    seat: i,
    wind: ev.seat_winds?.[i] ?? i,
    concealed_count: i === me ? mine.length : handSize + (i === ev.dealer ? 1 : 0),
    concealed: i === me ? mine : null,
    melds: [],
    flowers: [],
    river: [],
    declaration: null,
    ...(i === me ? { drawn: null } : {}),
  }));
  return {
    variant: table?.variant ?? "",
    seat: me,
    n_seats: n,
    dealer: ev.dealer,
    dealer_streak: table?.dealer_streak ?? 0,
    round_wind: table?.round_wind ?? 0,
    dice: ev.dice ?? [],
    open_seat: ev.open_seat ?? null,
    wildcards: ev.wildcards ?? [],
    indicators: ev.indicators ?? [],
    wall_remaining: ev.wall,
    reserve: null,
    phase: "deal",
    current: ev.dealer,
    last_discard: null,
    players,
  };
}

/** A chow, pong or 明槓 on a discard. @param {View} v @param {Player} p @param {any} ev @param {number} me */
function claimMeld(v, p, ev, me) {
  const from = v.players[ev.from];
  if (from && from.river.length) from.river = from.river.slice(0, -1);
  const tiles = Array.isArray(ev.tiles) ? ev.tiles : [ev.tile, ev.tile, ev.tile];
  const own = withoutTiles(tiles, [ev.tile]);
  p.melds = [...p.melds, { kind: ev.type, added: false, tiles, claimed: ev.tile, from: ev.from }];
  p.concealed_count = Math.max(0, p.concealed_count - own.length);
  if (p.concealed) p.concealed = withoutTiles(p.concealed, own);
  v.last_discard = null;
  v.current = ev.seat;
  v.phase = ev.type === "kong" ? "kong" : "turn";
  for (const o of v.players) o.just_drew = false;
  if (ev.seat === me) p.drawn = null;
}

/** 暗槓 or 加槓 on the own turn. @param {View} v @param {Player} p @param {any} ev @param {number} me */
function ownKong(v, p, ev, me) {
  const tile = ev.tile ?? null;
  if (ev.kind === "added") {
    const i = p.melds.findIndex((m) => m.kind === "pong" && m.tiles[0] === tile);
    if (i >= 0) {
      const old = p.melds[i];
      p.melds = p.melds.map((m, j) => (j === i ? { ...old, kind: "kong", added: true, tiles: [tile, tile, tile, tile] } : m));
    }
    p.concealed_count = Math.max(0, p.concealed_count - 1);
    if (p.concealed && tile) p.concealed = withoutTiles(p.concealed, [tile]);
  } else {
    p.melds = [...p.melds, { kind: "akong", added: false, tiles: [tile, tile, tile, tile] }];
    p.concealed_count = Math.max(0, p.concealed_count - 4);
    if (p.concealed && tile) p.concealed = withoutTiles(p.concealed, [tile, tile, tile, tile]);
  }
  if (ev.seat === me) p.drawn = null;
  p.just_drew = false;
  v.phase = "kong";
}

// --- what the prompt offers, grouped for the action bar (no rules: only the server's list) -------------

/**
 * @typedef {{discards: Map<string, Action>, declares: Map<string, Map<string, Action>>,
 *   chows: Action[], pongs: Action[], kongs: Action[], win: Action | null, killPig: Action | null,
 *   pass: Action | null}} Offer
 */

/** @param {Prompt | null} prompt @returns {Offer} */
export function groupActions(prompt) {
  /** @type {Offer} */
  const offer = {
    discards: new Map(), declares: new Map(), chows: [], pongs: [], kongs: [], win: null, killPig: null,
    pass: null,
  };
  for (const a of prompt?.actions ?? []) {
    switch (a.kind) {
      case "discard":
        if (!a.tile) break;
        if (a.declare) {
          if (!offer.declares.has(a.declare)) offer.declares.set(a.declare, new Map());
          offer.declares.get(a.declare)?.set(a.tile, a);
        } else offer.discards.set(a.tile, a);
        break;
      case "chow": offer.chows.push(a); break;
      case "pong": offer.pongs.push(a); break;
      case "kong": offer.kongs.push(a); break;
      case "win": offer.win ??= a; break;
      case "kill_pig": offer.killPig ??= a; break;
      case "pass": offer.pass ??= a; break;
      default: break;
    }
  }
  return offer;
}

/**
 * The own concealed tiles for display: sorted, with the drawn tile taken out to be shown apart.
 * @param {Player | undefined} p @returns {{tiles: string[], drawn: string | null}}
 */
export function handForDisplay(p) {
  if (!p || !p.concealed) return { tiles: [], drawn: null };
  const drawn = p.drawn && p.concealed.includes(p.drawn) ? p.drawn : null;
  const tiles = sortTiles(drawn ? withoutTiles(p.concealed, [drawn]) : p.concealed);
  return { tiles, drawn };
}

/** Seconds left on a prompt at `now` (performance.now()), never negative. @param {Prompt | null} prompt @param {number} now */
export function secondsLeft(prompt, now) {
  if (!prompt || prompt.deadline_at === undefined) return 0;
  return Math.max(0, (prompt.deadline_at - now) / 1000);
}
