// @ts-check
/**
 * Call banners (issue 26 item 3): when anyone calls 吃 / 碰 / 槓 / 聽 / 胡 / 自摸, the call in large type
 * shows at that seat's side of the table for about a second, with its spoken sound.  Under
 * `prefers-reduced-motion` the banner still shows, only without its motion (css/table.css).
 *
 * `callOf(event)` is pure (which call an engine event is, if any); `showCall` draws one banner.
 */

import { h } from "./dom.js";
import { t } from "../i18n.js";

/** How long a banner stays, in ms (雀魂 keeps its call art about a second). */
export const CALL_MS = 1100;

/** Self-drawn wins: the banner says 自摸, not 胡. */
const SELF_DRAWN = new Set(["self_draw", "kong_replacement", "flower_replacement", "split_deal", "eight_flowers",
  "seven_rob_one", "kill_pig"]);

/**
 * @typedef {{seat: number, call: "chow" | "pong" | "kong" | "ready" | "eye" | "miji" | "win" | "zimo"}} Call
 */

/**
 * The calls an engine event makes (one per seat; a hand with two winners has two).
 * @param {any} ev @returns {Call[]}
 */
export function callsOf(ev) {
  switch (ev?.type) {
    case "chow": case "pong": case "kong":
      return typeof ev.seat === "number" ? [{ seat: ev.seat, call: ev.type }] : [];
    case "discard":
      return ev.declare && ["ready", "eye", "miji"].includes(ev.declare) ? [{ seat: ev.seat, call: ev.declare }] : [];
    case "hand_end": {
      const call = SELF_DRAWN.has(ev.win_kind) ? "zimo" : "win";
      return (ev.winners ?? []).map((/** @type {number} */ seat) => ({ seat, call }));
    }
    default:
      return [];
  }
}

/**
 * Stand the banner beside the plate, on the side of it that faces the table's centre, inside the layer.
 * @param {HTMLElement} layer @param {HTMLElement} banner @param {Element} plate
 */
function besidePlate(layer, banner, plate) {
  const box = layer.getBoundingClientRect();
  const p = plate.getBoundingClientRect();
  // The banner's layout size: its bounding box is scaled by the entrance animation (1.8× at first), which would
  // stand it a plate's width away from its plate.
  const b = { width: banner.offsetWidth, height: banner.offsetHeight };
  const toRight = p.left + p.width / 2 < box.left + box.width / 2;
  let x = toRight ? p.right - box.left + b.width / 2 + 6 : p.left - box.left - b.width / 2 - 6;
  let y = p.top - box.top + p.height / 2;
  x = Math.min(Math.max(x, b.width / 2), box.width - b.width / 2);
  y = Math.min(Math.max(y, b.height / 2), box.height - b.height / 2);
  banner.style.left = `${x}px`;
  banner.style.top = `${y}px`;
  banner.dataset.seatPos = plate.getAttribute("data-seat-pos") ?? "";
}

/** The sound file of a call (assets/sounds/call-*.ogg). @param {Call["call"]} call */
export function callSound(call) {
  return { chow: "call-chow", pong: "call-pong", kong: "call-kong", ready: "call-ready", eye: "call-ready",
    miji: "call-ready", win: "call-hu", zimo: "call-zimo" }[call];
}

/** The word on the banner, in the chosen language. @param {Call["call"]} call */
export function callWord(call) {
  return t(`call.${call}`);
}

/**
 * Show one banner in `layer` at `side` (bottom / right / top / left) and take it away after CALL_MS.  With
 * `plate` (the caller's name plate, issue 33 item 5) the banner stands beside that plate, toward the centre
 * of the table, so everyone sees who called; without it, at the side's middle.
 * @param {HTMLElement} layer @param {string} side @param {Call["call"]} call @param {Element | null} [plate]
 */
export function showCall(layer, side, call, plate = null) {
  for (const old of layer.querySelectorAll(`.call-banner.side-${side}`)) old.remove();
  const banner = h("div", { class: ["call-banner", `side-${side}`, `call-${call}`], "data-call": call },
    h("span", { class: "word" }, callWord(call)));
  layer.append(banner);
  if (plate) besidePlate(layer, banner, plate);
  setTimeout(() => banner.remove(), CALL_MS);
  return banner;
}
