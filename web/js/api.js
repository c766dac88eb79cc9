// @ts-check
/**
 * The REST API (app/api): accounts, rooms, tables.  Every failure becomes an `ApiError` carrying the
 * server's stable `code` and `params` (rendered in the player's language by i18n.errorWords) and, for logs
 * and the English UI, its English `detail`.
 */

const TOKEN_KEY = "mj.token";

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

export function getToken() {
  try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
}

/** @param {string | null} token */
export function setToken(token) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch { /* private mode: the session lasts until reload */ }
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
 * @param {string} path @param {{method?: string, body?: any, auth?: boolean}} [options]
 * @returns {Promise<any>}
 */
export async function request(path, { method = "GET", body, auth = true } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const token = getToken();
  if (auth && token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
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
  register: (username, password) => request("/api/auth/register", { method: "POST", body: { username, password }, auth: false }),
  /** @param {string} username @param {string} password */
  login: (username, password) => request("/api/auth/login", { method: "POST", body: { username, password }, auth: false }),
  me: () => request("/api/me"),
  /** Remember the client language on the account. @param {string | null} language */
  setLanguage: (language) => request("/api/me", { method: "PATCH", body: { language } }),
  ledger: () => request("/api/me/ledger"),
  rooms: () => request("/api/rooms", { auth: false }),
  accountRules: () => request("/api/auth/rules", { auth: false }),
  myHands: () => request("/api/me/hands"),
  myStats: () => request("/api/me/stats"),
  /** @param {number} id */
  handReplay: (id) => request(`/api/hands/${encodeURIComponent(String(id))}/replay`),
  /** @param {"week" | "all"} period */
  leaderboard: (period) => request(`/api/leaderboard?period=${period}`, { auth: false }),
  variants: () => request("/api/variants", { auth: false }),
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
   * this too).  202 {queued, room, variant, since}; the lobby socket then pushes {type: "matched", table_id}.
   * @param {string} room @param {string} variant
   */
  queue: (room, variant) => request(`/api/rooms/${encodeURIComponent(room)}/queue`, { method: "POST", body: { variant } }),
  /** Leave the room's quick-play queue (idempotent): {queued: false}. @param {string} room */
  leaveQueue: (room) => request(`/api/rooms/${encodeURIComponent(room)}/queue`, { method: "DELETE" }),
  /** {queued, room, variant, since, table_id}: table_id is set once matched. */
  myQueue: () => request("/api/me/queue"),
};

/** ws:// or wss:// URL for a path on this server. @param {string} path */
export function socketUrl(path) {
  const url = new URL(path, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const token = getToken();
  if (token) url.searchParams.set("token", token);
  return url.href;
}
