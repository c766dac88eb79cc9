// @ts-check
/**
 * The top bar's menu (issue 33 item 3): what the bar cannot fit on a phone, or at the table on a desktop
 * (牌譜, 比賽, 我的登入, 登出; on a phone also the language, sound and one-click switches), behind one button.
 * CSS decides which items fold into it at which width; this module only opens and closes it.
 */

import { $ } from "../app.js";

/** Opens or closes the menu; the toggle says which (aria-expanded). @param {boolean} open */
export function setMenuOpen(open) {
  const menu = $("topbar-menu");
  menu.classList.toggle("open", open);
  $("topbar-menu-toggle").setAttribute("aria-expanded", String(open));
}

/** Wires the toggle: a press opens it, Escape, a choice or a press elsewhere closes it. */
export function bootMenu() {
  const toggle = $("topbar-menu-toggle");
  const menu = $("topbar-menu");
  toggle.addEventListener("click", () => {
    const open = !menu.classList.contains("open");
    setMenuOpen(open);
    if (open) /** @type {HTMLElement | null} */ (menu.querySelector("button:not([hidden]), a:not([hidden])"))?.focus();
  });
  menu.addEventListener("click", (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    if (target.closest("a, button") && !target.closest("#lang-switch")) setMenuOpen(false);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && menu.classList.contains("open")) { setMenuOpen(false); toggle.focus(); }
  });
  document.addEventListener("pointerdown", (e) => {
    const target = /** @type {Node} */ (e.target);
    if (menu.classList.contains("open") && !menu.contains(target) && !toggle.contains(target)) setMenuOpen(false);
  });
}
