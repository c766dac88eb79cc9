"""The shipped one-machine proxy (deploy/nginx.local.conf) run by a test or a bench: Debian's nginx on a free
loopback port in front of given app processes.

The shipped file is used as it is but for what a test must choose: the ``server`` lines of its ``upstream
mahjong`` block (the test's processes on their free ports) and the ``listen`` port.  Its included files
(deploy/proxy/) are copied beside it, and pid, logs and temporary files live under a directory of its own
(nginx's ``-p``), as docs/operations.md tells a person to run it: the system's nginx is never touched.

    with LocalProxy([port1, port2]) as proxy: ... proxy.url ... proxy.reload() ... proxy.restart() ...
"""

from __future__ import annotations

import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from tests.app.support.live_server import free_port

ROOT = Path(__file__).resolve().parents[3]
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
UPSTREAM = re.compile(r"(upstream mahjong \{)(.*?)(\n\s*\})", re.S)
LOCAL_SERVER = re.compile(r"\n(\s*)server 127\.0\.0\.1:\d+;")
LISTEN = re.compile(r"listen 127\.0\.0\.1:\d+;")


def nginx_installed() -> bool:
    return Path(NGINX).exists()


def local_config(upstream_ports: list[int], listen: int) -> str:
    """deploy/nginx.local.conf with its upstream servers and its port replaced, every other line as shipped."""
    text = (DEPLOY / "nginx.local.conf").read_text("utf-8")
    block = UPSTREAM.search(text)
    assert block is not None, "deploy/nginx.local.conf has no `upstream mahjong { ... }` block"
    body = block.group(2)
    first = LOCAL_SERVER.search(body)
    assert first is not None, "the upstream block lists no 127.0.0.1 server"
    indent = first.group(1)
    servers = "".join(f"\n{indent}server 127.0.0.1:{port};" for port in upstream_ports)
    body = body[:first.start()] + servers + LOCAL_SERVER.sub("", body[first.start():])
    text = text[:block.start(2)] + body + text[block.end(2):]
    assert len(LISTEN.findall(text)) == 1, "deploy/nginx.local.conf must listen on one 127.0.0.1 port"
    return LISTEN.sub(f"listen 127.0.0.1:{listen};", text)


class LocalProxy:
    """nginx with deploy/nginx.local.conf in front of ``upstream_ports``, on ``self.port``."""

    def __init__(self, upstream_ports: list[int], directory: Path | None = None) -> None:
        self.upstream_ports = upstream_ports
        self.port = free_port()
        self.dir = directory or Path(tempfile.mkdtemp(prefix="nginx-local-"))
        self._own_dir = directory is None
        self.conf = self.dir / "nginx.local.conf"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def access_log(self) -> Path:
        return self.dir / "logs" / "access.log"

    @property
    def error_log(self) -> Path:
        return self.dir / "logs" / "error.log"

    def _nginx(self, *args: str) -> list[str]:
        return [NGINX, "-p", str(self.dir), "-e", str(self.error_log), "-c", str(self.conf), *args]

    def write(self) -> None:
        """The config and its includes into the proxy's directory."""
        (self.dir / "logs").mkdir(parents=True, exist_ok=True)
        shutil.copytree(DEPLOY / "proxy", self.dir / "proxy", dirs_exist_ok=True)
        self.conf.write_text(self.config(), "utf-8")

    def config(self) -> str:
        """The config text this proxy runs (a bench may change more of it)."""
        return local_config(self.upstream_ports, self.port)

    def check(self) -> subprocess.CompletedProcess[str]:
        """``nginx -t`` of the config as written."""
        self.write()
        return subprocess.run(self._nginx("-t"), capture_output=True, text=True, timeout=60)

    def start(self) -> None:
        checked = self.check()
        assert checked.returncode == 0, checked.stderr
        self.proc = subprocess.Popen(self._nginx("-g", "daemon off;"), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        self._wait_listening()

    def _wait_listening(self, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited {self.proc.returncode}: {self.errors()}")
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError(f"nginx did not listen on {self.port}: {self.errors()}")

    def reload(self) -> None:
        """``nginx -s reload`` (as the docs say): new workers take new connections, the old ones close theirs
        within the config's worker_shutdown_timeout."""
        subprocess.run(self._nginx("-s", "reload"), check=True, capture_output=True, timeout=30)

    def stop(self) -> None:
        """A fast stop (SIGTERM: every connection dropped at once)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(30)

    def restart(self, down_seconds: float = 0.0) -> None:
        """Stopped, and started again on the same port after ``down_seconds``."""
        self.stop()
        time.sleep(down_seconds)
        self.start()

    def errors(self) -> str:
        return self.error_log.read_text("utf-8", errors="replace")[-3000:] if self.error_log.exists() else ""

    def close(self) -> None:
        self.stop()
        if self._own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> LocalProxy:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
