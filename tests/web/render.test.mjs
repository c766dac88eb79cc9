// The pure parts of the DOM builders (web/js/render/): what the action bar offers, which call a banner shows,
// each payment worked out step by step, and the small formatters the lobby, table and standings use.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";

import { has, setLang } from "../../web/js/i18n.js";
import { groupActions, initialState } from "../../web/js/state.js";
import { availableButtons, BUTTONS, keysHelp, VARIANT_BUTTONS } from "../../web/js/render/actions.js";
import { callSound, callsOf, callWord } from "../../web/js/render/calls.js";
import { listedTables } from "../../web/js/render/lobby.js";
import { coinStep, paymentSteps } from "../../web/js/render/payment_steps.js";
import { clock, lengthLabel, playingCount, QUICK_PLAY_ROUNDS, waitingCount } from "../../web/js/render/quickplay.js";
import { itemName, verifyCommitment } from "../../web/js/render/result.js";
import { finishingOrder, placeWord } from "../../web/js/render/standings.js";
import { namer, signed } from "../../web/js/render/table.js";

before(() => setLang("en", { remember: false }));

/** @param {any[]} actions */
const offerOf = (actions) => groupActions({ v: 1, hand_no: 1, kind: "claim", deadline_ms: 0, expires_in_ms: 0,
  auto_play: false, actions });

// --- actions.js --------------------------------------------------------------------------------------------

test("the action bar shows only what the prompt offers, in the seed's button order", () => {
  const claim = offerOf([
    { kind: "pass", seat: 2 },
    { kind: "win", seat: 2 },
    { kind: "pong", seat: 2, tile: "5m" },
    { kind: "chow", seat: 2, tile: "5m", tiles: "345m" },
    { kind: "chow", seat: 2, tile: "5m", tiles: "456m" },
  ]);
  assert.deepEqual(availableButtons(claim), ["chow", "pong", "win", "pass"]);
  const turn = offerOf([
    { kind: "discard", seat: 0, tile: "1m" },
    { kind: "discard", seat: 0, tile: "1m", declare: "miji" },
    { kind: "discard", seat: 0, tile: "1m", declare: "eye" },
    { kind: "kong", seat: 0, tile: "9p" },
    { kind: "kill_pig", seat: 0 },
  ]);
  assert.deepEqual(availableButtons(turn), ["kong", "eye", "miji", "kill_pig"]);
  assert.deepEqual(availableButtons(offerOf([{ kind: "discard", seat: 0, tile: "1m" }])), [],
    "a plain discard is a tile click, not a button");
});

test("every button has its own key, words and an explanation", () => {
  assert.equal(new Set(BUTTONS.map((b) => b.key)).size, BUTTONS.length);
  for (const { id } of BUTTONS) {
    assert.ok(has(`act.${id}`), `act.${id}`);
    assert.ok(has(`act.${id}.help`), `act.${id}.help`);
  }
});

// --- calls.js ----------------------------------------------------------------------------------------------

test("callsOf: melds and declarations call at the caller's seat", () => {
  assert.deepEqual(callsOf({ type: "pong", seat: 2, from: 1, tile: "5m", tiles: ["5m", "5m", "5m"] }), [{ seat: 2, call: "pong" }]);
  assert.deepEqual(callsOf({ type: "kong", seat: 1, kind: "akong", tile: null }), [{ seat: 1, call: "kong" }]);
  assert.deepEqual(callsOf({ type: "discard", seat: 3, tile: "1z", declare: "ready" }), [{ seat: 3, call: "ready" }]);
  assert.deepEqual(callsOf({ type: "discard", seat: 3, tile: "1z" }), []);
  assert.deepEqual(callsOf({ type: "draw", seat: 3 }), []);
  assert.deepEqual(callsOf(null), []);
});

