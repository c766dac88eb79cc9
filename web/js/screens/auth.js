// @ts-check
/** The sign-in / register screen, the account box in the top bar, and signing out. */

import { api } from "../api.js";
import { applyI18n, formatNumber, isLang, lang, languageChosenHere, localName, setLang, t } from "../i18n.js";
import { $, app, errorMessage, showError, showView, TABLE_KEY } from "../app.js";
import { provide, screens } from "../router.js";
import { tellOtherTabs } from "../tabs.js";
import { brokenNameRule, nameMinimum } from "../names.js";

export function renderMe() {
  const me = app.me;
  $("me-box").hidden = !me;
  $("logout").hidden = !me;
  $("sessions-open").hidden = !me;
  if (!me) return;
  $("me-name").textContent = me.username;
  $("me-coins").textContent = formatNumber(me.coins);
  $("me-coins").dataset.coins = String(me.coins);
  $("me-points").textContent = formatNumber(me.rank_points);
  $("me-title").textContent = localName(me.title_names, me.title);
}

/**
 * The account's language follows the player from browser to browser: once signed in, a language saved on
 * the account wins; an account without one takes the language chosen in this browser, if one was chosen.
 * @param {any} me the /api/me body
 */
export function syncLanguage(me) {
  if (isLang(me?.language)) {
    if (me.language !== lang()) setLang(me.language);
  } else if (languageChosenHere()) {
    chooseLanguage(lang());
  }
}

/**
 * The player picked a language: show it, remember it here and on the account (if signed in).
 * @param {import("../i18n.js").Lang} next
 */
export function chooseLanguage(next) {
  setLang(next); // even the language already shown: it is now chosen, not guessed, so remember it
  // Always sent (a rare click): a copy of the account read just before could be stale.
  if (app.me) api.setLanguage(next).then((me) => { if (app.me?.id === me.id) app.me = me; }).catch(showError);
}

export async function refreshMe() {
  try {
    app.me = await api.me();
    renderMe();
    if (app.view === "lobby") screens.renderLobby();
  } catch (err) {
    showError(err);
  }
}

export function renderAuth() {
  const register = app.authMode === "register";
  const heading = register ? "auth.register" : "auth.login";
  $("auth-heading").dataset.i18n = heading;
  $("auth-submit").dataset.i18n = heading;
  $("auth-switch").dataset.i18n = register ? "auth.have_account" : "auth.need_account";
  $("auth-password").setAttribute("autocomplete", register ? "new-password" : "current-password");
  applyI18n($("auth-view"));
  renderRules();
  renderInvite();
}

/** @type {{id: string, text: () => string} | null} */
let invite = null;

/**
 * An invite link (#/join/TABLE) opened while signed out: who invited you to which table (issue 26 item 11);
 * after signing in the lobby seats you there.  The table's public record names its creator's seat.
 */
function renderInvite() {
  const el = $("auth-invite");
  const id = location.hash.match(/^#\/join\/([\w-]+)$/)?.[1] ?? null;
  el.hidden = !id || invite?.id !== id;
  if (id && invite?.id === id) el.textContent = invite.text();
  if (!id || invite?.id === id) return;
  Promise.all([api.table(id), api.rooms()]).then(([tb, rooms]) => {
    const host = tb.seats.find((/** @type {any} */ s) => s.user_id === tb.creator_id)?.username ?? null;
    const found = rooms.find((/** @type {any} */ r) => r.key === tb.room);
    invite = { id, text: () => t(host ? "auth.invite" : "auth.invite.nobody", { name: host ?? "", variant: t(`variant.${tb.variant}`), room: found ? localName(found.names, found.name) : t("table.practice") }) };
    renderInvite();
  }).catch(() => { invite = { id, text: () => t("auth.invite.gone") }; renderInvite(); });
}

/** @type {{username_min: number, username_min_cjk?: number, username_max: number, password_min: number, password_max: number} | null} */
let rules = null;

/** Registering: the server's rules for names and passwords, shown before the form is sent. */
function renderRules() {
  const el = $("auth-rules");
  const register = app.authMode === "register";
  if (register && !rules) {
    api.accountRules().then((r) => { rules = r; renderRules(); }).catch(() => { /* the server still checks */ });
  }
  el.hidden = !register || !rules;
  if (!rules) return;
  el.textContent = t("auth.rules", { umin: rules.username_min, ucjk: rules.username_min_cjk ?? rules.username_min,
    umax: rules.username_max, pmin: rules.password_min });
  const user = /** @type {HTMLInputElement} */ ($("auth-username"));
  const pass = /** @type {HTMLInputElement} */ ($("auth-password"));
  user.maxLength = rules.username_max;
  pass.maxLength = rules.password_max;
}

/** The rule a registration breaks, in words, or null. @param {string} username @param {string} password */
function brokenRule(username, password) {
  if (app.authMode !== "register" || !rules) return null;
  const nameRule = brokenNameRule(username, rules);
  const nameOk = nameRule === null;
  const passOk = password.length >= rules.password_min && password.length <= rules.password_max;
  // The rules are already shown above the button: say which field breaks them, and for a name which rule.
  if (nameOk && passOk) return null;
  if (nameRule && passOk) {
    return t(`error.code.invalid_username.${nameRule}`, { minimum: nameMinimum(username.normalize("NFKC"), rules), maximum: rules.username_max });
  }
  return t(!nameOk ? (passOk ? "auth.broken.name" : "auth.broken.both") : "auth.broken.password");
}

/** @param {SubmitEvent} e */
export async function onAuthSubmit(e) {
  e.preventDefault();
  const username = /** @type {HTMLInputElement} */ ($("auth-username")).value.trim();
  const password = /** @type {HTMLInputElement} */ ($("auth-password")).value;
  $("auth-error").textContent = "";
  const broken = brokenRule(username, password);
  $("auth-rules").classList.toggle("broken", !!broken);
  if (broken) {
    $("auth-error").textContent = broken;
    return;
  }
  try {
    // The server sets the session cookie; the token in the body is for other clients.
    const body = app.authMode === "register" ? await api.register(username, password) : await api.login(username, password);
    app.me = body.user;
    tellOtherTabs({ type: "login", userId: body.user.id });
    syncLanguage(app.me);
    renderMe();
    screens.enterLobby();
  } catch (err) {
    $("auth-error").textContent = errorMessage(err); // bad_credentials: the same words for name or password
  }
}

/** Log out: end the session on the server (it clears the cookie), here and in this browser's other tabs. */
export function logout() {
  if (app.me) api.logout().catch(() => { /* already ended: nothing to do */ });
  tellOtherTabs({ type: "logout" });
  signedOut();
}

/** Forget the account in this tab and show the form (the session is over, by this tab or another). */
export function signedOut() {
  app.me = null;
  screens.leaveTableView();
  app.lobbySocket?.close();
  app.lobbySocket = null;
  localStorage.removeItem(TABLE_KEY);
  showView("auth");
  renderAuth();
  location.hash = "";
}

/** Wire the form and the switch between signing in and registering. */
export function bootAuth() {
  $("auth-form").addEventListener("submit", (e) => onAuthSubmit(/** @type {SubmitEvent} */ (e)));
  $("auth-switch").addEventListener("click", () => {
    app.authMode = app.authMode === "login" ? "register" : "login";
    $("auth-error").textContent = "";
    renderAuth();
  });
  $("logout").addEventListener("click", logout);
}

provide({ logout, refreshMe });
