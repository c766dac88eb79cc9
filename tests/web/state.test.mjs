// The table as the client knows it (web/js/state.js): the snapshot plus the events since, reduced in order.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  applySnapshot, groupActions, handForDisplay, initialState, reduceEvent, reduceMessage, secondsLeft,
} from "../../web/js/state.js";

/** A 4-seat table where you hold seat 0, seat 1 is a bot. */
function table() {
  return {
    id: "t1", variant: "taiwan", practice: false, room: "bronze", coins_per_point: 10, options: {}, seat: 0,
    seats: [0, 1, 2, 3].map((seat) => ({
      seat, username: seat === 1 ? null : `p${seat}`, bot: seat === 1, connected: true, auto_play: false,
    })),
    hand_no: 3, hands_played: 2, dealer: 0, round_wind: 0, dealer_streak: 0,
  };
}

/** Your seat's view mid-hand: you hold 13 tiles, the others 13 each; seat 3 has discarded 5m. */
function view() {
  return {
    variant: "taiwan", seat: 0, n_seats: 4, dealer: 0, dealer_streak: 0, round_wind: 0, dice: [3, 4, 5],
    open_seat: null, wildcards: [], indicators: [], wall_remaining: 80, phase: "claims", current: 3,
    last_discard: { seat: 3, tile: "5m" },
    players: [
      { seat: 0, wind: 0, concealed_count: 13, concealed: ["1m", "2m", "5m", "5m", "1p", "2p", "3p", "9s", "9s", "1z", "1z", "5z", "7z"],
        melds: [], flowers: ["1f"], river: ["6z"], declaration: null, drawn: null },
      { seat: 1, wind: 1, concealed_count: 13, concealed: null, melds: [], flowers: [], river: [], declaration: null },
      // The server may leave empty lists out: the reducer fills them in.
      { seat: 2, wind: 2, concealed_count: 13, concealed: null, declaration: null },
      { seat: 3, wind: 3, concealed_count: 13, concealed: null, melds: [], flowers: [], river: ["4p", "5m"], declaration: null },
    ],
  };
}

function snapshot(v = 10, extra = {}) {
  return { type: "snapshot", v, table: table(), view: view(), commitment: "c0ffee", prompt: null, server_ms: Date.now(), ...extra };
}

/** @param {number} v @param {any} event */
const ev = (v, event) => ({ type: "event", v, hand_no: 3, event });

/** The state after the snapshot and then each message in turn (asserting no resync was asked). */
function after(...msgs) {
  let state = reduceMessage(initialState(), snapshot()).state;
  for (const msg of msgs) {
    const out = reduceMessage(state, msg);
    assert.equal(out.resync, false, `unexpected resync at ${JSON.stringify(msg)}`);
    state = out.state;
  }
  return state;
}

test("before its snapshot the client ignores events and prompts", () => {
  const start = initialState();
  const out = reduceMessage(start, ev(1, { type: "draw", seat: 0, tile: "1m", wall: 79 }));
  assert.deepEqual(out, { state: start, resync: false });
  assert.equal(reduceMessage(start, { type: "prompt", v: 1, actions: [] }).state.prompt, null);
});

test("a snapshot syncs the state and fills in the lists the server left out", () => {
  const state = after();
  assert.equal(state.synced, true);
  assert.equal(state.v, 10);
  assert.equal(state.hand_no, 3);
  assert.equal(state.commitment, "c0ffee");
  assert.deepEqual(state.view?.players[2].melds, []);
  assert.deepEqual(state.view?.players[2].river, []);
  assert.deepEqual(state.view?.players[2].flowers, []);
});

test("a snapshot is copied, not shared with the message", () => {
  const msg = snapshot();
  const state = applySnapshot(initialState(), msg);
  msg.view.players[0].river.push("1z");
  msg.table.seats[0].connected = false;
  assert.deepEqual(state.view?.players[0].river, ["6z"]);
  assert.equal(state.table?.seats[0].connected, true);
});

