"""Login sessions (登入) over HTTP: log out, list and end your sessions, change your password, get a
WebSocket ticket.  The domain lives in app.services.sessions; open sockets close through app.services.live_sessions.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated

from fastapi import APIRouter, Query, Request, Response, status

from app.api.cookie_session import clear_session_cookie
from app.api.deps import NO_NUL, CurrentLogin, LoginSessionId, SessionDep, SettingsDep, StateDep
from app.api.gate import client_host, rate_limited
from app.schemas import DeviceOut, PasswordChangeIn, SessionOut, TicketOut
from app.services import accounts, sessions
from app.services.devices import device_of
from app.services.errors import ErrorCode, Forbidden, NotFound
from app.services.tickets import SocketOwner

router = APIRouter(tags=["sessions"])


@router.post("/api/auth/logout", status_code=status.HTTP_204_NO_CONTENT)
async def logout(login: CurrentLogin, session: SessionDep, state: StateDep, request: Request,
                 response: Response) -> None:
    """End this session: its token stops working, its open sockets close (4401) and the browser's session
    cookie is cleared."""
    await state.live_sessions.revoke(session, user_id=login.user.id, reason=sessions.EndReason.LOGOUT,
                                     session_id=login.login.id)
    clear_session_cookie(response, request, state.settings)


@router.post("/api/ws-ticket")
async def ws_ticket(
    login: CurrentLogin, state: StateDep, request: Request,
    table: Annotated[str | None, Query(max_length=64, pattern=NO_NUL, description="the table the socket is "
                                       "for: the answer then names the process that owns it (`node`)")] = None,
) -> TicketOut:
    """A single-use ticket for one WebSocket handshake (``/ws/...?ticket=``), valid WS_TICKET_SECONDS: the
    session token itself never goes in a URL (URLs end up in logs).  With ``table``, ``node`` names the
    process that owns the table: open the socket with ``&node=`` and the proxy routes it there, with no relay
    between processes (docs/server.md "Several processes")."""
    ticket = await state.tickets.issue(SocketOwner.of(login))
    node = await request.app.state.table_runtime.owner_node(table) if table else None
    return TicketOut(ticket=ticket, expires_in=state.settings.ws_ticket_seconds, node=node)


@router.get("/api/me/sessions")
async def my_sessions(login: CurrentLogin, session: SessionDep, settings: SettingsDep) -> list[SessionOut]:
    """Your live sessions, newest first; ``current`` marks the one making this request."""
    rows = await sessions.list_sessions(session, settings, user_id=login.user.id)
    return [SessionOut.model_validate(row).model_copy(update={
        "current": row.id == login.login.id,
        "device": DeviceOut.model_validate(asdict(device_of(row.user_agent)))}) for row in rows]


@router.delete("/api/me/sessions/{session_id}", status_code=status.HTTP_204_NO_CONTENT,
               responses={404: {"description": "no such live session of yours"}})
async def end_my_session(login: CurrentLogin, session: SessionDep, state: StateDep,
                         session_id: LoginSessionId) -> None:
    """End one of your sessions (e.g. a browser you left logged in): its sockets close at once (4401)."""
    ended = await state.live_sessions.revoke(session, user_id=login.user.id, session_id=session_id,
                                             reason=sessions.EndReason.ENDED_BY_OWNER)
    if not ended:
        raise NotFound("no such live session of yours", ErrorCode.SESSION_NOT_FOUND, session_id=session_id)


@router.post("/api/me/password", status_code=status.HTTP_204_NO_CONTENT,
             responses={403: {"description": "the current password is wrong"},
                        429: {"description": "too many wrong current passwords (the login throttles)"}})
async def change_password(login: CurrentLogin, session: SessionDep, state: StateDep, body: PasswordChangeIn,
                          request: Request) -> None:
    """Change your password; every other session of the account ends (this one stays logged in).  A wrong
    current password counts as a failed login, per account and per address (LOGIN_FAILURES_PER_USER,
    LOGIN_PER_IP): past either limit, 429 with Retry-After, even for the right password."""
    throttles, account_key, address = state.throttles, login.user.username_key, client_host(request.scope)
    wait, scope = throttles.guess_wait(account_key, address)
    if wait:
        raise rate_limited(wait, scope)
    try:
        await accounts.change_password(session, user=login.user, current=body.current_password,
                                       new=body.new_password)
    except Forbidden as refused:
        if refused.code is ErrorCode.WRONG_PASSWORD:
            throttles.count_wrong_password(account_key, address)
        raise
    await state.live_sessions.revoke(session, user_id=login.user.id, reason=sessions.EndReason.PASSWORD_CHANGED,
                                     keep=login.login.id)
