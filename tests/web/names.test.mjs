// The account name's rules (web/js/names.js), as app.services.accounts declares them: 3–20, 2–20 with 漢字.
import { test } from "node:test";
import assert from "node:assert/strict";

import { brokenNameRule, nameMinimum } from "../../web/js/names.js";

const RULES = { username_min: 3, username_min_cjk: 2, username_max: 20 };

test("two Chinese characters make a name; two letters do not", () => {
  assert.equal(brokenNameRule("阿明", RULES), null);
  assert.equal(brokenNameRule("ab", RULES), "too_short");
  assert.equal(brokenNameRule("明", RULES), "too_short");
  assert.equal(nameMinimum("阿明", RULES), 2);
  assert.equal(nameMinimum("alice", RULES), 3);
});

test("the rule named is the one broken", () => {
  assert.equal(brokenNameRule("a".repeat(21), RULES), "too_long");
  assert.equal(brokenNameRule("阿-明", RULES), "characters");
  assert.equal(brokenNameRule("ａｌｉｃｅ", RULES), null); // full width: NFKC makes it alice
});
