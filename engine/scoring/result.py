"""The result of scoring a hand: items per seat and the payments between seats (計分結果)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.scoring.names import ItemName


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scored item: ``key`` is stable ASCII, ``names`` its names (engine.scoring.names), ``value`` its
    台 or 胡."""

    key: str
    names: ItemName
    value: int
    unit: str = "tai"  # "tai" (台) or "hu" (胡)

    @property
    def name(self) -> str:
        """The 繁體 name (what older clients show)."""
        return self.names.zh_hant


@dataclass(frozen=True)
class SeatScore:
    """Everything one seat scored; ``totals`` holds the variant's named totals (e.g. hu, tai, score)."""

    seat: int
    items: tuple[ScoreItem, ...] = ()
    totals: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``payee`` ``points`` (always > 0) for ``reason``."""

    payer: int
    payee: int
    points: int
    reason: str


@dataclass(frozen=True)
class ScoreResult:
    """Scores and payments of one hand.  ``net`` always sums to zero."""

    variant: str
    seats: tuple[SeatScore, ...]
    payments: tuple[Payment, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def net(self) -> list[int]:
        out = [0] * len(self.seats)
        for p in self.payments:
            out[p.payer] -= p.points
            out[p.payee] += p.points
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "seats": [
                {
                    "seat": s.seat,
                    "items": [
                        {"key": i.key, "name": i.name, "names": i.names.to_json(), "value": i.value, "unit": i.unit}
                        for i in s.items
                    ],
                    "totals": dict(s.totals),
                }
                for s in self.seats
            ],
            "payments": [
                {"payer": p.payer, "payee": p.payee, "points": p.points, "reason": p.reason}
                for p in self.payments
            ],
            "net": self.net,
            "notes": list(self.notes),
        }
