// @ts-check
/**
 * Notices to every player (公告: maintenance at 03:00, a tournament starting), shown as a banner under the top
 * bar in the player's language until each one ends.  They come from GET /api/notices when the page loads and
 * from the lobby and table sockets' `notice` messages (NoticeMessage in docs/protocol.md) as they start; a
 * `notice` whose `ends_at` has passed (an admin ended it early) takes its banner down.  The player may close a
 * banner for this page's life.
 *
 * The board (which notices show, in which words) is pure and tested in tests/web/notices.test.mjs; `bootNotices`
 * and `takeNotice` draw it in the page.
 */

import { request } from "./api.js";
import { lang, onLangChange, t } from "./i18n.js";

/**
 * @typedef {{zh_hans: string, zh_hant: string, en: string}} NoticeText
 * @typedef {{id: number, text: NoticeText, starts_at: string, ends_at: string}} Notice
 */

/** The notice's words in a client language ("zh-Hans", "zh-Hant", "en"). @param {{text: NoticeText}} notice @param {string} language */
export function noticeWords(notice, language) {
  if (language === "zh-Hans") return notice.text.zh_hans;
  if (language === "en") return notice.text.en;
  return notice.text.zh_hant;
}

/**
 * The notices showing at `now` (ms), the soonest to end first, without those closed by the player.
 * @param {Map<number, Notice>} board @param {number} now @param {Set<number>} [closed]
 * @returns {Notice[]}
 */
export function showing(board, now, closed = new Set()) {
  return [...board.values()]
    .filter((n) => Date.parse(n.starts_at) <= now && Date.parse(n.ends_at) > now && !closed.has(n.id))
    .sort((a, b) => Date.parse(a.ends_at) - Date.parse(b.ends_at) || a.id - b.id);
}

/**
 * Put a notice on the board: a new one, or a changed one (an early end) in place of the old; an ended one
 * comes off.  @param {Map<number, Notice>} board @param {Notice} notice @param {number} now
 */
export function pin(board, notice, now) {
  if (Date.parse(notice.ends_at) <= now) board.delete(notice.id);
  else board.set(notice.id, { id: notice.id, text: notice.text, starts_at: notice.starts_at, ends_at: notice.ends_at });
}

/** @type {Map<number, Notice>} */
const board = new Map();
/** @type {Set<number>} */
const closed = new Set();
/** @type {ReturnType<typeof setTimeout> | null} */
let nextChange = null;

function render() {
  const banner = document.getElementById("notice-banner");
  if (!banner) return;
  const now = Date.now();
  const list = showing(board, now, closed);
  banner.replaceChildren(...list.map((notice) => {
    const line = document.createElement("p");
    line.className = "notice";
    line.dataset.notice = String(notice.id);
    const words = document.createElement("span");
    words.textContent = noticeWords(notice, lang());
    const close = document.createElement("button");
    close.type = "button";
    close.className = "ghost notice-close";
    close.textContent = "×";
    close.setAttribute("aria-label", t("notice.close"));
    close.addEventListener("click", () => { closed.add(notice.id); render(); });
    line.append(words, close);
    return line;
  }));
  banner.hidden = list.length === 0;
  // Next redraw when a notice ends or a scheduled one starts (a socket message may come sooner).
  if (nextChange) clearTimeout(nextChange);
  const moments = [...board.values()].flatMap((n) => [Date.parse(n.starts_at), Date.parse(n.ends_at)]).filter((m) => m > now);
  if (moments.length) nextChange = setTimeout(render, Math.min(Math.min(...moments) - now + 50, 2 ** 31 - 1));
}

/** A socket's `notice` message. @param {Notice} notice */
export function takeNotice(notice) {
  pin(board, notice, Date.now());
  render();
}

/** Load the notices showing now and redraw them in each new language. */
export async function bootNotices() {
  onLangChange(render);
  try {
    const current = await request("/api/notices");
    for (const notice of current) pin(board, notice, Date.now());
  } catch { /* no banner is better than an error line about a banner */ }
  render();
}
