"""The per-IP gate (限流閘) in front of login and registration, checked before FastAPI routes a request.

Why a middleware and not the endpoint: in a storm of 400 failed logins from one address, 380 are refused.
Refused in the endpoint, each still paid for routing, dependency resolution (a database session), body
parsing and validation on the event loop that also runs the tables, and one live table's discard waited
behind that burst (issue 9, bench/login_bench.py).  Here a refused request costs a dict lookup and a small
JSON response, with the same body and ``Retry-After`` header as every other 429 (docs/errors.md).
The per-username throttle stays in the endpoint: it needs the parsed body.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.errors import error_response
from app.core.throttle import Throttle, retry_after
from app.services.errors import ErrorCode, RateLimited

if TYPE_CHECKING:
    from app.state import AppState

ThrottlePick = Callable[["AppState"], Throttle]

# (method, path) → which of the process's throttles counts that request per client address.
GATED: Mapping[tuple[str, str], ThrottlePick] = {
    ("POST", "/api/auth/login"): lambda state: state.throttles.login_ip,
    ("POST", "/api/auth/register"): lambda state: state.throttles.register_ip,
}


def client_host(scope: Scope) -> str:
    """The peer address of a request (behind a proxy, uvicorn's --proxy-headers makes it the client's)."""
    client = scope.get("client")
    return client[0] if client else "unknown"


def refusal(wait: float, scope_name: str = "ip") -> tuple[str, dict[str, object], dict[str, str]]:
    """The 429's message, params and headers for a throttle that asks to ``wait`` seconds."""
    seconds = retry_after(wait)
    return (f"too many attempts; try again in {seconds} s", {"scope": scope_name, "retry_after": seconds},
            {"Retry-After": str(seconds)})


def rate_limited(wait: float, scope_name: str) -> RateLimited:
    """The 429 an endpoint raises when a throttle it checks itself (per username, per account) asks to wait."""
    detail, params, headers = refusal(wait, scope_name)
    return RateLimited(detail, headers=headers, **params)


class ThrottleGate:
    """Pure ASGI middleware: count each gated request against its per-IP throttle, or answer 429 at once."""

    def __init__(self, app: ASGIApp, gated: Mapping[tuple[str, str], ThrottlePick] = GATED) -> None:
        self.app, self.gated = app, gated

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        pick = self.gated.get((scope["method"], scope["path"])) if scope["type"] == "http" else None
        state = None if pick is None else getattr(scope["app"].state, "services", None)  # set by the lifespan
        wait = 0.0 if pick is None or state is None else pick(state).hit(client_host(scope))
        if not wait:
            await self.app(scope, receive, send)
            return
        detail, params, headers = refusal(wait)
        await error_response(ErrorCode.RATE_LIMITED, detail, params, headers=headers)(scope, receive, send)
