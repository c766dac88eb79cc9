// @ts-check
/**
 * The table (note §5c): a CSS grid with your seat at the bottom and the others around it, each side's
 * hand on the outer ring, its discards between hand and centre, and the info box in the middle.
 * Other seats are drawn as if they sat at the bottom and then turned (CSS) to face the centre.
 */

import { hintsEl } from "./hints.js";
import { h } from "./dom.js";
import { tileEl } from "./tile.js";
import { flowersEl, meldsEl } from "./melds.js";
import { actionBarEl, timerEl } from "./actions.js";
import { seatDrawWinds } from "../seat_draw.js";
import { seatPosition, sideOf, seatsFrom } from "../seats.js";
import { handForDisplay } from "../state.js";
import { formatNumber, lang, t } from "../i18n.js";
import { tileName, windName } from "../tiles.js";


/**
 * @typedef {{selected: number | null, mode: import("./actions.js").Mode, oneClick: boolean, fairness?: boolean,
 *   fresh?: "discard" | "draw" | null, freshMeld?: number | null}} TableUi  (fresh: this render follows a discard, so the
 *   new tile animates in; freshMeld: the seat that just claimed, whose newest meld animates in)
 * @typedef {{onTile: (tile: string, index: number) => void, onFairness?: () => void, onAuto?: () => void}
 *   & import("./actions.js").ActionHandlers} TableHandlers
 */

/** @param {import("../state.js").TableState} state @returns {(seat: number) => string} */
export function namer(state) {
  return (seat) => {
    const info = state.table?.seats[seat];
    if (!info) return `#${seat + 1}`;
    if (info.username) return info.username;
    return `${t("table.bot")} ${seat + 1}`;
  };
}

/**
 * @param {import("../state.js").TableState} state
 * @param {import("../state.js").Offer} offer
 * @param {TableUi} ui @param {TableHandlers} handlers
 */
export function tableEl(state, offer, ui, handlers) {
  const view = state.view;
  const table = state.table;
  const n = view?.n_seats ?? table?.seats.length ?? 4;
  const me = table?.seat ?? view?.seat ?? 0;
  const nameOf = namer(state);
  const root = h("div", {
    class: ["table", `n${n}`, view ? `phase-${view.phase}` : "no-hand"],
    "data-variant": table?.variant ?? view?.variant ?? "",
    style: { "--river-cols": String(table?.discard_row ?? 6) },
  });
  for (const seat of seatsFrom(me, n)) {
    const side = sideOf(seat, me, n);
    if (side !== "bottom") root.append(otherHandEl(state, seat, side, nameOf, ui));
    root.append(riverEl(state, seat, side, nameOf, ui.fresh === "discard"));
  }
  root.append(centreEl(state, me, n, nameOf, handlers));
  if (ui.fairness && state.commitment) root.append(fairnessEl(state.commitment, handlers));
  root.append(myAreaEl(state, offer, ui, handlers, me, n, nameOf));
  return root;
}

/**
 * @param {import("../state.js").TableState} state @param {number} seat @param {string} side
 * @param {(seat: number) => string} nameOf @param {TableUi} ui
 */
function otherHandEl(state, seat, side, nameOf, ui) {
  const view = state.view;
  const p = view?.players[seat];
  const n = view?.n_seats ?? 4;
  const wild = view?.wildcards ?? [];
  /** @type {any[]} */
  let concealed = [];
  if (p) {
    if (p.concealed) {
      concealed = p.concealed.map((x) => tileEl(x, { classes: wild.includes(x) ? ["wild"] : [] }));
    } else {
      const count = p.concealed_count;
      const apart = p.just_drew && count > 0 ? 1 : 0;
      concealed = Array.from({ length: count - apart }, () => tileEl(null));
      if (apart) concealed.push(h("span", { class: "drawn-gap" }), tileEl(null, { classes: ["drawn"] }));
    }
    if (p.split_tile) concealed.push(h("span", { class: "drawn-gap" }), tileEl(p.split_tile === "?" ? null : p.split_tile, { classes: ["split"] }));
  }
  return h("section", {
    class: ["area", "hand-area", `side-${side}`, view?.current === seat && view.phase !== "ended" && "current"],
    "aria-label": t("table.hand_of", { name: nameOf(seat) }),
    "data-seat": String(seat),
  }, h("div", { class: "panel" },
    h("div", { class: "hand-row" },
      h("span", { class: "concealed", role: "group", "aria-label": t("table.concealed") }, concealed),
      p ? meldsEl(p, n, nameOf, ui.freshMeld === seat) : null)));
}

