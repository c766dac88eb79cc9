// @ts-check
/**
 * Seat-relative geometry (note §5c).  Pure: no DOM.
 *
 * Play passes counterclockwise; seat i+1 is the 下家 (on your right), i-1 the 上家 (on your left).
 * You are always drawn at the bottom; with 3 players the top side is dropped.
 */

/** @typedef {"bottom" | "right" | "top" | "left"} Side */

/**
 * 0 = you, 1 = 下家 (right), 2 = 對家 (opposite; with 3 players: 上家), ...
 * @param {number} seat @param {number} me @param {number} n
 */
export function relativeSeat(seat, me, n) {
  return (((seat - me) % n) + n) % n;
}

/** @param {number} n @returns {Side[]} screen side of each relative seat */
export function sides(n) {
  if (n === 4) return ["bottom", "right", "top", "left"];
  if (n === 3) return ["bottom", "right", "left"];
  if (n === 2) return ["bottom", "top"];
  throw new Error(`unsupported table size ${n}`);
}

/**
 * Where `seat` is drawn when you sit at `me`.
 * @param {number} seat @param {number} me @param {number} n @returns {Side}
 */
export function sideOf(seat, me, n) {
  return sides(n)[relativeSeat(seat, me, n)];
}

/**
 * A side's name in the table's own words, as the plates carry it in data-seat-pos (issue 33 item 3):
 * you (self), 下家 (right), 對家 (across), 上家 (left).
 * @param {Side} side @returns {"self" | "right" | "across" | "left"}
 */
export function seatPosition(side) {
  return side === "bottom" ? "self" : side === "top" ? "across" : side;
}

/**
 * Seats in screen order starting with you (you, right, [top,] left).
 * @param {number} me @param {number} n
 */
export function seatsFrom(me, n) {
  return Array.from({ length: n }, (_, i) => (me + i) % n);
}

/**
 * Where a claimed tile came from, seen by the claimer: "left" (上家), "across" (對家) or "right" (下家).
 * @param {number} claimer @param {number} from @param {number} n
 * @returns {"left" | "across" | "right"}
 */
export function claimDirection(claimer, from, n) {
  const rel = relativeSeat(from, claimer, n);
  if (rel === 1) return "right";
  if (rel === n - 1) return "left";
  return "across";
}

/**
 * Index of the tile to turn sideways in a claimed meld of `size` tiles: the left tile when it came from
 * the left, the middle when from across, the right one when from the right (Tenhou convention).
 * @param {"left" | "across" | "right"} direction @param {number} size
 */
export function sidewaysIndex(direction, size) {
  if (direction === "left") return 0;
  if (direction === "right") return size - 1;
  return 1;
}

/**
 * The order in which a claimed meld is shown: the claimed tile moved to the sideways position.
 * @param {string[]} tiles the meld's tiles (the engine's order)
 * @param {string} claimed the claimed tile
 * @param {"left" | "across" | "right"} direction
 * @returns {{tiles: string[], sideways: number}}
 */
export function arrangeMeld(tiles, claimed, direction) {
  const rest = [...tiles];
  const i = rest.indexOf(claimed);
  if (i >= 0) rest.splice(i, 1);
  const at = sidewaysIndex(direction, tiles.length);
  rest.splice(at, 0, claimed);
  return { tiles: rest, sideways: at };
}
