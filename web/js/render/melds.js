// @ts-check
/** Exposed melds: the claimed tile turned sideways toward whom it came from; 暗槓 with backs at the ends. */

import { h } from "./dom.js";
import { tileEl } from "./tile.js";
import { arrangeMeld, claimDirection } from "../seats.js";
import { has, t } from "../i18n.js";
import { tileName, tilesInWords } from "../tiles.js";

/**
 * @param {import("../state.js").Meld} meld @param {number} owner @param {number} n
 * @param {(seat: number) => string} nameOf @param {boolean} [open] the hand is over: a 暗槓 whose face is
 *   known is shown face up (issue 26 item 7)
 */
export function meldEl(meld, owner, n, nameOf, open = false) {
  const kindZh = has(`meld.${meld.kind}`) ? t(`meld.${meld.kind}`) : meld.kind;
  if (meld.kind === "akong") {
    const face = meld.tiles.find((x) => x) ?? null;
    // Shown with the two end tiles face down; if the face is unknown, all four are backs.
    const tiles = [0, 1, 2, 3].map((i) => tileEl(i === 0 || i === 3 ? (open ? face : null) : face));
    return h("span", { class: "meld akong", role: "group", "aria-label": `${kindZh} ${face ? tileName(face) : ""}`.trim() }, tiles);
  }
  const claimed = meld.claimed ?? null;
  const from = typeof meld.from === "number" ? meld.from : null;
  let tiles = /** @type {(string|null)[]} */ (meld.tiles);
  let sideways = -1;
  if (claimed && from !== null) {
    const dir = claimDirection(owner, from, n);
    const arranged = arrangeMeld(/** @type {string[]} */ (tiles.filter((x) => x !== null)), claimed, dir);
    tiles = arranged.tiles;
    sideways = arranged.sideways;
  }
  const fromText = from !== null ? ` ← ${nameOf(from)}` : "";
  const els = tiles.map((tile, i) => (meld.added && i === sideways
    // 加槓: the added tile lies on top of the sideways one.
    ? h("span", { class: "stack" }, tileEl(tile, { sideways: true }), tileEl(tile, { sideways: true }))
    : tileEl(tile, { sideways: i === sideways })));
  const shown = meld.added && sideways >= 0 ? dropOneCopy(els, sideways) : els;
  return h("span", {
    class: ["meld", meld.kind, meld.added && "added"],
    role: "group",
    "aria-label": `${kindZh} ${tilesInWords(/** @type {string[]} */ (tiles.filter(Boolean)))}${fromText}`,
    title: `${kindZh}${fromText}`,
  }, shown);
}

/** An added kong shows 3 tiles with two stacked sideways: drop one plain tile. @param {HTMLElement[]} els @param {number} sideways */
function dropOneCopy(els, sideways) {
  const i = els.findIndex((_, j) => j !== sideways);
  return els.filter((_, j) => j !== i);
}

/**
 * @param {import("../state.js").Player} p @param {number} n @param {(seat: number) => string} nameOf
 * @param {boolean} [fresh] this seat just claimed: its newest meld animates in
 * @param {boolean} [open] the hand is over: 暗槓 faces up
 */
export function meldsEl(p, n, nameOf, fresh = false, open = false) {
  if (!p.melds.length) return null;
  const last = p.melds.length - 1;
  return h("span", { class: "melds", role: "group", "aria-label": t("table.melds") },
    p.melds.map((m, i) => {
      const el = meldEl(m, p.seat, n, nameOf, open);
      if (fresh && i === last) el.classList.add("fresh"); // the claim just made slides in (once)
      return el;
    }));
}

/** @param {string[]} flowers @param {string[]} [wildcards] */
export function flowersEl(flowers, wildcards = []) {
  if (!flowers.length) return null;
  return h("span", { class: "flowers", role: "group", "aria-label": t("table.flowers") },
    flowers.map((f) => tileEl(f, { classes: wildcards.includes(f) ? ["wild"] : [] })));
}
