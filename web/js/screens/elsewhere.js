// @ts-check
/**
 * "This game is open elsewhere" (另一個視窗或裝置): the table socket was replaced (close 4001) because the same
 * account opened the table in another tab or on another device.  This tab says so at once (role="alert"),
 * hides the board (what it last showed is stale: the game goes on over there) and offers "play here", which
 * opens the table again and so takes the seat back (the other tab then hears 4001 in its turn).
 */

import { applyI18n } from "../i18n.js";
import { h } from "../render/dom.js";
import { $ } from "../app.js";

const ALERT_ID = "elsewhere-alert";

/**
 * Show the alert over the table view, the board hidden.  @param {() => void} playHere opens the table again
 */
export function showElsewhere(playHere) {
  hideElsewhere();
  $("table-root").hidden = true;
  $("call-layer").replaceChildren();
  const button = h("button", { type: "button", class: "primary", "data-i18n": "table.elsewhere.play_here" });
  button.addEventListener("click", () => { hideElsewhere(); playHere(); });
  const alert = h("div", { id: ALERT_ID, class: "elsewhere-alert card", role: "alert" },
    h("p", { "data-i18n": "table.elsewhere" }),
    h("div", { class: "elsewhere-actions" },
      button,
      h("a", { class: "button ghost", href: "#/lobby", "data-i18n": "table.back_to_lobby" })));
  applyI18n(alert); // and again on every change of language (main.js applies it to the document)
  $("table-view").prepend(alert);
  button.focus();
}

/** The table is shown again (or left): take the alert away, show the board. */
export function hideElsewhere() {
  document.getElementById(ALERT_ID)?.remove();
  $("table-root").hidden = false;
}

/** Whether the alert is up (this tab's seat is played elsewhere). */
export function playedElsewhere() {
  return document.getElementById(ALERT_ID) !== null;
}
