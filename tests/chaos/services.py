"""Private Redis and Postgres instances the chaos suite may restart, and a TCP proxy that delays and cuts.

The Redis and Postgres on 127.0.0.1:6379 / 5432 are shared with everything else on the machine and are never
restarted: each chaos test starts its own ``redis-server`` and its own Postgres cluster (``initdb`` into a
temporary directory, run as the ``postgres`` account when the test runs as root) on free ports.

``FaultProxy`` sits between the server processes and Redis: every chunk is held ``delay`` seconds (plus a
seeded jitter) in each direction, ``cut()`` drops every open connection, and while ``refusing`` new
connections are closed at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import pwd
import random
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from tests.app.support.live_server import free_port


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def missing_binaries() -> list[str]:
    return [name for name in ("redis-server", "initdb", "postgres") if _binary(name) is None]


async def _wait_port(port: int, timeout: float, what: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        with contextlib.suppress(OSError):
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        await asyncio.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on {port}")


class PrivateRedis:
    """A ``redis-server`` of our own, without persistence: a restart loses every key (leases, directory)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    async def start(self) -> None:
        binary = _binary("redis-server")
        assert binary is not None
        self.proc = subprocess.Popen([binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        await _wait_port(self.port, 20, "redis-server", self.proc)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    async def restart(self, down_seconds: float) -> None:
        self.kill()
        await asyncio.sleep(down_seconds)
        await self.start()


class PrivatePostgres:
    """A Postgres cluster of our own in a temporary directory (trust authentication, fsync off: a test)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="chaos-pg-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = self.dir / "postgres.log"
        self.user: str | None = "postgres" if os.geteuid() == 0 else None  # initdb refuses to run as root

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/chaos"

    def _run_as(self) -> dict[str, object]:
        return {"user": self.user, "group": self.user} if self.user else {}

    def init(self) -> None:
        data = self.dir / "data"
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        initdb = _binary("initdb")
        assert initdb is not None
        subprocess.run([initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync",
                        "--locale=C"], check=True, capture_output=True, **self._run_as())  # type: ignore[call-overload]

    async def start(self) -> None:
        binary = _binary("postgres")
        assert binary is not None
        log = self.log.open("ab")
        self.proc = subprocess.Popen(  # type: ignore[call-overload]
            [binary, "-D", str(self.dir / "data"), "-p", str(self.port), "-k", str(self.dir),
             "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
             "-c", "full_page_writes=off", "-c", "max_connections=200"],
            stdout=log, stderr=subprocess.STDOUT, **self._run_as())
        log.close()
        await _wait_port(self.port, 30, "postgres", self.proc)
        await self._ready()

    async def _ready(self) -> None:
        import asyncpg

        deadline = time.monotonic() + 30
        while True:
            try:
                conn = await asyncpg.connect(host="127.0.0.1", port=self.port, user="postgres", database="postgres")
                break
            except (OSError, asyncpg.PostgresError):  # "the database system is starting up"
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.1)
        try:
            if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = 'chaos'"):
                await conn.execute("CREATE DATABASE chaos")
        finally:
            await conn.close()

    def stop(self, sig: int = signal.SIGINT) -> None:
        """SIGINT: a fast shutdown (every session is ended, as an operator's restart does)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    async def restart(self, down_seconds: float) -> None:
        self.stop()
        await asyncio.sleep(down_seconds)
        await self.start()

    def remove(self) -> None:
        self.stop(signal.SIGKILL)
        shutil.rmtree(self.dir, ignore_errors=True)


class FaultProxy:
    """A TCP proxy on a free port to ``target_port``: seeded latency, cut connections, refused connections."""

    def __init__(self, target_port: int, seed: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.delay = 0.0
        self.jitter = 0.0
        self.refusing = False
        self.random = random.Random(seed)
        self.cuts = 0
        self._server: asyncio.base_events.Server | None = None
        self._pairs: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        self.cut()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def cut(self) -> int:
        """Drop every open connection (both ends see a reset); returns how many."""
        pairs, self._pairs = self._pairs, set()
        for client, upstream in pairs:
            for writer in (client, upstream):
                with contextlib.suppress(Exception):
                    writer.transport.abort()
        self.cuts += len(pairs)
        return len(pairs)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.refusing:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.transport.abort()
            return
        pair = (writer, up_writer)
        self._pairs.add(pair)
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(source, sink, pair))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter,
                    pair: tuple[asyncio.StreamWriter, asyncio.StreamWriter]) -> None:
        """Chunks keep their order; each is due ``delay`` (+ jitter) after it arrived, so latency adds up
        without limiting throughput."""
        due: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            loop = asyncio.get_running_loop()
            while True:
                at, data = await due.get()
                if not data:
                    return
                if at > loop.time():
                    await asyncio.sleep(at - loop.time())
                sink.write(data)
                await sink.drain()

        writer = asyncio.create_task(deliver())
        try:
            while data := await source.read(65536):
                lag = self.delay + (self.random.uniform(0, self.jitter) if self.jitter else 0.0)
                due.put_nowait((asyncio.get_running_loop().time() + lag, data))
            due.put_nowait((0.0, b""))
            await writer
        except (OSError, ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.cancel()
            self._pairs.discard(pair)
            for w in pair:
                with contextlib.suppress(Exception):
                    w.transport.abort()
