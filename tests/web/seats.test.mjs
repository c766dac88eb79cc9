// Seat-relative geometry (web/js/seats.js): you at the bottom, 下家 on the right, 上家 on the left.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  arrangeMeld, claimDirection, relativeSeat, seatPosition, seatsFrom, sideOf, sides, sidewaysIndex,
} from "../../web/js/seats.js";

test("four players: 下家 right, 對家 top, 上家 left, whichever seat you hold", () => {
  for (let me = 0; me < 4; me++) {
    assert.equal(sideOf(me, me, 4), "bottom");
    assert.equal(sideOf((me + 1) % 4, me, 4), "right");
    assert.equal(sideOf((me + 2) % 4, me, 4), "top");
    assert.equal(sideOf((me + 3) % 4, me, 4), "left");
  }
});

test("three players: the top side stays empty, 上家 is on the left", () => {
  assert.deepEqual(sides(3), ["bottom", "right", "left"]);
  for (let me = 0; me < 3; me++) {
    assert.equal(sideOf(me, me, 3), "bottom");
    assert.equal(sideOf((me + 1) % 3, me, 3), "right");
    assert.equal(sideOf((me + 2) % 3, me, 3), "left");
  }
});

test("every seat lands on its own side", () => {
  for (const n of [3, 4]) {
    for (let me = 0; me < n; me++) {
      const placed = Array.from({ length: n }, (_, seat) => sideOf(seat, me, n));
      assert.equal(new Set(placed).size, n, `n=${n} me=${me}: ${placed}`);
    }
  }
});

test("relativeSeat wraps around the table", () => {
  assert.equal(relativeSeat(0, 3, 4), 1);
  assert.equal(relativeSeat(3, 0, 4), 3);
  assert.equal(relativeSeat(0, 2, 3), 1);
  assert.equal(relativeSeat(1, 1, 3), 0);
});

test("seatsFrom lists the seats in screen order, you first", () => {
  assert.deepEqual(seatsFrom(2, 4), [2, 3, 0, 1]);
  assert.deepEqual(seatsFrom(1, 3), [1, 2, 0]);
  assert.deepEqual(seatsFrom(0, 4).map((s) => sideOf(s, 0, 4)), ["bottom", "right", "top", "left"]);
});

test("an unsupported table size is refused", () => {
  assert.throws(() => sides(5), /unsupported table size 5/);
  assert.throws(() => sideOf(0, 0, 1), /unsupported table size 1/);
});

test("claimDirection: a tile from 上家 comes from the left, from 下家 from the right", () => {
  assert.equal(claimDirection(0, 3, 4), "left");
  assert.equal(claimDirection(0, 1, 4), "right");
  assert.equal(claimDirection(0, 2, 4), "across");
  assert.equal(claimDirection(1, 0, 3), "left");
  assert.equal(claimDirection(1, 2, 3), "right");
});

test("claimDirection agrees with where the discarder sits on the claimer's own screen", () => {
  const screen = { left: "left", right: "right", across: "top" };
  for (const n of [3, 4]) {
    for (let claimer = 0; claimer < n; claimer++) {
      for (let from = 0; from < n; from++) {
        if (from === claimer) continue;
        assert.equal(screen[claimDirection(claimer, from, n)], sideOf(from, claimer, n), `n=${n} ${from}→${claimer}`);
      }
    }
  }
});

test("arrangeMeld turns the claimed tile on the side it came from", () => {
  assert.deepEqual(arrangeMeld(["3m", "4m", "5m"], "4m", "left"), { tiles: ["4m", "3m", "5m"], sideways: 0 });
  assert.deepEqual(arrangeMeld(["3m", "4m", "5m"], "3m", "across"), { tiles: ["4m", "3m", "5m"], sideways: 1 });
  assert.deepEqual(arrangeMeld(["7z", "7z", "7z", "7z"], "7z", "right"), { tiles: ["7z", "7z", "7z", "7z"], sideways: 3 });
  assert.equal(sidewaysIndex("right", 3), 2);
});

test("arrangeMeld leaves the meld it is given untouched", () => {
  const meld = ["3m", "4m", "5m"];
  arrangeMeld(meld, "5m", "left");
  assert.deepEqual(meld, ["3m", "4m", "5m"]);
});

test("plates name their seat's place: self, right, across, left (三人: no across)", () => {
  assert.deepEqual(sides(4).map(seatPosition), ["self", "right", "across", "left"]);
  assert.deepEqual(sides(3).map(seatPosition), ["self", "right", "left"]);
});
