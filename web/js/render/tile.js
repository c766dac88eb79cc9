// @ts-check
/** One tile as a DOM element: the face layered over front.svg (or the back), with an accessible name. */

import { h } from "./dom.js";
import { BACK, tileAsset, tileLabel, tileName, tileNameEn, tileNameZh } from "../tiles.js";
import { lang } from "../i18n.js";

/**
 * @typedef {{sideways?: boolean, button?: boolean, selected?: boolean, dim?: boolean, mark?: string,
 *   classes?: string[], onclick?: (e: MouseEvent) => void, ondblclick?: (e: MouseEvent) => void,
 *   disabled?: boolean, label?: string, data?: Record<string, string>}} TileOptions
 */

/**
 * @param {string | null | undefined} code a tile code, or null / "back" for a hidden tile
 * @param {TileOptions} [o]
 */
export function tileEl(code, o = {}) {
  const hidden = !code || code === BACK || code === "?";
  const label = o.label ?? tileLabel(hidden ? null : code);
  const title = hidden ? undefined : lang() === "en" ? `${tileNameEn(/** @type {string} */ (code))} (${tileNameZh(/** @type {string} */ (code))})` : tileName(/** @type {string} */ (code));
  const classes = ["tile", hidden && "back", o.sideways && "sideways", o.selected && "selected", o.dim && "dim",
    o.mark && `mark-${o.mark}`, ...(o.classes ?? [])];
  const face = h("span", {
    class: "face",
    "aria-hidden": "true",
    style: hidden ? undefined : { "--face": `url("${tileAsset(/** @type {string} */ (code))}")` },
  });
  if (o.button) {
    return h("button", {
      type: "button", class: classes, "aria-label": label, title, disabled: o.disabled,
      "aria-pressed": o.selected ? "true" : undefined, dataset: { tile: hidden ? "" : code, ...(o.data ?? {}) },
      onclick: o.onclick, ondblclick: o.ondblclick,
    }, face);
  }
  return h("span", { class: classes, role: "img", "aria-label": label, title, dataset: { tile: hidden ? "" : code, ...(o.data ?? {}) } }, face);
}
