"""What a seat may do now (legal_actions) and what a timeout or 托管 does (default_action)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import TYPE_CHECKING, Final

from engine.actions import Action, ActionKind, Declare, act
from engine.hand import N_PLAY
from engine.melds import MeldKind
from engine.phase import Phase, Source
from engine.tiles import TILES, Tile

if TYPE_CHECKING:
    from engine.board import HandBoard
    from engine.seat import SeatState


def legal_actions(state: HandBoard, seat: int) -> list[Action]:
    if state.phase is Phase.ENDED or not 0 <= seat < state.n:
        return []
    if state.phase in (Phase.CLAIMS, Phase.ROB):
        w = state.window
        if w is None or seat in w.answers:
            return []
        return list(w.options.get(seat, []))
    if seat != state.current:
        return []
    if state.phase is Phase.SPLIT:
        return [act(ActionKind.WIN, seat), act(ActionKind.PASS, seat)]
    s = state.seats[seat]
    claimed = state.context.source is Source.CLAIM
    locked = s.declaration is not None  # 聽 / 眼牌 / Miji
    if locked and not claimed and s.drawn is not None:
        return _locked_turn(state, seat)
    out = _discards(state, seat)
    if not claimed:
        if state.can_win_with(seat) and state.self_win_allowed(seat):
            out.append(_WIN[seat])
        if not locked and not state.context.last and (s.quads or s.melds):
            out.extend(_own_kongs(state, seat))
        if state.variant.can_kill_pig(state, seat):
            out.append(_KILL_PIG[seat])
    return out


def _locked_turn(state: HandBoard, seat: int) -> list[Action]:
    """聽: win or discard the drawn tile (the engine auto-discards when no win is possible)."""
    s = state.seats[seat]
    out = []
    if s.drawn is not None and s.drawn not in state.wildcards:
        out.append(act(ActionKind.DISCARD, seat, s.drawn))
    else:
        out.extend(_discards(state, seat, declarations=False))
    if state.can_win_with(seat) and state.self_win_allowed(seat):
        out.append(_WIN[seat])
    if state.variant.can_kill_pig(state, seat):  # 杀猪 is a win too (docs/rules/taipao.md#ting, docs/rules/taipao.md#kill-pig)
        out.append(_KILL_PIG[seat])
    return out


# Plain discards by seat and tile, wins and 杀猪 by seat: built once, looked up every turn.
# (Only the 34 playable kinds: a flower is never discarded; one stays in a hand only as a 財神.)
_DISCARD_ACTIONS: Final = [[act(ActionKind.DISCARD, seat, TILES[k]) for k in range(N_PLAY)] for seat in range(4)]
_WIN: Final = [act(ActionKind.WIN, seat) for seat in range(4)]
_KILL_PIG: Final = [act(ActionKind.KILL_PIG, seat) for seat in range(4)]
_DECLARES: Final = {d.value: d for d in Declare}


def _discards(state: HandBoard, seat: int, declarations: bool = True) -> list[Action]:
    """Any concealed tile but a 財神; plus the declarations the variant offers with it."""
    s = state.seats[seat]
    out = list(compress(_DISCARD_ACTIONS[seat], s.counts))  # every held kind (compress stops at the 34th)
    if s.jokers:
        wild = s.wild
        out = [a for a in out if a.tile not in wild]
    if not declarations:
        return out
    names = state.variant.can_declare(state, seat)
    if not names:
        return out
    kinds = [a.tile for a in out if a.tile is not None]
    for name in names:
        declare = _DECLARES[name]
        if declare is Declare.READY and not state.may_be_ready_after_a_discard(seat):
            continue
        for t in kinds:
            if declare is not Declare.READY or state.is_ready_after_discard(seat, t):
                out.append(act(ActionKind.DISCARD, seat, t, declare=declare))
    return out


def keeps_a_discard(seat: SeatState, used: int) -> bool:
    """docs/rules/common.md#always-a-move D-7: would the seat still hold a tile it may discard after a claim uses ``used`` natural
    concealed tiles (a pong 2, a chow 2)?

    After a 吃 or 碰 the claimer's only legal actions are discards (no 自摸 on a claimed tile), and a 財神
    can never be discarded (docs/rules/taipao.md#caishen-use).  A claim that would leave only 財神 concealed would leave the seat with
    no legal action at all, so it is not offered.  Every other action leads to a turn that always has a move:
    a kong or a draw brings a new tile (a natural one is discardable; a hand of nothing but 財神 is a win),
    a claim window always offers 過, a 分牌 tile always offers 過.
    """
    return len(seat.code) > used  # ``code`` holds exactly the natural (non-財神) concealed tiles


def kong_keeps_the_reserve(state: HandBoard) -> bool:
    """May a kong be declared now?  Only while, after it and its replacement draw, the wall still holds the
    reserve as it will be with this kong counted (docs/rules/common.md#wall, docs/rules/tiantai.md#reserve: the reserve is never drawn into).

    With a fixed reserve R this is "more than R tiles left"; in 台炮, where each kong keeps two more tiles
    (24 + 2K, 杠一过二), it is D-8: at least 24 + 2K′ tiles after the replacement (K′ counting this kong),
    so that a kong never takes the wall below 分牌's line: 分牌 starts at 24 + 2K′ tiles or fewer (one fewer
    when a flower replacement on the last normal draw crosses it, docs/rules/taipao.md#split-deal F-2).
    """
    return state.wall.remaining - 1 >= state.variant.reserve(state, state.kongs + 1)


def _own_kongs(state: HandBoard, seat: int) -> list[Action]:
    """暗槓 of four concealed, 加槓 onto an own pong; never with 財神 (docs/rules/taipao.md#caishen-use)."""
    s = state.seats[seat]
    if not kong_keeps_the_reserve(state):
        return []
    counts = s.counts
    kongs = set(s.quads)
    kongs.update(m.tiles[0] for m in s.melds if m.kind is MeldKind.PONG and counts[m.tiles[0]])
    return [act(ActionKind.KONG, seat, TILES[k]) for k in sorted(kongs) if k not in state.wildcards]


def default_action(legal: Sequence[Action], drawn: Tile | None, auto_play: bool = False) -> Action | None:
    """docs/rules/timing.md#timeout: what a timeout does with the seat's ``legal`` actions: pass a claim, or discard the
    ``drawn`` tile (after a claim, the rightmost tile); ``auto_play`` also declares any available win."""
    if not legal:
        return None
    if auto_play:
        for a in legal:
            if a.kind in (ActionKind.WIN, ActionKind.KILL_PIG):
                return a
    for a in legal:
        if a.kind is ActionKind.PASS:
            return a
    plain = [a for a in legal if a.kind is ActionKind.DISCARD and a.declare is None]
    for a in plain:
        if a.tile == drawn:
            return a
    return max(plain, key=lambda a: a.tile or 0) if plain else legal[0]
