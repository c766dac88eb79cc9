""""My sessions" names each login's device as "Chrome on Android", not its raw User-Agent (issue 33 item 5)."""

from __future__ import annotations

import pytest

from app.services.devices import Device, device_of
from tests.app.conftest import PASSWORD

PIXEL = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 "
         "Mobile Safari/537.36")
IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
          "Version/17.4 Mobile/15E148 Safari/604.1")
EDGE = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 "
        "Safari/537.36 Edg/124.0.2478.51")
FIREFOX_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0"


@pytest.mark.parametrize(("agent", "device"), [
    (PIXEL, Device("Chrome", "Android")),  # the rules say "Chrome Mobile": the phone is the system's to say
    (IPHONE, Device("Safari", "iOS")),  # "Mobile Safari"
    (EDGE, Device("Edge", "Windows")),
    (FIREFOX_MAC, Device("Firefox", "Mac OS X")),
    ("python-httpx/0.27.0", Device(None, None)),  # a script names no browser: nothing is made up
    ("", Device(None, None)),
])
def test_a_user_agent_names_its_browser_and_system(agent, device):
    assert device_of(agent) == device


async def test_the_sessions_list_carries_each_logins_device(client, player):
    alice = await player("alice")
    await client.post("/api/auth/login", json={"username": "alice", "password": PASSWORD},
                      headers={"User-Agent": PIXEL})
    listed = (await client.get("/api/me/sessions", headers=alice.headers)).json()
    assert [s["device"] for s in listed] == [{"browser": "Chrome", "os": "Android"},  # the phone, newest
                                             {"browser": None, "os": None}]  # the test client's registration
    assert listed[0]["user_agent"] == PIXEL  # still there for whoever wants the details
