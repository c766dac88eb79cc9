"""Security headers on every HTTP response, and the allowlist of origins that may open WebSockets.

Declared once here; ``deploy/nginx.conf`` sends the same values (plus HSTS, behind TLS) and a test checks
that it does (tests/app/api/test_transport_security.py).

* ``CONTENT_SECURITY_POLICY``: the client is plain files from this origin (web/, no inline script or style,
  no third-party anything), so everything is ``'self'``; sockets are same-origin (``connect-src 'self'``
  covers ws: and wss: to this host).  ``frame-ancestors 'none'``: no site can frame a page (clickjacking),
  except that the operator console (admin.html) frames the players' replay board from this origin: the
  page asked for with ``?embed=replay`` allows ``'self'`` as its ancestor, and only that page.
* The interactive API docs (/docs, /redoc) load FastAPI's Swagger / ReDoc bundles with inline script; they
  get every header but the CSP (they are not the client and hold no secret).

Origins: a browser sends ``Origin`` with every WebSocket handshake, and a page on any site may open a
socket to this server.  Only this server's own origin (and ``Settings.ws_origins``) may; a handshake
without ``Origin`` is not from a browser page and is allowed (it must still authenticate).  A refused
handshake is answered with HTTP 403 before the socket opens.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import parse_qs

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP_DIRECTIVES: tuple[tuple[str, str], ...] = (
    ("default-src", "'self'"),
    ("script-src", "'self'"),
    ("style-src", "'self'"),
    ("img-src", "'self' data:"),
    ("font-src", "'self'"),
    ("media-src", "'self'"),
    ("connect-src", "'self'"),
    ("object-src", "'none'"),
    ("base-uri", "'none'"),
    ("form-action", "'self'"),
    ("frame-ancestors", "'none'"),
)
CONTENT_SECURITY_POLICY = "; ".join(f"{name} {value}" for name, value in CSP_DIRECTIVES)
# The one page another page of this origin may frame: the console's replay board (see the module docstring).
EMBEDDABLE_CSP = CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'", "frame-ancestors 'self'")

SECURITY_HEADERS: dict[str, str] = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate CSP 2
}
# Sent by nginx only, behind TLS: a browser that saw it refuses plain http for a year.
HSTS = "max-age=31536000; includeSubDomains"
NO_CSP_PATHS = ("/docs", "/redoc")


def security_headers(path: str, query_string: bytes) -> list[tuple[bytes, bytes]]:
    """The headers to add to the response to ``path?query``."""
    headers = dict(SECURITY_HEADERS)
    embed = parse_qs(query_string.decode("latin-1")).get("embed") == ["replay"] and path == "/"
    if embed:
        headers["X-Frame-Options"] = "SAMEORIGIN"
    if not path.startswith(NO_CSP_PATHS):
        headers["Content-Security-Policy"] = EMBEDDABLE_CSP if embed else CONTENT_SECURITY_POLICY
    return [(name.lower().encode(), value.encode()) for name, value in headers.items()]


def own_origins(scope: Scope) -> set[str]:
    """The origins this request's page would have, as the browser names them: the Host header with http
    and https (behind a TLS proxy the app itself sees http)."""
    host = Headers(scope=scope).get("host", "").lower()
    return {f"http://{host}", f"https://{host}"} if host else set()


class TransportSecurity:
    """Pure ASGI middleware: security headers on HTTP responses; WebSocket handshakes from other origins
    refused (403)."""

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = {origin.rstrip("/").lower() for origin in allowed_origins}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            origin = Headers(scope=scope).get("origin")
            if origin is not None and origin.rstrip("/").lower() not in self.allowed | own_origins(scope):
                await send({"type": "websocket.close", "code": 1008, "reason": "origin not allowed"})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = security_headers(scope["path"], scope.get("query_string", b""))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                message = {**message, "headers": [*message.get("headers", []),
                                                   *[(n, v) for n, v in extra if n not in present]]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
