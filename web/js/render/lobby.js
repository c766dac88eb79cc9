// @ts-check
/** The lobby: practice tables, the three coin rooms with their stakes and entry, and each room's tables. */

import { h } from "./dom.js";
import { formatNumber, localName, t } from "../i18n.js";
import { quickPlayEl, waitingPanelEl } from "./quickplay.js";

export const VARIANT_KEYS = ["tiantai", "taipao", "taiwan"];

/**
 * @typedef {{key: string, name: string, names?: Record<string, string>, coins_per_point: number,
 *   entry_coins: number}} Room
 * @typedef {{id: string, room: string | null, variant: string, seats: {seat: number, user_id: number | null,
 *   username: string | null, bot: boolean}[], status: string, practice: boolean, version: number,
 *   creator_id?: number | null}} LobbyTable
 * @typedef {{onPractice: (variant: string) => void, onCreate: (room: string, variant: string) => void,
 *   onSit: (tableId: string, seat: number) => void, onStand: (tableId: string) => void,
 *   onEnter: (tableId: string) => void, onBots: (tableId: string) => void,
 *   onCopyInvite: (link: string, button: HTMLElement) => void} & import("./quickplay.js").QuickHandlers} LobbyHandlers
 */

/**
 * @param {{me: any, rooms: Room[], tables: LobbyTable[], live: boolean, myTable: string | null,
 *   busy: boolean, createVariant: Record<string, string>, returnTable?: any,
 *   queue: import("./quickplay.js").QueueStatus | null, queueSizes: Map<string, number>,
 *   gameMinutes?: Map<string, number>}} s
 * @param {LobbyHandlers} handlers
 */
export function lobbyEl(s, handlers) {
  const coins = s.me?.coins ?? 0;
  const seatedSomewhere = !!s.myTable || !!s.queue?.queued; // queued for quick play: one commitment at a time
  return h("div", { class: "lobby" },
    h("div", { class: "lobby-head" },
      h("h1", null, t("lobby.title")),
      h("span", { class: ["live", s.live ? "on" : "off"], role: "status" }, s.live ? t("lobby.live") : t("lobby.offline"))),
    s.queue?.queued ? waitingPanelEl(s.queue, s.rooms, s.busy, handlers) : null,
    s.returnTable ? h("section", { class: "card return-table", role: "status", "data-table": s.returnTable.id },
      h("span", null, `${t("lobby.your_table")}: ${t(`variant.${s.returnTable.variant}`)}${s.returnTable.practice ? ` · ${t("table.practice")}` : ""}`),
      h("button", { type: "button", class: "primary enter", onclick: () => handlers.onEnter(s.returnTable.id) }, t("lobby.return")),
      s.returnTable.practice ? h("button", { type: "button", class: "ghost leave-it", disabled: s.busy,
        onclick: () => handlers.onStand(s.returnTable.id) }, t("lobby.leave_it")) : null) : null,
    h("section", { class: "card practice", "aria-labelledby": "practice-h" },
      h("h3", { id: "practice-h" }, t("lobby.practice")),
      h("div", { class: "practice-buttons" }, VARIANT_KEYS.map((v) => h("button", {
        type: "button", class: "primary", "data-practice": v, disabled: s.busy || seatedSomewhere,
        onclick: () => handlers.onPractice(v),
      }, t("lobby.practice.start", { variant: t(`variant.${v}`) })))),
      h("label", { class: "bot-speed" }, t("lobby.bot_speed"), " ",
        h("select", { id: "bot-speed", onchange: (/** @type {Event} */ e) => setBotSpeed(/** @type {HTMLSelectElement} */ (e.target).value) },
          ["normal", "fast"].map((x) => h("option", { value: x, selected: botSpeed() === x }, t(`lobby.bot_speed.${x}`)))))),
    h("h3", { class: "rooms-h" }, t("lobby.rooms")),
    h("div", { class: "rooms" }, s.rooms.map((room) => roomEl(room, s, coins, seatedSomewhere, handlers))));
}

/**
 * @param {Room} room @param {any} s @param {number} coins @param {boolean} seatedSomewhere
 * @param {LobbyHandlers} handlers
 */
function roomEl(room, s, coins, seatedSomewhere, handlers) {
  const afford = coins >= room.entry_coins;
  const tables = listedTables(s.tables, s.me?.id ?? null).filter((tb) => tb.room === room.key);
  const selectId = `variant-${room.key}`;
  const chosen = s.createVariant[room.key] ?? "taiwan";
  return h("section", { class: ["card", "room", !afford && "locked"], "data-room": room.key, "aria-labelledby": `room-${room.key}` },
    h("header", null,
      h("h4", { id: `room-${room.key}` }, localName(room.names, room.name)),
      h("span", { class: "stake" }, t("lobby.stake", { coins: formatNumber(room.coins_per_point) })),
      h("span", { class: "entry" }, t("lobby.entry", { coins: formatNumber(room.entry_coins) }))),
    afford ? null : h("p", { class: "cannot-afford", role: "note" },
      t("lobby.cannot_afford", { need: formatNumber(room.entry_coins), have: formatNumber(coins) })),
    quickPlayEl(room.key, VARIANT_KEYS, s, !afford || seatedSomewhere, handlers),
    h("form", {
      class: "create", onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const select = /** @type {HTMLSelectElement} */ (/** @type {HTMLFormElement} */ (e.target).elements.namedItem("variant"));
        handlers.onCreate(room.key, select.value);
      },
    },
    h("label", { for: selectId }, t("lobby.variant")),
    h("select", { id: selectId, name: "variant", disabled: !afford || s.busy || seatedSomewhere,
      onchange: (/** @type {Event} */ e) => { s.createVariant[room.key] = /** @type {HTMLSelectElement} */ (e.target).value; } },
    VARIANT_KEYS.map((v) => h("option", { value: v, selected: v === chosen }, t(`variant.${v}.long`)))),
    h("button", { type: "submit", disabled: !afford || s.busy || seatedSomewhere }, t("lobby.create"))),
    tables.length
      ? h("ul", { class: "tables" }, tables.map((tb) => tableRowEl(tb, s, afford, seatedSomewhere, handlers)))
      : h("p", { class: "empty" }, t("lobby.no_tables")));
}

