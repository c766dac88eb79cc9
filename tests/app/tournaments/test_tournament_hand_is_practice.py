"""Issue 35 item 9: docs/tournaments.md and the table socket agree: a tournament hand moves no coins, so its
``hand_result`` says ``practice: true`` with points-only payments (0 coins), like its hand record, and the
table's snapshot names no coin rate."""

from __future__ import annotations

from app.game.rooms import RoomKey
from app.game.variants import VariantKey
from tests.app.support.table_harness import answer_until, harness, is_type


async def test_a_tournament_hand_result_is_a_practice_hand(settings) -> None:
    async with harness(settings) as h:
        alice = await h.register("tour_practice")
        assert h.runtime.state is not None
        table = await h.runtime.state.registry.create_tournament_table(
            room=RoomKey.BEGINNER, variant=VariantKey.TIANTAI, options={},
            seats=[(alice["id"], "tour_practice"), None, None], game_id=999_998, hands_limit=1)
        seat = await h.connect(table.id, alice)
        snapshot = await seat.recv_until(is_type("snapshot"))
        assert snapshot["table"]["coins_per_point"] is None and snapshot["table"]["practice"] is False
        result = await answer_until(seat, "hand_result", seed=5, timeout=60)
        assert result["practice"] is True and result["coin_deltas"] == [0, 0, 0]
        assert all(p["coins"] == 0 for p in result["payments"])
        record = (await h.client.get(f"/api/hands/{result['hand_id']}", headers=alice["headers"])).json()
        assert record["practice"] is True
