"""Tournaments: anyone reads them, players register, operators create, start, cancel and audit them."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, status

from app.api.deps import NO_NUL, CurrentUser, OperatorUser, RegistryDep, SessionDep, TournamentId
from app.schemas_tournaments import CancelIn, StartIn, TournamentIn, TournamentOut, TournamentReportOut
from app.tournaments import accounts, queries, service
from app.tournaments.director import TournamentDirector, tournament_view

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])
operator_router = APIRouter(prefix="/api/operator/tournaments", tags=["operator"])


def _director(request: Request) -> TournamentDirector:
    director: TournamentDirector = request.app.state.tournaments
    return director


@router.get("")
async def list_tournaments(
    session: SessionDep, state: Annotated[str | None, Query(max_length=16, pattern=NO_NUL)] = None
) -> list[TournamentOut]:
    """Newest first (at most 100), optionally of one state."""
    rows = await queries.list_all(session, state=state)
    return [TournamentOut.model_validate(await tournament_view(session, t.id)) for t in rows]


@router.get("/{tournament_id}")
async def read_tournament(session: SessionDep, tournament_id: TournamentId) -> TournamentOut:
    """Settings, state, live standings and the tables of every round."""
    return TournamentOut.model_validate(await tournament_view(session, tournament_id))


@router.post("/{tournament_id}/register")
async def register(user: CurrentUser, session: SessionDep, registry: RegistryDep, request: Request,
                   tournament_id: TournamentId) -> TournamentOut:
    """Pay the entry fee into the pool and take a place.  Needs the room's entry coins; again = no-op.
    Refused (409) while you sit at a table, wait in the quick-play queue or are registered in another
    tournament that has not finished: one commitment at a time."""
    await service.register(session, tournament_id, user_id=user.id, seat_probe=registry.holds)
    await _director(request).publish(tournament_id)
    return TournamentOut.model_validate(await tournament_view(session, tournament_id))


@router.delete("/{tournament_id}/register")
async def unregister(user: CurrentUser, session: SessionDep, request: Request, tournament_id: TournamentId) -> TournamentOut:
    """Before the start: leave and get the fee back."""
    await service.unregister(session, tournament_id, user_id=user.id)
    await _director(request).publish(tournament_id)
    return TournamentOut.model_validate(await tournament_view(session, tournament_id))


@operator_router.post("", status_code=status.HTTP_201_CREATED)
async def create_tournament(operator: OperatorUser, session: SessionDep, body: TournamentIn) -> TournamentOut:
    tournament = await service.create(session, body.spec(), actor_id=operator.id)
    return TournamentOut.model_validate(await tournament_view(session, tournament.id))


@operator_router.post("/{tournament_id}/start")
async def start_tournament(operator: OperatorUser, session: SessionDep, request: Request,
                           tournament_id: TournamentId, body: StartIn | None = None) -> TournamentOut:
    """Start now instead of at starts_at (round 1 seated at random); the reason goes to the audit log."""
    await _director(request).start(tournament_id, actor_id=operator.id, reason=body.reason if body else None)
    return TournamentOut.model_validate(await tournament_view(session, tournament_id))


@operator_router.post("/{tournament_id}/cancel")
async def cancel_tournament(operator: OperatorUser, session: SessionDep, request: Request, tournament_id: TournamentId,
                            body: CancelIn) -> TournamentOut:
    """Refund every fee and return the guarantee, exactly once; live tables close."""
    await service.get(session, tournament_id)
    await session.commit()
    await _director(request).cancel(tournament_id, actor_id=operator.id, reason=body.reason)
    return TournamentOut.model_validate(await tournament_view(session, tournament_id))


@operator_router.get("/house")
async def house(_operator: OperatorUser, session: SessionDep) -> dict[str, int]:
    """The house account that funds guarantees: an admin funds or drains it with POST /api/admin/house."""
    account = await accounts.house_account(session)
    await session.commit()
    return {"id": account.id, "coins": account.coins}


@operator_router.get("/{tournament_id}/report")
async def report(_operator: OperatorUser, session: SessionDep, tournament_id: TournamentId) -> TournamentReportOut:
    """Fees in, refunds and prizes out, the guarantee, and whether the pool balances."""
    return TournamentReportOut.model_validate(await queries.money_report(session, tournament_id))
