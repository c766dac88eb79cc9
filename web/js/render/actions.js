// @ts-check
/**
 * The action bar: only what the open prompt offers, as the seed's buttons 吃 碰 槓 聽 胡 過 (plus 眼牌 /
 * Miji for 台灣 and 杀猪 for 台炮), written in the player's script (the `act.*` rows of strings.json).  Several chows or kongs: the first click opens the choice, the second
 * picks.  聽 / 眼牌 / Miji are declared with a discard: the button arms the declaration, then a tile click
 * discards with it.  The countdown is drawn from the prompt's deadline.
 */

import { h } from "./dom.js";
import { tileEl } from "./tile.js";
import { lang, t } from "../i18n.js";
import { parseTiles, tilesInWords } from "../tiles.js";

/** Button order and shortcut; the words are `act.<id>`. */
export const BUTTONS = [
  { id: "chow", key: "C" },
  { id: "pong", key: "P" },
  { id: "kong", key: "K" },
  { id: "ready", key: "R" },
  { id: "eye", key: "E" },
  { id: "miji", key: "M" },
  { id: "kill_pig", key: "X" },
  { id: "win", key: "H" },
  { id: "pass", key: "Space" },
];

/**
 * The buttons each variant can ever offer (issue 33 item 5: the keyboard help lists only these): 天台 has no
 * 吃 and no declarations (docs/rules/tiantai.md), 台炮 has 聽 and 殺豬 (docs/rules/taipao.md#ting), 台灣 has
 * 眼牌 and Miji (docs/rules/taiwan.md#eye).  The server still sends what is legal at each prompt.
 * @type {Record<string, string[]>}
 */
export const VARIANT_BUTTONS = {
  tiantai: ["pong", "kong", "win", "pass"],
  taipao: ["chow", "pong", "kong", "ready", "kill_pig", "win", "pass"],
  taiwan: ["chow", "pong", "kong", "eye", "miji", "win", "pass"],
};

/**
 * The keyboard help of a variant's table: its own actions' keys, then the keys for picking a tile.
 * @param {string} variant
 */
export function keysHelp(variant) {
  const own = VARIANT_BUTTONS[variant] ?? BUTTONS.map((b) => b.id);
  const keys = BUTTONS.filter((b) => own.includes(b.id) && b.id !== "pass").map((b) => `${b.key} ${t(`act.${b.id}`)}`);
  return `${t("keys.lead")} ${[...keys, t("keys.nav")].join(" · ")}`;
}

/**
 * @typedef {{type: "choose", kind: "chow" | "kong"} | {type: "declare", declare: string} | null} Mode
 * @typedef {{onButton: (id: string) => void, onChoice: (a: import("../state.js").Action) => void,
 *   onCancel: () => void, onBack: () => void}} ActionHandlers
 */

/**
 * Which buttons the offer makes available.
 * @param {import("../state.js").Offer} offer @returns {string[]}
 */
export function availableButtons(offer) {
  /** @type {string[]} */
  const out = [];
  if (offer.chows.length) out.push("chow");
  if (offer.pongs.length) out.push("pong");
  if (offer.kongs.length) out.push("kong");
  for (const d of ["ready", "eye", "miji"]) if (offer.declares.has(d)) out.push(d);
  if (offer.killPig) out.push("kill_pig");
  if (offer.win) out.push("win");
  if (offer.pass) out.push("pass");
  return out;
}

/** @param {string} id @param {boolean} pressed @param {(id: string) => void} onButton */
function actionButton(id, pressed, onButton) {
  const spec = BUTTONS.find((b) => b.id === id);
  if (!spec) return null;
  // The call in the player's script: the Chinese glyph, or in English the English word alone (issue 33
  // item 5: no "眼牌 Eye" in the English UI).
  const en = lang() === "en";
  const button = h("button", {
    type: "button",
    class: ["act", `act-${id}`, pressed && "armed"],
    "data-action": id,
    "aria-keyshortcuts": spec.key,
    "aria-pressed": ["ready", "eye", "miji"].includes(id) ? String(pressed) : undefined,
    title: `${t(`act.${id}`)}: ${t(`act.${id}.help`)} (${spec.key})`,
    "aria-description": t(`act.${id}.help`),
    onclick: () => onButton(id),
  },
  en ? h("span", { class: "en-word" }, t(`act.${id}`)) : h("span", { class: "zh" }, t(`act.${id}`)),
  h("kbd", { "aria-hidden": "true" }, spec.key === "Space" ? "␣" : spec.key));
  // A long press on a touch screen explains the button instead of pressing it.
  onLongPress(button, () => showHelp(button, t(`act.${id}.help`)));
  return button;
}

const LONG_PRESS_MS = 550;

