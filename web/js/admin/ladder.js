// @ts-check
/**
 * The title ladder beside the rank adjustment: each title's 積分 threshold as the server declares it
 * (app/game/titles.py, sent as the player detail's `title_ladder`), and the title a 積分 total holds.  Pure
 * (tests/web/admin.test.mjs).
 */

/** @typedef {{at: number, title: Record<string, string>}} TitleStep */

/**
 * The index of the title held at `points` 積分: the highest step whose threshold is ≤ points (0 below all).
 * @param {TitleStep[]} steps lowest first @param {number} points
 */
export function titleIndexAt(steps, points) {
  let index = 0;
  steps.forEach((step, i) => { if (step.at <= points) index = i; });
  return index;
}

/**
 * What an adjustment of `delta` 積分 would leave: the new total (floored at 0, as the server refuses a
 * negative balance) and the title it holds.
 * @param {TitleStep[]} steps @param {number} points @param {number} delta
 * @returns {{points: number, index: number, valid: boolean}}
 */
export function afterAdjustment(steps, points, delta) {
  const total = points + delta;
  return { points: Math.max(total, 0), index: titleIndexAt(steps, Math.max(total, 0)), valid: total >= 0 };
}
