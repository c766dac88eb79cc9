// @ts-check
/**
 * The console's tabs as WAI-ARIA tabs (the "Tabs with manual activation" pattern): each tab is role="tab"
 * with aria-selected and aria-controls; only the selected one is in the Tab order (roving tabindex); Left /
 * Right move between the visible tabs (wrapping), Home / End go to the first / last, and Enter, Space or a
 * click opens one.  `tabAfter` is pure (tests/web/admin.test.mjs).
 */

/**
 * The tab a key moves focus to, or null when the key is not a tab key.
 * @param {string[]} names the visible tabs, in order @param {string} current @param {string} key
 * @returns {string | null}
 */
export function tabAfter(names, current, key) {
  if (!names.length) return null;
  const at = Math.max(names.indexOf(current), 0);
  switch (key) {
    case "ArrowRight": return names[(at + 1) % names.length];
    case "ArrowLeft": return names[(at - 1 + names.length) % names.length];
    case "Home": return names[0];
    case "End": return names[names.length - 1];
    default: return null;
  }
}

/**
 * Mark `name` selected: aria-selected and the roving tabindex on the tabs, `hidden` on the panels.
 * @param {ParentNode} root @param {string} name
 */
export function selectTab(root, name) {
  for (const node of root.querySelectorAll('[role="tab"]')) {
    const tab = /** @type {HTMLElement} */ (node);
    const selected = tab.dataset.tab === name;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
  }
  for (const node of root.querySelectorAll('[role="tabpanel"]')) {
    /** @type {HTMLElement} */ (node).hidden = node.id !== `tab-${name}`;
  }
}

/**
 * Arrow keys on the tab list: focus moves to the next visible tab (a hidden tab, e.g. an admin's tab for an
 * operator, is skipped); opening stays a click, Enter or Space (the buttons' own).
 * @param {HTMLElement} list the role="tablist" element
 */
export function wireTabKeys(list) {
  list.addEventListener("keydown", (event) => {
    const tabs = [...list.querySelectorAll('[role="tab"]')].map((n) => /** @type {HTMLElement} */ (n))
      .filter((tab) => !tab.hidden);
    const current = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.tab ?? "";
    const next = tabAfter(tabs.map((tab) => tab.dataset.tab ?? ""), current, event.key);
    if (next === null) return;
    event.preventDefault();
    tabs.find((tab) => tab.dataset.tab === next)?.focus();
  });
}
