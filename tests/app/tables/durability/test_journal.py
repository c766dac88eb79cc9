"""The table journal (issue 10): guarded writes, so a former owner of a table can never write again."""

from __future__ import annotations

import pytest

from app.game.rooms import RoomKey
from app.game.variants import VariantKey
from app.tables.durability.journal import Fenced, MatchState, TableJournal
from app.tables.fairness import new_wall_seed
from app.tables.registry import TableInfo


def _info() -> TableInfo:
    return TableInfo(id="t1", room=RoomKey.BEGINNER, variant=VariantKey.TIANTAI, options={"rounds": 1},
                     seats=[1, 2, 3], seat_names=["a", "b", "c"])


MATCH = MatchState(dealer=0, dealer_streak=0, round_wind=0, hands_played=0, voided=0, points=[0] * 3,
                   coins=[0] * 3)


async def test_a_game_is_journalled_and_loaded_back(engine) -> None:
    journal = TableJournal(engine)
    wall = new_wall_seed()
    await journal.open_game(_info(), "g1", 1, MATCH)
    await journal.hand_started("t1", 1, 1, wall, v=3)
    await journal.append("t1", 1, "g1", 1, 0, [{"kind": "discard", "seat": 0, "tile": "1m"}], v=5)
    await journal.append("t1", 1, "g1", 1, 1, [{"kind": "pass", "seat": 1}], v=6)
    game = await journal.load("t1")
    assert game is not None and await journal.live_ids() == ["t1"]
    assert (game.game_id, game.fence, game.hand_no, game.wall, game.v, game.hand_closed) == ("g1", 1, 1, wall, 6,
                                                                                             False)
    assert game.actions == [{"kind": "discard", "seat": 0, "tile": "1m"}, {"kind": "pass", "seat": 1}]
    assert game.info.seats == [1, 2, 3] and game.info.variant is VariantKey.TIANTAI
    await journal.hand_closed("t1", 1, "g1", 1, MatchState(1, 0, 0, 1, 0, [8, -8, 0], [800, -800, 0]), v=9)
    game = await journal.load("t1")
    assert game is not None and game.hand_closed and game.actions == [] and game.match.dealer == 1
    await journal.game_closed("t1", 1)
    assert await journal.load("t1") is None and await journal.live_ids() == []


async def test_a_former_owner_cannot_write_after_a_take_over(engine) -> None:
    journal = TableJournal(engine)
    await journal.open_game(_info(), "g1", 1, MATCH)
    await journal.hand_started("t1", 1, 1, new_wall_seed(), v=1)
    assert await journal.claim("t1") == 2  # another owner takes the table over
    with pytest.raises(Fenced):
        await journal.append("t1", 1, "g1", 1, 0, [{"kind": "pass", "seat": 1}], v=2)
    with pytest.raises(Fenced):
        await journal.hand_closed("t1", 1, "g1", 1, MATCH, v=2)
    with pytest.raises(Fenced):
        await journal.game_closed("t1", 1)
    with pytest.raises(Fenced):  # a token is only ever raised
        await journal.claim("t1", 2)
    game = await journal.load("t1")
    assert game is not None and game.actions == [] and game.fence == 2
    await journal.append("t1", 2, "g1", 1, 0, [{"kind": "pass", "seat": 1}], v=2)  # the new owner can


async def test_an_action_is_logged_once_at_its_place(engine) -> None:
    journal = TableJournal(engine)
    await journal.open_game(_info(), "g1", 1, MATCH)
    await journal.hand_started("t1", 1, 1, new_wall_seed(), v=1)
    await journal.append("t1", 1, "g1", 1, 0, [{"kind": "pass", "seat": 1}], v=2)
    with pytest.raises(Fenced):  # a repeated or out-of-order write changes nothing
        await journal.append("t1", 1, "g1", 1, 0, [{"kind": "pass", "seat": 2}], v=2)
    game = await journal.load("t1")
    assert game is not None and game.actions == [{"kind": "pass", "seat": 1}]
