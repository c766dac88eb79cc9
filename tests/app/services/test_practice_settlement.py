"""Practice and tournament hands move nothing, so the table settler records them in one statement
(app.services.settlement.record_practice_hand on Postgres, one INSERT … ON CONFLICT through the session on
SQLite).  Whatever the path, a hand is recorded exactly once and its row is the one ``settle_hand`` writes."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from app.game.variants import VariantKey
from app.models import Hand, LedgerEntry
from app.services.settlement import settle_hand
from app.tables.durability.settle import DatabaseSettler, hand_record
from app.tables.registry import TableInfo
from tests.app.services.test_history import _played_hand
from tests.app.services.test_ledger_settlement import make_users

COLUMNS = ("table_id", "variant", "room", "practice", "seed", "commitment", "seats", "actions", "result")


async def test_the_table_settler_records_a_practice_hand_once_as_settle_hand_would(sessionmaker, session) -> None:
    (alice,) = await make_users(session, [5_000])
    settler = DatabaseSettler(sessionmaker)
    # the one-statement path on a kept connection is Postgres's; SQLite takes the session
    assert (settler.connections is not None) == (session.bind.dialect.name == "postgresql")
    hand, wall = _played_hand(3)
    info = TableInfo(id="t-practice", room=None, variant=VariantKey.TIANTAI, options={}, seats=[alice, None, None],
                     bots=[1, 2], practice=True)
    try:
        first = await settler(info, "t-practice:g:1", hand, wall, 1)
        # a retry and concurrent duplicates (a replayed actor): one row, the same outcome, marked repeated
        again = await asyncio.gather(*(settler(info, "t-practice:g:1", hand, wall, 1) for _ in range(4)))
    finally:
        await settler.close()
    assert first is not None and not first.repeated and first.practice
    assert first.coin_deltas == [0, 0, 0] and first.rank_point_deltas == [0, 0, 0]
    assert first.point_deltas == hand.result.score.net and sum(first.point_deltas) == 0
    assert all(a is not None and a.repeated and a.hand_id == first.hand_id for a in again)
    assert all(a.to_json() == first.to_json() for a in again)

    reference = await settle_hand(  # the service's own session path, for the same hand under another key
        session, hand_key="t-practice:g:ref", room=None, seats=[alice, None, None], variant="tiantai",
        record=hand_record(info, hand, wall, 1), payments=hand.result.score.payments,
        winners=hand.result.winners, practice=True)
    rows = (await session.scalars(select(Hand).order_by(Hand.id).execution_options(populate_existing=True))).all()
    assert [r.hand_key for r in rows] == ["t-practice:g:1", "t-practice:g:ref"]
    ours, theirs = rows
    assert ours.id == first.hand_id and theirs.id == reference.hand_id
    assert {c: getattr(ours, c) for c in COLUMNS} == {c: getattr(theirs, c) for c in COLUMNS}
    assert ours.settlement == {**theirs.settlement, "hand_key": "t-practice:g:1"}
    assert "hand_id" not in ours.settlement  # the row's own id (Settlement.from_json puts it back)
    assert (await session.scalars(select(LedgerEntry).where(LedgerEntry.hand_id.is_not(None)))).all() == []