test("callsOf: a self-drawn win says 自摸, a won discard 胡, one banner per winner", () => {
  assert.deepEqual(callsOf({ type: "hand_end", winners: [2], win_kind: "self_draw" }), [{ seat: 2, call: "zimo" }]);
  assert.deepEqual(callsOf({ type: "hand_end", winners: [0], win_kind: "kong_replacement" }), [{ seat: 0, call: "zimo" }]);
  assert.deepEqual(callsOf({ type: "hand_end", winners: [1, 3], win_kind: "discard" }),
    [{ seat: 1, call: "win" }, { seat: 3, call: "win" }]);
  assert.deepEqual(callsOf({ type: "hand_end", winners: [], win_kind: null }), [], "a drawn hand calls nothing");
});

test("every call has its words and a shipped sound", () => {
  for (const call of /** @type {const} */ (["chow", "pong", "kong", "ready", "eye", "miji", "win", "zimo"])) {
    assert.doesNotMatch(callWord(call), /^call\./, call);
    const file = new URL(`../../web/assets/sounds/${callSound(call)}.ogg`, import.meta.url);
    assert.ok(existsSync(file), `${call}: ${file.pathname}`);
  }
  assert.equal(callSound("eye"), "call-ready");
  assert.equal(callSound("win"), "call-hu");
});

// --- payment_steps.js: the points of each payment, as the result dialog explains them -----------------------

test("天台: S × the discard multiplier ÷ 胡 per point; a self-draw pays S", () => {
  const score = { variant: "tiantai", seats: [{ seat: 1, totals: { hu: 40, tai: 2, raw: 160, score: 160 } }] };
  const options = { hu_per_point: 5, discard_multiplier: 1.5, cap: 300 };
  const table = { dealer: 0, seats: 3 };
  const fed = paymentSteps({ payer: 0, payee: 1, points: 48, reason: "discard" }, score, options, table);
  assert.equal(fed.points, 48);
  assert.deepEqual(fed.steps, [
    "40 hu × 2^2 = 160 hu",
    "rounded up to 10, at most 300 → S = 160 hu",
    "the discarder pays 160 × 1.5 = 240 hu",
    "240 hu ÷ 5 = 48 points",
  ]);
  const drawn = paymentSteps({ payer: 2, payee: 1, points: 32, reason: "self_draw" }, score, options, table);
  assert.equal(drawn.points, 32);
  assert.equal(drawn.steps[2], "each other player pays S = 160 hu");
});

test("台灣: 底 + 台價 × (台 + the dealer's 台 when the dealer pays or is paid)", () => {
  const score = { variant: "taiwan", seats: [{ seat: 1, totals: { tai: 3 } }] };
  const options = { di: 5, tai_value: 2, dealer: 1, dealer_streak: 2, eye_penalty: 1 };
  const table = { dealer: 0, streak: 1, seats: 4 };
  const fromDealer = paymentSteps({ payer: 0, payee: 1, points: 17, reason: "self_draw" }, score, options, table);
  assert.equal(fromDealer.points, 5 + 2 * (3 + (1 + 2 * 1)));
  assert.match(fromDealer.steps[0], /3 tai \+ dealer 3 tai/);
  const plain = paymentSteps({ payer: 2, payee: 1, points: 11, reason: "self_draw" }, score, options, table);
  assert.equal(plain.points, 5 + 2 * 3);
  const eye = paymentSteps({ payer: 2, payee: 1, points: 2, reason: "eye_penalty" }, score, options, table);
  assert.equal(eye.points, 2);
  // The dealer's 台 the scorer sent win over the options' formula.
  const sent = { variant: "taiwan", seats: [{ seat: 1, totals: { tai: 3 } }, { seat: 0, totals: { dealer_tai: 5 } }] };
  assert.equal(paymentSteps({ payer: 0, payee: 1, points: 0, reason: "self_draw" }, sent, options, table).points, 5 + 2 * 8);
});

