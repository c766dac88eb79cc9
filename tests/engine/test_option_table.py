"""The one option table (docs/rules/timing.md#room-options; issue 9 items 1-2): every option typed and bounded, checked fast,
and every scoring value bounded so one hand's payment stays far inside the ledger's BIGINT."""

from __future__ import annotations

import random

import pytest

from engine.bots import greedy_policy
from engine.match import Match
from engine.options import option_defaults, option_table, payment_bound, resolve_room_options
from engine.variants import Option, OptionError, find_variant

VARIANT_NAMES = ("tiantai", "taipao", "taiwan")
INT64_MAX = 2**63 - 1
MAX_COINS_PER_POINT = 600  # docs/rules/rooms.md#rooms, the 高級 room (tests/app checks it against app.game.rooms)


def _options() -> list[tuple[str, str, Option]]:
    return [(v, k, o) for v in VARIANT_NAMES for k, o in option_table(v).items()]


@pytest.mark.parametrize(("variant", "key", "option"), _options(), ids=lambda x: str(x)[:30])
def test_every_option_is_typed_and_bounded(variant: str, key: str, option: Option) -> None:
    assert option.kind in (int, float, bool, str, list) and option.doc
    if option.kind in (int, float, list):
        assert option.choices or (option.low is not None and option.high is not None)
    if option.kind is str:
        assert option.choices
    assert option.check(key, option.default) == option.default


def _extremes(option: Option) -> list[object]:
    if option.choices:
        return list(option.choices)
    if option.kind is bool:
        return [False, True]
    if option.kind is list:
        return [[option.low] * option.length, [option.high] * option.length]
    return [option.low, option.high]


def _outside(option: Option) -> list[object]:
    if option.kind is bool or option.kind is str:
        return ["maybe"] if option.kind is str else [1]
    if option.choices:
        return [max(option.choices) + 1, 10**9]
    assert option.low is not None and option.high is not None
    if option.kind is list:
        return [[option.high + 1] * option.length, [option.low - 1] * option.length]
    return [option.low - 1, option.high + 1, 10**30]


@pytest.mark.parametrize(("variant", "key", "option"), _options(), ids=lambda x: str(x)[:30])
def test_values_outside_the_range_are_refused_naming_the_option(variant: str, key: str,
                                                                option: Option) -> None:
    for value in _outside(option):
        with pytest.raises(OptionError) as refused:
            resolve_room_options(variant, {key: value})
        assert refused.value.params["option"] == key and key in str(refused.value)
        assert refused.value.problem in ("range", "type")


@pytest.mark.parametrize(
    ("variant", "overrides"),
    [
        ("tiantai", {"cap": 10**9}),  # the attack: range(10, cap + 1, 10) froze the event loop
        ("tiantai", {"cap": 10**400}),
        ("tiantai", {"cap": 250}),  # 100 / 200 / 300 only
        ("taiwan", {"di": 10**15}),  # the attack: 10^15 積分 in one hand
        ("taiwan", {"di": 10**30}),  # the attack: OverflowError in settlement voided the hand
        ("taiwan", {"tai_value": 10**15}),
        ("taipao", {"double_factor": 10**15}),
        ("taipao", {"shazhu": [10**15, 1, 1]}),
        ("taiwan", {"discard_seconds": float("nan")}),
        ("taiwan", {"claim_seconds": float("inf")}),
    ],
)
def test_the_reported_attacks_are_refused(variant: str, overrides: dict[str, object]) -> None:
    with pytest.raises(OptionError) as refused:
        resolve_room_options(variant, overrides)
    assert refused.value.problem == "range"
    with pytest.raises(OptionError):  # the engine enforces the table as well as the server
        Match(find_variant(variant), options=overrides)


def test_cap_is_one_of_the_documented_three() -> None:
    assert option_table("tiantai")["cap"].choices == (100, 200, 300)  # docs/rules/timing.md#room-options, A-9


def test_inconsistent_options_are_named() -> None:
    with pytest.raises(OptionError) as refused:  # 1.5 × 10 胡 is not a whole number of 10-胡 points
        resolve_room_options("tiantai", {"hu_per_point": 10})
    assert refused.value.problem == "inconsistent"


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_the_largest_payment_fits_the_ledger(variant: str) -> None:
    """Coins moved = points × coins per point (docs/rules/rooms.md#points) must fit BIGINT with room for many hands."""
    assert payment_bound(variant) * MAX_COINS_PER_POINT * 10**6 < INT64_MAX


def _at(variant: str, end: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, option in option_table(variant).items():
        if key in find_variant(variant).all_options():
            continue  # timers and 圈 do not change a payment
        picks = _extremes(option)
        out[key] = picks[-1] if end == "max" else picks[0]
    return out


def _consistent(variant: str, options: dict[str, object]) -> dict[str, object]:
    # The scorer refuses some extreme combinations together; step the offending value back to its default.
    try:
        return resolve_room_options(variant, options)
    except OptionError as exc:
        assert exc.problem == "inconsistent"
        return resolve_room_options(variant, {**options, "hu_per_point": 5})


@pytest.mark.parametrize("end", ["min", "max"])
@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_option_at_its_extreme_plays_and_settles_a_hand(variant: str, end: str) -> None:
    options = _consistent(variant, _at(variant, end))
    match = Match(find_variant(variant), options=options)
    rng = random.Random(9)
    for seed in range(40):  # until a hand is won (most are), every hand scoring cleanly
        hand = match.new_hand(seed)
        while not hand.is_over:
            hand.apply(greedy_policy(hand, hand.awaiting()[0], rng))
        assert hand.result is not None
        payments = hand.result.score.payments
        assert sum(hand.result.score.net) == 0
        assert all(0 <= p.points <= payment_bound(variant) for p in payments)
        if hand.result.winners:
            break
    assert hand.result.winners


def test_defaults_are_unchanged_by_the_table() -> None:
    assert option_defaults("tiantai")["cap"] == 300 and option_defaults("taiwan")["di"] == 5
