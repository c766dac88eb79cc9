"""Tournaments in the database (比賽): create, register, start, record a table's game, pay out, cancel.

State machine: scheduled → registering → running → finished, or → cancelled from any state before
finished.  Each transition is one transaction that locks the tournament's pool account first, so two
processes (or a retried request) can never apply one twice.  Money moves only through the ledger:

* registering: fee player → pool (``tourney:{t}:fee:{user}:{n}``, n = the account's n-th registration);
* unregistering (before the start): the same back (``tourney:{t}:refund:{user}:{n}``);
* a guarantee: house → pool at creation (``tourney:{t}:guarantee``), back to the house on cancel;
* prizes at the end: pool → player (``tourney:{t}:prize:{place}``, one key per place), exactly once;
* cancelling: every active fee refunded (``…:refund:…``), exactly once.

After finishing or cancelling, the pool account holds 0: pool + payouts + refunds balance.
House bots (None seats) fill tables when the registrations do not divide by the table size; they play for
no prize and are not in the standings (docs/tournaments.md).
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import begin_write
from app.game.rooms import ROOMS, RoomKey
from app.game.variants import VARIANT_INFO, VariantKey
from app.models import Tournament, TournamentEntry, TournamentGame, User
from app.services import audit, commitments
from app.services.commitments import CommitmentKind, SeatProbe
from app.services.errors import Conflict, ErrorCode, Forbidden, InvalidInput, NotFound
from app.services.ledger import lock_users, post_entry
from app.services.roles import Role
from app.tournaments.accounts import director_id, house_account, system_account
from app.tournaments.prizes import award, place_amounts, seat_round
from app.tournaments.spec import OPEN, TournamentSpec, TournamentState, operator_actions, validate

FEE, REFUND, PRIZE, GUARANTEE = "tournament_fee", "tournament_refund", "tournament_prize", "tournament_guarantee"


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """``moment`` in UTC when it came without a zone (SQLite gives naive datetimes back)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


async def get(session: AsyncSession, tournament_id: int) -> Tournament:
    tournament = await session.get(Tournament, tournament_id, populate_existing=True)
    if tournament is None:
        raise NotFound("no such tournament", ErrorCode.TOURNAMENT_NOT_FOUND, tournament_id=tournament_id)
    return tournament


async def create(session: AsyncSession, spec: TournamentSpec, *, actor_id: int | None,
                 also: Callable[[Tournament], None] | None = None) -> Tournament:
    """A new tournament with its own pool account; the guarantee moves from the house into the pool.
    ``also(tournament)`` adds what must commit with it (a schedule's occurrence, app.tournaments.schedules)."""
    options = validate(spec)
    await begin_write(session)  # SQLite: take the write lock before reading (app.core.db)
    opens_now = spec.opens_at is None or aware(spec.opens_at) <= now()
    house = await house_account(session)
    tournament = Tournament(
        name=unicodedata.normalize("NFC", spec.name).strip(), room=spec.room.value, variant=spec.variant.value, options=options,
        hands_per_round=spec.hands_per_round, rounds=spec.rounds, entry_fee=spec.entry_fee,
        player_limit=spec.player_limit, prize_split=list(spec.prize_split), guarantee=spec.guarantee,
        starts_at=aware(spec.starts_at), opens_at=aware(spec.opens_at) if spec.opens_at else None,
        state=(TournamentState.REGISTERING if opens_now else TournamentState.SCHEDULED).value,
        created_by=actor_id,
    )
    session.add(tournament)
    await session.flush()
    pool = await system_account(session, f"pool#{tournament.id}")
    tournament.pool_user_id = pool.id
    if spec.guarantee:
        accounts = await lock_users(session, [house.id, pool.id])
        if accounts[house.id].coins < spec.guarantee:
            have = accounts[house.id].coins
            await session.rollback()
            raise Conflict(f"the house holds {have} coins, less than the guarantee {spec.guarantee}",
                           ErrorCode.HOUSE_SHORT, needed=spec.guarantee, have=have)
        _move(session, accounts[house.id], accounts[pool.id], spec.guarantee, GUARANTEE,
              f"tourney:{tournament.id}:guarantee", f"guarantee of tournament {tournament.id}")
    audit.record(session, actor_id=actor_id, action="tournament.create", target_type="tournament",
                 target_id=tournament.id, after=summary(tournament))
    if also is not None:
        also(tournament)
    await session.commit()
    return tournament


