"""``python -m engine waits``: is a hand complete, and which tiles does it wait for (聽牌)?

    python -m engine waits --variant taipao --wildcards 9m,7p "123m 456p 789s 11z 23s 9m"

prints one JSON object ``{"hand": "...", "complete": false, "waits": ["1s", "4s", ...]}``.

* ``--variant`` limits the tiles: 天台 has no 條 (s) tiles; in 台炮 白 (7z) and the flowers are bonus tiles
  unless they are a 財神 face; 台灣 uses m/p/s and honours.
* ``--wildcards`` (台炮 only, at most two faces): every copy of those faces in the hand is a joker.  A
  wildcard face is listed as a wait when drawing one (one more joker) completes the hand.
* A hand of size ``3n+1`` gets its waits; a hand of size ``3n+2`` gets ``complete`` and no waits.  Exposed
  melds are simply left out of HAND.
* Bad notation or an impossible hand: a message naming the token on stderr, exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from engine.hand import is_win, waits
from engine.tiles import FLOWER_BASE, HONOUR_BASE, N_KINDS, NotationError, Tile, format_tiles, parse_tiles

WHITE = HONOUR_BASE + 6  # 白 7z

#: Largest concealed hand (dealer's hand before discarding) per variant.
MAX_TILES = {"tiantai": 14, "taipao": 17, "taiwan": 17}
VARIANT_NAMES = tuple(MAX_TILES)


class UsageError(Exception):
    """A problem with the command's input; ``token`` names the culprit."""

    def __init__(self, token: str, why: str) -> None:
        super().__init__(f"{token!r}: {why}")


def playable_kinds(variant: str, wildcards: Sequence[int] = ()) -> list[int]:
    """Suited/honour kinds that can be part of a hand shape in ``variant`` (wildcard faces included)."""
    kinds = [t for t in range(FLOWER_BASE) if not (variant == "tiantai" and 18 <= t < 27)]
    if variant == "taipao" and WHITE not in wildcards:
        kinds.remove(WHITE)
    return kinds


def _why_not_playable(t: Tile, variant: str) -> str:
    if t.is_flower:
        return "flowers are bonus tiles, not part of the hand"
    if variant == "tiantai" and t.suit == "s":
        return "天台 has no 條 (s) tiles"
    return "白 (7z) is a bonus tile in 台炮 unless it is a 財神 face"


def analyse(variant: str, hand: str, wildcards: str = "") -> dict[str, object]:
    """The JSON-able answer; raises ``NotationError`` / ``UsageError`` on bad input."""
    if variant not in MAX_TILES:
        raise UsageError(variant, f"unknown variant (choose from {', '.join(VARIANT_NAMES)})")
    faces: list[Tile] = []
    if wildcards.strip():
        if variant != "taipao":
            raise UsageError(wildcards, f"{variant} has no 財神 wildcards")
        for face in parse_tiles(wildcards):
            if face not in faces:
                faces.append(face)
        if len(faces) > 2:
            raise UsageError(wildcards, "at most two 財神 faces")
    tiles = parse_tiles(hand)
    if not tiles:
        raise UsageError(hand, "empty hand")
    allowed = set(playable_kinds(variant, faces))
    counts = [0] * N_KINDS
    jokers = 0
    for t in tiles:
        counts[t] += 1
        if counts[t] > (1 if t.is_flower else 4):
            raise UsageError(
                str(t), f"the hand holds {counts[t]} of {t}: there are only {1 if t.is_flower else 4}"
            )
        if t in faces:
            jokers += 1
        elif t not in allowed:
            raise UsageError(str(t), _why_not_playable(t, variant))
    n = len(tiles)
    if n > MAX_TILES[variant] or n % 3 == 0:
        raise UsageError(
            hand,
            f"{n} tiles: a {variant} hand has 3n+1 (waiting) or 3n+2 (complete?) tiles, at most {MAX_TILES[variant]}",
        )
    real = [0 if t in faces else c for t, c in enumerate(counts)]
    result: list[Tile] = []
    complete = False
    if n % 3 == 2:
        complete = is_win(real, jokers)
    else:
        result = waits(real, jokers, kinds=sorted(allowed - set(faces)))
        copies_left = {f: (1 if f.is_flower else 4) - counts[f] for f in faces}
        if any(copies_left.values()) and is_win(real, jokers + 1):
            result.extend(f for f in faces if copies_left[f] > 0)
        result.sort()
    return {"hand": format_tiles(tiles), "complete": complete, "waits": [str(t) for t in result]}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m engine waits",
        description="Is a concealed hand complete, and which tiles complete it? Prints JSON.",
    )
    p.add_argument("--variant", required=True, choices=VARIANT_NAMES)
    p.add_argument("--wildcards", default="", help="財神 faces, e.g. 9m,7p (台炮 only)")
    p.add_argument("hand", nargs="+", help='concealed tiles in mpsz notation, e.g. "123m 456p 11z"')
    return p


def main(argv: list[str]) -> int:
    """Run the command; ``argv`` is what follows ``waits`` (a leading ``"waits"`` is tolerated)."""
    args_in = list(argv)
    if args_in[:1] == ["waits"]:
        args_in = args_in[1:]
    try:
        args = _parser().parse_args(args_in)
    except SystemExit as exc:  # argparse has printed its message
        return exc.code if isinstance(exc.code, int) else 2
    try:
        out = analyse(args.variant, " ".join(args.hand), args.wildcards)
    except (NotationError, UsageError) as exc:
        print(f"python -m engine waits: error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
