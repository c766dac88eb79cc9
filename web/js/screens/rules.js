// @ts-check
/**
 * The rules page of a variant (#/rules/VARIANT): a player's guide first (the hand, 財神 / 眼牌 / 開門, how a hand
 * is scored, a worked example drawn with tiles), then every scoring item from the server's scoring data
 * (GET /api/variants), how points become coins, and the options by their player names (a table's own values
 * when opened from that table, else the defaults).
 */

import { api } from "../api.js";
import { formatNumber, has, localName, t } from "../i18n.js";
import { h, setChildren } from "../render/dom.js";
import { $, showError, showView } from "../app.js";
import { itemHelp } from "../render/result.js";
import { tileEl } from "../render/tile.js";
import { flowersEl, meldsEl } from "../render/melds.js";
import { parseTiles, sortTiles, windName, withoutTiles } from "../tiles.js";
import EXAMPLES from "../guide_examples.json" with { type: "json" };

/** @type {any[] | null} */
let variants = null;

/**
 * @param {string} key @param {Record<string, any> | null} [tableOptions]
 * @param {string | null} [tableId] show this table's option values (a table that has closed: the defaults)
 */
export async function enterRules(key, tableOptions = null, tableId = null) {
  showView("rules");
  const hash = tableId ? `#/rules/${key}/${tableId}` : `#/rules/${key}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
  try {
    variants ??= await api.variants();
    if (tableId && !tableOptions) {
      tableOptions = await api.table(tableId).then((tb) => (tb.variant === key ? tb.options : null), () => null);
    }
    renderRules(key, tableOptions ?? null);
  } catch (err) {
    showError(err);
  }
}

/** An item's value with its unit in the player's language: "3 台" / "3 tai". @param {any} value @param {string} unit */
function amount(value, unit) {
  const u = t(unit === "hu" ? "unit.hu" : "unit.tai");
  return Array.isArray(value) ? value.map((v) => `${v}`).join(" / ") + ` ${u}` : `${value} ${u}`;
}

/** An option's value in words: yes / no, 東 南 北, a named choice. @param {string} key @param {any} value */
function optionValue(key, value) {
  if (typeof value === "boolean") return t(value ? "option.yes" : "option.no");
  if (key === "three_player_winds") return [...String(value)].map((w) => windName("ESWN".indexOf(w))).join(" ");
  if (typeof value === "string" && has(`option.${key}.${value}`)) return t(`option.${key}.${value}`);
  return typeof value === "number" ? formatNumber(value) : String(value);
}

/** @param {string} key @param {Record<string, any> | null} tableOptions */
function renderRules(key, tableOptions) {
  const v = variants?.find((x) => x.key === key);
  if (!v) { setChildren($("rules-view"), h("p", null, t("rules.unknown"))); return; }
  const values = { ...Object.fromEntries(Object.entries(v.options).map(([k, o]) => [k, /** @type {any} */ (o).default])), ...(tableOptions ?? {}) };
  const itemKeys = new Set(v.items.map((/** @type {any} */ i) => i.key));
  const others = Object.entries(v.options).filter(([k]) => !itemKeys.has(k));
  setChildren($("rules-view"), h("article", { class: "card rules", "data-variant": key },
    h("nav", { class: "rules-nav" }, (variants ?? []).map((x) => h("a", { href: `#/rules/${x.key}`, class: ["button", "ghost", x.key === key && "current"] }, t(`variant.${x.key}`)))),
    h("h1", null, t(`variant.${key}.long`), " · ", t("guide.title")),
    guideEl(key, v),
    h("h3", null, t("guide.all_items")),
    h("table", { class: "rules-items" },
      h("thead", null, h("tr", null, h("th", null, t("rules.item")), h("th", { class: "num" }, t("rules.value")), h("th", null, t("rules.explain")))),
      h("tbody", null, v.items.map((/** @type {any} */ i) => h("tr", { "data-key": i.key },
        h("th", { scope: "row" }, localName(i.names, i.key), h("span", { class: "en-name" }, localName(i.names) === i.names.en ? "" : ` ${i.names.en}`)),
        h("td", { class: "num" }, amount(values[i.key] ?? i.value, i.unit)),
        h("td", { class: "explain" }, itemHelp(key, i.key)))))),
    h("h3", null, t("rules.coins")),
    h("p", { class: "rules-coins" }, t("result.coin_rule", { coins: "100 / 300 / 600" }), " ", h("span", { class: "rules-bots" }, t("help.bots"))),
    h("h3", { class: "options-title" }, tableOptions ? t("rules.table_options") : t("rules.options")),
    h("table", { class: "rules-options" }, h("tbody", null, others.map(([k]) => h("tr", { "data-option": k },
      h("th", { scope: "row" }, has(`option.${k}`) ? t(`option.${k}`) : k),
      h("td", { class: "value" }, optionValue(k, values[k])),
      h("td", { class: "doc" }, has(`option.${k}.help`) ? t(`option.${k}.help`) : "")))))));
}