def _move(session: AsyncSession, payer: User, payee: User, coins: int, reason: str, key: str, note: str,
          actor_id: int | None = None) -> None:
    """One transfer = a debit and a credit entry (``key`` and ``key:in``), so it sums to zero."""
    post_entry(session, payer, asset="coins", delta=-coins, reason=reason, idempotency_key=key,
               actor_id=actor_id, note=note)
    post_entry(session, payee, asset="coins", delta=coins, reason=reason, idempotency_key=f"{key}:in",
               actor_id=actor_id, note=note)


def summary(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.id, "name": t.name, "room": t.room, "variant": t.variant, "state": t.state,
        "entry_fee": t.entry_fee, "player_limit": t.player_limit, "rounds": t.rounds,
        "hands_per_round": t.hands_per_round, "prize_split": t.prize_split, "guarantee": t.guarantee,
        "starts_at": aware(t.starts_at).isoformat() if t.starts_at else None, "current_round": t.current_round,
        "actions": operator_actions(t.state),
    }


def pool_id(tournament: Tournament) -> int:
    """The tournament's pool account (``create`` sets it in the tournament's first transaction)."""
    if tournament.pool_user_id is None:
        raise RuntimeError(f"tournament {tournament.id} has no pool account")
    return tournament.pool_user_id


async def locked(session: AsyncSession, tournament_id: int, *others: int) -> tuple[Tournament, dict[int, User]]:
    """The tournament, fresh, with its pool account (and ``others``) locked: the serialisation point."""
    tournament = await get(session, tournament_id)
    users = await lock_users(session, [pool_id(tournament), *others])
    await session.refresh(tournament)
    return tournament, users


async def entries(session: AsyncSession, tournament_id: int, *, active: bool = True) -> list[TournamentEntry]:
    query = select(TournamentEntry).where(TournamentEntry.tournament_id == tournament_id)
    if active:
        query = query.where(TournamentEntry.active.is_(True))
    return list(await session.scalars(query.order_by(TournamentEntry.id).execution_options(populate_existing=True)))


async def register(session: AsyncSession, tournament_id: int, *, user_id: int,
                   seat_probe: SeatProbe | None = None) -> TournamentEntry:
    """Take the fee into the pool and enter the player.  Registering again changes nothing.

    The registration is the player's one commitment (app.services.commitments) until the tournament ends:
    nobody registers while seated, queued or registered in another unfinished tournament.
    Raises Conflict (not open, full, too few coins, committed elsewhere), Forbidden (frozen).
    """
    tournament, users = await locked(session, tournament_id, user_id)
    player, pool = users[user_id], users[pool_id(tournament)]
    entry = await session.scalar(select(TournamentEntry).where(
        TournamentEntry.tournament_id == tournament_id, TournamentEntry.user_id == user_id))
    if entry is not None and entry.active:
        await session.commit()
        return entry
    problem = _registration_problem(tournament, player, len(await entries(session, tournament_id)))
    if problem is None:
        try:
            await commitments.acquire(session, user_id, CommitmentKind.TOURNAMENT, str(tournament_id),
                                      seat_probe=seat_probe)
        except Conflict as refused:
            problem = refused
    if problem is not None:
        await session.rollback()
        raise problem
    if entry is None:
        entry = TournamentEntry(tournament_id=tournament_id, user_id=user_id, registrations=0, active=False)
        session.add(entry)
    entry.registrations += 1
    entry.active = True
    if tournament.entry_fee:
        _move(session, player, pool, tournament.entry_fee, FEE,
              f"tourney:{tournament_id}:fee:{user_id}:{entry.registrations}",
              f"entry fee of tournament {tournament_id}")
    await session.commit()
    return entry


