// @ts-check
/**
 * The hand-end dialog: the winning hand, every scoring item with its Chinese name and 台 / 胡, the
 * payments in points and coins, each seat's net, and the revealed seed (checked against the commitment).
 */

import { h } from "./dom.js";
import { tileEl } from "./tile.js";
import { meldsEl, flowersEl } from "./melds.js";
import { formatNumber, has, localName, t } from "../i18n.js";
import { sortTiles, tileName, withoutTiles } from "../tiles.js";
import { onLongPress, showHelp } from "./actions.js";
import { coinStep, paymentSteps } from "./payment_steps.js";


/** @param {string} key @param {string} prefix */
function word(key, prefix) {
  return has(`${prefix}.${key}`) ? t(`${prefix}.${key}`) : key;
}

/**
 * A scoring item's name in the player's language, from the engine's one table of item names (sent with the
 * item as `names`); its single `name` (or the key) when the server sent no names.
 * @param {{key: string, name?: string, names?: Record<string, string>}} it
 */
export function itemName(it) {
  return localName(it.names, it.name ?? it.key);
}

/**
 * @param {any} msg the hand_result message
 * @param {import("../state.js").TableState} state
 * @param {(seat: number) => string} nameOf
 * @param {{verified: boolean | null, gameOver: any | null, onNext: () => void, onLobby: () => void}} o
 */
