"""Transport security (issue 24): headers, socket origins, secrets kept out of logs, quiet failures.

Each test is one finding of the issue and failed before: no security header at all, sockets accepted from
any Origin, 33 tokens in one short run's access log, a traceback per invalid UTF-8 frame, 75-186 lines of
traceback for a wrong DATABASE_URL.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
import websockets.exceptions
import websockets.sync.client as ws_client
from fastapi.testclient import TestClient

from app.api.headers import CONTENT_SECURITY_POLICY, EMBEDDABLE_CSP, HSTS, SECURITY_HEADERS
from app.core.config import PROJECT_ROOT
from app.core.preflight import EXIT_CONFIG
from app.core.redact import scrub
from app.main import create_app
from tests.app.conftest import PASSWORD, free_port
from tests.app.support.served import raw_text_frame, run_app, served
from tests.app.support.table_harness import Closed, SeatClient, harness

WEB = PROJECT_ROOT / "web"
PAGES = sorted(p.name for p in WEB.glob("*.html"))
NGINX_CONF = PROJECT_ROOT / "deploy" / "nginx.conf"
# What every shipped proxy config sends: deploy/nginx.conf and deploy/nginx.local.conf include these.
PROXY_SHARED = [PROJECT_ROOT / "deploy" / "proxy" / "http.conf", PROJECT_ROOT / "deploy" / "proxy" / "site.conf"]


def _expect_security_headers(response: httpx.Response, csp: str | None = CONTENT_SECURITY_POLICY) -> None:
    for name, value in SECURITY_HEADERS.items():
        if name != "X-Frame-Options" or csp != EMBEDDABLE_CSP:
            assert response.headers.get(name) == value, (response.url, name)
    assert response.headers.get("Content-Security-Policy") == csp, response.url


def test_every_response_carries_the_security_headers(settings):
    with TestClient(create_app(settings.model_copy(update={"web_dir": WEB}))) as client:
        for path in ["/", *[f"/{p}" for p in PAGES], "/js/api.js", "/api/rooms", "/healthz", "/api/me",
                     "/no/such/path"]:
            _expect_security_headers(client.get(path))
        assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY and "'unsafe-inline'" not in CONTENT_SECURITY_POLICY
        # The console frames the players' replay board from this origin, and only that page may be framed so.
        embedded = client.get("/?embed=replay")
        _expect_security_headers(embedded, EMBEDDABLE_CSP)
        assert embedded.headers["X-Frame-Options"] == "SAMEORIGIN" and "frame-ancestors 'self'" in EMBEDDABLE_CSP
        # FastAPI's interactive docs run inline script: every header but the CSP.
        docs = client.get("/docs")
        assert docs.headers["X-Content-Type-Options"] == "nosniff" and "Content-Security-Policy" not in docs.headers


class _InlineFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        self.found += [f"<{tag} {n}=>" for n in names if n.startswith("on") or n == "style"]
        if tag == "script" and "src" not in names:
            self.found.append("<script> without src")
        if tag == "style":
            self.found.append("<style>")
        self.found += [f"<{tag} {n}=javascript:>" for n, v in names.items() if (v or "").startswith("javascript:")]


# Not named ``page``: that is pytest-playwright's fixture, and borrowing its name pulled the browser tests (and
# their session-long event loop) into the middle of this directory.
@pytest.mark.parametrize("page_name", PAGES)
def test_pages_hold_no_inline_script_or_style(page_name):
    finder = _InlineFinder()
    finder.feed((WEB / page_name).read_text("utf-8"))
    assert finder.found == []


def _proxy_text() -> str:
    return "\n".join(path.read_text("utf-8") for path in PROXY_SHARED)


def _nginx_headers() -> dict[str, str]:
    text = _proxy_text()
    return {name: value for name, value in re.findall(r'add_header\s+([\w-]+)\s+"([^"]*)"\s+always;', text)}


def test_nginx_sends_the_same_headers_plus_hsts():
    sent = _nginx_headers()
    for name, value in SECURITY_HEADERS.items():
        if name != "X-Frame-Options":  # nginx follows the app's choice per page (see the config)
            assert sent.get(name) == value, name
    assert sent["Strict-Transport-Security"] == HSTS
    text = _proxy_text()
    assert f'"{CONTENT_SECURITY_POLICY}"' in text and f'"{EMBEDDABLE_CSP}"' in text
    for name in (*SECURITY_HEADERS, "Content-Security-Policy"):
        assert f"proxy_hide_header {name};" in text  # the app's copy is replaced, never sent twice


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed (.ci/run installs it)")
@pytest.mark.parametrize("name", ["nginx.conf", "nginx.local.conf"])
def test_nginx_accepts_the_config(tmp_path: Path, name: str):
    """Each shipped config as shipped, its includes beside it; the Docker one's log path (the image's
    stdout) moved into the test's directory."""
    deploy = PROJECT_ROOT / "deploy"
    shutil.copytree(deploy / "proxy", tmp_path / "proxy")
    conf = tmp_path / name
    conf.write_text((deploy / name).read_text("utf-8").replace("/var/log/nginx/", f"{tmp_path}/logs/"))
    (tmp_path / "logs").mkdir()
    pid = ["-g", f"pid {tmp_path}/nginx.pid;"] if name == "nginx.conf" else []  # the local one names its own
    result = subprocess.run(["nginx", "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"), "-c", str(conf),
                             *pid], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


