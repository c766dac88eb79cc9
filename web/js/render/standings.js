// @ts-check
/**
 * The final standings after a game (issue 26 item 1): places 1st to 4th (3rd at 天台), each seat's net
 * points and coins for the game, every seat's title change, and "play again" / "back to lobby".  Pure DOM
 * from a `Standings` (saved at game over, or built from the server's record of the game, screens/result.js),
 * so the same screen comes back after a reload or on another device.
 */

import { h } from "./dom.js";
import { formatNumber, localName, t } from "../i18n.js";
import { signed } from "./table.js";

/**
 * What the standings screen needs (screens/result.js keeps it across a reload).  `titles`: each seat's title
 * before and after the game (null for a bot), from the game's record (GET /api/games/{game_id}).
 * @typedef {{before: any, after: any} | null} SeatTitles
 * @typedef {{before: number | null, after: number | null} | null} SeatRank  each seat's 積分 before and after
 * @typedef {{table_id: string, variant: string, practice: boolean, room: string | null, coin_table: boolean,
 *   seat: number, names: string[], bots: boolean[], over: any, title_before?: any, title_after?: any,
 *   game_id?: string, titles?: SeatTitles[], rank?: SeatRank[], options?: Record<string, any>, bot_speed?: string | null,
 *   hands_limit?: number | null}} Standings
 * @typedef {{onAgain: () => void, onLobby: () => void}} StandingsHandlers
 */

/** 1st, 2nd … in the language. @param {number} place */
export function placeWord(place) {
  return t(`standings.place.${place}`);
}

/**
 * Seats in finishing order: by place, then by seat (the server shares a place on equal points).
 * @param {Standings} s @returns {number[]}
 */
export function finishingOrder(s) {
  const places = s.over.places ?? [];
  return s.names.map((_, i) => i).sort((a, b) => (places[a] ?? 9) - (places[b] ?? 9) || a - b);
}

/** @param {Standings} s @param {StandingsHandlers} handlers */
export function standingsEl(s, handlers) {
  const over = s.over;
  const rows = finishingOrder(s).map((seat) => {
    const place = over.places?.[seat] ?? 0;
    const points = over.points?.[seat] ?? 0;
    const coins = over.coins?.[seat] ?? 0;
    const me = seat === s.seat;
    return h("li", { class: ["standing", `place-${place}`, me && "me"], "data-seat": String(seat), "data-place": String(place) },
      h("span", { class: "place", "aria-label": placeWord(place) }, placeWord(place)),
      h("span", { class: "who" }, s.names[seat] ?? "", me ? ` (${t("table.you")})` : "",
        s.bots[seat] ? h("span", { class: "badge status" }, t("table.bot")) : null,
        over.stood_up?.includes(seat) ? h("span", { class: "badge status" }, t("standings.stood_up")) : null,
        seatTitleEl(s.titles?.[seat] ?? null), rankChangeEl(s.rank?.[seat] ?? null)),
      h("span", { class: ["total", points > 0 && "up", points < 0 && "down"] }, t("plate.points", { n: signed(points) })),
      s.coin_table ? h("span", { class: ["coins", coins > 0 && "up", coins < 0 && "down"] }, t("plate.coins", { n: signed(coins) })) : null);
  });
  return h("div", { class: "result standings", "data-table": s.table_id },
    h("h2", { id: "result-title" }, t("standings.title")),
    h("p", { class: "standings-sub" }, `${t(`variant.${s.variant}`)} · ${s.practice ? t("table.practice") : t("standings.coin_table")}`
      + ` · ${t("standings.hands", { n: formatNumber(over.hands_played ?? 0) })}`),
    h("p", { class: "standings-reason" }, reasonText(s)),
    h("ol", { class: "standings-list" }, rows),
    titleChangeEl(s),
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "primary again", onclick: handlers.onAgain }, t("standings.again")),
      h("button", { type: "button", class: "ghost lobby", onclick: handlers.onLobby }, t("table.back_to_lobby"))));
}

/** Your title before and after the game, when it changed (rank 積分 move only at coin tables). @param {Standings} s */
function titleChangeEl(s) {
  const before = s.title_before;
  const after = s.title_after;
  if (!before || !after || before.title === after.title) return null;
  return h("p", { class: "title-change", role: "status" }, t("standings.title_change", {
    before: localName(before.title_names, before.title), after: localName(after.title_names, after.title),
  }));
}

/**
 * A seat's title in its row (issue 33 item 4): the title it holds now, and the one before when the game
 * changed it.  Bots have none.  @param {SeatTitles} titles
 */
function seatTitleEl(titles) {
  if (!titles?.after) return null;
  const after = localName(titles.after.title_names, titles.after.title);
  if (!titles.before || titles.before.title === titles.after.title) return h("span", { class: "seat-title" }, after);
  const words = { before: localName(titles.before.title_names, titles.before.title), after };
  return h("span", { class: "seat-title changed", "aria-label": t("standings.title_change", words) }, t("standings.seat_title", words));
}

/** A seat's 積分 change over the game and its 積分 now (from the game's record). @param {SeatRank} rank */
function rankChangeEl(rank) {
  if (!rank || rank.before === null || rank.after === null) return null;
  const change = rank.after - rank.before;
  return h("span", { class: ["rank-change", change > 0 && "up", change < 0 && "down"], "data-rank-change": String(change) },
    t("standings.rank_change", { n: signed(change) }), t("standings.rank_now", { n: formatNumber(rank.after) }));
}

/** Why the game ended; a short game that played its hands says so rather than "all rounds played". @param {Standings} s */
function reasonText(s) {
  const over = s.over;
  if (over.reason === "rounds_complete" && s.hands_limit && (over.hands_played ?? 0) >= s.hands_limit) {
    return t("standings.hands_limit", { n: formatNumber(s.hands_limit) });
  }
  return t(`table.game_over.${over.reason}`);
}
