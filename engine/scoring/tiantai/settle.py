"""天台 payments (docs/rules/tiantai.md#payment, docs/rules/rooms.md#points): no 承包; 1 point = ``hu_per_point`` 胡."""

from __future__ import annotations

from fractions import Fraction

from engine.scoring.result import Payment
from engine.scoring.situation import Situation, WinKind
from engine.scoring.tiantai.options import Options

ONE = Fraction(1)


def points(hu: int, multiplier: Fraction, opts: Options) -> int:
    """``hu × multiplier`` 胡 in points, exactly."""
    num = hu * multiplier.numerator
    den = multiplier.denominator * opts.hu_per_point
    if num % den:  # the option check makes this unreachable; keep payments exact anyway
        raise ValueError(f"a payment of {Fraction(num, multiplier.denominator)} 胡 is not a whole number of points")
    return num // den


def payments(s: Situation, scores: dict[int, int], opts: Options) -> tuple[Payment, ...]:
    """Self-drawn: each other player pays S.  Discard / rob: the feeder alone pays multiplier × S,
    separately to each winner (一炮多響)."""
    out: list[Payment] = []
    kind = s.win_kind
    for winner in s.winners:
        total = scores[winner]
        if kind in (WinKind.DISCARD, WinKind.ROB_KONG):
            assert s.discarder is not None
            reason = "earthly" if s.earthly else kind.value
            amount = points(total, opts.discard_multiplier, opts)
            if amount:
                out.append(Payment(s.discarder, winner, amount, reason))
            continue
        reason = "heavenly" if s.heavenly else "self_draw"
        amount = points(total, ONE, opts)
        for payer in range(s.n_seats):
            if payer != winner and amount:
                out.append(Payment(payer, winner, amount, reason))
    return tuple(out)
