// @ts-check
/**
 * Table sounds: a knock for a discard, an arpeggio for a win, and the spoken calls 吃 / 碰 / 槓 / 聽 / 胡 / 自摸
 * that go with the call banners (render/calls.js; assets/sounds, self-made, see assets/tiles/LICENSES.md).
 * Muting is remembered per browser.
 */

const MUTE_KEY = "mj.mute";
const FILES = ["discard", "claim", "win", "call-chow", "call-pong", "call-kong", "call-hu", "call-ready", "call-zimo",
  "matched"];
/** Files that are not Ogg (made by web/tools/make_matched_sound.py with the standard library only). */
const EXTENSIONS = /** @type {Record<string, string>} */ ({ matched: "wav" });
/** @type {Map<string, HTMLAudioElement>} */
const cache = new Map();
/** What was played (for the browser tests and debugging): the last 50 names. @type {string[]} */
export const played = [];

export function isMuted() {
  try { return localStorage.getItem(MUTE_KEY) === "1"; } catch { return false; }
}

/** @param {boolean} muted */
export function setMuted(muted) {
  try { localStorage.setItem(MUTE_KEY, muted ? "1" : "0"); } catch { /* private mode: this page only */ }
}

/** Play one sound unless muted (a browser that refuses to play before a click just stays silent). @param {string} name */
export function play(name) {
  if (isMuted() || !FILES.includes(name)) return;
  played.push(name);
  if (played.length > 50) played.shift();
  let audio = cache.get(name);
  if (!audio) {
    audio = new Audio(new URL(`../assets/sounds/${name}.${EXTENSIONS[name] ?? "ogg"}`, import.meta.url).href);
    audio.preload = "auto";
    cache.set(name, audio);
  }
  audio.currentTime = 0;
  audio.play().catch(() => { /* autoplay refused or no audio device: silence is fine */ });
}

/** The sounds a table event makes besides its call's (render/calls.js). @param {any} ev an engine event */
export function soundsFor(ev) {
  return ev?.type === "discard" ? ["discard"] : [];
}
