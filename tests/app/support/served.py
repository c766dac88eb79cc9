"""``python -m app`` as a real process on a free port, its log captured: for what only the real server shows
(uvicorn's access log and its WebSocket protocol errors, the one-line start-up failures)."""

from __future__ import annotations

import base64
import contextlib
import os
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.app.conftest import TEST_SECRET, free_port
from tests.app.support.processes import starts_servers

ROOT = Path(__file__).resolve().parents[3]


def server_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A clean environment for ``python -m app``: SQLite in ``tmp_path``, no Redis, no tournament director."""
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL", "TEST_DATABASE_URL"}}
    env.update(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'served.sqlite3'}", SECRET_KEY=TEST_SECRET,
               ENVIRONMENT="development", HOST="127.0.0.1", PORT=str(free_port()), REDIS_URL="",
               TOURNAMENT_DIRECTOR="false", REGISTER_PER_IP="1000", LOGIN_PER_IP="1000", PYTHONUNBUFFERED="1")
    env.update(extra)
    return env


@dataclass
class Served:
    base: str
    log: Path
    process: subprocess.Popen[bytes]
    env: dict[str, str]

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``python -m app ARGS`` against this server's database."""
        return subprocess.run([sys.executable, "-m", "app", *args], cwd=ROOT, env=self.env, capture_output=True,
                              text=True, timeout=120)

    @property
    def ws(self) -> str:
        return self.base.replace("http", "ws", 1)

    def log_text(self) -> str:
        return self.log.read_text("utf-8", errors="replace")


@starts_servers
@contextlib.contextmanager
def served(tmp_path: Path, **extra: str) -> Iterator[Served]:
    env = server_env(tmp_path, **extra)
    log = tmp_path / f"server-{env['PORT']}.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{env['PORT']}"
    try:
        for _ in range(1200):
            if process.poll() is not None:
                raise AssertionError(f"server exited {process.returncode}: {log.read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            time.sleep(0.05)
        yield Served(base, log, process, env)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@starts_servers
def run_app(tmp_path: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    """``python -m app`` to its end (a start-up that fails)."""
    return subprocess.run([sys.executable, "-m", "app"], cwd=ROOT, env=server_env(tmp_path, **extra),
                          capture_output=True, text=True, timeout=120)


def raw_text_frame(port: int, path: str, payload: bytes, headers: tuple[str, ...] = ()) -> int:
    """Open a socket by hand, send one text frame of ``payload`` (any bytes, e.g. invalid UTF-8) and
    return the close code the server answers with."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as conn:
        key = base64.b64encode(os.urandom(16)).decode()
        request = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket", "Connection: Upgrade",
                   f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13", *headers, "", ""]
        conn.sendall("\r\n".join(request).encode())
        data = b""
        while b"\r\n\r\n" not in data:
            data += conn.recv(4096)
        assert data.startswith(b"HTTP/1.1 101"), data
        data = data.split(b"\r\n\r\n", 1)[1]
        mask = os.urandom(4)
        conn.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        while True:  # frames until the close frame (0x88): its first two payload bytes are the code
            while len(data) < 4:
                data += _recv(conn)
            opcode, length, start = data[0] & 0x0F, data[1] & 0x7F, 2
            if length == 126:
                length, start = struct.unpack("!H", data[2:4])[0], 4
            while len(data) < start + length:
                data += _recv(conn)
            if opcode == 0x8:
                return int(struct.unpack("!H", data[start:start + 2])[0])
            data = data[start + length:]


def _recv(conn: socket.socket) -> bytes:
    chunk = conn.recv(65536)
    if not chunk:
        raise AssertionError("closed without a close frame")
    return chunk