def _registration_problem(tournament: Tournament, player: User, registered: int) -> Exception | None:
    if tournament.state != TournamentState.REGISTERING:
        return Conflict("this tournament is not taking registrations", ErrorCode.TOURNAMENT_CLOSED,
                        tournament_id=tournament.id, state=tournament.state)
    if player.frozen:
        return Forbidden("this account is frozen", ErrorCode.ACCOUNT_FROZEN)
    if player.role == Role.SYSTEM:
        return Forbidden("system accounts do not play", ErrorCode.FORBIDDEN)
    if registered >= tournament.player_limit:
        return Conflict("this tournament is full", ErrorCode.TOURNAMENT_FULL, tournament_id=tournament.id)
    room = ROOMS[RoomKey(tournament.room)]
    needed = max(room.entry_coins, tournament.entry_fee)
    if player.coins < needed:
        return Conflict(f"you need {needed} coins to register; you have {player.coins}",
                        ErrorCode.INSUFFICIENT_COINS, room=room.key.value, needed=needed, have=player.coins)
    return None


async def unregister(session: AsyncSession, tournament_id: int, *, user_id: int) -> None:
    """Before the start: refund the fee and leave.  Not registered: nothing happens."""
    tournament, users = await locked(session, tournament_id, user_id)
    entry = await session.scalar(select(TournamentEntry).where(
        TournamentEntry.tournament_id == tournament_id, TournamentEntry.user_id == user_id))
    if entry is None or not entry.active:
        await session.commit()
        return
    state = tournament.state  # read before the rollback expires it
    if state not in OPEN:
        await session.rollback()
        raise Conflict("the tournament has started; you cannot leave it now", ErrorCode.TOURNAMENT_CLOSED,
                       tournament_id=tournament_id, state=state)
    _refund(session, tournament, entry, users[pool_id(tournament)], users[user_id])
    await commitments.release(session, user_id, CommitmentKind.TOURNAMENT, str(tournament_id))
    await session.commit()


def _refund(session: AsyncSession, tournament: Tournament, entry: TournamentEntry, pool: User, player: User,
            actor_id: int | None = None) -> None:
    entry.active = False
    if tournament.entry_fee:
        _move(session, pool, player, tournament.entry_fee, REFUND,
              f"tourney:{tournament.id}:refund:{entry.user_id}:{entry.registrations}",
              f"refund of tournament {tournament.id}", actor_id)


async def open_registration(session: AsyncSession, tournament_id: int) -> bool:
    """scheduled → registering.  False when it was not scheduled (already opened elsewhere)."""
    tournament, _ = await locked(session, tournament_id)
    if tournament.state != TournamentState.SCHEDULED:
        await session.commit()
        return False
    tournament.state = TournamentState.REGISTERING.value
    audit.record(session, actor_id=await director_id(session), action="tournament.open", target_type="tournament",
                 target_id=tournament_id, before={"state": "scheduled"}, after={"state": "registering"})
    await session.commit()
    return True


def check_action(tournament: Tournament, action: str) -> None:
    """Refuse (coded 409) what the tournament's state does not allow (``spec.OPERATOR_ACTIONS``)."""
    allowed = operator_actions(tournament.state)
    if action not in allowed:
        raise Conflict(f"a {tournament.state} tournament does not allow {action!r} (only {allowed})",
                       ErrorCode.TOURNAMENT_WRONG_STATE,
                       tournament_id=tournament.id, state=tournament.state, action=action, allowed=allowed)


async def locked_for(session: AsyncSession, tournament_id: int, action: str) -> Tournament:
    """The tournament, locked (``locked``), if its state allows ``action``; else the coded 409, with the
    transaction rolled back so the refusal changes nothing."""
    tournament, _ = await locked(session, tournament_id)
    try:
        check_action(tournament, action)
    except Conflict:
        await session.rollback()
        raise
    return tournament


