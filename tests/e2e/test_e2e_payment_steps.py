"""Issue 13 defect 7: the result works out every payment step by step (胡 / 台 → points → coins), and the
steps reach the server's own numbers.  Table-driven from the engine (the scorer the server settles with):
many hands per variant and per option set are scored, and for every payment the client's worked steps must
end at the engine's points; a real coin hand is checked against the settlement in test_e2e_coin_table."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from playwright.sync_api import Page

from app.game.variants import VariantKey, validate_options
from engine.bots import greedy_policy
from engine.match import Match
from engine.simulate import find_variant, play_hand

# (variant, table options): the defaults, and options that change every number the steps use.
CASES = [
    ("tiantai", {}),
    ("tiantai", {"discard_multiplier": 2.0, "hu_per_point": 10, "cap": 200}),
    ("taiwan", {}),
    ("taiwan", {"di": 3, "tai_value": 2, "dealer_streak": 3}),
    ("taipao", {}),
    ("taipao", {"dealer_multiplier": 3, "dealer_pair_multiplier": 1, "double_threshold": 10}),
]
HANDS = 60


def _scored_hands(variant: str, options: dict) -> list[dict]:
    """Up to HANDS won hands: the result as the hand_result carries it, with the table's dealer and options."""
    full = validate_options(VariantKey(variant), options)
    rng = random.Random(13)
    match = Match(find_variant(variant), first_dealer=0, options=full)
    out = []
    for i in range(HANDS * 3):
        if match.finished:
            match = Match(find_variant(variant), first_dealer=0, options=full)
        hand = match.new_hand(f"steps:{variant}:{i}")
        play_hand(hand, greedy_policy, rng, False)
        match.record(hand)
        result = hand.result
        assert result is not None
        if result.score.payments:
            out.append({"score": result.score.to_json(), "dealer": hand.dealer, "streak": hand.dealer_streak,
                        "n": hand.n, "options": json.loads(json.dumps(full, default=list))})
        if len(out) >= HANDS:
            break
    return out


_STEPS = """async (hands) => {
    const m = await import('/js/render/payment_steps.js');
    return hands.map((x) => x.score.payments.map((p) => {
        const s = m.paymentSteps(p, x.score, x.options, {dealer: x.dealer, streak: x.streak, seats: x.n});
        return {server: p.points, steps: s.points, reason: p.reason, text: s.steps.join(' → ')};
    }));
}"""


@pytest.mark.parametrize(("variant", "options"), CASES, ids=[f"{v}-{i}" for i, (v, _) in enumerate(CASES)])
def test_the_worked_steps_reach_the_engines_payment_for_every_payment(page: Page, variant: str, options: dict) -> None:
    hands = _scored_hands(variant, options)
    assert len(hands) >= 20
    page.goto("/")
    worked = [p for hand in page.evaluate(_STEPS, hands) for p in hand]
    wrong = [p for p in worked if p["steps"] != p["server"]]
    assert wrong == [], wrong[:5]
    assert all(p["text"] for p in worked)
    reasons = Counter(p["reason"] for p in worked)
    assert len(reasons) >= 2, reasons  # more than one kind of payment was worked out


def test_a_zero_tai_taiwan_win_shows_the_base_line(page: Page) -> None:
    # Defect 7: a 0-台 台灣 win pays the 底 alone, and the result says so.
    page.goto("/")
    out = page.evaluate("""async () => {
        const m = await import('/js/render/result.js');
        const msg = {hand_no: 1, payments: [{payer: 1, payee: 0, points: 5, coins: 500, reason: 'discard'}],
            result: {winners: [0], hands: [[]], score: {variant: 'taiwan', seats: [{seat: 0, items: [], totals: {tai: 0}}],
            payments: [], net: [5, -5, 0, 0]}}};
        const state = {table: {seat: 0, variant: 'taiwan', coins_per_point: 100, dealer: 2, dealer_streak: 0,
                               options: {di: 5, tai_value: 1}, seats: [0, 1, 2, 3].map((i) => ({seat: i, username: 'p' + i}))},
                       view: {wildcards: [], players: [], dealer: 2, dealer_streak: 0}};
        const el = m.resultEl(msg, state, (s) => 'p' + s, {verified: null, gameOver: null, onNext() {}, onLobby() {}});
        const li = el.querySelector('.pay-steps li');
        return {text: li.textContent, points: li.dataset.points};
    }""")
    assert out["points"] == "5"
    assert "底 5 + 台價 1 × (0 台) = 5 點" in out["text"]
    assert "5 點 × 100 = 500 金幣" in out["text"]
