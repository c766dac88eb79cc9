// @ts-check
/** Keyboard play at the table: C P K R E M X H, Space = 過, ←/→ pick, ↑ / Enter discard, 1–9 choose, Esc. */

import { handForDisplay } from "../state.js";
import { BUTTONS, availableButtons } from "../render/actions.js";
import { app } from "../app.js";
import { currentOffer, focusTile, onButton, renderTable, sendAction } from "./table.js";

/** @param {KeyboardEvent} e */
export function onKey(e) {
  if (app.view !== "table" || e.ctrlKey || e.metaKey || e.altKey) return;
  const target = /** @type {HTMLElement} */ (e.target);
  if (target.closest("input, select, textarea, dialog[open]")) return;
  const offer = currentOffer();
  const available = availableButtons(offer);
  const key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
  if (app.ui.mode?.type === "choose" && /^[1-9]$/.test(key)) {
    const list = app.ui.mode.kind === "chow" ? offer.chows : offer.kongs;
    const action = list[Number(key) - 1];
    if (action) { e.preventDefault(); sendAction(action); }
    return;
  }
  if (key === "Escape") {
    app.ui.mode = null;
    app.ui.selected = null;
    renderTable();
    return;
  }
  if (key === " " || key === "Spacebar") {
    if (available.includes("pass")) { e.preventDefault(); onButton("pass"); }
    return;
  }
  const button = BUTTONS.find((b) => b.key === key && b.key.length === 1);
  if (button && available.includes(button.id)) {
    e.preventDefault();
    onButton(button.id);
    return;
  }
  if (key === "ArrowLeft" || key === "ArrowRight") {
    moveSelection(e, key === "ArrowLeft" ? -1 : 1);
    return;
  }
  if ((key === "Enter" || key === "ArrowUp") && app.ui.selected !== null) {
    if (key === "Enter" && target.closest("button")) return; // the focused tile's own click does it
    discardSelected(e);
  }
}

/** @param {KeyboardEvent} e @param {number} step */
function moveSelection(e, step) {
  const me = app.table.table?.seat ?? 0;
  const { tiles, drawn } = handForDisplay(app.table.view?.players[me]);
  const count = tiles.length + (drawn ? 1 : 0);
  if (!count) return;
  e.preventDefault();
  const cur = app.ui.selected ?? (step < 0 ? count : -1);
  app.ui.selected = (cur + step + count) % count;
  renderTable();
  focusTile(app.ui.selected);
}

/** @param {KeyboardEvent} e */
function discardSelected(e) {
  const offer = currentOffer();
  const me = app.table.table?.seat ?? 0;
  const { tiles, drawn } = handForDisplay(app.table.view?.players[me]);
  const tile = (drawn ? [...tiles, drawn] : tiles)[app.ui.selected ?? -1];
  const mode = app.ui.mode;
  const action = tile && (mode?.type === "declare" ? offer.declares.get(mode.declare)?.get(tile) : offer.discards.get(tile));
  if (action) {
    e.preventDefault();
    sendAction(action);
  }
}
