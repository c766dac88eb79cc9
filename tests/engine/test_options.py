"""Room options (docs/rules/timing.md#room-options): every play and scoring value has a default and is checked."""

import pytest

from engine.options import option_defaults, resolve_room_options
from engine.rigging import build_wall
from engine.state import HandState
from engine.variants import find_variant


@pytest.mark.parametrize(
    ("variant", "key", "default"),
    [
        ("tiantai", "cap", 300),  # docs/rules/tiantai.md#final-score, A-9
        ("tiantai", "discard_multiplier", 1.5),  # docs/rules/tiantai.md#payment, A-10
        ("tiantai", "draw_keeps_dealer_if_no_kong", False),
        ("tiantai", "claim_seconds", 3.0),  # docs/rules/timing.md#timers: 3 s for 天台
        ("taipao", "claim_seconds", 10.0),  # docs/rules/timing.md#timers: 10 s for 台炮
        ("taipao", "double_threshold", 13),  # docs/rules/taipao.md#total the 13-台 doubling
        ("taipao", "sifeng_baopei", False),  # docs/rules/taipao.md#optional-rules
        ("taiwan", "di", 5),  # docs/rules/taiwan.md#payment 底
        ("taiwan", "tai_value", 1),
        ("taiwan", "accept_eye_declaration", True),  # C-10
        ("taiwan", "discard_seconds", 30.0),  # docs/rules/timing.md#timers
        ("taiwan", "rounds", 4),  # docs/rules/taiwan.md#rounds: 4 圈 = 1 將
    ],
)
def test_every_option_has_its_rules_default(variant: str, key: str, default: object) -> None:
    assert option_defaults(variant)[key] == default


@pytest.mark.parametrize(
    ("variant", "overrides", "message"),
    [
        ("tiantai", {"nope": 1}, "unknown option"),
        ("tiantai", {"cap": "300"}, "cap"),
        ("tiantai", {"rounds": 0}, "rounds"),
        ("taipao", {"double_threshold": -1}, "double_threshold"),
        ("taiwan", {"accept_eye_declaration": "yes"}, "accept_eye_declaration"),
        ("taiwan", {"claim_seconds": 0.1}, "claim_seconds"),
    ],
)
def test_bad_room_options_are_refused_with_the_key_named(variant: str, overrides: dict[str, object],
                                                         message: str) -> None:
    with pytest.raises(ValueError, match=message):
        resolve_room_options(variant, overrides)


def test_overrides_reach_the_scorer() -> None:
    """A room's 台 value changes the settlement ("若非常用台數，請自訂台數", seed 003)."""
    v = find_variant("tiantai")
    wall = build_wall(v, dealer=0, hands=["12345678f123m456m"])
    plain = HandState.deal(v, seed=1, wall=wall, options={"eight_flowers": True})
    capped = HandState.deal(v, seed=1, wall=wall,
                            options=resolve_room_options("tiantai", {"eight_flowers": True, "cap": 100}))
    assert plain.result is not None and capped.result is not None
    assert max(plain.result.score.net) > max(capped.result.score.net) > 0


def test_eight_flower_win_is_off_by_default() -> None:
    """docs/rules/tiantai.md#eight-flowers / docs/rules/taipao.md#eight-flowers: no special eight-flower win unless the room turns it on."""
    for name in ("tiantai", "taipao"):
        v = find_variant(name)
        hand = HandState.deal(v, seed=1, wall=build_wall(v, dealer=0, hands=["12345678f123m456m"]))
        assert not hand.is_over