test("events apply in order; a repeat is ignored; a gap asks for a resync", () => {
  const state = after(ev(11, { type: "draw", seat: 1, wall: 79 }));
  assert.equal(state.v, 11);
  assert.deepEqual(reduceMessage(state, ev(11, { type: "draw", seat: 1, wall: 78 })), { state, resync: false });
  const gap = reduceMessage(state, ev(13, { type: "discard", seat: 1, tile: "9p" }));
  assert.equal(gap.resync, true);
  assert.equal(gap.state.synced, false);
  assert.deepEqual(gap.state.view, state.view, "nothing from the event after the gap is applied");
  const later = reduceMessage(gap.state, ev(12, { type: "discard", seat: 1, tile: "9p" }));
  assert.equal(later.state, gap.state, "unsynced again: events wait for the fresh snapshot");
});

test("your own draw: the tile joins the sorted hand and is marked as drawn", () => {
  const state = after(ev(11, { type: "draw", seat: 0, tile: "3m", wall: 79, tail: false }));
  const me = state.view?.players[0];
  assert.equal(me?.concealed_count, 14);
  assert.deepEqual(me?.concealed?.slice(0, 4), ["1m", "2m", "3m", "5m"]);
  assert.equal(me?.drawn, "3m");
  assert.equal(me?.just_drew, true);
  assert.equal(state.view?.phase, "turn");
  assert.equal(state.view?.current, 0);
  assert.equal(state.view?.wall_remaining, 79);
  assert.deepEqual(handForDisplay(me), {
    tiles: ["1m", "2m", "5m", "5m", "1p", "2p", "3p", "9s", "9s", "1z", "1z", "5z", "7z"], drawn: "3m",
  });
});

test("another seat's draw counts a hidden tile", () => {
  const state = after(ev(11, { type: "draw", seat: 1, wall: 79, tail: false }));
  assert.equal(state.view?.players[1].concealed_count, 14);
  assert.equal(state.view?.players[1].concealed, null);
  assert.equal(state.view?.current, 1);
});

test("a discard goes to the river, leaves the hand, and opens the claims", () => {
  const state = after(
    ev(11, { type: "draw", seat: 0, tile: "3m", wall: 79, tail: false }),
    ev(12, { type: "discard", seat: 0, tile: "7z", declare: "eye" }),
  );
  const me = state.view?.players[0];
  assert.deepEqual(me?.river, ["6z", "7z"]);
  assert.ok(!me?.concealed?.includes("7z"));
  assert.equal(me?.concealed_count, 13);
  assert.equal(me?.drawn, null);
  assert.equal(me?.declaration, "eye");
  assert.deepEqual(state.view?.last_discard, { seat: 0, tile: "7z" });
  assert.equal(state.view?.phase, "claims");
});

test("a pong takes the discard from the discarder's river and two tiles from the hand", () => {
  const state = after(ev(11, { type: "pong", seat: 0, from: 3, tile: "5m", tiles: ["5m", "5m", "5m"] }));
  const me = state.view?.players[0];
  assert.deepEqual(state.view?.players[3].river, ["4p"]);
  assert.deepEqual(me?.melds, [{ kind: "pong", added: false, tiles: ["5m", "5m", "5m"], claimed: "5m", from: 3 }]);
  assert.equal(me?.concealed_count, 11);
  assert.ok(!me?.concealed?.includes("5m"));
  assert.equal(state.view?.last_discard, null);
  assert.equal(state.view?.current, 0);
  assert.equal(state.view?.phase, "turn");
});

test("加槓 turns the pong into a kong; 暗槓 adds a concealed kong", () => {
  let state = after(
    ev(11, { type: "pong", seat: 0, from: 3, tile: "5m", tiles: ["5m", "5m", "5m"] }),
    ev(12, { type: "draw", seat: 0, tile: "5m", wall: 79, tail: false }),
    ev(13, { type: "kong", seat: 0, kind: "added", tile: "5m" }),
  );
  let me = state.view?.players[0];
  assert.deepEqual(me?.melds.map((m) => [m.kind, m.added, m.tiles.length, m.from]), [["kong", true, 4, 3]]);
  assert.equal(me?.concealed_count, 11);
  assert.equal(state.view?.phase, "kong");
  state = after(ev(11, { type: "kong", seat: 2, kind: "akong", tile: null }));
  const other = state.view?.players[2];
  assert.deepEqual(other?.melds, [{ kind: "akong", added: false, tiles: [null, null, null, null] }]);
  assert.equal(other?.concealed_count, 9);
});