/**
 * The player's guide of a variant (issue 26 item 8): the hand, what is special (財神, 眼牌 / Miji, 開門), how a
 * hand is scored, and one worked example drawn with tiles and scored by the engine (guide_examples.json).
 * @param {string} key @param {any} v the variant from /api/variants
 */
function guideEl(key, v) {
  const example = /** @type {any} */ (EXAMPLES)[key];
  /** @type {Record<string, [title: string, text: string][]>} the variant's extra guide sections (string keys) */
  const extra = { taipao: [["guide.wild", "guide.taipao.wild"]], taiwan: [["guide.open", "guide.taiwan.open"], ["guide.eye", "guide.taiwan.eye"]] };
  return h("section", { class: "guide" },
    h("p", { class: "guide-intro" }, t(`guide.${key}.intro`)),
    h("h3", null, t("guide.shape")),
    example ? handEl(example.situation, example.situation.winners[0], v.seats) : null,
    h("p", null, t(`guide.${key}.shape`)),
    (extra[key] ?? []).map(([title, text]) => [h("h3", null, t(title)),
      key === "taipao" && title === "guide.wild" ? h("div", { class: "guide-tiles wild-faces" },
        parseTiles(example.situation.wildcards).map((x) => tileEl(x, { classes: ["wild"] }))) : null,
      h("p", null, t(text))]),
    h("h3", null, t("guide.scoring")),
    h("p", null, t(`guide.${key}.scoring`)),
    example ? exampleEl(key, example, v) : null);
}

/**
 * A seat's tiles from a scored situation: concealed (the winning tile apart), melds face up, flowers.
 * @param {any} situation @param {number} seat @param {number} n
 */
function handEl(situation, seat, n) {
  const s = situation.seats[seat];
  const win = situation.winning_tile ?? null;
  const concealed = sortTiles(parseTiles(s.concealed));
  const rest = win ? withoutTiles(concealed, [win]) : concealed;
  const wild = parseTiles(situation.wildcards ?? "");
  const melds = (s.melds ?? []).map((/** @type {any} */ m) => ({ kind: m.kind, added: !!m.added, tiles: parseTiles(m.tiles),
    claimed: m.claimed ?? (typeof m.from === "number" ? parseTiles(m.tiles)[0] : undefined), from: m.from }));
  const player = { seat, wind: 0, concealed_count: 0, concealed: null, melds, flowers: [], river: [], declaration: null };
  const nameOf = (/** @type {number} */ i) => t("guide.seat", { wind: windName(i), n: i + 1 });
  return h("div", { class: "guide-tiles winning-hand", role: "group", "aria-label": t("guide.example.winner") },
    h("span", { class: "concealed" }, rest.map((x) => tileEl(x, { classes: wild.includes(x) ? ["wild"] : [] }))),
    win ? [h("span", { class: "drawn-gap" }), tileEl(win, { classes: ["winning"] })] : null,
    meldsEl(/** @type {any} */ (player), n, nameOf, false, true),
    s.flowers ? flowersEl(parseTiles(s.flowers)) : null);
}

/**
 * The worked example: the winner's items and totals as the engine scored them, the sentence that works it
 * out, and what each seat won or lost.
 * @param {string} key @param {{situation: any, result: any}} example @param {any} v
 */
function exampleEl(key, example, v) {
  const { situation, result } = example;
  const winner = situation.winners[0];
  const seatName = (/** @type {number} */ i) => t("guide.seat", { wind: windName(seatWind(key, situation, i, v.seats)), n: i + 1 });
  const mine = result.seats.find((/** @type {any} */ s) => s.seat === winner);
  return h("section", { class: "guide-example" },
    h("h3", null, t("guide.example")),
    h("table", { class: "items" }, h("tbody", null, (mine?.items ?? []).map((/** @type {any} */ it) => h("tr", { "data-key": it.key },
      h("th", { scope: "row" }, localName(it.names, it.key)),
      h("td", { class: "num" }, amount(it.value, it.unit))))),
    h("tfoot", null, Object.entries(mine?.totals ?? {}).map(([k, val]) => h("tr", { class: "total" },
      h("th", { scope: "row" }, has(`total.${k}`) ? t(`total.${k}`) : k), h("td", { class: "num" }, formatNumber(Number(val))))))),
    h("p", { class: "guide-example-text" }, t(`guide.${key}.example_text`)),
    h("h4", null, t("guide.example.pays")),
    h("ul", { class: "guide-net" }, (result.net ?? []).map((/** @type {number} */ x, /** @type {number} */ i) =>
      h("li", { class: [x > 0 && "up", x < 0 && "down"] }, `${seatName(i)}: ${x > 0 ? "+" : ""}${formatNumber(x)}`))));
}

/**
 * A seat's wind in a situation: 台灣 counts from 開門 (隨開門); 天台 seats are 東 南 北; else from the dealer.
 * @param {string} key @param {any} situation @param {number} seat @param {number} n
 */
function seatWind(key, situation, seat, n) {
  if (key === "taiwan") return (seat - situation.open_seat + 4) % 4;
  const rel = (seat - situation.dealer + n) % n;
  return key === "tiantai" && rel === 2 ? 3 : rel;
}
