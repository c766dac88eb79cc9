// @ts-check
/**
 * The result dialog after a hand, and the game-over summary.  A result stays until the player dismisses
 * it; when the next hand already asks for a decision, the dialog says so and shows that countdown.  Every
 * result of this table visit can be reopened (the 結果 button in the top bar, ‹ › inside the dialog).
 */

import { formatNumber, t } from "../i18n.js";
import { h, setChildren } from "../render/dom.js";
import { namer } from "../render/table.js";
import { resultEl } from "../render/result.js";
import { timerEl } from "../render/actions.js";
import { $, app } from "../app.js";
import { provide, screens } from "../router.js";

const dialog = () => /** @type {HTMLDialogElement} */ ($("result-dialog"));

/** Open the dialog on result `index` of this visit (the last one by default). @param {number} [index] */
export function showResult(index = app.results.length - 1) {
  app.resultIndex = index;
  const d = dialog();
  renderResult();
  if (!d.open && (app.results[index] || app.table.game_over)) {
    d.showModal();
    d.scrollTop = 0;
    /** @type {HTMLElement | null} */ (d.querySelector(".buttons button.next, button.lobby"))?.focus({ preventScroll: true });
  }
}

export function renderResult() {
  const d = dialog();
  const entry = app.results[app.resultIndex];
  const over = app.table.game_over;
  if (!entry && !over) return;
  const toLobby = () => { d.close(); screens.leaveTable(); };
  if (entry) {
    const nameOf = namer(entry.state);
    const el = resultEl(entry.msg, entry.state, nameOf, {
      verified: entry.verified, gameOver: over, onNext: () => d.close(), onLobby: toLobby,
    });
    el.prepend(...[pagerEl(), waitingEl()].filter((x) => x !== null));
    setChildren(d, el);
  } else {
    setChildren(d, gameOverEl(over, namer(app.table), toLobby));
  }
}

/** The next hand already asks you: say so, with its countdown (the table waits behind the dialog). */
function waitingEl() {
  const prompt = app.table.prompt;
  if (!prompt || app.table.game_over) return null;
  return h("div", { class: "waiting", role: "status" },
    h("span", null, t(prompt.kind === "turn" ? "result.waiting_turn" : "result.waiting_claim")),
    timerEl(),
    h("button", { type: "button", class: "primary to-table", onclick: () => dialog().close() }, t("result.to_table")));
}

/** ‹ 第 n 局 › between this visit's results. */
function pagerEl() {
  if (app.results.length < 2) return null;
  const i = app.resultIndex;
  /** @param {number} to */
  const go = (to) => { app.resultIndex = to; renderResult(); };
  return h("nav", { class: "pager", "aria-label": t("result.history") },
    h("button", { type: "button", class: "ghost prev", disabled: i <= 0, "aria-label": t("result.prev"), onclick: () => go(i - 1) }, "‹"),
    h("span", null, `${i + 1} / ${app.results.length}`),
    h("button", { type: "button", class: "ghost next-result", disabled: i >= app.results.length - 1, "aria-label": t("result.next_result"), onclick: () => go(i + 1) }, "›"));
}

/** The top bar's 結果 button: shown once this visit has a result. */
export function renderResultsButton() {
  const button = $("show-results");
  if (button) button.hidden = !app.results.length;
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

provide({ showResult, renderResult, renderResultsButton });
