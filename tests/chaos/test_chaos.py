"""Issue 27: several processes under faults (docs/server.md "Several processes").

Each test is one seeded scenario over three real server processes with a private Postgres and a private
Redis (tests/chaos/services.py; the processes reach Redis through a ``FaultProxy``).  Tables of every variant
play with their seats on different processes while faults are injected one after another; after each fault
play must go on and every process's lobby must agree with the truth within a bound; at the end every game
reaches ``game_over`` on every seat and every check of ``ChaosRun.finish`` holds.  What was injected and
what held is printed at the end of the run (and with ``-s`` as it happens).
"""

from __future__ import annotations

import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.app.support.cluster_harness import Cluster, running_cluster
from tests.chaos.scenario import ChaosRun
from tests.chaos.services import FaultProxy, PrivatePostgres, PrivateRedis


@pytest.fixture
async def proxy(private_redis: PrivateRedis) -> AsyncIterator[FaultProxy]:
    proxy = FaultProxy(private_redis.port, seed=27)
    await proxy.start()
    try:
        yield proxy
    finally:
        await proxy.stop()


@pytest.fixture
async def cluster(private_postgres: PrivatePostgres, proxy: FaultProxy, tmp_path: Path) -> AsyncIterator[Cluster]:
    async with running_cluster(private_postgres.url, proxy.url, tmp_path) as running:
        yield running


@pytest.mark.timeout(600)
async def test_process_faults_kill_9_of_an_owner_then_a_rolling_restart(cluster: Cluster) -> None:
    async with ChaosRun(cluster, seed=27_001, name="procs") as run:
        await _process_faults(cluster, run)


async def _process_faults(cluster: Cluster, run: ChaosRun) -> None:

    async def kill_an_owner() -> str:
        table = run.rng.choice(run.live())
        server = cluster.server_of(await cluster.owner_pid(table.table_id))
        assert server is not None and server.proc is not None
        pid = server.proc.pid
        server.stop()  # SIGKILL
        await server.start()  # a new process in its place (the clients' address list stays valid)
        return f"kill -9 of process {cluster.servers.index(server)} (pid {pid}), owner of {table.variant} table " \
               f"{table.table_id}; restarted"

    await run.phase("kill -9", kill_an_owner)
    for i, server in enumerate(cluster.servers):
        async def terminate(server=server, i=i) -> str:  # noqa: ANN001
            server.signal(signal.SIGTERM)
            code = await server.wait(60)  # drained: server_restarting, its leases given up
            await server.start()
            return f"SIGTERM of process {i} (exit {code}), restarted"

        await run.phase(f"rolling deploy {i + 1}/3", terminate)
    assert await run.finish() == []


@pytest.mark.timeout(600)
async def test_service_faults_redis_and_postgres_restarted_latency_and_cuts(
        cluster: Cluster, private_redis: PrivateRedis, private_postgres: PrivatePostgres, proxy: FaultProxy) -> None:
    async with ChaosRun(cluster, seed=27_002, name="services") as run:
        await _service_faults(run, private_redis, private_postgres, proxy)


async def _service_faults(run: ChaosRun, private_redis: PrivateRedis, private_postgres: PrivatePostgres,
                          proxy: FaultProxy) -> None:

    async def restart_redis() -> str:
        down = round(run.rng.uniform(0.5, 2.0), 1)
        await private_redis.restart(down)
        return f"Redis killed and restarted empty after {down} s (leases, directory, queue, relay subscriptions lost)"

    async def restart_postgres() -> str:
        down = round(run.rng.uniform(1.0, 3.0), 1)
        await private_postgres.restart(down)
        return f"Postgres fast shutdown, restarted after {down} s"

    async def slow_redis() -> str:
        proxy.delay, proxy.jitter = 0.02, 0.06
        await run.mid_game()  # play goes on through the slow link
        proxy.delay = proxy.jitter = 0.0
        return "20-80 ms added to every chunk between the processes and Redis, both ways"

    async def cut_redis() -> str:
        cuts = []
        for _ in range(3):
            cuts.append(proxy.cut())
            await run.mid_game()
        return f"every connection to Redis cut 3 times ({'+'.join(map(str, cuts))} connections)"

    await run.phase("Redis restart", restart_redis)
    await run.phase("Postgres restart", restart_postgres)
    await run.phase("Redis latency", slow_redis)
    await run.phase("Redis connections cut", cut_redis)
    assert await run.finish() == []