test("a flower drawn is laid aside and stops being the drawn tile", () => {
  const state = after(
    ev(11, { type: "draw", seat: 0, tile: "2f", wall: 79, tail: false }),
    ev(12, { type: "flower", seat: 0, tile: "2f", wall: 79 }),
  );
  const me = state.view?.players[0];
  assert.deepEqual(me?.flowers, ["1f", "2f"]);
  assert.ok(!me?.concealed?.includes("2f"));
  assert.equal(me?.concealed_count, 13);
  assert.equal(me?.drawn, null);
});

test("reduceEvent leaves the view it is given untouched", () => {
  const before = view();
  const copy = structuredClone(before);
  reduceEvent(before, { type: "discard", seat: 3, tile: "9p" }, 0);
  assert.deepEqual(before, copy);
});

test("the deal builds the view: your tiles sorted, the dealer one tile more", () => {
  const deal = { type: "deal", dealer: 2, dice: [1, 2, 3], open_seat: null, seat_winds: [2, 3, 0, 1], wildcards: [],
    indicators: [], wall: 90, tiles: ["9s", "1m", "5z", "2p", "1m", "3s", "4s", "5s", "7p", "8p", "9p", "6z", "6z"] };
  const state = after(ev(11, { type: "hand_start", hand_no: 4, dealer: 2, round_wind: 0, dealer_streak: 0, commitment: "abc" }),
    ev(12, deal));
  const v = state.view;
  assert.equal(v?.phase, "deal");
  assert.equal(v?.current, 2);
  assert.deepEqual(v?.players.map((p) => p.concealed_count), [13, 13, 14, 13]);
  assert.deepEqual(v?.players.map((p) => p.wind), [2, 3, 0, 1]);
  assert.deepEqual(v?.players[0].concealed?.slice(0, 3), ["1m", "1m", "2p"]);
  assert.equal(v?.players[1].concealed, null);
  assert.equal(state.table?.hand_no, 4);
  assert.equal(state.table?.dealer, 2);
  assert.equal(state.commitment, "abc");
});

test("the game's first hand_start announces the seat draw until the first discard (F-1)", () => {
  const deal = { type: "deal", dealer: 2, dice: [1, 2, 3], open_seat: null, seat_winds: [2, 3, 0, 1], wildcards: [],
    indicators: [], wall: 90, tiles: ["9s", "1m", "5z", "2p", "1m", "3s", "4s", "5s", "7p", "8p", "9p", "6z", "6z"] };
  const start = { type: "hand_start", hand_no: 1, dealer: 2, round_wind: 0, dealer_streak: 0, commitment: "abc",
    first_dealer: 2, first_commitment: "abc" };
  const drawn = after(ev(11, start), ev(12, deal));
  assert.deepEqual(drawn.notice, { type: "first_dealer", seat: 2 });
  assert.equal(drawn.table?.first_dealer, 2);
  assert.equal(drawn.table?.first_commitment, "abc");
  const played = after(ev(11, start), ev(12, deal), ev(13, { seq: 2, type: "discard", seat: 2, tile: "9s" }));
  assert.equal(played.notice, null);
  const later = after(ev(11, { ...start, hand_no: 2 }), ev(12, deal));
  assert.equal(later.notice, null);
});

test("hand_end shows every hand and ends the hand", () => {
  const hands = [["1m"], ["2m", "1m"], ["3p"], ["7z", "7z"]];
  const state = after(ev(11, { type: "hand_end", winners: [1], win_kind: "discard", winning_tile: "1m", discarder: 3, hands, score: {} }));
  assert.equal(state.view?.phase, "ended");
  assert.deepEqual(state.view?.players[1].concealed, ["1m", "2m"]);
  assert.equal(state.view?.players[3].concealed_count, 2);
});

test("presence and 托管 change the seat, not the hand, and keep an open prompt", () => {
  const prompt = { type: "prompt", v: 10, hand_no: 3, kind: "claim", actions: [{ kind: "pass", seat: 0 }],
    deadline_ms: 0, expires_in_ms: 8000, auto_play: false };
  let state = after(prompt, ev(11, { type: "presence", seat: 2, connected: false, auto_play: true }));
  assert.equal(state.table?.seats[2].connected, false);
  assert.equal(state.table?.seats[2].auto_play, true);
  assert.notEqual(state.prompt, null);
  state = reduceMessage(state, ev(12, { type: "auto_play", seat: 2, on: false })).state;
  assert.equal(state.table?.seats[2].auto_play, false);
  assert.notEqual(state.prompt, null);
  state = reduceMessage(state, ev(13, { type: "pong", seat: 1, from: 3, tile: "5m", tiles: ["5m", "5m", "5m"] })).state;
  assert.equal(state.prompt, null, "the hand moved on: the prompt is stale");
});