async def test_sockets_from_another_origin_are_refused(settings):
    allowed = settings.model_copy(update={"ws_origins": ["https://play.example"]})
    async with harness(allowed) as h:
        alice = await h.register("alice")
        for origin in ("https://evil.example", "http://test.evil.example", "null"):
            socket = SeatClient(h.app, "/ws/lobby", token=alice["token"], origin=origin)
            with pytest.raises(Closed):  # closed before the handshake completes: HTTP 403
                await socket.connect()
        for origin in (None, "http://test", "https://play.example"):  # none (not a browser), own, allowed
            socket = SeatClient(h.app, "/ws/lobby", token=alice["token"], origin=origin)
            await socket.connect()
            assert (await socket.recv())["type"] == "snapshot"
            await socket.disconnect()


def test_scrub_masks_tokens_tickets_and_bearer_credentials():
    line = ('127.0.0.1:5 - "GET /ws/table/x?ticket=AbC-_1&token=s3cr.et&v=1 HTTP/1.1" 101 '
            'Authorization: Bearer abc.DEF-123 /ws/lobby;access_token=zz')
    assert scrub(line) == ('127.0.0.1:5 - "GET /ws/table/x?ticket=[redacted]&token=[redacted]&v=1 HTTP/1.1" 101 '
                           'Authorization: Bearer [redacted] /ws/lobby;access_token=[redacted]')


def _register(base: str, name: str) -> str:
    response = httpx.post(f"{base}/api/auth/register", json={"username": name, "password": PASSWORD}, timeout=30)
    assert response.status_code == 201, response.text
    return str(response.json()["access_token"])


