"""Voiding a hand (作廢), whichever kind: a coin hand's ledger movements are reversed
(``app.services.admin.void_hand``); a tournament hand moved no coins but counted tournament points, so its
points come off its table's game and its players' standings — while that still changes something.

A tournament hand can be voided once its table's game is recorded and before the prizes are paid: while the
table still plays, its running totals would carry the hand back in (409 ``tournament_game_playing``); after
the payout the standings are history (409 ``tournament_paid``).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Hand, TournamentEntry, TournamentGame
from app.services import admin, audit
from app.services.admin import VoidResult
from app.services.errors import Conflict, ErrorCode, InvalidInput
from app.tournaments import service
from app.tournaments.spec import TournamentState


async def void_hand(session: AsyncSession, *, hand_id: int, actor_id: int, reason: str) -> VoidResult:
    """Void hand ``hand_id`` once, audited as ``hand.void``; a tournament hand through its points."""
    game_id = await session.scalar(
        select(TournamentGame.id).join(Hand, Hand.table_id == TournamentGame.table_id)
        .where(Hand.id == hand_id, Hand.practice.is_(True)))
    await session.commit()
    if game_id is None:
        return await admin.void_hand(session, hand_id=hand_id, actor_id=actor_id, reason=reason)
    return await _void_tournament_hand(session, hand_id=hand_id, game_id=game_id, actor_id=actor_id,
                                       reason=reason)


async def _void_tournament_hand(session: AsyncSession, *, hand_id: int, game_id: int, actor_id: int,
                                reason: str) -> VoidResult:
    if not reason.strip():
        raise InvalidInput("a reason is required", field="reason", reason="missing")
    game = await session.get(TournamentGame, game_id)
    assert game is not None
    tournament, _ = await service.locked(session, game.tournament_id)  # the pool's lock: no payout meanwhile
    await session.refresh(game)
    hand = await session.get(Hand, hand_id, populate_existing=True)
    assert hand is not None
    problem = await _refusal(session, tournament.id, tournament.state, game, hand_id)
    if problem is not None:
        await session.rollback()
        raise problem
    deltas = list(hand.settlement.get("point_deltas") or [0] * len(hand.seats))
    entries = {e.user_id: e for e in await session.scalars(select(TournamentEntry).where(
        TournamentEntry.tournament_id == tournament.id))}
    before = {str(uid): entries[uid].points for uid in hand.seats if uid in entries}
    for uid, delta in zip(hand.seats, deltas, strict=True):
        if uid in entries:
            entries[uid].points -= delta
    game.points = [p - d for p, d in zip(game.points or [0] * len(deltas), deltas, strict=True)]
    audit.record(session, actor_id=actor_id, action="hand.void", target_type="hand", target_id=hand_id,
                 before={"tournament_id": tournament.id, "points": before},
                 after={"points": {str(uid): entries[uid].points for uid in hand.seats if uid in entries},
                        "reversed": deltas}, reason=reason.strip())
    await session.commit()
    return VoidResult(hand_id=hand_id, entries=[])


async def _refusal(session: AsyncSession, tournament_id: int, state: str, game: TournamentGame,
                   hand_id: int) -> Conflict | None:
    if await admin.already_voided(session, hand_id):
        return Conflict(f"hand {hand_id} is already void", ErrorCode.HAND_ALREADY_VOID, hand_id=hand_id)
    if state == TournamentState.FINISHED:
        return Conflict("the tournament's prizes are paid; its hands can no longer be voided",
                        ErrorCode.TOURNAMENT_PAID, tournament_id=tournament_id, hand_id=hand_id)
    if state != TournamentState.RUNNING:
        return Conflict(f"a {state} tournament's hands count for nothing; there is nothing to void",
                        ErrorCode.TOURNAMENT_WRONG_STATE, tournament_id=tournament_id, state=state,
                        action="void", allowed=[])
    if not game.finished:
        return Conflict("the hand's table is still playing; void it once its game has ended",
                        ErrorCode.TOURNAMENT_GAME_PLAYING, tournament_id=tournament_id, hand_id=hand_id)
    return None