/**
 * @param {import("../state.js").TableState} state @param {number} seat @param {string} side
 * @param {(seat: number) => string} nameOf @param {boolean} [fresh] the last discard just landed: animate it
 */
function riverEl(state, seat, side, nameOf, fresh = false) {
  const view = state.view;
  const p = view?.players[seat];
  const last = view?.last_discard;
  const tiles = (p?.river ?? []).map((x, i, all) => {
    const isLast = !!last && last.seat === seat && i === all.length - 1 && last.tile === x;
    return tileEl(x, {
      classes: isLast ? (fresh ? ["last", "fresh"] : ["last"]) : [],
      label: isLast ? `${tileName(x)} (${t("table.last_discard")})` : undefined,
    });
  });
  return h("section", {
    class: ["area", "river-area", `side-${side}`],
    "aria-label": t("table.river_of", { name: nameOf(seat) }),
    "data-seat": String(seat),
  }, h("div", { class: "panel" }, h("div", { class: "river" }, tiles)));
}

/**
 * @param {import("../state.js").TableState} state @param {number} me @param {number} n
 * @param {(seat: number) => string} nameOf @param {TableHandlers} handlers
 */
function centreEl(state, me, n, nameOf, handlers) {
  const view = state.view;
  const table = state.table;
  const plates = seatsFrom(me, n).map((seat) => plateEl(state, seat, sideOf(seat, me, n), nameOf));
  const roundWind = view?.round_wind ?? table?.round_wind ?? 0;
  const dealer = view?.dealer ?? table?.dealer ?? 0;
  const streak = view?.dealer_streak ?? table?.dealer_streak ?? 0;
  const handNo = table?.hand_no ?? state.hand_no;
  const windWord = windName(roundWind);
  const core = h("div", { class: "core" },
    h("div", { class: "round" },
      h("span", { class: "round-wind", "aria-label": t("table.round", { wind: windWord }) }, windGlyph(roundWind)),
      h("span", { class: "hand-no" }, t("table.hand", { n: handNo }))),
    view ? h("div", { class: "wall", "data-wall": String(view.wall_remaining) }, t("table.wall", { n: view.wall_remaining })) : null,
    h("div", { class: "dealer-line" }, `${t("table.dealer")}: ${nameOf(dealer)}`, streak > 0 ? ` · ${t("table.streak", { n: streak })}` : ""),
    diceEl(view, nameOf),
    view && view.wildcards.length ? h("div", { class: "wildcards", role: "group", "aria-label": t("table.wildcards") },
      h("span", { class: "label" }, t("table.wildcards")), view.wildcards.map((x) => tileEl(x, { classes: ["wild"] }))) : null,
    view && view.indicators.length && view.indicators.join() !== view.wildcards.join() ? h("div", { class: "indicators" },
      h("span", { class: "label" }, t("table.indicators")), view.indicators.map((x) => tileEl(x))) : null,
    noticeEl(state, nameOf),
    state.commitment ? h("button", {
      type: "button", class: "info-button fairness-button", "aria-label": t("table.fairness.label"),
      title: t("table.fairness.label"), onclick: () => handlers.onFairness?.(),
    }, "i") : null,
    !view && !state.result ? h("div", { class: "waiting" }, state.hand_no ? t("table.waiting_hand") : t("table.waiting_players")) : null,
  );
  return h("div", { class: "centre" }, plates, core);
}

/**
 * 台灣 隨開門 (issue 26 item 10): the dice thrown at the deal and the seat they opened, which is 東 this hand,
 * so a player sees why the seat winds moved.
 * @param {import("../state.js").View | null} view @param {(seat: number) => string} nameOf
 */
function diceEl(view, nameOf) {
  if (!view || view.variant !== "taiwan" || view.open_seat === null || !view.dice.length) return null;
  const total = view.dice.reduce((a, b) => a + b, 0);
  return h("div", { class: "dice-line", "data-open-seat": String(view.open_seat), title: t("table.open_seat.help") },
    h("span", { class: "dice", "aria-label": t("table.dice", { dice: view.dice.join(" + "), total: String(total) }) },
      view.dice.map((d) => h("span", { class: "die", "data-pips": String(d) }, DIE_FACES[d - 1] ?? String(d)))),
    h("span", { class: "open-line" }, t("table.open_seat.line", {
      total: String(total), name: nameOf(view.open_seat),
      // where the door opens, counted from the dealer's seat (東 南 西 北), and the seat winds it gives
      pos: windName(((view.open_seat - view.dealer) % view.n_seats + view.n_seats) % view.n_seats),
      winds: view.players.map((p, seat) => `${nameOf(seat)} ${windName(p.wind)}`).join(" · "),
    })));
}

const DIE_FACES = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

