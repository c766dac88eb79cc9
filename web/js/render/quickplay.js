// @ts-check
/**
 * Quick play (快速開始) in the lobby: per variant on each room card, a button per game length (東風戰 first, then
 * 全莊, each with its typical minutes) with the number of players waiting for that variant and playing at its
 * tables, and the waiting panel (elapsed time, cancel).
 */

import { h } from "./dom.js";
import { localName, t } from "../i18n.js";

/**
 * The game lengths quick play offers, in 圈, 東風戰 first: app/quickplay/matching.py QUICK_PLAY_ROUNDS
 * (tests/app/quickplay/test_quickplay_rounds.py checks the two agree; docs/rules/rooms.md#quick-play F-8).
 */
export const QUICK_PLAY_ROUNDS = [1, 4];

/**
 * @typedef {{queued: boolean, room: string | null, variant: string | null, rounds?: number | null,
 *   since: string | null, table_id: string | null}} QueueStatus
 * @typedef {{onQuickPlay: (room: string, variant: string, rounds: number) => void, onCancelQueue: (room: string) => void}} QuickHandlers
 */

/**
 * Players waiting for `variant` in `room`, over every game length.
 * @param {Map<string, number>} sizes keyed "room:variant:rounds" @param {string} room @param {string} variant
 */
export function waitingCount(sizes, room, variant) {
  return QUICK_PLAY_ROUNDS.reduce((n, r) => n + (sizes.get(`${room}:${variant}:${r}`) ?? 0), 0);
}

/**
 * A length button's words: 東風戰 / 全莊 with the typical minutes (when the lobby has said them).
 * @param {number} rounds @param {number | undefined} minutes
 */
export function lengthLabel(rounds, minutes) {
  const name = t(rounds === 1 ? "lobby.quick.east" : "lobby.quick.full");
  return minutes ? t("lobby.quick.length", { name, minutes: String(minutes) }) : name;
}

/**
 * Players seated at playing tables of this room and variant (from the lobby's tables).
 * @param {any[]} tables @param {string} room @param {string} variant
 */
export function playingCount(tables, room, variant) {
  let n = 0;
  for (const tb of tables) {
    if (tb.room === room && tb.variant === variant && tb.status === "playing") {
      n += tb.seats.filter((/** @type {any} */ s) => s.user_id !== null).length;
    }
  }
  return n;
}

/**
 * The room card's quick-play row: one button per variant with its counts.
 * @param {string} room @param {string[]} variants
 * @param {{tables: any[], queueSizes: Map<string, number>, gameMinutes?: Map<string, number>, queue: QueueStatus | null, busy: boolean}} s
 * @param {boolean} blocked cannot afford the room, or seated somewhere
 * @param {QuickHandlers} handlers
 */
export function quickPlayEl(room, variants, s, blocked, handlers) {
  const waiting = !!s.queue?.queued;
  return h("div", { class: "quick-play", "aria-label": t("lobby.quick") },
    variants.map((v) => h("div", { class: "quick-variant", "data-quick": v },
      h("span", { class: "quick-name" }, t("lobby.quick.play", { variant: t(`variant.${v}`) })),
      QUICK_PLAY_ROUNDS.map((r) => h("button", {
        type: "button", class: "primary quick", "data-room": room, "data-variant": v, "data-rounds": String(r),
        disabled: blocked || waiting || s.busy, onclick: () => handlers.onQuickPlay(room, v, r),
      }, lengthLabel(r, s.gameMinutes?.get(`${v}:${r}`)))),
      h("span", { class: "quick-counts", "data-queued": String(waitingCount(s.queueSizes, room, v)) },
        t("lobby.quick.counts", {
          queued: waitingCount(s.queueSizes, room, v), playing: playingCount(s.tables, room, v),
        })))));
}

/** mm:ss (h:mm:ss past an hour). @param {number} seconds */
export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** Seconds since the queue's `since`. @param {QueueStatus} queue */
export function waited(queue) {
  return queue.since ? (Date.now() - Date.parse(queue.since)) / 1000 : 0;
}

/**
 * The waiting panel while queued: which pool, the elapsed time (updated every second by the screen) and cancel.
 * @param {QueueStatus} queue @param {any[]} rooms @param {boolean} busy @param {QuickHandlers} handlers
 */
export function waitingPanelEl(queue, rooms, busy, handlers) {
  const room = rooms.find((r) => r.key === queue.room);
  return h("section", { class: "card queue-panel", role: "status", "aria-live": "polite" },
    h("span", { class: "queue-what" }, t("lobby.quick.waiting", {
      room: room ? localName(room.names, room.name) : queue.room ?? "", variant: t(`variant.${queue.variant}`),
    }), queue.rounds ? ` · ${lengthLabel(queue.rounds, undefined)}` : null),
    h("span", { class: "queue-elapsed", id: "queue-elapsed" }, t("lobby.quick.elapsed", { time: clock(waited(queue)) })),
    h("button", { type: "button", class: "queue-cancel", disabled: busy,
      onclick: () => handlers.onCancelQueue(queue.room ?? "") }, t("lobby.quick.cancel")));
}
