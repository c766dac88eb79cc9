"""The table registry on its own: seating rules, the on_table_full seam, lobby events."""

from __future__ import annotations

import pytest

from app.game.rooms import RoomKey
from app.game.variants import VariantKey, default_options
from app.services.errors import Conflict, Forbidden, InvalidInput, NotFound
from app.tables.registry import TableInfo, TableRegistry, TableStatus


class Recorder:
    def __init__(self) -> None:
        self.events: list[dict] = []
        self.full: list[TableInfo] = []
        self.removed: list[TableInfo] = []

    async def publish(self, event: dict) -> None:
        self.events.append(event)

    async def on_full(self, table: TableInfo) -> None:
        self.full.append(table)

    def on_removed(self, table: TableInfo) -> None:  # a plain function works too
        self.removed.append(table)


@pytest.fixture
def rec() -> Recorder:
    return Recorder()


@pytest.fixture
def registry(rec: Recorder) -> TableRegistry:
    return TableRegistry(on_table_full=rec.on_full, on_table_removed=rec.on_removed, publish=rec.publish)


async def _open(registry: TableRegistry, user_id: int = 1, variant: VariantKey = VariantKey.TAIWAN) -> TableInfo:
    return await registry.create_table(
        room=RoomKey.BEGINNER, variant=variant, options=default_options(variant), user_id=user_id,
        username=f"user{user_id}",
    )


async def test_full_table_marks_playing_then_calls_the_hook_once(registry, rec):
    table = await _open(registry)
    for uid in (2, 3):
        await registry.sit(table.id, user_id=uid, username=f"user{uid}")
    assert rec.full == []
    final = await registry.sit(table.id, user_id=4, username="user4", seat=None)
    assert final.status == TableStatus.PLAYING
    assert len(rec.full) == 1
    seen = rec.full[0]
    assert seen.status == TableStatus.PLAYING and seen.seats == [1, 2, 3, 4] and seen.is_full
    assert registry.get(table.id).status == TableStatus.PLAYING


async def test_a_failing_hook_puts_the_table_back_to_waiting(rec):
    async def broken(_table: TableInfo) -> None:
        raise RuntimeError("actor did not start")

    registry = TableRegistry(on_table_full=broken, publish=rec.publish)
    table = await _open(registry, variant=VariantKey.TIANTAI)
    await registry.sit(table.id, user_id=2, username="b")
    final = await registry.sit(table.id, user_id=3, username="c")
    assert final.status == TableStatus.WAITING and final.seats == [1, 2, 3]
    assert (await registry.stand(table.id, user_id=3)).seats == [1, 2, None]


async def test_the_hook_can_be_swapped_after_construction(rec):
    registry = TableRegistry(publish=rec.publish)  # the default hook: nothing beyond "playing"
    calls = []
    registry.on_table_full = lambda table: calls.append(table.id)
    table = await registry.create_practice_table(
        variant=VariantKey.TAIPAO, options=default_options(VariantKey.TAIPAO), user_id=1, username="a"
    )
    assert calls == [table.id] and table.status == TableStatus.PLAYING and table.bots == [1, 2, 3]


async def test_seating_rules(registry):
    table = await _open(registry)
    with pytest.raises(Conflict, match="taken"):
        await registry.sit(table.id, user_id=2, username="b", seat=0)
    with pytest.raises(InvalidInput):
        await registry.sit(table.id, user_id=2, username="b", seat=9)
    with pytest.raises(Conflict, match="already seated at this table"):
        await registry.sit(table.id, user_id=1, username="a")
    other = await _open(registry, user_id=5)
    with pytest.raises(Conflict, match="another table"):
        await registry.sit(table.id, user_id=5, username="e")
    with pytest.raises(Conflict, match="another table"):
        await _open(registry, user_id=5)
    with pytest.raises(NotFound):
        await registry.sit("missing", user_id=2, username="b")
    assert registry.table_of(5) == other.id and registry.table_of(2) is None


async def test_copies_cannot_bypass_the_registry(registry):
    table = await _open(registry)
    table.seats[1] = 99
    registry.list_tables()[0].seats[2] = 98
    assert registry.get(table.id).seats == [1, None, None, None]


async def test_actor_side_api(registry, rec):
    table = await _open(registry)
    for uid in (2, 3, 4):
        await registry.sit(table.id, user_id=uid, username=f"user{uid}")
    # After a hand, seat 2 can no longer afford the room: the actor frees the seat mid-game.
    after = await registry.vacate_seat(table.id, 2)
    assert after.seats == [1, 2, None, 4] and registry.table_of(3) is None
    assert (await registry.set_status(table.id, TableStatus.FINISHED)).status == TableStatus.FINISHED
    assert (await registry.stand(table.id, user_id=2)).seats == [1, None, None, 4]  # allowed once finished
    await registry.remove(table.id)
    assert [t.id for t in rec.removed] == [table.id]
    assert registry.table_of(1) is None and registry.list_tables() == []
    with pytest.raises(NotFound):
        registry.get(table.id)
    await registry.remove(table.id)  # idempotent
    assert len(rec.removed) == 1


async def test_lobby_events_carry_increasing_versions_and_skip_practice(registry, rec):
    table = await _open(registry)
    await registry.sit(table.id, user_id=2, username="b")
    await registry.stand(table.id, user_id=2)
    await registry.stand(table.id, user_id=1)
    practice = await registry.create_practice_table(
        variant=VariantKey.TIANTAI, options=default_options(VariantKey.TIANTAI), user_id=7, username="g"
    )
    with pytest.raises(Forbidden):
        await registry.sit(practice.id, user_id=8, username="h")
    await registry.stand(practice.id, user_id=7)
    assert [e["type"] for e in rec.events] == ["table_created", "table_updated", "table_updated", "table_removed"]
    versions = [e["table"]["version"] for e in rec.events]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    assert all(e["table"]["id"] == table.id for e in rec.events)
    assert {t.id for t in rec.removed} == {table.id, practice.id}


async def test_a_broken_lobby_does_not_break_seating():
    async def down(_event: dict) -> None:
        raise ConnectionError("redis is down")

    registry = TableRegistry(publish=down)
    table = await _open(registry)
    assert (await registry.sit(table.id, user_id=2, username="b")).seats[:2] == [1, 2]
