"""The browser's login (登入) as a cookie, and the CSRF check on what that cookie authenticates.

The cookie carries the same opaque session token as the bearer header (app.services.sessions): one row per
login, revocable, listed in "my sessions".  It is ``HttpOnly`` (no script reads it, so an injected script
cannot carry the login away), ``SameSite=Strict`` (no other site's page sends it) and, over https,
``Secure`` with the ``__Host-`` prefix (only this exact host, path ``/``, never set over plain http).  Whether a
request came over https is the scheme uvicorn reports (behind the proxy it trusts ``X-Forwarded-Proto`` from
``FORWARDED_ALLOW_IPS``), or ``Settings.session_cookie_secure`` forces it.

CSRF (OWASP's cheat sheet, "defense in depth"): a request that changes something and is authenticated by the
cookie alone must (1) come from our own origin: ``Origin``, when sent, names this host, and
``Sec-Fetch-Site``, when sent, is ``same-origin`` or ``none`` (typed by the user); and (2) carry the custom
header ``X-Requested-With``, which a cross-site form cannot send and a cross-site ``fetch`` could only send
after a CORS preflight that this server never grants.  A bearer request needs neither: no browser adds that
header on its own.  Login and registration are not cookie-authenticated, but they set the cookie: a foreign
``Origin`` is refused there too (login CSRF: a page logging the player into the attacker's account).
"""

from __future__ import annotations

from fastapi import Request, Response
from starlette.requests import HTTPConnection

from app.api.headers import own_origins
from app.core.config import Settings
from app.services.errors import ErrorCode, Forbidden

SESSION_COOKIE = "mj_session"  # over plain http (development, tests)
SECURE_SESSION_COOKIE = "__Host-mj_session"  # over https: Secure, this host only, path /
CSRF_HEADER = "X-Requested-With"  # any value; the client sends "mahjong"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Sec-Fetch-Site values a page of our own sends (none: the user typed the URL or used a bookmark).
OWN_FETCH_SITES = frozenset({"same-origin", "none"})


def cookie_is_secure(conn: HTTPConnection, settings: Settings) -> bool:
    """Whether this request's cookie is ``Secure`` (and so ``__Host-`` prefixed): https, or the setting."""
    if settings.session_cookie_secure == "auto":
        return conn.url.scheme in ("https", "wss")
    return settings.session_cookie_secure == "always"


def session_cookie(conn: HTTPConnection) -> str | None:
    """The session token the browser's cookie carries, if any (the ``__Host-`` one first)."""
    return conn.cookies.get(SECURE_SESSION_COOKIE) or conn.cookies.get(SESSION_COOKIE) or None


def set_session_cookie(response: Response, request: Request, settings: Settings, token: str) -> None:
    """Give the browser its login: the token, for as long as the session can live at most."""
    secure = cookie_is_secure(request, settings)
    response.set_cookie(SECURE_SESSION_COOKIE if secure else SESSION_COOKIE, token,
                        max_age=settings.session_absolute_seconds, path="/", secure=secure, httponly=True,
                        samesite="strict")


def clear_session_cookie(response: Response, request: Request, settings: Settings) -> None:
    """Take the login back from the browser (logging out)."""
    secure = cookie_is_secure(request, settings)
    response.delete_cookie(SECURE_SESSION_COOKIE if secure else SESSION_COOKIE, path="/", secure=secure,
                           httponly=True, samesite="strict")


def foreign_origin(conn: HTTPConnection) -> bool:
    """True when the browser says the request comes from a page of another origin."""
    origin = conn.headers.get("origin")
    if origin is not None and origin.rstrip("/").lower() not in own_origins(conn.scope):
        return True
    site = conn.headers.get("sec-fetch-site")
    return site is not None and site.lower() not in OWN_FETCH_SITES


def check_origin(request: Request) -> None:
    """Refuse (403 ``csrf_refused``, reason ``origin``) a request another site's page sent."""
    if foreign_origin(request):
        raise Forbidden("cross-site request refused", ErrorCode.CSRF_REFUSED, reason="origin")


def check_csrf(request: Request) -> None:
    """The CSRF check of a cookie-authenticated request: nothing for reads; for a change, our own origin and
    the custom header (403 ``csrf_refused``, reason ``origin`` or ``header``)."""
    if request.method in SAFE_METHODS:
        return
    check_origin(request)
    if not request.headers.get(CSRF_HEADER):
        raise Forbidden(f"the {CSRF_HEADER} header is required with the session cookie", ErrorCode.CSRF_REFUSED,
                        reason="header")
