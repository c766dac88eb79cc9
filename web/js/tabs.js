// @ts-check
/**
 * What the tabs of one browser tell each other: a login or a logout (BroadcastChannel "mj.auth").  They share
 * one session cookie, so a login in one tab is a login in all of them and a logout ends them all: each tab
 * hears it at once instead of finding out at its next request.  A browser without BroadcastChannel still
 * works; its other tabs learn at their next request (401) or socket close (4401).
 */

/**
 * @typedef {{type: "login", userId: number} | {type: "logout"}} TabNews
 */

const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("mj.auth") : null;

/** Tell the other tabs of this browser (a tab never hears its own news). @param {TabNews} news */
export function tellOtherTabs(news) {
  channel?.postMessage(news);
}

/** Hear what the other tabs say. @param {(news: TabNews) => void} listener */
export function onOtherTabs(listener) {
  channel?.addEventListener("message", (e) => {
    const news = /** @type {MessageEvent} */ (e).data;
    if (news?.type === "logout" || (news?.type === "login" && typeof news.userId === "number")) listener(news);
  });
}
