"""台灣 payments (docs/rules/taiwan.md#dealer-tai, docs/rules/taiwan.md#eye, docs/rules/taiwan.md#miji, docs/rules/taiwan.md#eight-immortals, docs/rules/taiwan.md#seven-rob-one, docs/rules/taiwan.md#payment):

    pay = 底 + 台價 × (hand 台 + (dealer involved ? 莊家 + 連莊 × n : 0))

per payer, where the dealer is involved when he is the winner or this payer.  Each non-winning 眼牌 /
Miji declarer then pays the winner the 眼牌 penalty (台價 × 1, no 底).
"""

from __future__ import annotations

from engine.scoring.result import Payment
from engine.scoring.situation import SELF_DRAWN_KINDS, Situation, WinKind
from engine.scoring.taiwan.options import Options


def payers(s: Situation, winner: int) -> list[int]:
    kind = s.win_kind
    if kind in SELF_DRAWN_KINDS or kind is WinKind.EIGHT_FLOWERS:
        return [p for p in range(s.n_seats) if p != winner]
    if kind is WinKind.SEVEN_ROB_ONE:
        return [p for p in range(s.n_seats) if p != winner and s.seats[p].flowers]
    assert s.discarder is not None
    return [s.discarder]


def dealer_tai(s: Situation, opts: Options) -> int:
    """莊家台 = 莊家 + 連莊 × n (1 + 2n by default, seed 003:L7, L13)."""
    return opts.values["dealer"] + opts.values["dealer_streak"] * s.dealer_streak


def payments(
    s: Situation, winner: int, hand_tai: int, opts: Options,
    who_pays: list[int] | None = None, declarers: list[int] | None = None,
) -> tuple[Payment, ...]:
    """Every payment to the winner; ``who_pays`` / ``declarers`` may be passed in when already known."""
    assert s.win_kind is not None
    reason = s.win_kind.value
    extra = dealer_tai(s, opts)
    out: list[Payment] = []
    for p in payers(s, winner) if who_pays is None else who_pays:
        involved = s.dealer in (winner, p)
        amount = opts.di + opts.tai_value * (hand_tai + (extra if involved else 0))
        if amount:
            out.append(Payment(p, winner, amount, reason))
    penalty = opts.tai_value * opts.values["eye_penalty"]
    for p in eye_declarers(s, winner) if declarers is None else declarers:
        if penalty:
            out.append(Payment(p, winner, penalty, "eye_penalty"))
    return tuple(out)


def eye_declarers(s: Situation, winner: int) -> list[int]:
    """Non-winners who declared 眼牌 or Miji (they pay the penalty when someone else wins)."""
    return [p for p in range(s.n_seats) if p != winner and s.seats[p].declaration is not None]
