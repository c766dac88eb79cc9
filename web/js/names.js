// @ts-check
/**
 * The account name's rules as the server declares them (GET /api/auth/rules, app.services.accounts), checked
 * before the form is sent so the player hears at once which one a name breaks.  Pure: no DOM.
 */

/** The characters a name may hold: ASCII letters, digits, underscore and Chinese characters. */
const NAME_CHARS = /^[A-Za-z0-9_\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]*$/;
const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;

/**
 * @typedef {{username_min: number, username_min_cjk?: number, username_max: number}} NameRules
 * @typedef {"too_short" | "too_long" | "characters"} NameRule  the server's `rule` for invalid_username
 */

/** The shortest `name` may be: fewer when it holds a Chinese character (阿明). @param {string} name @param {NameRules} rules */
export function nameMinimum(name, rules) {
  return CJK.test(name) ? rules.username_min_cjk ?? rules.username_min : rules.username_min;
}

/**
 * The rule `name` breaks, in the server's words, or null; checked in the server's order (characters first).
 * @param {string} name @param {NameRules} rules @returns {NameRule | null}
 */
export function brokenNameRule(name, rules) {
  const shown = name.normalize("NFKC");
  if (!NAME_CHARS.test(shown)) return "characters";
  if (shown.length < nameMinimum(shown, rules)) return "too_short";
  if (shown.length > rules.username_max) return "too_long";
  return null;
}