test("台炮: W, × the dealer multiplier with the dealer, base differences, 四風齊包賠", () => {
  const score = { variant: "taipao", seats: [
    { seat: 1, totals: { score: 8, total: 8, base: 5 } },
    { seat: 2, totals: { base: 2 } },
  ] };
  const options = { dealer_multiplier: 2, dealer_pair_multiplier: 2, double_threshold: 13 };
  const table = { dealer: 0, seats: 4 };
  assert.equal(paymentSteps({ payer: 3, payee: 1, points: 8, reason: "self_draw" }, score, options, table).points, 8);
  assert.equal(paymentSteps({ payer: 0, payee: 1, points: 16, reason: "self_draw" }, score, options, table).points, 16);
  assert.equal(paymentSteps({ payer: 2, payee: 1, points: 3, reason: "base_diff" }, score, options, table).points, 3);
  assert.equal(paymentSteps({ payer: 2, payee: 1, points: 6, reason: "base_diff" }, score, options, { dealer: 1, seats: 4 }).points, 6);
  // The liable discarder pays what the three losers owed: 3 × W, the dealer's share doubled.
  assert.equal(paymentSteps({ payer: 2, payee: 1, points: 32, reason: "sifeng_baopei" }, score, options, table).points, 8 * 4);
  assert.equal(paymentSteps({ payer: 2, payee: 0, points: 0, reason: "sifeng_baopei" },
    { variant: "taipao", seats: [{ seat: 0, totals: { score: 8 } }] }, options, table).points, 8 * 6);
  const doubled = { variant: "taipao", seats: [{ seat: 1, totals: { score: 28, total: 14 } }] };
  assert.equal(paymentSteps({ payer: 3, payee: 1, points: 28, reason: "self_draw" }, doubled, options, table).steps[0],
    "14 tai ≥ 13 → doubled: W = 28");
});

test("an unknown variant gets no steps rather than wrong ones", () => {
  assert.deepEqual(paymentSteps({ payer: 0, payee: 1, points: 1, reason: "x" }, { seats: [] }, {}, { dealer: 0, seats: 4 }),
    { steps: [], points: null });
});

test("coinStep: points into coins at the room's rate, none for practice or a bot", () => {
  assert.equal(coinStep({ payer: 0, payee: 1, points: 12, reason: "discard" }, 10), "12 points × 10 = 120 coins");
  assert.equal(coinStep({ payer: 0, payee: 1, points: 12, reason: "discard" }, null), null);
  assert.equal(coinStep({ payer: 0, payee: 1, points: 12, reason: "discard", bot: true }, 10), "bot: no coins");
});

// --- lobby, quick play, table, standings, result -----------------------------------------------------------

/** @param {string} id @param {string} status @param {(number | null)[]} users */
const lobbyTable = (id, status, users, room = "bronze", variant = "taiwan") => ({
  id, status, room, variant, seats: users.map((user_id, seat) => ({ seat, user_id, username: null, bot: false })),
});

test("the lobby lists a finished table only to a player still seated at it", () => {
  const tables = [lobbyTable("a", "waiting", [7, null]), lobbyTable("b", "finished", [7, 8]), lobbyTable("c", "finished", [9, null])];
  assert.deepEqual(listedTables(/** @type {any} */ (tables), 7).map((tb) => tb.id), ["a", "b"]);
  assert.deepEqual(listedTables(/** @type {any} */ (tables), null).map((tb) => tb.id), ["a"]);
});

test("quick play offers 東風戰 first, then 全莊, each with its typical minutes (F-8)", () => {
  assert.deepEqual(QUICK_PLAY_ROUNDS, [1, 4]);
  assert.equal(lengthLabel(1, 9), "East only (one round) · about 9 min");
  assert.equal(lengthLabel(4, 36), "Full game (four rounds) · about 36 min");
  assert.equal(lengthLabel(4, undefined), "Full game (four rounds)");
  const sizes = new Map([["beginner:taiwan:1", 2], ["beginner:taiwan:4", 3], ["beginner:taipao:1", 7]]);
  assert.equal(waitingCount(sizes, "beginner", "taiwan"), 5);
  assert.equal(waitingCount(sizes, "advanced", "taiwan"), 0);
});

