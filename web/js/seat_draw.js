// @ts-check
/**
 * The seat draw (抓位) that announces a game's first dealer (docs/rules/common.md#first-dealer, F-1).  Pure: no DOM.
 *
 * The server draws the first dealer from the game's first commitment: the commitment's hex read as a number,
 * modulo the number of seats (engine.match.draw_first_dealer).  The client recomputes it, so a player sees the
 * draw checked, and shows it as wind tiles: the first dealer draws 東, the seats after it (counterclockwise)
 * 南, 西 (and 北), as the seat winds of the first hand.
 */

/**
 * The first dealer drawn from `commitment` (hex) at a table of `n` seats.
 * @param {string} commitment @param {number} n @returns {number}
 */
export function firstDealerOf(commitment, n) {
  return Number(BigInt(`0x${commitment}`) % BigInt(n));
}

/**
 * The wind tile each seat draws (0-3 = 東南西北): 東 for the first dealer, then in turn order.
 * @param {number} firstDealer @param {number} n @returns {number[]}
 */
export function seatDrawWinds(firstDealer, n) {
  return Array.from({ length: n }, (_, seat) => (((seat - firstDealer) % n) + n) % n);
}

/**
 * Whether a record's `first_dealer` is the one its `first_commitment` draws (null: the record has no draw).
 * @param {{first_dealer?: number, first_commitment?: string} | null | undefined} result @param {number} n
 * @returns {boolean | null}
 */
export function drawChecks(result, n) {
  if (!result?.first_commitment || typeof result.first_dealer !== "number") return null;
  return firstDealerOf(result.first_commitment, n) === result.first_dealer;
}
