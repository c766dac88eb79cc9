// @ts-check
/**
 * How one payment's points came about, step by step (issue 13 defect 7), from what the result carries: the
 * winner's totals (胡 / 台 / W / B), the table's options (底, 台價, the discard multiplier, 胡 per point, the
 * dealer multipliers) and who is the dealer.  The formulas are the rule book's (docs/rules/README.md):
 *
 * - 天台 docs/rules/tiantai.md#payment / docs/rules/rooms.md#points: S = ⌈H × 2^T / 10⌉ × 10 (capped, or a flat 天胡 / 地胡 value); a discard pays m × S;
 *   points = 胡 ÷ hu_per_point.
 * - 台灣 docs/rules/taiwan.md#payment: points = 底 + 台價 × (hand 台 + (dealer involved ? 莊家台 : 0)); the 眼牌 penalty is 台價 × n.
 * - 台炮 docs/rules/taipao.md#settlement: W = T (× 2 from 13 台); a loser pays W (× dealer_multiplier when the dealer is in the pair);
 *   losers settle |B_i − B_j| (× dealer_pair_multiplier with the dealer); 四風齊包賠 pays for all.
 *
 * `points` is what the steps compute: the result shows it beside the server's number, and the browser tests
 * check that the two agree for real hands.  Pure: no DOM.
 */

import { formatNumber, t } from "../i18n.js";

/**
 * @typedef {{payer: number, payee: number, points: number, reason: string, coins?: number, bot?: boolean}} Payment
 * @typedef {{variant?: string, seats: {seat: number, totals?: Record<string, number>}[]}} Score
 * @typedef {{steps: string[], points: number | null}} Steps
 */

/** @param {Score} score @param {number} seat @returns {Record<string, number>} */
function totalsOf(score, seat) {
  return score.seats.find((s) => s.seat === seat)?.totals ?? {};
}

/** @param {number} x */
const n = (x) => formatNumber(x);

/**
 * @param {Payment} p @param {Score} score @param {Record<string, any>} options the table's options
 * @param {{dealer: number, streak?: number, seats: number}} table
 * @returns {Steps}
 */
export function paymentSteps(p, score, options, table) {
  const variant = score.variant ?? "";
  if (variant === "tiantai") return tiantai(p, score, options);
  if (variant === "taiwan") return taiwan(p, score, options, table);
  if (variant === "taipao") return taipao(p, score, options, table);
  return { steps: [], points: null };
}

/** @param {Payment} p @param {Score} score @param {Record<string, any>} o @returns {Steps} */
function tiantai(p, score, o) {
  const tot = totalsOf(score, p.payee);
  const hu = tot.hu ?? 0;
  const tai = tot.tai ?? 0;
  const s = tot.score ?? 0;
  const perPoint = Number(o.hu_per_point ?? 5);
  const fed = ["discard", "rob_kong", "earthly"].includes(p.reason);
  const mult = fed ? Number(o.discard_multiplier ?? 1.5) : 1;
  const steps = [];
  if (tot.raw !== undefined) {
    steps.push(`${n(hu)} ${t("unit.hu")} × 2^${tai} = ${n(tot.raw)} ${t("unit.hu")}`);
    steps.push(t("steps.tiantai.round", { s: n(s), cap: n(Number(o.cap ?? 300)) }));
  } else {
    steps.push(t("steps.tiantai.flat", { s: n(s) })); // 天胡 / 地胡 / 八花: a flat share of the cap
  }
  const hus = s * mult;
  steps.push(fed ? t("steps.tiantai.fed", { s: n(s), m: String(mult), hu: n(hus) }) : t("steps.tiantai.each", { hu: n(hus) }));
  const points = hus / perPoint;
  steps.push(`${n(hus)} ${t("unit.hu")} ÷ ${perPoint} = ${n(points)} ${t("unit.point")}`);
  return { steps, points };
}

/**
 * @param {Payment} p @param {Score} score @param {Record<string, any>} o
 * @param {{dealer: number, streak?: number}} table @returns {Steps}
 */
function taiwan(p, score, o, table) {
  const di = Number(o.di ?? 5);
  const taiValue = Number(o.tai_value ?? 1);
  if (p.reason === "eye_penalty") {
    const tai = Number(o.eye_penalty ?? 1);
    return { steps: [t("steps.taiwan.eye", { v: n(taiValue), tai: String(tai), points: n(taiValue * tai) })], points: taiValue * tai };
  }
  const handTai = totalsOf(score, p.payee).tai ?? 0;
  const involved = table.dealer === p.payer || table.dealer === p.payee;
  const dealerTai = involved
    ? (totalsOf(score, table.dealer).dealer_tai ?? Number(o.dealer ?? 1) + Number(o.dealer_streak ?? 2) * (table.streak ?? 0))
    : 0;
  const points = di + taiValue * (handTai + dealerTai);
  const taiWords = involved ? t("steps.taiwan.tai_dealer", { tai: String(handTai), dealer: String(dealerTai) }) : t("steps.taiwan.tai", { tai: String(handTai) });
  return { steps: [t("steps.taiwan.pay", { di: n(di), v: n(taiValue), tai: taiWords, points: n(points) })], points };
}

/**
 * @param {Payment} p @param {Score} score @param {Record<string, any>} o
 * @param {{dealer: number, seats: number}} table @returns {Steps}
 */
function taipao(p, score, o, table) {
  const withDealer = table.dealer === p.payer || table.dealer === p.payee;
  if (p.reason === "base_diff") {
    const hi = totalsOf(score, p.payee).base ?? 0;
    const lo = totalsOf(score, p.payer).base ?? 0;
    const mult = withDealer ? Number(o.dealer_pair_multiplier ?? 2) : 1;
    const points = (hi - lo) * mult;
    return { steps: [t("steps.taipao.diff", { hi: String(hi), lo: String(lo), m: String(mult), points: n(points) })], points };
  }
  const tot = totalsOf(score, p.payee);
  const w = tot.score ?? 0;
  const steps = [];
  const total = tot.total ?? w;
  const threshold = Number(o.double_threshold ?? 13);
  steps.push(total >= threshold && w !== total
    ? t("steps.taipao.doubled", { t: String(total), th: String(threshold), w: String(w) })
    : t("steps.taipao.w", { t: String(total), w: String(w) }));
  const dm = Number(o.dealer_multiplier ?? 2);
  let mult;
  if (p.reason === "sifeng_baopei") { // the liable discarder pays what every loser owed
    const losers = table.seats - 1;
    mult = losers + (dm - 1) * (table.dealer === p.payee ? losers : 1);
    steps.push(t("steps.taipao.liable", { w: String(w), m: String(mult), points: n(w * mult) }));
  } else {
    mult = withDealer ? dm : 1;
    steps.push(withDealer ? t("steps.taipao.dealer", { w: String(w), m: String(mult), points: n(w * mult) })
      : t("steps.taipao.plain", { w: String(w), points: n(w) }));
  }
  return { steps, points: w * mult };
}

/**
 * The last step: points into coins at the room's rate (none on practice tables; a bot seat holds no coins).
 * @param {Payment} p @param {number | null | undefined} perPoint @returns {string | null}
 */
export function coinStep(p, perPoint) {
  if (!perPoint) return null;
  if (p.bot) return t("result.bot_payment");
  return `${n(p.points)} ${t("unit.point")} × ${n(perPoint)} = ${n(p.points * perPoint)} ${t("unit.coins")}`;
}
