// The notice board (web/js/notices.js): which notices show, in which language, and how an early end or a
// player's close takes one down.
import { test } from "node:test";
import assert from "node:assert/strict";

import { noticeWords, pin, showing } from "../../web/js/notices.js";

const T0 = Date.parse("2030-01-01T00:00:00Z");
const at = (minutes) => new Date(T0 + minutes * 60_000).toISOString();
const notice = (id, from, until, en = `notice ${id}`) => ({
  id, text: { zh_hans: `公告${id}`, zh_hant: `公告${id}（繁）`, en }, starts_at: at(from), ends_at: at(until) });

test("a notice is said in the player's language", () => {
  const n = notice(1, 0, 60, "Maintenance at 03:00");
  assert.equal(noticeWords(n, "en"), "Maintenance at 03:00");
  assert.equal(noticeWords(n, "zh-Hans"), "公告1");
  assert.equal(noticeWords(n, "zh-Hant"), "公告1（繁）");
});

test("only notices inside their window show, the soonest to end first", () => {
  const board = new Map();
  pin(board, notice(1, 0, 60), T0);
  pin(board, notice(2, 0, 30), T0);
  pin(board, notice(3, 10, 90), T0); // scheduled: not yet
  assert.deepEqual(showing(board, T0 + 1).map((n) => n.id), [2, 1]);
  assert.deepEqual(showing(board, T0 + 20 * 60_000).map((n) => n.id), [2, 1, 3]);
  assert.deepEqual(showing(board, T0 + 45 * 60_000).map((n) => n.id), [1, 3]);
  assert.deepEqual(showing(board, T0 + 95 * 60_000), []);
});

test("an early end takes the banner down; a closed banner stays closed", () => {
  const board = new Map();
  pin(board, notice(1, 0, 60), T0);
  pin(board, notice(2, 0, 60), T0);
  pin(board, notice(1, 0, 5), T0 + 5 * 60_000); // ended early: ends_at is now
  assert.deepEqual([...board.keys()], [2]);
  assert.deepEqual(showing(board, T0 + 6 * 60_000, new Set([2])), []);
});