def _ticket(base: str, token: str) -> str:
    response = httpx.post(f"{base}/api/ws-ticket", headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert response.status_code == 200, response.text
    return str(response.json()["ticket"])


def _first_message(url: str, **kwargs) -> dict:
    with ws_client.connect(url, open_timeout=30, **kwargs) as socket:
        return json.loads(socket.recv(timeout=30))


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_access_logs_hold_no_token_or_ticket(tmp_path, log_format):
    """Every socket kind, opened the browser's way (a ticket) and the old way (?token=, now refused)."""
    with served(tmp_path, LOG_FORMAT=log_format) as server:
        secrets = [alice := _register(server.base, "alice")]
        promoted = server.cli("make-admin", "alice")
        assert promoted.returncode == 0, promoted.stderr
        headers = {"Authorization": f"Bearer {alice}"}
        table = httpx.post(f"{server.base}/api/practice", headers=headers, json={"variant": "tiantai"}, timeout=30)
        assert table.status_code == 201, table.text
        table_id = table.json()["id"]
        for path in ("/ws/lobby", f"/ws/table/{table_id}", f"/ws/spectate/{table_id}"):
            secrets.append(ticket := _ticket(server.base, alice))
            assert _first_message(f"{server.ws}{path}?ticket={ticket}")["type"] == "snapshot", path
            with pytest.raises(websockets.exceptions.ConnectionClosed) as refused, \
                    ws_client.connect(f"{server.ws}{path}?token={alice}", open_timeout=30) as socket:
                socket.recv(timeout=30)
            assert refused.value.rcvd.code == 1008  # the token in a URL is not accepted, and not logged
        httpx.get(f"{server.base}/api/me?access_token={alice}", timeout=30)
        log = server.log_text()
    for secret in secrets:
        assert secret not in log
    if log_format == "json":  # one structured line per socket (issue 35), none of uvicorn's plain ones
        lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
        sockets = [(line["path"].split("/")[2], line["status"], line["close_code"]) for line in lines
                   if line["event"] == "websocket"]
        assert sorted(sockets) == sorted([(kind, 101, code) for kind in ("lobby", "table", "spectate")
                                          for code in (1000, 1008)]), sockets
        assert "/api/practice" in [line.get("path") for line in lines]  # the access log is on
        assert "connection open" not in log and '"WebSocket /ws' not in log
    else:
        assert "WebSocket /ws/spectate" in log and "/api/practice" in log  # the access log is on
        assert log.count("[redacted]") >= 4


def test_invalid_utf8_frames_close_1007_without_a_traceback(tmp_path):
    with served(tmp_path) as server:
        token = _register(server.base, "alice")
        port = int(server.base.rsplit(":", 1)[1])
        for _ in range(3):
            code = raw_text_frame(port, f"/ws/lobby?ticket={_ticket(server.base, token)}", b"\xff\xfe\xfd")
            assert code == 1007
        metrics = httpx.get(f"{server.base}/metrics", timeout=30).text
        log = server.log_text()
    assert 'mahjong_ws_frame_errors_total{kind="invalid_utf8"} 3.0' in metrics
    assert "Traceback" not in log and "ERROR" not in log and "UnicodeDecodeError" not in log


BAD_STARTS = [
    ("DATABASE_URL", {"DATABASE_URL": "not a url"}),
    ("DATABASE_URL", {"DATABASE_URL": "postgresql+asyncpg://postgres:pw@127.0.0.1:{closed}/x"}),  # closed port
    ("REDIS_URL", {"REDIS_URL": "redis://127.0.0.1:{closed}/0"}),  # Redis down at start
    ("PORT", {"PORT": "eighty"}),
]


@pytest.mark.parametrize(("setting", "env"), BAD_STARTS, ids=lambda x: x if isinstance(x, str) else "")
def test_a_bad_configuration_is_one_line_naming_the_setting(tmp_path, setting, env):
    closed = free_port()
    result = run_app(tmp_path, **{k: v.format(closed=closed) for k, v in env.items()})
    assert result.returncode == EXIT_CONFIG
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"cannot start: {setting}: "), result.stderr
    assert "Traceback" not in result.stderr and ":pw@" not in result.stderr  # no password either


def test_a_missing_database_is_named_and_debug_shows_the_traceback(tmp_path):
    import os

    base = os.environ.get("TEST_DATABASE_URL")
    if base is None:
        pytest.skip("needs TEST_DATABASE_URL (a Postgres server): .ci/run sets it")
    missing = base.rsplit("/", 1)[0] + "/no_such_database_issue24"
    result = run_app(tmp_path, DATABASE_URL=missing)
    assert result.returncode == EXIT_CONFIG
    assert result.stderr.strip() == (f'cannot start: DATABASE_URL: cannot use {missing}: database '
                                      '"no_such_database_issue24" does not exist (DEBUG=true shows the traceback)')
    debug = run_app(tmp_path, DATABASE_URL=missing, DEBUG="true")
    assert debug.returncode != 0 and "Traceback" in debug.stderr
