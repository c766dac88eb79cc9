"""Issue 35 items 1 and 2 with one process and no Redis: the admin's process list is this process alone, with
the tables it holds; draining it stops new tables here (a coded 503) while its waiting table stays, and the
act is audited.  Operators and players are refused."""

from __future__ import annotations

import os

from tests.app.support.live_server import OPTIONS


async def test_one_process_lists_itself_and_drains(client, player) -> None:
    admin = await player("procadmin", role="admin")
    operator = await player("procoperator", role="operator")
    host = await player("prochost")
    made = await client.post("/api/rooms/beginner/tables", headers=host.headers,
                             json={"variant": "taiwan", "options": OPTIONS})
    assert made.status_code == 201, made.text

    for who in (operator, host):
        assert (await client.get("/api/admin/processes", headers=who.headers)).status_code == 403
    listed = await client.get("/api/admin/processes", headers=admin.headers)
    assert listed.status_code == 200, listed.text
    [card] = listed.json()
    assert card["pid"] == os.getpid() and card["tables"] == [made.json()["id"]] and card["draining"] is False
    assert card["heartbeat_at"] >= card["started_at"] and card["version"]

    refused = await client.post(f"/api/admin/processes/{card['id']}/drain", headers=operator.headers,
                                json={"reason": "maintenance"})
    assert refused.status_code == 403
    loose = await client.post(f"/api/admin/processes/{card['id']}/drain", headers=admin.headers,
                              json={"reason": "maintenance", "now": True})
    assert loose.status_code == 422
    drained = await client.post(f"/api/admin/processes/{card['id']}/drain", headers=admin.headers,
                                json={"reason": "maintenance"})
    assert drained.status_code == 200 and drained.json()["draining"] is True

    other = await player("proclate")
    new = await client.post("/api/rooms/beginner/tables", headers=other.headers,
                            json={"variant": "taiwan", "options": OPTIONS})
    assert new.status_code == 503 and new.json()["code"] == "server_draining"
    sat = await client.post(f"/api/tables/{made.json()['id']}/sit", headers=other.headers)
    assert sat.status_code == 200, sat.text  # nowhere to hand it: the waiting table stays and still seats
    [card] = (await client.get("/api/admin/processes", headers=admin.headers)).json()
    assert card["draining"] is True
    audit = (await client.get("/api/admin/audit", headers=admin.headers, params={"action": "process.drain"})).json()
    assert [(a["actor_id"], a["target_id"], a["reason"]) for a in audit] == [(admin.id, card["id"], "maintenance")]


async def test_a_drained_process_leads_neither_quick_play_nor_a_tournament(app, client, player) -> None:
    """Quick play's matcher and the tournament director seat tables too: on a drained process they let their
    leases go (to another process, which then seats them)."""
    admin = await player("leadadmin", role="admin")
    director, matcher = app.state.tournaments, app.state.matcher
    assert await director.leads(7) and await matcher.leads()
    [card] = (await client.get("/api/admin/processes", headers=admin.headers)).json()
    drained = await client.post(f"/api/admin/processes/{card['id']}/drain", headers=admin.headers,
                                json={"reason": "maintenance"})
    assert drained.status_code == 200, drained.text
    assert not await director.leads(7) and 7 not in director.held
    assert not await matcher.leads() and not matcher.leading
