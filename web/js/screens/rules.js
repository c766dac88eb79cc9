// @ts-check
/**
 * The rules page of a variant (#/rules/VARIANT), generated from the server's scoring data (GET /api/variants):
 * every scoring item with its 台 / 胡, how items become points and coins, and the room's option values
 * (a table's own values when opened from that table, else the defaults).
 */

import { api } from "../api.js";
import { localName, t } from "../i18n.js";
import { h, setChildren } from "../render/dom.js";
import { $, showError, showView } from "../app.js";
import { itemHelp } from "../render/result.js";

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

/** @param {any} value @param {string} unit */
function amount(value, unit) {
  const u = unit === "hu" ? "胡" : "台";
  return Array.isArray(value) ? value.map((v) => `${v}`).join(" / ") + ` ${u}` : `${value} ${u}`;
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
    h("h2", null, t(`variant.${key}.long`), " · ", t("rules.title")),
    h("p", null, t("rules.seats", { n: v.seats }), " ", t(`result.pay_rule.${key}`)),
    h("h3", null, t("rules.items")),
    h("table", { class: "rules-items" },
      h("thead", null, h("tr", null, h("th", null, t("rules.item")), h("th", { class: "num" }, t("rules.value")), h("th", null, t("rules.explain")))),
      h("tbody", null, v.items.map((/** @type {any} */ i) => h("tr", { "data-key": i.key },
        h("th", { scope: "row" }, localName(i.names, i.key), h("span", { class: "en-name" }, localName(i.names) === i.names.en ? "" : ` ${i.names.en}`)),
        h("td", { class: "num" }, amount(values[i.key] ?? i.value, i.unit)),
        h("td", { class: "explain" }, itemHelp(key, i.key)))))),
    h("h3", null, t("rules.coins")),
    h("p", { class: "rules-coins" }, t("result.coin_rule", { coins: "100 / 300 / 600" }), " ", h("span", { class: "rules-bots" }, t("help.bots"))),
    h("h3", null, tableOptions ? t("rules.table_options") : t("rules.options")),
    h("table", { class: "rules-options" }, h("tbody", null, others.map(([k, o]) => h("tr", { "data-option": k },
      h("th", { scope: "row" }, h("code", null, k)), h("td", null, String(values[k])), h("td", { class: "doc" }, /** @type {any} */ (o).doc ?? "")))))));
}
