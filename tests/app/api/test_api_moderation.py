"""Issue 35 item 4: an admin lists and ends an account's sessions, and writes notes on it; both audited."""

from __future__ import annotations

from tests.app.conftest import PASSWORD


async def test_admin_lists_and_ends_a_players_session(client, player):
    boss, alice = await player("mod_boss", role="admin"), await player("mod_alice")
    phone = await client.post("/api/auth/login", json={"username": "mod_alice", "password": PASSWORD},
                              headers={"User-Agent": "Phone/1.0"})
    phone_headers = {"Authorization": f"Bearer {phone.json()['access_token']}"}
    url = f"/api/admin/users/{alice.id}/sessions"
    listed = (await client.get(url, headers=boss.headers)).json()
    assert len(listed) == 2 and listed[0]["user_agent"] == "Phone/1.0"  # newest first
    assert set(listed[0]) == {"id", "created_at", "last_seen_at", "expires_at", "user_agent", "address"}

    # A reason is required (in the query: a DELETE has no body); a blank one ends nothing.
    for params in ({}, {"reason": "   "}):
        refused = await client.delete(f"{url}/{listed[0]['id']}", params=params, headers=boss.headers)
        assert refused.status_code == 422, params
    assert (await client.get("/api/me", headers=phone_headers)).status_code == 200
    why = {"reason": "lost phone"}
    ended = await client.delete(f"{url}/{listed[0]['id']}", params=why, headers=boss.headers)
    assert ended.status_code == 204
    assert (await client.get("/api/me", headers=phone_headers)).status_code == 401  # that token stopped working
    assert (await client.get("/api/me", headers=alice.headers)).status_code == 200  # the other did not
    assert [s["id"] for s in (await client.get(url, headers=boss.headers)).json()] == [listed[1]["id"]]
    # Once: a second end, someone else's session or an unknown one is a typed 404; nothing else changes.
    again = await client.delete(f"{url}/{listed[0]['id']}", params=why, headers=boss.headers)
    assert again.status_code == 404 and again.json()["code"] == "session_not_found"
    other = await client.delete(f"/api/admin/users/{boss.id}/sessions/{listed[1]['id']}", params=why,
                                headers=boss.headers)
    assert other.status_code == 404
    assert (await client.get("/api/me", headers=alice.headers)).status_code == 200
    bad = await client.delete(f"{url}/not-hex!", params=why, headers=boss.headers)
    assert bad.status_code == 422

    audit = (await client.get("/api/admin/audit", params={"action": "session.end"}, headers=boss.headers)).json()
    assert len(audit) == 1
    assert (audit[0]["actor_id"], audit[0]["target_id"], audit[0]["before"], audit[0]["reason"]) == (
        boss.id, str(alice.id), {"session": listed[0]["id"], "live": True}, "lost phone")
    # A player sees nobody's sessions but their own.
    assert (await client.get(url, headers=alice.headers)).status_code == 403


async def test_notes_on_an_account(client, player):
    boss, alice = await player("note_boss", role="admin"), await player("note_alice")
    url = f"/api/admin/users/{alice.id}/notes"
    assert (await client.get(url, headers=boss.headers)).json() == []
    first = await client.post(url, json={"text": "warned about slow play"}, headers=boss.headers)
    assert first.status_code == 201, first.text
    await client.post(url, json={"text": "  shares a flat with dumper  "}, headers=boss.headers)
    notes = (await client.get(url, headers=boss.headers)).json()
    assert [n["text"] for n in notes] == ["shares a flat with dumper", "warned about slow play"]
    assert {(n["author_id"], n["author_name"], n["user_id"]) for n in notes} == {(boss.id, "note_boss", alice.id)}
    assert all(n["created_at"].endswith("Z") or "+00:00" in n["created_at"] for n in notes)

    audit = (await client.get("/api/admin/audit", params={"action": "note.add"}, headers=boss.headers)).json()
    assert [a["after"]["text"] for a in audit] == ["shares a flat with dumper", "warned about slow play"]
    assert all(a["target_id"] == str(alice.id) and a["actor_id"] == boss.id for a in audit)

    # Strict input: an empty, blank, over-long or extra-field note is a 422 and writes nothing.
    for body in ({"text": ""}, {"text": "   "}, {"text": "x" * 2001}, {"text": "ok", "pin": True}, {"text": 5}):
        refused = await client.post(url, json=body, headers=boss.headers)
        assert refused.status_code == 422, body
    missing = await client.post("/api/admin/users/999999/notes", json={"text": "x"}, headers=boss.headers)
    assert missing.status_code == 404 and missing.json()["code"] == "user_not_found"
    assert len((await client.get(url, headers=boss.headers)).json()) == 2
    assert (await client.post(url, json={"text": "x"}, headers=alice.headers)).status_code == 403
