// @ts-check
/**
 * The REST API (app/api): accounts, rooms, tables.  Every failure becomes an `ApiError` carrying the
 * server's stable `code` and `params` (rendered in the player's language by i18n.errorWords) and, for logs
 * and the English UI, its English `detail`.
 */

/**
 * The login is an HttpOnly session cookie (app/api/cookie_session.py): the server sets it at login and clears
 * it at logout; no script reads it, and every tab of this browser shares it (a new tab, the table's 規則 tab
 * and the next browser run are logged in).  Whether we are logged in is what `GET /api/me` says.  Every
 * request carries `X-Requested-With` (CSRF_HEADER): a change the cookie authenticates is refused without it
 * (403 csrf_refused), which no other site's form can send.  Sockets authenticate with a single-use ticket
 * (`socketUrl`), never a token in a URL.
 */
export const CSRF_HEADER = "X-Requested-With";
// Tokens used to be kept in sessionStorage (and before that localStorage): forget any left there.
try { sessionStorage.removeItem("mj.token"); localStorage.removeItem("mj.token"); } catch { /* storage disabled */ }

export class ApiError extends Error {
  /**
   * @param {number} status 0 when the server could not be reached
   * @param {string} message the server's English detail (or the network error)
   * @param {string | null} [code] the server's stable error code, e.g. "room_entry_coins"
   * @param {Record<string, any> | null} [params] the values the message is built from
   */
  constructor(status, message, code = null, params = null) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.params = params;
  }
}

/**
 * FastAPI errors: {"detail": "text"} or {"detail": [{"loc": [...], "msg": "..."}]}.
 * @param {any} body @param {string} fallback
 */
export function errorText(body, fallback) {
  const detail = body?.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((d) => {
        const loc = (d.loc ?? []).filter((/** @type {any} */ x) => x !== "body").join(".");
        return loc ? `${loc}: ${d.msg}` : d.msg;
      })
      .join("; ");
  }
  return fallback;
}

/**
 * @param {string} path @param {{method?: string, body?: any}} [options]
 * @returns {Promise<any>}
 */
export async function request(path, { method = "GET", body } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", [CSRF_HEADER]: "mahjong" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, `network error: ${/** @type {Error} */ (err).message}`);
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const code = typeof data?.code === "string" ? data.code : null;
    throw new ApiError(response.status, errorText(data, `${response.status} ${response.statusText}`), code, data?.params ?? null);
  }
  return data;
}

export const api = {
  /** @param {string} username @param {string} password */
  register: (username, password) => request("/api/auth/register", { method: "POST", body: { username, password } }),
  /** @param {string} username @param {string} password */
  login: (username, password) => request("/api/auth/login", { method: "POST", body: { username, password } }),
  /** End this session on the server (its sockets close with 4401). */
  logout: () => request("/api/auth/logout", { method: "POST" }),
  me: () => request("/api/me"),
  /** Your live sessions (`current` marks this one). */
  sessions: () => request("/api/me/sessions"),
  /** @param {string} id */
  endSession: (id) => request(`/api/me/sessions/${encodeURIComponent(id)}`, { method: "DELETE" }),
  /** Remember the client language on the account. @param {string | null} language */
  setLanguage: (language) => request("/api/me", { method: "PATCH", body: { language } }),
  ledger: () => request("/api/me/ledger"),
  rooms: () => request("/api/rooms"),
  accountRules: () => request("/api/auth/rules"),
  myHands: () => request("/api/me/hands"),
  myStats: () => request("/api/me/stats"),
  /** Your finished games' final standings, newest first. @param {number} limit */
  myGames: (limit) => request(`/api/me/games?limit=${limit}`),
  /** One finished game's final standings (`game_over.game_id`). @param {string} id */
  game: (id) => request(`/api/games/${encodeURIComponent(id)}`),
  /** @param {number} id */
  handReplay: (id) => request(`/api/hands/${encodeURIComponent(String(id))}/replay`),
  /** @param {"week" | "all"} period */
  leaderboard: (period) => request(`/api/leaderboard?period=${period}`),
  variants: () => request("/api/variants"),
  /** @param {string} room */
  tables: (room) => request(`/api/rooms/${encodeURIComponent(room)}/tables`),
  /** @param {string} id */
  table: (id) => request(`/api/tables/${encodeURIComponent(id)}`),
  /** @param {string} room @param {string} variant @param {Record<string, any>} [options] */
  createTable: (room, variant, options = {}) =>
    request(`/api/rooms/${encodeURIComponent(room)}/tables`, { method: "POST", body: { variant, options } }),
  /** @param {string} id @param {number | null} [seat] */
  sit: (id, seat = null) =>
    request(`/api/tables/${encodeURIComponent(id)}/sit`, { method: "POST", body: seat === null ? {} : { seat } }),
  /** The creator seats bots in the empty seats (they hold no coins). @param {string} id */
  fillWithBots: (id) => request(`/api/tables/${encodeURIComponent(id)}/bots`, { method: "POST" }),
  /** @param {string} id */
  stand: (id) => request(`/api/tables/${encodeURIComponent(id)}/stand`, { method: "POST" }),
  /** @param {string} variant @param {Record<string, any>} [options] @param {Record<string, any>} [extra] e.g. {bot_speed} */
  practice: (variant, options = {}, extra = {}) => request("/api/practice", { method: "POST", body: { variant, options, ...extra } }),
  /** @param {number} id */
  hand: (id) => request(`/api/hands/${id}`),
  /**
   * Quick play (快速開始): wait in the room's pool for a table of `variant` ("play again" after a game uses
   * this too), `rounds` 圈 per game (1 東風戰, the server's default, or 4 全莊).  202 {queued, room, variant,
   * rounds, since}; the lobby socket then pushes {type: "matched", table_id}.
   * @param {string} room @param {string} variant @param {number} [rounds]
   */
  queue: (room, variant, rounds) => request(`/api/rooms/${encodeURIComponent(room)}/queue`, { method: "POST", body: rounds ? { variant, rounds } : { variant } }),
  /** Leave the room's quick-play queue (idempotent): {queued: false}. @param {string} room */
  leaveQueue: (room) => request(`/api/rooms/${encodeURIComponent(room)}/queue`, { method: "DELETE" }),
  /** {queued, room, variant, rounds, since, table_id}: table_id is set once matched. */
  myQueue: () => request("/api/me/queue"),
};

/**
 * ws:// or wss:// URL for a path on this server, with a fresh single-use ticket (POST /api/ws-ticket, valid
 * for seconds): the session token never goes into a URL, where access logs and proxies would keep it.
 * A table's socket names its table: the ticket's answer then names the server process that owns the table
 * (`node`), and `&node=` lets the proxy route the socket straight to it instead of relaying it.
 * @param {string} path @param {string} [table] @returns {Promise<string>}
 */
export async function socketUrl(path, table) {
  const url = new URL(path, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const ask = table ? `/api/ws-ticket?table=${encodeURIComponent(table)}` : "/api/ws-ticket";
  const { ticket, node } = await request(ask, { method: "POST" }); // the session cookie pays for it
  url.searchParams.set("ticket", ticket);
  if (node) url.searchParams.set("node", node);
  return url.href;
}