/** @param {import("../state.js").TableState} state @param {(seat: number) => string} nameOf */
function noticeEl(state, nameOf) {
  const n = state.notice;
  if (!n || !state.view || state.view.phase === "ended") return null;
  if (n.type === "kong_attempt" && state.view.phase === "rob") {
    return h("div", { class: "notice", role: "status" }, t("table.kong_attempt", { name: nameOf(n.seat ?? 0), tile: tileName(n.tile ?? "1m") }));
  }
  if (n.type === "split_deal" && state.view.phase === "split") return h("div", { class: "notice", role: "status" }, t("table.split_deal"));
  if (n.type === "first_dealer") return seatDrawEl(state, n.seat ?? 0, nameOf);
  return null;
}

/**
 * The seat draw that chose the game's first dealer (F-1): each seat's wind tile, 東 to the first dealer.
 * @param {import("../state.js").TableState} state @param {number} first @param {(seat: number) => string} nameOf
 */
function seatDrawEl(state, first, nameOf) {
  const n = state.table?.seats.length ?? state.view?.players.length ?? 4;
  const winds = seatDrawWinds(first, n);
  return h("div", { class: "notice seat-draw", role: "status", "data-first-dealer": String(first) },
    h("span", null, t("table.seat_draw")),
    winds.map((wind, seat) => h("span", { class: ["seat-draw-tile", seat === first && "dealer"] }, `${nameOf(seat)} ${windGlyph(wind)}`)),
    h("span", null, t("table.seat_draw.dealer", { name: nameOf(first) })));
}

/** The one-character wind on the table: 东 / 東, and E S W N in English (no Chinese in the English UI). @param {number} wind */
function windGlyph(wind) {
  return lang() === "en" ? windName(wind).charAt(0) : windName(wind);
}

/**
 * A seat's name plate in the centre box: wind, name, dealer, connection, declaration.
 * @param {import("../state.js").TableState} state @param {number} seat @param {string} side
 * @param {(seat: number) => string} nameOf
 */
function plateEl(state, seat, side, nameOf) {
  const view = state.view;
  const info = state.table?.seats[seat];
  const p = view?.players[seat];
  const dealer = (view?.dealer ?? state.table?.dealer) === seat;
  const wind = p?.wind;
  const me = state.table?.seat === seat && !state.table?.onlooker; // a replay opened by someone not at the hand
  // A bot's name already says 電腦; the badge is for a person who is away or on 托管.
  const status = info?.bot ? null : info && !info.connected ? t("table.offline") : info?.auto_play ? t("table.auto") : null;
  const decl = p?.declaration ? t(`decl.${p.declaration}`) : null;
  const streak = view?.dealer_streak ?? state.table?.dealer_streak ?? 0;
  const opens = view?.open_seat === seat && view.variant === "taiwan"; // 台灣 隨開門: this seat is 東
  return h("div", {
    class: ["plate", `side-${side}`, dealer && "dealer", view?.current === seat && view.phase !== "ended" && "current", me && "me"],
    "data-seat": String(seat),
    "data-seat-pos": seatPosition(/** @type {import("../seats.js").Side} */ (side)),
    "data-presence": info?.bot ? "bot" : info && !info.connected ? "offline" : "online",
  },
  wind !== undefined ? h("span", { class: "seat-wind", title: lang() === "en" ? windName(wind) : undefined }, windGlyph(wind)) : null,
  h("span", { class: "plate-main" },
    h("span", { class: "plate-line" },
      h("span", { class: "name" }, nameOf(seat), me ? ` (${t("table.you")})` : ""),
      dealer ? h("span", { class: "badge dealer-badge", title: t("table.dealer") }, t("table.dealer.badge"), streak > 0 ? `×${streak}` : "") : null,
      opens ? h("span", { class: "badge open-badge", title: t("table.open_seat.help") }, t("table.open_seat")) : null,
      decl ? h("span", { class: "badge decl" }, decl) : null,
      status ? h("span", { class: "badge status" }, status) : null),
    scoreEl(state, seat),
    // Another seat's flowers upright on its plate, big enough to read (not tiny tiles turned with its hand).
    side !== "bottom" && p?.flowers.length ? h("span", { class: "plate-flowers" }, flowersEl(p.flowers, view?.wildcards ?? [])) : null));
}

/** A signed number: +1,200 / −300 / 0. @param {number} n */
export function signed(n) {
  return n > 0 ? `+${formatNumber(n)}` : n < 0 ? `−${formatNumber(-n)}` : "0";
}

/**
 * A plate's running total for this game: points, and coins at coin tables (issue 26 item 2).
 * @param {import("../state.js").TableState} state @param {number} seat
 */
