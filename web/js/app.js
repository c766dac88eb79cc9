// @ts-check
/**
 * The client's shared, UI-only state and the small helpers every screen uses (toasts, errors, which
 * view is shown). The table's game state itself lives in state.js (pure); the screens live in screens/.
 */

import { ApiError } from "./api.js";
import { initialState } from "./state.js";
import { errorWords, t } from "./i18n.js";
import { screens } from "./router.js";

export const TABLE_KEY = "mj.table";
export const ONE_CLICK_KEY = "mj.oneClick";

/** @param {string} id */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

export const app = {
  /** @type {any} */ me: null,
  /** @type {View} */ view: "auth",
  authMode: /** @type {"login" | "register"} */ ("login"),
  // lobby
  /** @type {any[]} */ rooms: [],
  /** @type {Map<string, any>} */ tables: new Map(),
  lobbyLive: false,
  /** @type {import("./net.js").ReconnectingSocket | null} */ lobbySocket: null,
  busy: false,
  /** @type {Record<string, string>} */ createVariant: {},
  /** @type {any} */ returnTable: null, // a running table of yours (e.g. practice, not in the lobby list)
  /** @type {import("./render/quickplay.js").QueueStatus | null} */ queue: null, // quick play: waiting now
  /** @type {Map<string, number>} */ queueSizes: new Map(), // "room:variant:rounds" -> players waiting
  /** @type {Map<string, number>} */ gameMinutes: new Map(), // "variant:rounds" -> a game's typical minutes
  // table
  /** @type {string | null} */ tableId: null,
  table: initialState(),
  /** @type {import("./net.js").ReconnectingSocket | null} */ tableSocket: null,
  /** @type {import("./render/table.js").TableUi} */
  ui: { selected: null, mode: null, oneClick: localStorage.getItem(ONE_CLICK_KEY) === "1" },
  /** @type {boolean | null} */ verified: null,
  /**
   * Every hand result of this table visit, with the table as it stood then (the view is cleared when
   * the next hand starts): the dialog shows one of them until dismissed, and any can be reopened.
   * @type {{msg: any, state: import("./state.js").TableState, verified: boolean | null}[]}
   */
  results: [],
  resultIndex: -1,
};

/** Show an error in words (never swallowed). @param {string} text @param {string} [kind] */
export function toast(text, kind = "error") {
  const el = document.createElement("div");
  el.className = `toast ${kind}`;
  el.setAttribute("role", kind === "error" ? "alert" : "status");
  el.textContent = text;
  el.addEventListener("click", () => el.remove());
  $("toasts").append(el);
  setTimeout(() => el.remove(), kind === "error" ? 8000 : 4000);
}

/**
 * An error in the player's language: a server error from its code and params (never its English text in a
 * Chinese UI), a network failure as such, anything else as a generic message.
 * @param {unknown} err
 */
export function errorMessage(err) {
  if (err instanceof ApiError) {
    if (err.status === 0) return t("error.network");
    return errorWords({ code: err.code, params: err.params, status: err.status, detail: err.message });
  }
  console.error(err); // a bug in the client: the console has the details, the player a sentence
  return t("error.unknown");
}

/** @param {unknown} err */
export function showError(err) {
  if (err instanceof ApiError && err.status === 401 && app.me) {
    screens.logout();
    toast(t("close.1008"));
    return;
  }
  toast(`${t("error.title")}: ${errorMessage(err)}`);
}

/** @typedef {"auth" | "lobby" | "table" | "hands" | "replay" | "rules"} View */

/** @param {View} view */
export function showView(view) {
  app.view = view;
  for (const name of ["auth", "lobby", "table", "hands", "replay", "rules"]) $(`${name}-view`).hidden = view !== name;
  $("hands-link").hidden = !app.me || view === "table" || view === "hands";
  // Shown with the account, whichever way it arrived (login, register, a reload); gone after logout.
  $("tournaments-link").hidden = !app.me; // tournaments.html
  $("admin-link").hidden = !["operator", "admin"].includes(app.me?.role); // the console: admin.html
  document.body.dataset.view = view;
  const controls = /** @type {HTMLElement} */ (document.querySelector(".table-controls"));
  controls.hidden = view !== "table";
  $("one-click-wrap").hidden = view !== "table";
  $("me-box").hidden = !app.me;
  $("logout").hidden = !app.me;
  $("sessions-open").hidden = !app.me;
}

/** Say it to screen readers (a polite live region). @param {string} text */
export function announce(text) {
  const el = $("announcer");
  el.textContent = "";
  requestAnimationFrame(() => { el.textContent = text; });
}