test("quick play counts the players at playing tables of that room and variant", () => {
  const tables = [
    lobbyTable("a", "playing", [1, 2, null, 4]),
    lobbyTable("b", "waiting", [5, null, null, null]),
    lobbyTable("c", "playing", [6, 7, 8, 9], "silver"),
    lobbyTable("d", "playing", [10, 11, 12], "bronze", "tiantai"),
  ];
  assert.equal(playingCount(tables, "bronze", "taiwan"), 3);
  assert.equal(playingCount(tables, "bronze", "tiantai"), 3);
  assert.equal(playingCount(tables, "gold", "taiwan"), 0);
});

test("clock: mm:ss, h:mm:ss past an hour, never negative", () => {
  assert.equal(clock(59.9), "00:59");
  assert.equal(clock(61), "01:01");
  assert.equal(clock(3725), "1:02:05");
  assert.equal(clock(-3), "00:00");
});

test("signed numbers for the plates: +1,200 / −300 (a real minus sign) / 0", () => {
  assert.equal(signed(1200), "+1,200");
  assert.equal(signed(-300), "\u2212300");
  assert.equal(signed(0), "0");
});

test("namer: a player's name, a numbered bot, or the seat number", () => {
  const state = { ...initialState(), table: /** @type {any} */ ({ seats: [
    { seat: 0, username: "alice", bot: false }, { seat: 1, username: null, bot: true },
  ] }) };
  const nameOf = namer(state);
  assert.equal(nameOf(0), "alice");
  assert.equal(nameOf(1), "bot 2");
  assert.equal(nameOf(3), "#4");
});

test("standings: seats in finishing order, a shared place by seat", () => {
  const s = /** @type {any} */ ({ names: ["a", "b", "c", "d"], over: { places: [3, 1, 1, 4] } });
  assert.deepEqual(finishingOrder(s), [1, 2, 0, 3]);
  assert.equal(placeWord(1), "1st");
});

test("a scoring item is named in the player's language, else by the server's name or its key", () => {
  const names = { zh_hans: "门清", zh_hant: "門清", en: "Concealed hand" };
  assert.equal(itemName({ key: "menqing", names }), "Concealed hand");
  setLang("zh-Hant", { remember: false });
  try {
    assert.equal(itemName({ key: "menqing", names }), "門清");
  } finally {
    setLang("en", { remember: false });
  }
  assert.equal(itemName({ key: "menqing", name: "門清" }), "門清");
  assert.equal(itemName({ key: "menqing" }), "menqing");
});

test("verifyCommitment checks sha256(seed ‖ salt) as the server commits it (app/tables/fairness.py)", async () => {
  const seed = "a1b2c3";
  const salt = "ff00";
  const commitment = createHash("sha256").update(seed + salt).digest("hex");
  assert.equal(await verifyCommitment(seed, salt, commitment), true);
  assert.equal(await verifyCommitment(seed, "ff01", commitment), false);
  assert.equal(await verifyCommitment("", salt, commitment), null, "nothing to check without the seed");
});

test("the keyboard help lists only the variant's own actions (no 聽 where it is never offered)", () => {
  assert.match(keysHelp("taipao"), /R Ready/);
  assert.doesNotMatch(keysHelp("taiwan"), /R Ready|X Kill pig/);
  assert.match(keysHelp("taiwan"), /E Eye · M Miji/);
  assert.doesNotMatch(keysHelp("tiantai"), /C Chow|R Ready|E Eye/);
  for (const ids of Object.values(VARIANT_BUTTONS)) {
    assert.ok(ids.every((id) => BUTTONS.some((b) => b.id === id)), ids.join());
  }
});
