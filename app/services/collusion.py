"""The collusion report (串通報告): pairs of accounts ranked by the signals of chip dumping (送分) at coin tables.

Every pair of accounts that sat at one coin hand in the period is listed, with no minimum: the ranking and each
signal's value tell a moderator what matters; a human decides.  The signals and the ranking formula are
documented in docs/operations.md ("The collusion report"); tournament hands (practice hands, no coins) and
practice tables are not coin hands and are left out.

Read only; everything comes from the hand records (seats, winners, the discarder), the ledger (who paid whom:
each settlement payment is a debit and a credit keyed ``hand:{hand_key}:{index}:debit|credit``,
``app.services.settlement``) and the login sessions (address, user agent).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from itertools import combinations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Hand, LedgerEntry, LoginSession, User
from app.services.settlement import HAND_REASON

FLOW_SCALE = 10_000  # coins: a net flow of this size weighs 0.5 in the score (flow / (flow + FLOW_SCALE))
SHARED_WEIGHT = 0.5  # what a shared address, and a shared device, each add to the score

Pair = tuple[int, int]  # (giver, receiver) when directed; (lower id, higher id) as a key


@dataclass
class PairSignals:
    """One pair's signals.  ``giver`` is the account the net coins flowed from (送分的一方), ``receiver`` the
    one they flowed to; with no net flow, the one who fed more wins is the giver."""

    giver: int
    receiver: int
    hands_together: int = 0
    tables_together: int = 0
    together_rate: float = 0.0  # hands together / the coin hands of whichever of the two played fewer
    net_coins: int = 0  # coins from giver to receiver, net of what went back
    loss_share: float = 0.0  # of the giver's coins lost at coin hands in the period, the share paid to the receiver
    fed_wins: int = 0  # hands the receiver won on the giver's discard (放槍)
    fed_wins_back: int = 0  # hands the giver won on the receiver's discard
    shared_address: bool = False
    shared_device: bool = False  # the same User-Agent string on a session of each
    score: float = 0.0
    names: tuple[str, str] = ("", "")


@dataclass
class _Tally:
    hands: defaultdict[Pair, int] = field(default_factory=lambda: defaultdict(int))
    tables: defaultdict[Pair, set[str]] = field(default_factory=lambda: defaultdict(set))
    played: defaultdict[int, int] = field(default_factory=lambda: defaultdict(int))
    fed: defaultdict[Pair, int] = field(default_factory=lambda: defaultdict(int))  # (discarder, winner)
    paid: defaultdict[Pair, int] = field(default_factory=lambda: defaultdict(int))  # (payer, payee)
    lost: defaultdict[int, int] = field(default_factory=lambda: defaultdict(int))


def score(signals: PairSignals) -> float:
    """The ranking: together_rate + loss_share + fed_wins / hands_together + net / (net + FLOW_SCALE)
    + SHARED_WEIGHT for a shared address + SHARED_WEIGHT for a shared device (0 to 5; docs/operations.md)."""
    fed_rate = signals.fed_wins / signals.hands_together if signals.hands_together else 0.0
    flow = signals.net_coins / (signals.net_coins + FLOW_SCALE)
    shared = SHARED_WEIGHT * (signals.shared_address + signals.shared_device)
    return round(signals.together_rate + signals.loss_share + fed_rate + flow + shared, 4)


async def collusion_report(session: AsyncSession, *, since: datetime) -> list[PairSignals]:
    """Every pair of accounts that shared a coin hand since ``since``, highest score first."""
    tally = _Tally()
    await _count_hands(session, since, tally)
    await _count_payments(session, since, tally)
    pairs = [_signals(key, tally) for key in tally.hands]
    await _shared_sessions(session, pairs)
    await _names(session, pairs)
    for signals in pairs:
        signals.score = score(signals)
    return sorted(pairs, key=lambda s: (-s.score, -s.hands_together, s.giver, s.receiver))


async def _count_hands(session: AsyncSession, since: datetime, tally: _Tally) -> None:
    rows = await session.stream(select(Hand.table_id, Hand.seats, Hand.result)
                                .where(Hand.practice.is_(False), Hand.created_at >= since))
    async for table_id, seats, result in rows:
        players = sorted({uid for uid in seats if uid is not None})
        for uid in players:
            tally.played[uid] += 1
        for key in combinations(players, 2):
            tally.hands[key] += 1
            tally.tables[key].add(table_id or "")
        discarder = result.get("discarder")
        feeder = seats[discarder] if isinstance(discarder, int) and 0 <= discarder < len(seats) else None
        for winner_seat in result.get("winners", ()):
            winner = seats[winner_seat] if 0 <= winner_seat < len(seats) else None
            if feeder is not None and winner is not None and winner != feeder:
                tally.fed[(feeder, winner)] += 1


async def _count_payments(session: AsyncSession, since: datetime, tally: _Tally) -> None:
    rows = await session.stream(
        select(LedgerEntry.hand_id, LedgerEntry.user_id, LedgerEntry.delta, LedgerEntry.idempotency_key)
        .join(Hand, Hand.id == LedgerEntry.hand_id)
        .where(Hand.practice.is_(False), Hand.created_at >= since, LedgerEntry.asset == "coins",
               LedgerEntry.reason == HAND_REASON))
    sides: dict[tuple[int | None, str], dict[str, tuple[int, int]]] = defaultdict(dict)
    async for hand_id, user_id, delta, key in rows:
        _, index, side = key.rsplit(":", 2)  # the hand key may hold colons; the index and side never do
        sides[(hand_id, index)][side] = (user_id, delta)
    for payment in sides.values():
        if "debit" in payment and "credit" in payment:
            payer, payee, amount = payment["debit"][0], payment["credit"][0], payment["credit"][1]
            tally.paid[(payer, payee)] += amount
            tally.lost[payer] += amount


def _signals(key: Pair, tally: _Tally) -> PairSignals:
    a, b = key
    a_to_b = tally.paid[(a, b)] - tally.paid[(b, a)]
    if a_to_b < 0 or (a_to_b == 0 and tally.fed[(b, a)] > tally.fed[(a, b)]):
        a, b = b, a
    together = tally.hands[key]
    fewer = min(tally.played[a], tally.played[b])
    return PairSignals(
        giver=a, receiver=b, hands_together=together, tables_together=len(tally.tables[key]),
        together_rate=round(together / fewer, 4) if fewer else 0.0,
        net_coins=abs(a_to_b),
        loss_share=round(tally.paid[(a, b)] / tally.lost[a], 4) if tally.lost[a] else 0.0,
        fed_wins=tally.fed[(a, b)], fed_wins_back=tally.fed[(b, a)],
    )


async def _shared_sessions(session: AsyncSession, pairs: list[PairSignals]) -> None:
    users = {uid for s in pairs for uid in (s.giver, s.receiver)}
    if not users:
        return
    addresses: defaultdict[int, set[str]] = defaultdict(set)
    devices: defaultdict[int, set[str]] = defaultdict(set)
    rows = await session.execute(select(LoginSession.user_id, LoginSession.address, LoginSession.user_agent)
                                 .where(LoginSession.user_id.in_(users)))
    for uid, address, agent in rows:
        if address:
            addresses[uid].add(address)
        if agent:
            devices[uid].add(agent)
    for s in pairs:
        s.shared_address = bool(addresses[s.giver] & addresses[s.receiver])
        s.shared_device = bool(devices[s.giver] & devices[s.receiver])


async def _names(session: AsyncSession, pairs: list[PairSignals]) -> None:
    users = {uid for s in pairs for uid in (s.giver, s.receiver)}
    if not users:
        return
    names = dict((await session.execute(select(User.id, User.username).where(User.id.in_(users)))).all())
    for s in pairs:
        s.names = (names.get(s.giver, ""), names.get(s.receiver, ""))
