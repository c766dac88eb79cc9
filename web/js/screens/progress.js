// @ts-check
/**
 * The lobby's progress panel: your title on the ladder (白板 … 麻將王) and the 積分 to the next one, your
 * stats (hands, wins, deal-ins, average 台, biggest hand), and the 積分 leaderboard this week and all time.
 */

import { api } from "../api.js";
import { formatNumber, localName, t } from "../i18n.js";
import { h } from "../render/dom.js";
import { app } from "../app.js";

/** @type {{stats: any, boards: Record<"week" | "all", any[]>, period: "week" | "all"} | null} */
let progress = null;

/** Fetch stats and both boards (after a hand or on entering the lobby), then `redraw`. @param {() => void} redraw */
export async function loadProgress(redraw) {
  try {
    const [stats, week, all] = await Promise.all([api.myStats(), api.leaderboard("week"), api.leaderboard("all")]);
    progress = { stats, boards: { week, all }, period: progress?.period ?? "week" };
    redraw();
  } catch {
    // The panel is extra: the lobby works without it (errors from the lobby's own calls are shown).
  }
}

/** @param {() => void} redraw */
export function progressEl(redraw) {
  if (!progress) return null;
  const { stats, boards, period } = progress;
  const l = stats.ladder;
  const from = [...l.steps].reverse().find((/** @type {any} */ s) => s.at <= l.rank_points)?.at ?? 0;
  const frac = l.next_at ? (l.rank_points - from) / (l.next_at - from) : 1;
  const board = boards[period];
  return h("section", { class: "card progress", "aria-labelledby": "progress-h" },
    h("h3", { id: "progress-h" }, t("progress.title")),
    h("div", { class: "ladder" },
      h("span", { class: "title-now" }, localName(l.title)),
      h("span", { class: "bar", role: "progressbar", "aria-label": t("progress.bar"), "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": String(Math.round(frac * 100)) },
        h("span", { class: "fill", style: { width: `${Math.round(frac * 100)}%` } })),
      h("span", { class: "title-next" }, l.next_title ? localName(l.next_title) : "—"),
      h("p", { class: "needed" }, l.next_title ? t("progress.needed", { n: formatNumber(l.needed), title: localName(l.next_title) }) : t("progress.top"))),
    h("dl", { class: "stats" },
      stat("progress.hands", formatNumber(stats.hands)), stat("progress.wins", formatNumber(stats.wins)),
      stat("progress.deal_ins", formatNumber(stats.deal_ins)),
      stat("progress.average_tai", stats.average_tai === null ? "—" : String(stats.average_tai)),
      stat("progress.biggest", stats.biggest_hand ? h("a", { href: `#/hand/${stats.biggest_hand.hand_id}` }, `+${formatNumber(stats.biggest_hand.points)}`) : "—")),
    h("div", { class: "boards" },
      h("div", { class: "tabs", role: "tablist" }, /** @type {const} */ (["week", "all"]).map((p) => h("button", {
        type: "button", role: "tab", class: ["ghost", `tab-${p}`], "aria-selected": String(p === period),
        onclick: () => { if (progress) progress.period = p; redraw(); },
      }, t(`progress.board.${p}`)))),
      h("p", { class: "board-about" }, t(`progress.board.${period}.about`)),
      board.length ? boardEl(board, period) : h("p", { class: "empty" }, t("progress.board.empty"))));
}

/**
 * The board as a numbered table (issue 33 item 4): the server's rank, the player, and the period's points.
 * @param {any[]} board @param {"week" | "all"} period
 */
function boardEl(board, period) {
  return h("table", { class: "leaderboard", "data-period": period },
    h("thead", null, h("tr", null,
      h("th", { scope: "col", class: "num" }, t("progress.board.rank")),
      h("th", { scope: "col" }, t("progress.board.player")),
      h("th", { scope: "col", class: "num" }, t(`progress.board.${period}.points`)))),
    h("tbody", null, board.map((/** @type {any} */ x) => h("tr", { class: x.user_id === app.me?.id ? "me" : undefined, "data-rank": String(x.rank) },
      h("td", { class: "num rank" }, formatNumber(x.rank)),
      h("td", { class: "who" }, x.username),
      h("td", { class: "num pts" }, formatNumber(x.rank_points))))));
}

/** @param {string} key @param {any} value */
function stat(key, value) {
  return h("div", null, h("dt", null, t(key)), h("dd", null, value));
}
