// @ts-check
/** The result dialog after a hand, and the game-over summary. */

import { formatNumber, t } from "../i18n.js";
import { setChildren } from "../render/dom.js";
import { namer } from "../render/table.js";
import { resultEl } from "../render/result.js";
import { $, app } from "../app.js";
import { leaveTable } from "./table.js";

export function showResult() {
  const dialog = /** @type {HTMLDialogElement} */ ($("result-dialog"));
  renderResult();
  if (!dialog.open && (app.table.result || app.table.game_over)) {
    dialog.showModal();
    dialog.scrollTop = 0;
    /** @type {HTMLElement | null} */ (dialog.querySelector(".buttons button, button.lobby"))?.focus({ preventScroll: true });
  }
}

export function renderResult() {
  const dialog = /** @type {HTMLDialogElement} */ ($("result-dialog"));
  const result = app.table.result;
  const over = app.table.game_over;
  if (!result && !over) return;
  const nameOf = namer(app.table);
  const toLobby = () => { dialog.close(); leaveTable(); };
  if (result) {
    setChildren(dialog, resultEl(result, app.table, nameOf, {
      verified: app.verified, gameOver: over, onNext: () => dialog.close(), onLobby: toLobby,
    }));
  } else {
    setChildren(dialog, gameOverEl(over, nameOf, toLobby));
  }
}

/** @param {any} over @param {(seat: number) => string} nameOf @param {() => void} toLobby */
function gameOverEl(over, nameOf, toLobby) {
  const wrap = document.createElement("div");
  wrap.className = "result";
  const h2 = document.createElement("h2");
  h2.id = "result-title";
  h2.textContent = t("table.game_over");
  const p = document.createElement("p");
  p.textContent = t(`table.game_over.${over.reason}`);
  const list = document.createElement("ul");
  (over.coins ?? []).forEach((/** @type {number} */ c, /** @type {number} */ i) => {
    const li = document.createElement("li");
    li.textContent = `${nameOf(i)}: ${over.points?.[i] ?? 0} · ${formatNumber(c)} ${t("me.coins")}`;
    list.append(li);
  });
  const button = document.createElement("button");
  button.className = "primary lobby";
  button.textContent = t("table.back_to_lobby");
  button.addEventListener("click", toLobby);
  wrap.append(h2, p, list, button);
  return wrap;
}