test("a prompt gets its deadline on the local clock; an older one is ignored", () => {
  const base = after();
  const msg = { type: "prompt", v: 10, hand_no: 3, kind: "turn", actions: [], deadline_ms: 0, expires_in_ms: 5000, auto_play: false };
  const state = reduceMessage(base, msg, 1000).state;
  assert.equal(state.prompt?.deadline_at, 6000);
  assert.equal(secondsLeft(state.prompt, 3500), 2.5);
  assert.equal(secondsLeft(state.prompt, 9000), 0);
  assert.equal(secondsLeft(null, 0), 0);
  assert.equal(reduceMessage(base, { ...msg, v: 9 }, 1000).state.prompt, null);
});

test("hints (your waits) apply only when current", () => {
  const waits = [{ tile: "3m", unseen: 2 }];
  assert.deepEqual(after({ type: "hints", v: 10, waits }).waits, waits);
  assert.equal(after({ type: "hints", v: 9, waits }).waits, null);
});

test("a hand result and game over carry the game's running totals onto the table", () => {
  const state = after({ type: "hand_result", v: 10, game_points: [30, -10, -10, -10], game_coins: [300, -100, -100, -100] });
  assert.deepEqual(state.table?.game_points, [30, -10, -10, -10]);
  assert.deepEqual(state.table?.game_coins, [300, -100, -100, -100]);
  assert.equal(state.result?.type, "hand_result");
  const over = reduceMessage(state, { type: "game_over", points: [1, 2, 3, 4] }).state;
  assert.deepEqual(over.table?.game_points, [1, 2, 3, 4]);
  assert.deepEqual(over.table?.game_coins, [300, -100, -100, -100]);
});

test("an error is kept for the screen; the next event clears it", () => {
  let state = after({ type: "error", code: "not_your_turn", message: "not your turn" });
  assert.deepEqual(state.last_error, { code: "not_your_turn", message: "not your turn" });
  state = reduceMessage(state, ev(11, { type: "draw", seat: 1, wall: 79 })).state;
  assert.equal(state.last_error, null);
});

test("groupActions sorts the server's actions for the action bar", () => {
  const win = { kind: "win", seat: 0 };
  const offer = groupActions({
    v: 1, hand_no: 1, kind: "turn", deadline_ms: 0, expires_in_ms: 0, auto_play: false,
    actions: [
      { kind: "discard", seat: 0, tile: "1m" },
      { kind: "discard", seat: 0, tile: "9s" },
      { kind: "discard", seat: 0, tile: "9s", declare: "ready" },
      { kind: "discard", seat: 0, tile: "1m", declare: "ready" },
      { kind: "discard", seat: 0, tile: null },
      { kind: "kong", seat: 0, tile: "5z" },
      win,
      { kind: "win", seat: 0, tile: "5z" },
      { kind: "pass", seat: 0 },
      { kind: "unknown_kind", seat: 0 },
    ],
  });
  assert.deepEqual([...offer.discards.keys()], ["1m", "9s"]);
  assert.deepEqual([...offer.declares.keys()], ["ready"]);
  assert.deepEqual([...(offer.declares.get("ready")?.keys() ?? [])], ["9s", "1m"]);
  assert.deepEqual(offer.kongs.map((a) => a.tile), ["5z"]);
  assert.equal(offer.win, win, "the first win offered");
  assert.equal(offer.pass?.kind, "pass");
  assert.deepEqual(offer.chows, []);
  assert.equal(offer.killPig, null);
  assert.deepEqual(groupActions(null).discards.size, 0);
});

test("handForDisplay: no drawn tile apart unless it is really in the hand", () => {
  assert.deepEqual(handForDisplay(undefined), { tiles: [], drawn: null });
  const p = { ...view().players[0], drawn: "8m" };
  assert.equal(handForDisplay(p).drawn, null);
  assert.equal(handForDisplay(p).tiles.length, 13);
});
