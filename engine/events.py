"""Events: every change to a hand is one numbered event that says who may see what (事件)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Event:
    """Treat as immutable (not frozen only because frozen dataclasses are slow to build).

    ``public`` is seen by every seat; ``private[seat]`` adds what only that seat may see.

    A draw, for instance, is public as ``{"type": "draw", "seat": 2}`` and carries the tile only in
    ``private[2]`` (and for a seat whose 眼牌 reveals others' hands).
    """

    seq: int
    type: str
    public: Mapping[str, Any]
    private: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)

    # Written out, not generated: see tools/compile_engine.py (CONSTRUCTORS).
    def __init__(self, seq: int, type: str, public: Mapping[str, Any],
                 private: Mapping[int, Mapping[str, Any]] | None = None) -> None:
        self.seq = seq
        self.type = type
        self.public = public
        self.private = {} if private is None else private

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None``: a spectator, public part only)."""
        out = {"seq": self.seq, "type": self.type, **self.public}
        if seat is not None and seat in self.private:
            out.update(self.private[seat])
        return out
