// @ts-check
/**
 * Tile codes (the engine's notation, docs/rules/common.md#notation) → names, accessible labels, art and Unicode.
 * Pure: no DOM (names come from the i18n table).  `1m..9m` 萬, `1p..9p` 筒, `1s..9s` 條, `1z..7z` 東南西北中發白, `1f..8f` 春夏秋冬梅蘭菊竹.
 */

/** @typedef {string} TileCode  e.g. "5m", "7z", "3f" */

import { lang, t } from "./i18n.js";

const SUITS = "mpszf";
// Unicode Mahjong Tiles block: 萬 U+1F007.., 條 U+1F010.., 筒 U+1F019..; 東南西北 U+1F000..; 中發白 U+1F004..;
// plum orchid bamboo chrysanthemum U+1F022..25; spring summer autumn winter U+1F026..29; back U+1F02B.
const UNICODE_BASE = { m: 0x1f007, s: 0x1f010, p: 0x1f019, z: 0x1f000 };
const UNICODE_FLOWERS = [0x1f026, 0x1f027, 0x1f028, 0x1f029, 0x1f022, 0x1f023, 0x1f025, 0x1f024];

export const BACK = "back";
const ASSET_DIR = new URL("../assets/tiles/", import.meta.url);

/**
 * Split notation into single tiles: "345m" → ["3m","4m","5m"]; "12m 5z" → ["1m","2m","5z"].
 * Already-single codes pass through.  Anything else throws.
 * @param {string | string[] | null | undefined} text
 * @returns {TileCode[]}
 */
export function parseTiles(text) {
  if (!text) return [];
  if (Array.isArray(text)) return text.flatMap((t) => parseTiles(t));
  /** @type {TileCode[]} */
  const out = [];
  let digits = "";
  for (const ch of text.replace(/\s+/g, "")) {
    if (ch >= "0" && ch <= "9") digits += ch;
    else if (SUITS.includes(ch) && digits) {
      for (const d of digits) out.push(d + ch);
      digits = "";
    } else throw new Error(`bad tile notation: ${text}`);
  }
  if (digits) throw new Error(`bad tile notation: ${text}`);
  for (const t of out) if (!isTile(t)) throw new Error(`no such tile: ${t}`);
  return out;
}

/** @param {unknown} code */
export function isTile(code) {
  if (typeof code !== "string" || code.length !== 2) return false;
  const n = Number(code[0]);
  const max = { m: 9, p: 9, s: 9, z: 7, f: 8 }[code[1]];
  return max !== undefined && n >= 1 && n <= max;
}

/**
 * The engine's tile index 0..41 (m, p, s, z, f): the sort order of a hand.
 * @param {TileCode} code
 */
export function tileIndex(code) {
  const n = Number(code[0]) - 1;
  const base = { m: 0, p: 9, s: 18, z: 27, f: 34 }[code[1]];
  if (base === undefined || Number.isNaN(n)) throw new Error(`no such tile: ${code}`);
  return base + n;
}

/** @param {TileCode} a @param {TileCode} b */
export function compareTiles(a, b) {
  return tileIndex(a) - tileIndex(b);
}

/** A sorted copy. @param {TileCode[]} tiles */
export function sortTiles(tiles) {
  return [...tiles].sort(compareTiles);
}

/**
 * Remove one copy of each of `remove` from `tiles` (a copy; missing ones are ignored).
 * @param {TileCode[]} tiles @param {TileCode[]} remove
 */
export function withoutTiles(tiles, remove) {
  const out = [...tiles];
  for (const t of remove) {
    const i = out.indexOf(t);
    if (i >= 0) out.splice(i, 1);
  }
  return out;
}

/**
 * A tile's name in a language (the words are the `tile.*` rows of strings.json): 五万 / 五萬 / "5 Characters",
 * 东 / 東 / "East", 兰 / 蘭 / "Orchid".
 * @param {TileCode} code @param {import("./i18n.js").Lang} [language]
 */
export function tileName(code, language = lang()) {
  const n = code[0];
  const s = code[1];
  if (s === "z" || s === "f") return t(`tile.${s}.${n}`, {}, language);
  const num = t(`tile.num.${n}`, {}, language);
  const suit = t(`tile.suit.${s}`, {}, language);
  return language === "en" ? `${num} ${suit}` : num + suit;
}

/** 繁體 name: 五萬, 三筒, 九條, 東, 白, 春. @param {TileCode} code */
export function tileNameZh(code) {
  return tileName(code, "zh-Hant");
}

/** English name: "5 Characters", "East", "Plum". @param {TileCode} code */
export function tileNameEn(code) {
  return tileName(code, "en");
}

/**
 * The accessible name of a tile in the current language: "五万", "East"; a hidden tile is "牌背".  Never the
 * engine's code (players read names, issue 26 item 4; the element carries the code in `data-tile`).
 * @param {TileCode | null | undefined} code
 */
export function tileLabel(code) {
  if (!code || code === BACK) return t("tile.back");
  return tileName(code);
}

/**
 * Tiles in words for a sentence: "一万 二万 三万" / "1 Characters 2 Characters 3 Characters"; accepts a list or
 * the engine's compact string ("1m2m3m", "123m").
 * @param {string | string[]} tiles
 */
export function tilesInWords(tiles) {
  const list = Array.isArray(tiles) ? tiles : parseTiles(tiles);
  return list.map((x) => tileName(x)).join(lang() === "en" ? ", " : " ");
}

/** The Unicode character (text presentation forced for 中). @param {TileCode | null} code */
export function tileUnicode(code) {
  if (!code || code === BACK) return String.fromCodePoint(0x1f02b);
  const n = Number(code[0]);
  const s = code[1];
  const cp = s === "f" ? UNICODE_FLOWERS[n - 1] : UNICODE_BASE[/** @type {"m"|"p"|"s"|"z"} */ (s)] + n - 1;
  return String.fromCodePoint(cp) + (cp === 0x1f004 ? "\ufe0e" : "");
}

/** URL of the face art (drawn over front.svg), or of the back. @param {TileCode | null} code */
export function tileAsset(code) {
  return new URL(`${!code || code === BACK ? "back" : code}.svg`, ASSET_DIR).href;
}

export const FRONT_ASSET = new URL("front.svg", ASSET_DIR).href;

/** Wind index 0..3 → 东南西北 / 東南西北 / East… in a language. @param {number} wind @param {import("./i18n.js").Lang} [language] */
export function windName(wind, language = lang()) {
  return wind >= 0 && wind <= 3 ? t(`tile.z.${wind + 1}`, {}, language) : "?";
}

/** Every tile code of a suit letter, or all 42. @param {string} [suit] */
export function allTiles(suit) {
  const counts = { m: 9, p: 9, s: 9, z: 7, f: 8 };
  /** @type {TileCode[]} */
  const out = [];
  for (const s of suit ? [suit] : Object.keys(counts)) {
    for (let n = 1; n <= counts[/** @type {keyof typeof counts} */ (s)]; n++) out.push(`${n}${s}`);
  }
  return out;
}