async def start(session: AsyncSession, tournament_id: int, *, rng: random.Random,
                actor_id: int | None = None, reason: str | None = None) -> list[TournamentGame] | None:
    """registering → running with round 1 seated at random.  Conflict (``tournament_wrong_state``) when it
    is not registering (e.g. another process started it).  Fewer than two players: the tournament is
    cancelled instead (refunds) and None is returned."""
    tournament = await locked_for(session, tournament_id, "start")
    players = await _committed(session, tournament, await entries(session, tournament_id), actor_id)
    if len(players) < 2:
        await session.commit()
        await cancel(session, tournament_id, actor_id=actor_id, reason="fewer than two players registered")
        return None
    tournament.state = TournamentState.RUNNING.value
    tournament.current_round = 1
    games = _seat(session, tournament, players, rng)
    audit.record(session, actor_id=actor_id, action="tournament.start", target_type="tournament",
                 target_id=tournament_id, before={"state": "registering"},
                 after={"state": "running", "players": len(players)}, reason=reason)
    await session.commit()
    return games


async def _committed(session: AsyncSession, tournament: Tournament, rows: list[TournamentEntry],
                     actor_id: int | None) -> list[int]:
    """The registered players whose one commitment is this tournament (the start seats only them).  A
    registration from before commitments existed takes its commitment now; one whose player is committed
    elsewhere is refunded and dropped, never seated at a second table."""
    users = await lock_users(session, [pool_id(tournament), *(e.user_id for e in rows)])  # in id order
    players = []
    for entry in rows:
        if users[entry.user_id].frozen:  # frozen since registering: refunded, not seated
            _refund(session, tournament, entry, users[pool_id(tournament)], users[entry.user_id], actor_id)
            await commitments.release(session, entry.user_id, CommitmentKind.TOURNAMENT, str(tournament.id))
            continue
        try:
            await commitments.acquire(session, entry.user_id, CommitmentKind.TOURNAMENT, str(tournament.id))
        except Conflict:
            _refund(session, tournament, entry, users[pool_id(tournament)], users[entry.user_id], actor_id)
            continue
        players.append(entry.user_id)
    return players


def _seat(session: AsyncSession, tournament: Tournament, ranked: list[int], rng: random.Random | None
          ) -> list[TournamentGame]:
    seats = VARIANT_INFO[VariantKey(tournament.variant)].seats
    field: list[int | None] = [*ranked, *[None] * (-len(ranked) % seats)]  # house bots fill the last table
    games = [
        TournamentGame(tournament_id=tournament.id, round=tournament.current_round, table_no=n,
                       seats=table, finished=False, hands_played=0)
        for n, table in enumerate(seat_round(field, seats, rng), start=1)
    ]
    session.add_all(games)
    return games


async def unfinished_games(session: AsyncSession, tournament_id: int) -> list[TournamentGame]:
    tournament = await get(session, tournament_id)
    return list(await session.scalars(
        select(TournamentGame).where(TournamentGame.tournament_id == tournament_id,
                                     TournamentGame.round == tournament.current_round,
                                     TournamentGame.finished.is_(False))
        .order_by(TournamentGame.table_no).execution_options(populate_existing=True)))


async def set_table(session: AsyncSession, game_id: int, table_id: str) -> None:
    """The game plays at ``table_id`` from now.  A table it had before (closed by an operator, its game to be
    played again from the start) stays on the game's record in ``closed_tables``: its hands keep their own
    table id, and the record says where they were played."""
    await begin_write(session)
    game = await session.get(TournamentGame, game_id, populate_existing=True)
    assert game is not None
    if game.table_id is not None and game.table_id != table_id:
        game.closed_tables = [*(game.closed_tables or []), game.table_id]
    game.table_id = table_id
    await session.commit()


