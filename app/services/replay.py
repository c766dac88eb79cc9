"""A finished hand, step by step, for the browser's replay (issue 13: history and replays).

The stored record (seed, actions, and the dealer / round / options kept in ``result``) is dealt again and
replayed with the engine, as ``app.tables.fairness.verify_hand`` does; after the deal and after each action
the table is taken face up (the seed was revealed at the hand's end, so every tile is public by now).
"""

from __future__ import annotations

from typing import Any

from app.models import Hand
from engine.actions import Action
from engine.state import HandState
from engine.variants import find_variant
from engine.view import seat_view

MAX_REPLAY_ACTIONS = 2_000  # a real hand has a few hundred; a record past this is refused, not replayed


class ReplayError(ValueError):
    """The record cannot be replayed (no seed, too long, or an action the engine refuses)."""


def _face_up(state: HandState, seat: int) -> dict[str, Any]:
    view = seat_view(state, seat)
    for player, s in zip(view["players"], state.seats, strict=True):
        player["concealed"] = [str(t) for t in s.tiles()]
        player["drawn"] = str(s.drawn) if s.drawn is not None and state.current == player["seat"] else None
    view.pop("actions", None)  # what the seat could do then: not part of the record's story
    return view


def replay_frames(hand: Hand, seat: int) -> list[dict[str, Any]]:
    """``[{"action": None | action, "view": face-up view}]``: the deal, then one frame per action."""
    result = hand.result or {}
    if not hand.seed:
        raise ReplayError("this hand has no seed (it was voided)")
    if len(hand.actions or []) > MAX_REPLAY_ACTIONS:
        raise ReplayError("this hand's record is too long to replay")
    state = HandState.deal(find_variant(hand.variant), seed=hand.seed, dealer=int(result.get("dealer", 0)),
                           round_wind=int(result.get("round_wind", 0)),
                           dealer_streak=int(result.get("dealer_streak", 0)), options=result.get("options") or {})
    frames: list[dict[str, Any]] = [{"action": None, "view": _face_up(state, seat)}]
    for data in hand.actions or []:
        try:
            state.apply(Action.from_json(dict(data)))
        except Exception as exc:  # the engine's refusal, whatever its type: the record does not replay
            raise ReplayError(f"action {len(frames)} does not replay: {exc}") from None
        frames.append({"action": data, "view": _face_up(state, seat)})
    return frames
