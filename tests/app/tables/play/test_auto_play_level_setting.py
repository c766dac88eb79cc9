"""F-6: 托管 plays the bot level operators set (``TABLE_AUTO_PLAY_LEVEL``, ``normal`` by default); it is an
operator setting, not a room option (docs/rules/timing.md#auto-play F-6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.bots import TableBots
from app.game.variants import VariantKey
from app.tables.play.clock import FakeClock
from app.tables.play.commands import Tick
from app.tables.play.flow import HandFlow
from app.tables.play.outbox import Outbox
from app.tables.play.seats import SeatSlot
from app.tables.settings import TableSettings
from app.tables.table_info import TableInfo, TableStatus
from engine.options import resolve_room_options

ROOT = Path(__file__).resolve().parents[4]


def _flow(**settings: Any) -> HandFlow:
    """A practice table whose human (seat 0) is away: 托管 plays that seat; the bots play their own level."""
    info = TableInfo(id="t1", room=None, variant=VariantKey.TAIWAN, options={}, seats=[7, None, None, None],
                     bots=[1, 2, 3], status=TableStatus.PLAYING, practice=True, bot_level="easy")
    slots = [SeatSlot(seat, uid, None, seat in info.bots) for seat, uid in enumerate(info.seats)]
    clock = FakeClock()
    return HandFlow(info, TableSettings(claim_hold_seconds=0, **settings), clock, slots, Outbox(slots, clock), TableBots(seed=1),
                    post=lambda _: None, table_closed=lambda: False)


# (the operator's settings, the level 托管 plays)
CASES = [({}, "normal"), ({"auto_play_level": "strong"}, "strong"), ({"auto_play_level": "easy"}, "easy")]


@pytest.mark.parametrize(("settings", "level"), CASES)
def test_auto_play_plays_the_operators_level(settings: dict[str, Any], level: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    flow = _flow(**settings)
    chosen: list[tuple[int, str]] = []
    choose = flow.bots.choose

    def spy(hand, seat, lvl="normal"):  # noqa: ANN001, ANN202
        chosen.append((seat, lvl))
        return choose(hand, seat, lvl)

    monkeypatch.setattr(flow.bots, "choose", spy)
    flow.start_game()
    for _ in range(40):  # answer prompts as their timers would, until the away seat 0 has moved
        prompt = next(iter(flow.prompts.values()), None)
        if prompt is None or any(seat == 0 for seat, _ in chosen):
            break
        flow.on_tick(Tick("act", prompt.key, prompt.seat))
    assert (0, level) in chosen  # the 托管 seat at the operator's level
    assert all(lvl == "easy" for seat, lvl in chosen if seat != 0)  # the table's own bots at theirs


def test_the_auto_play_level_is_no_room_option() -> None:
    with pytest.raises(ValueError):
        resolve_room_options("taiwan", {"auto_play_level": "strong"})


def test_the_settings_doc_documents_it_in_the_rule_books_place() -> None:
    row = next(line for line in (ROOT / "docs/settings.md").read_text("utf-8").splitlines()
               if line.startswith("| `TABLE_AUTO_PLAY_LEVEL`"))
    assert '`"normal"`' in row and "docs/rules/timing.md#auto-play" in row and "not a room option" in row
    rule = (ROOT / "docs/rules/timing.md").read_text("utf-8")
    assert "TABLE_AUTO_PLAY_LEVEL" in rule and "F-6" in rule