/**
 * Run `fn` on a long press: a touch held still for LONG_PRESS_MS (browsers that never fire a context menu for
 * a touch, as iOS Safari), or the context menu (a right click, Android's long press).  The click that ends a
 * long press is swallowed, so explaining a button never presses it.
 * @param {HTMLElement} el @param {() => void} fn
 */
export function onLongPress(el, fn) {
  let timer = 0;
  let fired = false;
  const cancel = () => clearTimeout(timer);
  el.addEventListener("pointerdown", (e) => {
    fired = false;
    if (e.pointerType !== "touch") return;
    timer = window.setTimeout(() => { fired = true; fn(); }, LONG_PRESS_MS);
  });
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) el.addEventListener(type, cancel);
  el.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    cancel();
    if (!fired) { fired = true; fn(); }
  });
  el.addEventListener("click", (e) => {
    if (!fired) return;
    fired = false;
    e.stopImmediatePropagation();
    e.preventDefault();
  }, true);
}

/**
 * @param {{offer: import("../state.js").Offer, mode: Mode, promptKind: string | null, autoPlay: boolean,
 *   myTurnHint: boolean}} s
 * @param {ActionHandlers} handlers
 */
export function actionBarEl(s, handlers) {
  const { offer, mode } = s;
  const bar = h("div", { class: "actions", role: "toolbar", "aria-label": t("table.choose") });
  if (s.autoPlay) {
    bar.append(h("button", { type: "button", class: "act act-back", onclick: handlers.onBack }, t("table.back")));
  }
  if (mode?.type === "choose") {
    const list = mode.kind === "chow" ? offer.chows : offer.kongs;
    list.forEach((a, i) => {
      // A kong offer names its tile (the server's prompt); without one there is no face to draw.
      const tiles = mode.kind === "chow" ? parseTiles(a.tiles ?? "") : a.tile ? [a.tile, a.tile, a.tile, a.tile] : [];
      bar.append(h("button", {
        type: "button", class: ["act", "choice", `choice-${mode.kind}`], "data-choice": String(i + 1),
        "aria-label": `${t(`act.${mode.kind}`)} ${tilesInWords(tiles)}`,
        "aria-keyshortcuts": String(i + 1),
        onclick: () => handlers.onChoice(a),
      }, h("span", { class: "mini" }, tiles.map((x) => tileEl(x))), h("kbd", { "aria-hidden": "true" }, String(i + 1))));
    });
    bar.append(h("button", { type: "button", class: "act act-cancel", onclick: handlers.onCancel, "aria-keyshortcuts": "Escape" },
      t("table.cancel")));
    return bar;
  }
  const ids = availableButtons(offer);
  for (const id of ids) {
    const pressed = mode?.type === "declare" && mode.declare === id;
    const button = actionButton(id, pressed, handlers.onButton);
    if (button) bar.append(button);
  }
  if (mode?.type === "declare") {
    bar.append(h("span", { class: "hint" }, t("table.choose_tile")));
  } else if (s.myTurnHint && offer.discards.size) {
    bar.append(h("span", { class: "hint" }, t("table.choose_tile")));
  }
  return bar;
}

/** The countdown: a number and a shrinking bar; `updateTimer` refreshes it every frame. */
export function timerEl() {
  return h("div", { class: "timer", role: "timer", "aria-live": "off" },
    h("span", { class: "secs" }, ""), h("span", { class: "bar" }, h("span", { class: "fill" })));
}

/**
 * @param {HTMLElement | null} el @param {number} seconds left @param {number} total seconds of the prompt
 */
export function updateTimer(el, seconds, total) {
  if (!el) return;
  const secs = /** @type {HTMLElement} */ (el.querySelector(".secs"));
  const fill = /** @type {HTMLElement} */ (el.querySelector(".fill"));
  const whole = Math.ceil(seconds);
  if (secs.textContent !== String(whole)) secs.textContent = String(whole);
  const frac = total > 0 ? Math.max(0, Math.min(1, seconds / total)) : 0;
  fill.style.transform = `scaleX(${frac})`;
  el.classList.toggle("urgent", seconds <= 5);
  el.setAttribute("aria-label", t("table.seconds", { n: whole }));
}

/**
 * A short explanation bubble above `anchor` (long press), gone after a few seconds or on the next tap.
 * @param {HTMLElement} anchor @param {string} text
 */
export function showHelp(anchor, text) {
  document.querySelector(".help-bubble")?.remove();
  const r = anchor.getBoundingClientRect();
  const bubble = h("div", { class: "help-bubble", role: "tooltip" }, text);
  bubble.style.left = `${Math.max(8, Math.min(r.left, innerWidth - 268))}px`;
  bubble.style.top = `${Math.max(8, r.top - 8)}px`;
  document.body.append(bubble);
  const close = () => bubble.remove();
  setTimeout(close, 4000);
  setTimeout(() => document.addEventListener("pointerdown", close, { once: true }), 0);
}
