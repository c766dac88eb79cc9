"""Who may read GET /api/hands/{id} (issue 9, "Hand records"): the hand's players, operators and admins (issue
11: the console opens any finished hand); everyone logged in once the table has closed, only when
HANDS_PUBLIC_AFTER_CLOSE is on.

The original finding: any logged-in account could read any finished hand's seed and every action.
"""

from __future__ import annotations

import httpx
import pytest
from sqlalchemy import update

from app.game.rooms import ROOMS, RoomKey
from app.main import create_app
from app.models import User
from app.services.settlement import settle_hand
from tests.app.conftest import PASSWORD, no_cookies


async def _hand(app, seats: list[int], table_id: str) -> int:
    async with app.state.services.sessionmaker() as session:
        outcome = await settle_hand(session, hand_key=f"{table_id}:g:1", room=ROOMS[RoomKey.BEGINNER],
                                    seats=seats, payments=[(1, 0, 3)], winners=[0], variant="taiwan",
                                    record={"table_id": table_id, "seed": "s", "commitment": "c", "actions": [],
                                            "result": {}})
    return outcome.hand_id


async def _accounts(client: httpx.AsyncClient, names: list[str]) -> dict[str, dict]:
    out = {}
    for name in names:
        body = (await client.post("/api/auth/register", json={"username": name, "password": PASSWORD})).json()
        out[name] = {"id": body["user"]["id"], "headers": {"Authorization": f"Bearer {body['access_token']}"}}
    return out


@pytest.mark.parametrize("public", [False, True])
async def test_hand_records_are_readable_by_their_players_operators_and_admins(settings, public):
    app = create_app(settings.model_copy(update={"hands_public_after_close": public}))
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://test", cookies=no_cookies()) as client:
        people = await _accounts(client, ["pla", "plb", "plc", "pld", "snoop", "chief", "host", "oper"])
        async with app.state.services.sessionmaker() as session:
            await session.execute(update(User).where(User.id == people["chief"]["id"]).values(role="admin"))
            await session.execute(update(User).where(User.id == people["oper"]["id"]).values(role="operator"))
            await session.commit()
        open_table = (await client.post("/api/rooms/beginner/tables", json={"variant": "taiwan"},
                                        headers=people["host"]["headers"])).json()["id"]
        players = [people[n]["id"] for n in ("pla", "plb", "plc", "pld")]
        closed_hand = await _hand(app, players, "gone-table")  # its table is no longer in the registry
        open_hand = await _hand(app, players, open_table)

        for hand_id in (closed_hand, open_hand):
            for name in ("pla", "pld", "chief", "oper"):
                response = await client.get(f"/api/hands/{hand_id}", headers=people[name]["headers"])
                assert response.status_code == 200 and response.json()["seed"] == "s"
        refused = await client.get(f"/api/hands/{open_hand}", headers=people["snoop"]["headers"])
        assert refused.status_code == 403 and refused.json()["code"] == "hand_private"
        after_close = await client.get(f"/api/hands/{closed_hand}", headers=people["snoop"]["headers"])
        assert after_close.status_code == (200 if public else 403)
        assert (await client.get(f"/api/hands/{closed_hand}")).status_code == 401
        missing = await client.get("/api/hands/999999", headers=people["pla"]["headers"])
        assert missing.status_code == 404 and missing.json()["code"] == "hand_not_found"
