// Tile codes (web/js/tiles.js): notation, the engine's sort order, names in three languages, art, Unicode.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { setLang } from "../../web/js/i18n.js";
import {
  allTiles, compareTiles, isTile, parseTiles, sortTiles, tileAsset, tileIndex, tileLabel, tileName, tilesInWords,
  tileUnicode, windName, withoutTiles,
} from "../../web/js/tiles.js";

before(() => setLang("en", { remember: false }));

test("parseTiles splits the engine's compact notation", () => {
  assert.deepEqual(parseTiles("345m"), ["3m", "4m", "5m"]);
  assert.deepEqual(parseTiles("12m 5z"), ["1m", "2m", "5z"]);
  assert.deepEqual(parseTiles("1m2p3s"), ["1m", "2p", "3s"]);
  assert.deepEqual(parseTiles(["11p", "8f"]), ["1p", "1p", "8f"]);
  assert.deepEqual(parseTiles(""), []);
  assert.deepEqual(parseTiles(null), []);
});

test("parseTiles refuses what is not a tile", () => {
  assert.throws(() => parseTiles("8z"), /no such tile: 8z/);
  assert.throws(() => parseTiles("9f"), /no such tile: 9f/);
  assert.throws(() => parseTiles("0m"), /no such tile: 0m/);
  assert.throws(() => parseTiles("12"), /bad tile notation/);
  assert.throws(() => parseTiles("5x"), /bad tile notation/);
  assert.throws(() => parseTiles("m"), /bad tile notation/);
});

test("isTile knows each suit's range", () => {
  for (const code of ["1m", "9m", "9p", "9s", "7z", "8f"]) assert.ok(isTile(code), code);
  for (const code of ["0m", "8z", "9f", "5q", "55m", "", null, 5]) assert.ok(!isTile(code), String(code));
});

test("all 42 tiles, each once, in the engine's index order", () => {
  const tiles = allTiles();
  assert.equal(tiles.length, 42);
  assert.deepEqual(tiles.map(tileIndex), Array.from({ length: 42 }, (_, i) => i));
  assert.ok(tiles.every(isTile));
  assert.deepEqual(allTiles("z"), ["1z", "2z", "3z", "4z", "5z", "6z", "7z"]);
  assert.equal(allTiles("f").length, 8);
});

test("a hand sorts 萬 筒 條, then honours, then flowers, as the engine does", () => {
  const hand = ["1z", "9s", "3f", "1m", "5p", "2m", "5p"];
  assert.deepEqual(sortTiles(hand), ["1m", "2m", "5p", "5p", "9s", "1z", "3f"]);
  assert.deepEqual(hand, ["1z", "9s", "3f", "1m", "5p", "2m", "5p"], "sortTiles sorts a copy");
  assert.ok(compareTiles("9m", "1p") < 0);
  assert.ok(compareTiles("7z", "1f") < 0);
  assert.equal(compareTiles("4s", "4s"), 0);
  assert.throws(() => tileIndex("1x"), /no such tile/);
});

test("withoutTiles removes one copy per tile asked for and ignores the missing", () => {
  const hand = ["5m", "5m", "5m", "6p"];
  assert.deepEqual(withoutTiles(hand, ["5m", "5m"]), ["5m", "6p"]);
  assert.deepEqual(withoutTiles(hand, ["7z"]), hand);
  assert.deepEqual(hand, ["5m", "5m", "5m", "6p"], "withoutTiles works on a copy");
});

test("tile names in 简体, 繁體 and English", () => {
  assert.equal(tileName("5m", "zh-Hans"), "五万");
  assert.equal(tileName("5m", "zh-Hant"), "五萬");
  assert.equal(tileName("5m", "en"), "5 Characters");
  assert.equal(tileName("9s", "zh-Hant"), "九條");
  assert.equal(tileName("3p", "en"), "3 Dots");
  assert.equal(tileName("1z", "zh-Hans"), "东");
  assert.equal(tileName("1z", "en"), "East");
  assert.equal(tileName("6f", "zh-Hans"), "兰");
  assert.equal(tileName("6f", "zh-Hant"), "蘭");
  assert.equal(tileName("6f", "en"), "Orchid");
  assert.equal(tileName("5z"), "Red", "the current language (English here) by default");
});

test("every tile has a name in every language (no raw key shows through)", () => {
  for (const lang of /** @type {const} */ (["zh-Hans", "zh-Hant", "en"])) {
    for (const code of allTiles()) assert.doesNotMatch(tileName(code, lang), /tile\./, `${code} ${lang}`);
  }
});

test("labels and sentences use names, never codes", () => {
  assert.equal(tileLabel("7z"), "White");
  assert.equal(tileLabel(null), "back");
  assert.equal(tileLabel("back"), "back");
  assert.equal(tilesInWords("123m"), "1 Characters, 2 Characters, 3 Characters");
  assert.equal(tilesInWords(["1z", "1z"]), "East, East");
  setLang("zh-Hant", { remember: false });
  try {
    assert.equal(tilesInWords("123m"), "一萬 二萬 三萬");
    assert.equal(tileLabel(undefined), "牌背");
  } finally {
    setLang("en", { remember: false });
  }
});

test("wind names, and a question mark outside 東南西北", () => {
  assert.equal(windName(0, "en"), "East");
  assert.equal(windName(3, "zh-Hant"), "北");
  assert.equal(windName(4, "en"), "?");
  assert.equal(windName(-1, "en"), "?");
});

test("Unicode: each suit's block, 中 forced to text, flowers and the back", () => {
  const cp = (/** @type {string | null} */ code) => tileUnicode(code).codePointAt(0);
  assert.equal(cp("1m"), 0x1f007);
  assert.equal(cp("9m"), 0x1f00f);
  assert.equal(cp("1s"), 0x1f010);
  assert.equal(cp("1p"), 0x1f019);
  assert.equal(cp("1z"), 0x1f000);
  assert.equal(tileUnicode("5z"), "\u{1f004}\ufe0e");
  assert.equal(cp("1f"), 0x1f026, "spring");
  assert.equal(cp("5f"), 0x1f022, "plum");
  assert.equal(cp(null), 0x1f02b);
});

test("every tile's art, and the back, exist among the shipped assets", () => {
  for (const code of allTiles()) {
    const url = tileAsset(code);
    assert.match(url, new RegExp(`/assets/tiles/${code}\\.svg$`));
    assert.ok(existsSync(fileURLToPath(url)), `${code}: ${url}`);
  }
  assert.match(tileAsset(null), /\/back\.svg$/);
  assert.ok(existsSync(fileURLToPath(tileAsset("back"))));
});
