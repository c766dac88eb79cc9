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

/** @typedef {{left: number, top: number, right: number, bottom: number}} Box */

/** Overlap area of two boxes. @param {Box} a @param {Box} b */
function overlap(a, b) {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/** A box of `w` × `h` centred on (`x`, `y`). @param {number} x @param {number} y @param {number} w @param {number} h */
const around = (x, y, w, h) => ({ left: x - w / 2, top: y - h / 2, right: x + w / 2, bottom: y + h / 2 });

/** An element's box in the layer's coordinates. @param {Element} el @param {DOMRect} layer @returns {Box} */
function inLayer(el, layer) {
  const r = el.getBoundingClientRect();
  return { left: r.left - layer.left, top: r.top - layer.top, right: r.right - layer.left, bottom: r.bottom - layer.top };
}

/**
 * Stand the banner beside the plate, on the side of it that faces the table's centre, inside the layer: beside
 * it toward the centre where the banner fits there, else above or below it toward the centre.  On a narrow phone
 * the plates stand in two columns with less than a banner's width between them, and a banner beside a plate
 * would sit over its neighbour's, or between the two: so each place is tried against the other plates (and the
 * other banners up), and the first that covers none of them and is nearer its own plate than any other plate or
 * the centre is taken (the least covered one if none is).
 * @param {HTMLElement} layer @param {HTMLElement} banner @param {Element} plate
 */
function besidePlate(layer, banner, plate) {
  const box = layer.getBoundingClientRect();
  const p = inLayer(plate, box);
  // The banner's layout size: its bounding box is scaled by the entrance animation (1.8× at first), which would
  // stand it a plate's width away from its plate.
  const w = banner.offsetWidth, h = banner.offsetHeight;
  const cx = (p.left + p.right) / 2, cy = (p.top + p.bottom) / 2;
  const toRight = cx < box.width / 2, toBelow = cy < box.height / 2;
  const places = [
    { x: toRight ? p.right + w / 2 + 6 : p.left - w / 2 - 6, y: cy },
    { x: cx, y: toBelow ? p.bottom + h / 2 + 6 : p.top - h / 2 - 6 },
  ].map(({ x, y }) => ({ x: Math.min(Math.max(x, w / 2), box.width - w / 2),
    y: Math.min(Math.max(y, h / 2), box.height - h / 2) }));
  const root = plate.closest("#table-root") ?? document;
  const others = [...root.querySelectorAll(".plate[data-seat-pos]")].filter((o) => o !== plate).map((o) => inLayer(o, box));
  // The other banners up now (two winners on one discard), by their layout boxes (offsets ignore the entrance scale).
  const shown = [...layer.querySelectorAll(".call-banner")].filter((o) => o !== banner && o instanceof HTMLElement)
    .map((o) => { const b = /** @type {HTMLElement} */ (o); return around(b.offsetLeft, b.offsetTop, b.offsetWidth, b.offsetHeight); });
  const obstacles = [...others, ...shown];
  const covered = (/** @type {{x: number, y: number}} */ at) =>
    obstacles.reduce((sum, o) => sum + overlap(o, around(at.x, at.y, w, h)), 0);
  // Whose it looks: a banner in the middle of the gap between two plates belongs to neither, and a wide one
  // beside a thin plate reaches further toward the table's centre than it stands from its plate.
  const core = root.querySelector(".core");
  const rivals = core ? [...others, inLayer(core, box)] : others;
  const mine = (/** @type {{x: number, y: number}} */ at) => rivals.every((o) =>
    Math.hypot(at.x - cx, at.y - cy) < Math.hypot(at.x - (o.left + o.right) / 2, at.y - (o.top + o.bottom) / 2));
  const at = places.find((q) => covered(q) === 0 && mine(q))
    ?? places.reduce((a, b) => (covered(b) < covered(a) ? b : a));
  banner.style.left = `${at.x}px`;
  banner.style.top = `${at.y}px`;
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