/**
 * The tables the lobby lists: a finished (已結束) table only for a player still seated at it (to stand up).
 * @param {LobbyTable[]} tables @param {number | null} meId @returns {LobbyTable[]}
 */
export function listedTables(tables, meId) {
  return tables.filter((tb) => tb.status !== "finished" || tb.seats.some((x) => x.user_id === meId && meId !== null));
}

/**
 * @param {LobbyTable} tb @param {any} s @param {boolean} afford @param {boolean} seatedSomewhere
 * @param {LobbyHandlers} handlers
 */
function tableRowEl(tb, s, afford, seatedSomewhere, handlers) {
  const mine = tb.seats.some((x) => x.user_id === s.me?.id);
  const taken = tb.seats.filter((x) => x.user_id !== null || x.bot).length;
  return h("li", { class: ["lobby-table", mine && "mine", `status-${tb.status}`], "data-table-id": tb.id, "data-variant": tb.variant },
    h("span", { class: "variant" }, t(`variant.${tb.variant}`)),
    h("span", { class: "status" }, t(`lobby.${tb.status}`), " · ", t("lobby.seats", { taken, total: tb.seats.length })),
    h("span", { class: "seats" }, tb.seats.map((seat) => {
      if (seat.user_id !== null || seat.bot) {
        return h("span", { class: ["seat", seat.user_id === s.me?.id && "me"] }, seat.bot ? t("lobby.bot") : seat.username ?? "?");
      }
      return h("button", {
        type: "button", class: "seat empty", "data-seat": String(seat.seat),
        disabled: !afford || seatedSomewhere || tb.status !== "waiting" || s.busy,
        "aria-label": `${t("lobby.sit")} #${seat.seat + 1}`,
        onclick: () => handlers.onSit(tb.id, seat.seat),
      }, t("lobby.sit"));
    })),
    mine && tb.status === "waiting" ? h("p", { class: "waiting-hint", role: "note" },
      t("lobby.waiting_hint", { free: tb.seats.length - taken, total: tb.seats.length })) : null,
    mine && tb.status === "waiting" ? inviteEl(tb, s, handlers) : null,
    mine && tb.status === "playing" ? h("button", { type: "button", class: "primary enter", onclick: () => handlers.onEnter(tb.id) }, t("lobby.enter")) : null,
    mine && tb.status !== "playing" ? h("button", { type: "button", class: "stand", disabled: s.busy, onclick: () => handlers.onStand(tb.id) }, t("lobby.stand")) : null);
}

/**
 * The link that brings a friend to this table (#/join/ID: they sit down once logged in).
 * @param {string} tableId
 */
export function inviteLink(tableId) {
  return `${location.origin}${location.pathname}#/join/${encodeURIComponent(tableId)}`;
}

/**
 * At your waiting coin table: the invite link with a copy button, and for the table's creator a button that
 * seats bots in the empty seats (bots hold no coins: the note says how the table then settles).
 * @param {LobbyTable} tb @param {any} s @param {LobbyHandlers} handlers
 */
function inviteEl(tb, s, handlers) {
  const link = inviteLink(tb.id);
  const creator = tb.creator_id === s.me?.id;
  return h("div", { class: "invite" },
    h("label", { class: "invite-link" }, t("lobby.invite"), " ",
      h("input", { type: "text", readonly: true, value: link, class: "invite-url", onfocus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select() })),
    h("button", { type: "button", class: "copy-invite", title: t("lobby.invite.help"),
      onclick: (/** @type {Event} */ e) => handlers.onCopyInvite(link, /** @type {HTMLElement} */ (e.currentTarget)) }, t("lobby.invite.copy")),
    creator ? h("button", { type: "button", class: "fill-bots", disabled: s.busy, title: t("help.bots"),
      onclick: () => handlers.onBots(tb.id) }, t("lobby.fill_bots")) : null,
    creator ? h("p", { class: "bots-note", role: "note" }, t("help.bots")) : null);
}

const BOT_SPEED_KEY = "mj.botSpeed";

/** The practice bots' speed this browser last chose ("normal" or "fast"; the server's BOT_SPEEDS). */
export function botSpeed() {
  try { return localStorage.getItem(BOT_SPEED_KEY) === "fast" ? "fast" : "normal"; } catch { return "normal"; }
}

/** @param {string} speed */
function setBotSpeed(speed) {
  try { localStorage.setItem(BOT_SPEED_KEY, speed); } catch { /* private mode */ }
}