async def add_game_result(session: AsyncSession, game_id: int, *, points: list[int], hands_played: int
                          ) -> str:
    """A table's game ended: add its points to the players' totals, once.  Then, when the round is
    complete, seat the next round by standings or finish and pay the prizes.

    Returns "recorded" (others still play), "next_round", "finished", or "ignored" (already recorded, or
    the tournament is no longer running).
    """
    game = await session.get(TournamentGame, game_id)
    if game is None:
        raise NotFound("no such tournament game", ErrorCode.TOURNAMENT_NOT_FOUND)
    tournament, _ = await locked(session, game.tournament_id)
    await session.refresh(game)
    if game.finished or tournament.state != TournamentState.RUNNING:
        await session.commit()
        return "ignored"
    game.finished, game.points, game.hands_played = True, list(points), hands_played
    by_user = {e.user_id: e for e in await entries(session, tournament.id)}
    for uid, pts in zip(game.seats, points, strict=True):
        if uid is not None and uid in by_user:
            by_user[uid].points += pts
    frozen = set(await session.scalars(select(User.id).where(User.id.in_(list(by_user)), User.frozen.is_(True))))
    for uid in frozen:  # frozen before ``disqualify`` got to it: out all the same
        by_user[uid].disqualified = True
    # A disqualified player's seat played on 托管 to here: they are done, and free to be committed elsewhere.
    await commitments.release_all(session, CommitmentKind.TOURNAMENT, str(tournament.id), user_ids=[
        uid for uid in game.seats if uid is not None and uid in by_user and by_user[uid].disqualified])
    await session.flush()
    if await unfinished_games(session, tournament.id):
        await session.commit()
        return "recorded"
    eligible = [e for e in by_user.values() if not e.disqualified]
    if tournament.current_round < tournament.rounds and eligible:
        tournament.current_round += 1
        _seat(session, tournament, [e.user_id for e in _ranked(eligible)], None)
        await session.commit()
        return "next_round"
    await _pay_prizes(session, tournament, eligible, await director_id(session))
    await session.commit()
    return "finished"


def _ranked(rows: list[TournamentEntry]) -> list[TournamentEntry]:
    return sorted(rows, key=lambda e: (-e.points, e.id))  # ties: the earlier registration first


async def pay_prizes(session: AsyncSession, tournament_id: int, *, actor_id: int | None = None) -> bool:
    """Finish a running tournament now and pay its prizes from the standings, exactly once (a retry, or a
    second process, finds it finished and does nothing: returns False)."""
    tournament, _ = await locked(session, tournament_id)
    if tournament.state != TournamentState.RUNNING:
        await session.commit()
        return False
    eligible = [e for e in await entries(session, tournament_id) if not e.disqualified]
    await _pay_prizes(session, tournament, eligible, actor_id)
    await session.commit()
    return True


async def _pay_prizes(session: AsyncSession, tournament: Tournament, rows: list[TournamentEntry],
                      actor_id: int | None = None) -> None:
    ranked = _ranked(rows)
    users = await lock_users(session, [pool_id(tournament), *(e.user_id for e in ranked)])
    pool = users[pool_id(tournament)]
    amounts = place_amounts(pool.coins, tournament.prize_split)[: len(ranked)]
    awards = award([(e.user_id, e.points) for e in ranked], amounts)
    by_user = {e.user_id: e for e in ranked}
    for a in awards:
        by_user[a.user_id].place, by_user[a.user_id].prize = a.place, a.prize
        if a.prize:
            _move(session, pool, users[a.user_id], a.prize, PRIZE, f"tourney:{tournament.id}:prize:{a.key_place}",
                  f"place {a.place} of tournament {tournament.id}", actor_id)
    if pool.coins and not awards:  # every player was disqualified: nobody won, the house takes the pool back
        house = (await lock_users(session, [(await house_account(session)).id])).popitem()[1]
        _move(session, pool, house, pool.coins, GUARANTEE, f"tourney:{tournament.id}:unclaimed",
              f"tournament {tournament.id} had no eligible finisher", actor_id)
    if pool.coins:  # fewer finishers than paid places: the unpaid places' coins go to the top finisher
        top = users[awards[0].user_id]
        left = pool.coins
        by_user[top.id].prize += left
        _move(session, pool, top, left, PRIZE, f"tourney:{tournament.id}:prize:rest",
              f"unclaimed places of tournament {tournament.id}", actor_id)
    tournament.state = TournamentState.FINISHED.value
    tournament.finished_at = now()
    await commitments.release_all(session, CommitmentKind.TOURNAMENT, str(tournament.id))
    audit.record(session, actor_id=actor_id, action="tournament.finish", target_type="tournament",
                 target_id=tournament.id, before={"state": "running"},
                 after={"state": "finished", "prizes": {str(a.user_id): by_user[a.user_id].prize for a in awards}})