export function resultEl(msg, state, nameOf, o) {
  const res = msg.result ?? {};
  const score = res.score ?? { seats: [], payments: [], net: [] };
  const winners = /** @type {number[]} */ (res.winners ?? []);
  const n = (res.hands ?? score.net ?? []).length || (state.table?.seats.length ?? 4);
  const seats = Array.from({ length: n }, (_, i) => i);
  const headline = winners.length
    ? h("p", { class: "headline" },
      winners.map((w) => t("result.winner", { name: nameOf(w) })).join("、"),
      res.win_kind ? h("span", { class: "win-kind" }, ` · ${word(res.win_kind, "win")}`) : null,
      typeof res.discarder === "number" ? h("span", { class: "from" }, ` · ${t("result.from", { name: nameOf(res.discarder) })}`) : null)
    : h("p", { class: "headline draw" }, t("result.draw"));

  const hands = winners.map((w) => winningHandEl(res, state, w, n, nameOf));
  const variant = score.variant ?? state.table?.variant ?? "";

  const itemsBlocks = score.seats
    .filter((/** @type {any} */ s) => (s.items ?? []).length || Object.keys(s.totals ?? {}).length)
    .map((/** @type {any} */ s) => h("div", { class: "score-seat", "data-seat": String(s.seat) },
      h("h4", null, nameOf(s.seat)),
      h("table", { class: "items" },
        h("tbody", null, (s.items ?? []).map((/** @type {any} */ it) => explained(h("tr", { "data-key": it.key },
          h("th", { scope: "row" }, itemName(it)),
          h("td", { class: "num" }, `${it.value} ${t(it.unit === "hu" ? "unit.hu" : "unit.tai")}`)), itemHelp(variant, it.key)))),
        Object.keys(s.totals ?? {}).length ? h("tfoot", null, Object.entries(s.totals).map(([k, v]) => explained(h("tr", { class: "total", "data-key": k },
          h("th", { scope: "row" }, word(k, "total")),
          h("td", { class: "num" }, String(v))), has(`total.${k}.help`) ? t(`total.${k}.help`) : ""))) : null)));

  const payments = /** @type {any[]} */ (msg.payments ?? []);
  const paymentsTable = payments.length ? h("table", { class: "payments" },
    h("thead", null, h("tr", null, h("th", null, t("result.payer")), h("th", null, t("result.payee")),
      h("th", { class: "num" }, t("result.points")), h("th", { class: "num" }, t("result.coins")), h("th", null, t("result.reason")))),
    h("tbody", null, payments.map((p) => h("tr", { class: p.bot ? "bot" : null, "data-bot": p.bot ? "1" : null, "data-payer": String(p.payer), "data-payee": String(p.payee) },
      h("td", null, nameOf(p.payer)), h("td", null, nameOf(p.payee)),
      h("td", { class: "num" }, formatNumber(p.points)),
      // Bots hold no coins: the payment is scored but not made (docs/server.md).
      h("td", { class: "num", title: p.bot ? t("help.bots") : null }, p.bot ? `0 (${t("result.bot_payment")})` : formatNumber(p.coins)),
      h("td", null, word(p.reason, "reason")))))) : null;

  const net = /** @type {number[]} */ (score.net ?? []);
  const deltas = /** @type {number[]} */ (msg.coin_deltas ?? []);
  const after = /** @type {(number|null)[]} */ (msg.coins_after ?? []);
  const forfeited = /** @type {number[]} */ (msg.forfeited ?? []);
  const anyForfeit = forfeited.some((x) => x);
  const summary = h("table", { class: "summary" },
    h("thead", null, h("tr", null, h("th", null, ""), h("th", { class: "num" }, t("result.net")),
      h("th", { class: "num" }, t("result.coin_delta")), h("th", { class: "num" }, t("result.coins_after")),
      anyForfeit ? h("th", { class: "num" }, t("result.forfeited")) : null)),
    h("tbody", null, seats.map((i) => h("tr", { "data-seat": String(i), class: [winners.includes(i) && "winner", state.table?.seat === i && "me"] },
      h("th", { scope: "row" }, nameOf(i)),
      h("td", { class: ["num", signClass(net[i] ?? 0)] }, signed(net[i] ?? 0)),
      h("td", { class: ["num", "coin-delta", signClass(deltas[i] ?? 0)], "data-coins": String(deltas[i] ?? 0) }, signed(deltas[i] ?? 0)),
      h("td", { class: "num coins-after" }, after[i] === null || after[i] === undefined ? "—" : formatNumber(/** @type {number} */ (after[i]))),
      anyForfeit ? h("td", { class: "num" }, formatNumber(forfeited[i] ?? 0)) : null))));

  const fairness = h("details", { class: "fairness" },
    h("summary", null, `${t("table.commitment")} · `, o.verified === true ? t("result.verified") : o.verified === false ? t("result.mismatch") : t("result.not_verified")),
    h("dl", null,
      h("dt", null, t("table.commitment")), h("dd", null, h("code", { class: "commitment" }, msg.commitment ?? "")),
      h("dt", null, t("result.seed")), h("dd", null, h("code", { class: "seed" }, msg.seed ?? "")),
      h("dt", null, t("result.salt")), h("dd", null, h("code", null, msg.salt ?? ""))));

  const notes = [msg.void ? h("p", { class: "note void" }, t("result.void")) : null,
    msg.practice ? h("p", { class: "note" }, t("result.practice")) : null];
  const over = o.gameOver;
  return h("div", { class: "result" },
    h("h2", { id: "result-title" }, `${t("result.title")} · ${t("table.hand", { n: msg.hand_no })}`),
    headline, hands,
    itemsBlocks.length ? h("section", { class: "scores" }, h("h3", null, t("result.items")), itemsBlocks) : null,
    paymentsTable ? h("section", null, h("h3", null, t("result.payments")), paymentsTable, payRuleEl(msg, state),
      payments.some((p) => p.bot) ? h("p", { class: "note bots-note" }, t("help.bots")) : null,
      stepsEl(payments, score, state, n, nameOf)) : null,
    summary, notes, fairness,
    over ? h("p", { class: "game-over" }, `${t("table.game_over")}: ${word(over.reason, "table.game_over")}`) : null,
    h("div", { class: "buttons" },
      over ? null : h("button", { type: "button", class: "primary next", onclick: o.onNext }, t("result.next")),
      over ? h("button", { type: "button", class: "primary lobby", onclick: o.onLobby }, t("table.back_to_lobby")) : null));
}

/**
 * @param {any} res @param {import("../state.js").TableState} state @param {number} w @param {number} n
 * @param {(seat: number) => string} nameOf
 */
function winningHandEl(res, state, w, n, nameOf) {
  const hand = /** @type {string[]} */ (res.hands?.[w] ?? []);
  const win = res.winning_tile ?? null;
  const rest = win && hand.includes(win) ? withoutTiles(hand, [win]) : hand;
  const p = state.view?.players[w];
  const wild = state.view?.wildcards ?? [];
  /** @param {string} x */
  const face = (x) => tileEl(x, { classes: wild.includes(x) ? ["wild"] : [] }); // 財神 marked as at the table
  return h("div", { class: "winning-hand", "data-seat": String(w), role: "group", "aria-label": `${nameOf(w)} ${t("result.winning_tile")}` },
    h("span", { class: "who" }, nameOf(w)),
    h("span", { class: "concealed" }, sortTiles(rest).map(face)),
    win ? [h("span", { class: "drawn-gap" }), tileEl(win, { classes: ["winning", ...(wild.includes(win) ? ["wild"] : [])], label: `${t("result.winning_tile")}: ${tileName(win)}` })] : null,
    p ? meldsEl(p, n, nameOf, false, true) : null,
    p ? flowersEl(p.flowers, state.view?.wildcards ?? []) : null);
}

