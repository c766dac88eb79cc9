// @ts-check
/**
 * The hints strip above your hand: your waits (聽) while ready, with the copies you have not seen; with a
 * tile selected on your turn, the waits that discard would leave; on practice tables, the suggested play.
 * Everything shown comes from the server (`hints` messages and `prompt.hints`, docs/protocol.md), which
 * computes it from your own view only; the client adds no rules.
 */

import { h } from "./dom.js";
import { tileEl } from "./tile.js";
import { t } from "../i18n.js";
import { tileName } from "../tiles.js";

/** @typedef {{tile: string, unseen: number}} Wait */

/** @param {Wait[]} waits */
function waitsEl(waits) {
  return waits.map((w) => h("span", { class: "hint-wait", "data-tile": w.tile },
    tileEl(w.tile, { classes: ["hint-tile"] }),
    h("span", { class: "hint-count", title: t("hints.unseen_title") }, t("hints.unseen", { n: String(w.unseen) }))));
}

/**
 * @param {import("../state.js").TableState} state
 * @param {string | null} selected the tile code selected (lifted) in your hand, if any
 */
export function hintsEl(state, selected) {
  const hints = state.prompt?.kind === "turn" ? state.prompt.hints ?? null : null;
  /** @type {any[]} */
  const parts = [];
  if (hints && selected) {
    const found = (hints.discard_waits ?? []).find((/** @type {{tile: string}} */ d) => d.tile === selected);
    parts.push(h("span", { class: "hint-label" }, t("hints.after_discard", { tile: tileName(selected) })));
    parts.push(found ? waitsEl(found.waits) : h("span", { class: "hint-none" }, t("hints.not_ready")));
  } else if (state.waits && state.waits.length) {
    parts.push(h("span", { class: "hint-label" }, t("hints.waits")), waitsEl(state.waits));
  } else if (hints && (hints.discard_waits ?? []).length) {
    parts.push(h("span", { class: "hint-label" }, t("hints.can_be_ready",
      { n: String(hints.discard_waits.length) })));
  }
  const suggestion = hints?.suggestion;
  if (suggestion) {
    const what = suggestion.kind === "discard" ? t("hints.suggest_discard", { tile: tileName(suggestion.tile) })
      : t(`hints.suggest_${suggestion.kind}`);
    parts.push(h("span", { class: "hint-suggest" }, what,
      suggestion.kind === "discard" ? tileEl(suggestion.tile, { classes: ["hint-tile"] }) : null));
  }
  if (!parts.length) return null;
  return h("div", { class: "hints", role: "status", "aria-live": "polite" }, parts);
}