async def disqualify(session: AsyncSession, user_id: int, *, actor_id: int | None, reason: str) -> list[int]:
    """A frozen account leaves every tournament it is in (app.services.admin.set_frozen's caller runs this).
    Running: disqualified — its seat plays on 托管 to the end of the round (the table goes on), then no further
    rounds and no prize (``add_game_result``).  Not started yet: refunded and unregistered.  Audited as
    ``tournament.disqualify``; returns the tournaments it touched."""
    rows = await session.execute(
        select(TournamentEntry.tournament_id).join(Tournament, Tournament.id == TournamentEntry.tournament_id)
        .where(TournamentEntry.user_id == user_id, TournamentEntry.active.is_(True),
               TournamentEntry.disqualified.is_(False),
               Tournament.state.in_([*OPEN, TournamentState.RUNNING])))
    touched = sorted({tid for (tid,) in rows.all()})
    await session.commit()
    for tournament_id in touched:
        tournament, users = await locked(session, tournament_id, user_id)
        entry = await session.scalar(select(TournamentEntry).where(
            TournamentEntry.tournament_id == tournament_id, TournamentEntry.user_id == user_id))
        assert entry is not None
        if tournament.state == TournamentState.RUNNING:
            entry.disqualified = True
        elif tournament.state in OPEN:
            _refund(session, tournament, entry, users[pool_id(tournament)], users[user_id], actor_id)
            await commitments.release(session, user_id, CommitmentKind.TOURNAMENT, str(tournament_id))
        audit.record(session, actor_id=actor_id, action="tournament.disqualify", target_type="tournament",
                     target_id=tournament_id, before={"user_id": user_id, "state": tournament.state},
                     after={"user_id": user_id, "disqualified": entry.disqualified,
                            "refunded": not entry.active}, reason=reason.strip() or None)
        await session.commit()
    return touched


async def cancel(session: AsyncSession, tournament_id: int, *, actor_id: int | None, reason: str) -> bool:
    """Cancel (before it finished): every active fee refunded and the guarantee returned, exactly once.
    Conflict (``tournament_wrong_state``) when it is already finished or cancelled."""
    if not reason.strip():
        raise InvalidInput("a reason is required", field="reason", reason="missing")
    tournament = await locked_for(session, tournament_id, "cancel")
    active = await entries(session, tournament_id)
    house = await house_account(session)
    users = await lock_users(session, [pool_id(tournament), house.id, *(e.user_id for e in active)])
    pool = users[pool_id(tournament)]
    for entry in active:
        _refund(session, tournament, entry, pool, users[entry.user_id], actor_id)
    if tournament.guarantee:
        _move(session, pool, users[house.id], tournament.guarantee, GUARANTEE,
              f"tourney:{tournament_id}:guarantee:return", f"guarantee of cancelled tournament {tournament_id}",
              actor_id)
    before = tournament.state
    tournament.state = TournamentState.CANCELLED.value
    tournament.finished_at = now()
    await commitments.release_all(session, CommitmentKind.TOURNAMENT, str(tournament_id))
    audit.record(session, actor_id=actor_id, action="tournament.cancel", target_type="tournament",
                 target_id=tournament_id, before={"state": before},
                 after={"state": "cancelled", "refunded": len(active)}, reason=reason.strip())
    await session.commit()
    return True
