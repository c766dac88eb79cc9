"""Issue 34: the app believes X-Forwarded-For only from its proxy.  One setting, FORWARDED_ALLOW_IPS (the
proxy's addresses), handed to uvicorn by ``python -m app``; ``*`` (what docker-compose.yml had, so any
client could name its own address) is refused at start.  tests/app/api/test_local_proxy.py runs it for real."""

from __future__ import annotations

from pathlib import Path

import pytest
import uvicorn
import yaml
from pydantic import ValidationError

from app.core import serve
from app.core.config import Settings

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("value", ["*", "127.0.0.1,*", "proxy.example", "300.1.2.3"])
def test_anything_but_addresses_is_refused(no_env_settings, value):
    with pytest.raises(ValidationError, match="FORWARDED_ALLOW_IPS"):
        Settings(_env_file=None, forwarded_allow_ips=value)  # type: ignore[call-arg]


@pytest.mark.parametrize(("value", "kept"), [("127.0.0.1", "127.0.0.1"), (" 10.0.0.2 , 172.28.0.0/24", "10.0.0.2,172.28.0.0/24"),
                                             ("::1", "::1")])
def test_addresses_and_networks_are_kept(no_env_settings, value, kept):
    assert Settings(_env_file=None, forwarded_allow_ips=value).forwarded_allow_ips == kept  # type: ignore[call-arg]


def test_the_server_hands_the_setting_to_uvicorn(no_env_settings, monkeypatch):
    seen: list[uvicorn.Config] = []
    monkeypatch.setattr(serve.DrainingServer, "run", lambda self, *a, **k: seen.append(self.config))
    serve.serve(Settings(_env_file=None, forwarded_allow_ips="172.28.0.10"))  # type: ignore[call-arg]
    assert seen[0].proxy_headers and seen[0].forwarded_allow_ips == "172.28.0.10"


def test_compose_trusts_only_the_proxys_fixed_address():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text("utf-8"))
    trusted = compose["services"]["app"]["environment"]["FORWARDED_ALLOW_IPS"]
    proxy_address = compose["services"]["proxy"]["networks"]["default"]["ipv4_address"]
    assert trusted == proxy_address
    Settings(_env_file=None, forwarded_allow_ips=trusted)  # type: ignore[call-arg]  # a valid value
