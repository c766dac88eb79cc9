"""Seating across processes with Redis away (issue 24, "quiet, clear failures"; issue 23, "never a 500"): the
directory's seating lock (入座鎖) cannot be taken, so the request is a coded 503 that seats nobody."""

from __future__ import annotations

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from app.services.errors import ErrorCode, Unavailable
from app.tables.cluster.directory import TableDirectory


class DeadRedis:
    """A Redis client whose every command fails as a restarted or cut Redis makes the first one fail."""

    def __getattr__(self, name: str):  # noqa: ANN204
        async def fail(*args: object, **kwargs: object) -> None:
            raise RedisConnectionError("Connection closed by server.")
        return fail


class Host:
    redis = DeadRedis()
    prefix = "test-directory-outage"
    process_id = "p1"
    leases = None


async def test_seating_with_redis_away_is_a_coded_503_and_runs_nothing() -> None:
    directory = TableDirectory(Host())  # type: ignore[arg-type]
    seated = []
    with pytest.raises(Unavailable) as refused:
        async with directory.seating(7):
            seated.append(7)
    assert seated == []
    assert refused.value.code is ErrorCode.SEATING_UNAVAILABLE and refused.value.status == 503