/**
 * How the items became points and the points coins: the variant's rule (docs/rules/rooms.md#points) and the room's rate.
 * @param {any} msg @param {import("../state.js").TableState} state
 */
function payRuleEl(msg, state) {
  const variant = msg.result?.score?.variant ?? state.table?.variant;
  const perPoint = state.table?.coins_per_point;
  const key = `result.pay_rule.${variant}`;
  if (!has(key)) return null;
  return h("p", { class: "pay-rule", role: "note" }, t(key),
    perPoint ? ` ${t("result.coin_rule", { coins: formatNumber(perPoint) })}` : ` ${t("result.practice")}`,
    " ", h("a", { href: state.table?.id ? `#/rules/${variant}/${encodeURIComponent(state.table.id)}` : `#/rules/${variant}`, target: "_blank", rel: "noopener", class: "rules-link" }, t("rules.title")));
}

/**
 * A scoring item's one-line explanation in the player's language (`itemhelp.<variant>.<key>`); "" if none.
 * @param {string} variant @param {string} key
 */
export function itemHelp(variant, key) {
  const k = `itemhelp.${variant}.${key}`;
  return has(k) ? t(k) : "";
}

/**
 * Give a row its explanation: a tooltip, the same words for screen readers, and on a touch screen a long
 * press (the context menu) shows them in a bubble.
 * @param {HTMLElement} row @param {string} help
 */
export function explained(row, help) {
  if (!help) return row;
  row.title = help;
  row.setAttribute("aria-description", help);
  row.classList.add("explained");
  onLongPress(row, () => showHelp(row, help));
  return row;
}

/**
 * Each payment worked out step by step (defect 7): items → 胡 / 台 → points → coins, with the table's own
 * options; the computed points sit beside the server's (data-points / data-server-points).
 * @param {any[]} payments @param {any} score @param {import("../state.js").TableState} state @param {number} n
 * @param {(seat: number) => string} nameOf
 */
function stepsEl(payments, score, state, n, nameOf) {
  const table = { dealer: state.view?.dealer ?? state.table?.dealer ?? 0, streak: state.view?.dealer_streak ?? state.table?.dealer_streak ?? 0, seats: n };
  const perPoint = state.table?.coins_per_point;
  return h("details", { class: "pay-steps-box", open: true },
    h("summary", null, t("result.steps")),
    h("ol", { class: "pay-steps" }, payments.map((p, i) => {
      const worked = paymentSteps(p, { variant: state.table?.variant, ...score }, state.table?.options ?? {}, table);
      const agrees = worked.points === p.points;
      const coin = coinStep(p, perPoint);
      return h("li", { "data-index": String(i), "data-points": worked.points === null ? "" : String(worked.points),
        "data-server-points": String(p.points), class: agrees ? "agrees" : "differs" },
      h("span", { class: "who" }, `${nameOf(p.payer)} → ${nameOf(p.payee)}`), ": ",
      [...worked.steps, agrees ? null : `${formatNumber(p.points)} ${t("unit.point")}`, coin]
        .filter((x) => x).map((x, j) => h("span", { class: "step" }, j ? ` → ${x}` : x)));
    })));
}

/** @param {number} x */
function signed(x) {
  return x > 0 ? `+${formatNumber(x)}` : formatNumber(x);
}

/** @param {number} x */
function signClass(x) {
  return x > 0 ? "pos" : x < 0 ? "neg" : "zero";
}

/**
 * sha256(seed ‖ salt) == commitment?  null when the browser cannot hash (no SubtleCrypto off https).
 * @param {string} seed @param {string} salt @param {string} commitment @returns {Promise<boolean | null>}
 */
export async function verifyCommitment(seed, salt, commitment) {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle || !seed || !commitment) return null;
  const digest = await subtle.digest("SHA-256", new TextEncoder().encode(seed + (salt ?? "")));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return hex === commitment;
}
