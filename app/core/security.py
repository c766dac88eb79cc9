"""Passwords (argon2id) and opaque secret tokens (sessions, socket tickets: stored only as digests)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

# argon2id with the library's recommended time and memory cost (RFC 9106 low-memory: t=3, 64 MiB) but one
# lane: with its default four lanes one verification spreads over 1.5 cores of this 2-core machine (226 ms
# wall, 351 ms CPU), so the hash pool's one worker no longer left a core to the event loop.  One lane costs
# the same memory and about the same CPU (324 ms), on one core.  Hashes carry their parameters, so hashes
# made with four lanes still verify.
_hasher = PasswordHasher(parallelism=1)
# Verified when the username does not exist, so a failed login takes as long either way (no enumeration).
_DUMMY_HASH = _hasher.hash("not-a-real-password")


# argon2 is deliberately slow and CPU-bound: it runs in its own small pool of threads, so a burst of logins
# queues there instead of taking every core from the event loop (Settings.password_hash_workers).
HASH_NICENESS = 10  # argon2 threads yield the CPU to the event loop (and to the tables) when both want it


def _lower_priority() -> None:
    # Linux gives each thread its own nice value, and the threads libargon2 starts for its lanes inherit it.
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_NICENESS)


def _new_pool(workers: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="argon2", initializer=_lower_priority)


_pool_workers = 1
_pool = _new_pool(_pool_workers)


def set_hash_workers(workers: int) -> None:
    """Size the argon2 pool (at startup, from ``Settings.password_hash_workers``)."""
    global _pool, _pool_workers
    if _pool_workers != workers:
        old, _pool, _pool_workers = _pool, _new_pool(workers), workers
        old.shutdown(wait=False)


async def hash_password(password: str) -> str:
    # Looked up at call time: tests swap in a cheaper hasher.
    return await asyncio.get_running_loop().run_in_executor(_pool, lambda: _hasher.hash(password))


async def verify_password(password: str, password_hash: str | None) -> bool:
    """Call with no database transaction open: this takes tens of milliseconds of CPU."""
    def _verify() -> bool:
        try:
            return _hasher.verify(password_hash or _DUMMY_HASH, password) and password_hash is not None
        except (VerificationError, InvalidHashError):
            return False

    return await asyncio.get_running_loop().run_in_executor(_pool, _verify)


def new_secret_token() -> str:
    """An opaque secret (a session token or a socket ticket): 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """What is stored and looked up instead of a secret token: its SHA-256, hex.  A fast hash suffices:
    the token is random, not a password a dictionary could guess."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
