// @ts-check
/**
 * How the screens reach each other: by name, through this module, never by importing each other (app.js
 * and the five screens used to import each other in a circle). Each screen module `provide`s, when it
 * loads, the few commands other screens may call (enter the lobby, open a table, sign out, ...); main.js
 * loads every screen before the first route, and the hash routing in main.js calls them the same way.
 * This module imports nothing, so every screen can import it without forming a circle.
 */

/**
 * What one screen may ask of another.
 * @typedef {object} ScreenCommands
 * @property {() => void} enterLobby          the lobby screen: show it (and connect its socket)
 * @property {() => void} renderLobby         the lobby screen: redraw it (the account or the tables changed)
 * @property {(room: string, variant: string, rounds?: number) => Promise<void>} quickPlay the lobby screen: queue for quick play
 *   in that room and variant (the result's "play again") and show the waiting panel
 * @property {(id: string) => void} enterTable the table screen: open table `id` and connect to it
 * @property {() => void} leaveTable          the table screen: stand up (or leave a finished table) and go to the lobby
 * @property {() => void} leaveTableView      the table screen: close its socket and forget it, without standing up
 * @property {() => void} logout              the sign-in screen: forget the account and show the form
 * @property {() => Promise<void>} refreshMe  the account box: read the account again (coins, points, title)
 * @property {(index?: number) => void} showResult the result dialog: open it on result `index` (the last by default)
 * @property {() => void} renderResult        the result dialog: redraw it if open
 * @property {() => void} renderResultsButton the top bar's 結果 button: show it when a result exists
 * @property {() => void} showStandings       the final standings: open them (saved at game over, kept across a reload)
 * @property {(over: any) => any} saveStandings the final standings: save them from a game_over message
 * @property {() => any} savedStandings       the final standings saved in this browser, or null
 * @property {() => Promise<void>} showLastStandings the final standings of your last game, from the server (after
 *   a reload, or a table that ended while you were away), unless dismissed or old
 * @property {(tableId: string) => void} rememberTitle the final standings: your title as this table began
 */

/** @type {Partial<ScreenCommands>} */
const provided = {};

/**
 * A screen offers its commands (once, when its module loads). A name offered twice is a bug.
 * @param {Partial<ScreenCommands>} commands
 */
export function provide(commands) {
  for (const [name, fn] of Object.entries(commands)) {
    if (name in provided) throw new Error(`screen command ${name} provided twice`);
    /** @type {any} */ (provided)[name] = fn;
  }
}

/**
 * Call another screen's command: `screens.enterLobby()`. Calls happen at run time, after main.js has
 * loaded every screen; a command nobody provided throws with its name.
 * @type {ScreenCommands}
 */
export const screens = /** @type {ScreenCommands} */ (new Proxy(provided, {
  get(target, name) {
    const fn = /** @type {any} */ (target)[name];
    if (typeof fn !== "function") throw new Error(`no screen provides ${String(name)}`);
    return fn;
  },
}));