function scoreEl(state, seat) {
  const table = state.table;
  if (!table?.game_points) return null;
  const points = table.game_points[seat] ?? 0;
  const coins = table.game_coins?.[seat] ?? 0;
  const coinTable = !table.practice && table.coins_per_point !== null;
  return h("span", { class: "plate-score", "data-points": String(points), "data-coins": String(coins) },
    h("span", { class: ["points", points > 0 && "up", points < 0 && "down"], title: t("plate.points.help") },
      t("plate.points", { n: signed(points) })),
    coinTable ? h("span", { class: ["coins", coins > 0 && "up", coins < 0 && "down"], title: t("plate.coins.help") },
      t("plate.coins", { n: signed(coins) })) : null);
}

/**
 * Your seat: flowers, concealed tiles (sorted, the drawn tile apart), melds; the action bar and timer.
 * @param {import("../state.js").TableState} state @param {import("../state.js").Offer} offer
 * @param {TableUi} ui @param {TableHandlers} handlers @param {number} me @param {number} n
 * @param {(seat: number) => string} nameOf
 */
function myAreaEl(state, offer, ui, handlers, me, n, nameOf) {
  const view = state.view;
  const p = view?.players[me];
  const { tiles, drawn } = handForDisplay(p);
  const mode = ui.mode;
  /** @type {Map<string, any> | null} */
  const playable = mode?.type === "declare" ? offer.declares.get(mode.declare) ?? new Map() : offer.discards;
  const turn = !!state.prompt && (offer.discards.size > 0 || offer.declares.size > 0);
  const all = drawn ? [...tiles, drawn] : tiles;
  const wild = view?.wildcards ?? [];
  const tileButtons = all.map((x, i) => {
    const can = turn && playable.has(x);
    return tileEl(x, {
      button: true,
      selected: ui.selected === i,
      dim: turn && !can,
      disabled: !can,
      classes: [i === tiles.length && drawn ? "drawn" : "", i === tiles.length && drawn && ui.fresh === "draw" ? "fresh-draw" : "", wild.includes(x) ? "wild" : "", can && mode?.type === "declare" ? "declarable" : ""].filter(Boolean),
      data: { index: String(i) },
      onclick: () => handlers.onTile(x, i),
    });
  });
  if (drawn) tileButtons.splice(tiles.length, 0, h("span", { class: "drawn-gap" }));
  const autoPlay = !!state.table?.seats[me]?.auto_play;
  const showBar = !!state.prompt || autoPlay;
  return h("section", { class: ["area", "my-area", view?.current === me && view?.phase !== "ended" && "current"], "aria-label": t("table.hand_of", { name: nameOf(me) }), "data-seat": String(me) },
    showBar ? h("div", { class: "action-dock" },
      state.prompt ? timerEl() : null,
      actionBarEl({ offer, mode, promptKind: state.prompt?.kind ?? null, autoPlay, myTurnHint: turn }, handlers)) : null,
    hintsEl(state, ui.selected !== null && ui.selected !== undefined ? all[ui.selected] ?? null : null),
    // 托管 by hand (the action bar's "I'm back" takes over again); not in a replay, not once the hand is over.
    handlers.onAuto && view && view.phase !== "ended" && !autoPlay ? h("button", {
      type: "button", class: "ghost auto-toggle", title: t("table.auto_on.help"), onclick: handlers.onAuto,
    }, t("table.auto_on.button")) : null,
    h("div", { class: "my-row" },
      p ? flowersEl(p.flowers, wild) : null,
      // tabindex: a phone's hand scrolls sideways, and the keyboard must reach that too (its tiles may all be off)
      h("div", { class: ["my-hand", turn && "my-turn"], role: "group", "aria-label": t("table.concealed"), tabindex: "0" }, tileButtons,
        p?.split_tile ? [h("span", { class: "drawn-gap" }), tileEl(p.split_tile, { classes: ["split"] })] : null),
      p ? meldsEl(p, n, nameOf, ui.freshMeld === me) : null));
}

/**
 * The fairness note behind the centre's info button: one sentence and the wall commitment (a hash of the
 * shuffle, published before the deal; the seed revealed at the end must hash to it).
 * @param {string} commitment @param {TableHandlers} handlers
 */
function fairnessEl(commitment, handlers) {
  return h("div", { class: "fairness-note", role: "dialog", "aria-label": t("table.commitment") },
    h("p", null, t("table.fairness.text")),
    h("p", { class: "commitment" }, h("span", { class: "label" }, `${t("table.commitment")}: `),
      h("code", null, commitment)),
    h("button", { type: "button", class: "ghost close", onclick: () => handlers.onFairness?.() }, t("result.close")));
}
