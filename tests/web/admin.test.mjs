// The console's pure parts: ARIA tab keys (web/js/admin/tabs.js) and the title ladder (web/js/admin/ladder.js).
import { test } from "node:test";
import assert from "node:assert/strict";

import { afterAdjustment, titleIndexAt } from "../../web/js/admin/ladder.js";
import { tabAfter } from "../../web/js/admin/tabs.js";

const TABS = ["players", "tables", "replay", "audit"];

test("arrow keys move between tabs and wrap; Home and End jump; other keys do nothing", () => {
  assert.equal(tabAfter(TABS, "players", "ArrowRight"), "tables");
  assert.equal(tabAfter(TABS, "audit", "ArrowRight"), "players");
  assert.equal(tabAfter(TABS, "players", "ArrowLeft"), "audit");
  assert.equal(tabAfter(TABS, "replay", "Home"), "players");
  assert.equal(tabAfter(TABS, "tables", "End"), "audit");
  assert.equal(tabAfter(TABS, "tables", "a"), null);
  assert.equal(tabAfter(TABS, "gone", "ArrowRight"), "tables"); // focus outside the list: from the first
  assert.equal(tabAfter([], "x", "ArrowRight"), null);
});

const STEPS = [0, 100, 200, 500, 1000].map((at) => ({ at, title: { en: `t${at}` } }));

test("the title at a 積分 total is the highest threshold reached", () => {
  assert.equal(titleIndexAt(STEPS, 0), 0);
  assert.equal(titleIndexAt(STEPS, 99), 0);
  assert.equal(titleIndexAt(STEPS, 100), 1);
  assert.equal(titleIndexAt(STEPS, 999), 3);
  assert.equal(titleIndexAt(STEPS, 10 ** 9), 4);
});

test("an adjustment's result: the new total and title; below zero is not valid", () => {
  assert.deepEqual(afterAdjustment(STEPS, 150, 400), { points: 550, index: 3, valid: true });
  assert.deepEqual(afterAdjustment(STEPS, 150, -150), { points: 0, index: 0, valid: true });
  assert.deepEqual(afterAdjustment(STEPS, 150, -151), { points: 0, index: 0, valid: false });
});
