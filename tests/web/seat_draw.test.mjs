// The seat draw (web/js/seat_draw.js): the client recomputes the first dealer exactly as the server draws it
// (engine.match.draw_first_dealer: int(commitment, 16) mod N; docs/rules/common.md#first-dealer F-1).
import { test } from "node:test";
import assert from "node:assert/strict";

import { drawChecks, firstDealerOf, seatDrawWinds } from "../../web/js/seat_draw.js";

// sha256("seat draw"), and what Python's int(c, 16) % 3 and % 4 give for it
const C = "3b06efd2ffe0a282c8b10a69a8440c502f3907ec5d2d00eda78da3d1b19623cc";

test("the first dealer is the commitment modulo the number of seats, as the server computes it", () => {
  assert.equal(firstDealerOf(C, 3), 2);
  assert.equal(firstDealerOf(C, 4), 0);
  assert.equal(firstDealerOf("f".repeat(64), 4), 3);
  assert.equal(firstDealerOf("f".repeat(64), 3), 0);
});

test("the first dealer draws 東 and the others the following winds in turn order", () => {
  assert.deepEqual(seatDrawWinds(2, 4), [2, 3, 0, 1]);
  assert.deepEqual(seatDrawWinds(0, 3), [0, 1, 2]);
  assert.deepEqual(seatDrawWinds(1, 3), [2, 0, 1]);
});

test("a replay checks the recorded draw against its commitment", () => {
  assert.equal(drawChecks({ first_dealer: 2, first_commitment: C }, 3), true);
  assert.equal(drawChecks({ first_dealer: 1, first_commitment: C }, 3), false);
  assert.equal(drawChecks({}, 3), null);
});
