"""The win tables of ``engine.hand`` (牌型表): how they are built, and the file they ship in.

For every 9-rank suit code (base 5, ``5^9`` keys) and every 7-kind honour code (``5^7`` keys) the tables hold
NEED0 and NEED1 (see ``engine.hand`` and ``notes/win-detection.md``), one byte each: ``NEED0 << 2 | (NEED1 −
NEED0 + 1)``.  ``build_tables`` computes them (about one second); ``engine/data/hand_tables.zlib`` ships them
compressed, written by ``python -m engine.hand_tables --build`` and compared with a rebuild by ``--check``.
(The command lives here, not in ``engine.hand``: run as ``__main__`` that module would import itself
again through ``engine.decompose`` and fail on the cycle.)
"""

from __future__ import annotations

import sys
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Final

#: keys of a suit table (9 ranks, base 5) and of the honour table (7 kinds); powers of 5 by rank.
SUIT_KEYS: Final = 5**9
HONOUR_KEYS: Final = 5**7
POW5: Final[tuple[int, ...]] = tuple(5**r for r in range(10))

DATA_PATH: Final = Path(__file__).resolve().parent / "data" / "hand_tables.zlib"
_MAGIC: Final = b"HANDTAB1"


# --------------------------------------------------------------------------------------------------
# Table construction


def _build_suit_needs() -> tuple[bytearray, bytearray]:
    """NEED0/NEED1 for every 9-rank base-5 code, by the lowest-tile recursion of the note.

    Codes are filled by (lowest rank ``i`` descending, digit ``c`` ascending); for a fixed ``i, c`` and the
    next two digits, the codes form an arithmetic progression, and so does each option's sub-code, so each
    option is one strided slice and the minimum over options is a C-level ``map(min, ...)``.
    """
    big = 99
    n0 = bytearray([big]) * SUIT_KEYS
    n1 = bytearray([big]) * SUIT_KEYS
    n0[0] = 0
    n1[0] = 2  # a pair of two jokers
    plus = [bytes(min(255, x + j) for x in range(256)) for j in range(3)]
    P = POW5
    for i in range(8, -1, -1):
        has1, has2 = i + 1 <= 8, i + 2 <= 8
        top = min(i + 3, 9)
        stride, count = P[top], P[9 - top]
        span = stride * (count - 1) + 1
        for c in range(1, 5):
            for d1 in range(5) if has1 else (0,):
                for d2 in range(5) if has2 else (0,):
                    start = c * P[i] + (d1 * P[i + 1] if has1 else 0) + (d2 * P[i + 2] if has2 else 0)

                    def sub(
                        tab: bytearray,
                        delta: int,
                        jokers: int,
                        start: int = start,
                        span: int = span,
                        stride: int = stride,
                    ) -> bytes:
                        s = start - delta
                        seq = bytes(tab[s : s + span : stride])
                        return seq.translate(plus[jokers]) if jokers else seq

                    o0: list[bytes] = []
                    o1: list[bytes] = []
                    for k in range(1, min(c, 3) + 1):  # triplet with k real tiles + 3-k jokers
                        o0.append(sub(n0, k * P[i], 3 - k))
                        o1.append(sub(n1, k * P[i], 3 - k))
                    for k in range(1, min(c, 2) + 1):  # the pair, k real + 2-k jokers
                        o1.append(sub(n0, k * P[i], 2 - k))
                    if has2 and d1 and d2:  # i, i+1, i+2
                        o0.append(sub(n0, P[i] + P[i + 1] + P[i + 2], 0))
                        o1.append(sub(n1, P[i] + P[i + 1] + P[i + 2], 0))
                    if has1 and d1:  # i, i+1, J   (≡ J, i, i+1)
                        o0.append(sub(n0, P[i] + P[i + 1], 1))
                        o1.append(sub(n1, P[i] + P[i + 1], 1))
                    if has2 and d2:  # i, J, i+2
                        o0.append(sub(n0, P[i] + P[i + 2], 1))
                        o1.append(sub(n1, P[i] + P[i + 2], 1))
                    # (i, J, J) costs the same as a triplet with one real tile and is omitted.
                    n0[start : start + span : stride] = bytes(map(min, *o0)) if len(o0) > 1 else o0[0]
                    n1[start : start + span : stride] = bytes(map(min, *o1))
    return n0, n1


#: NEED0 / NEED1 of one honour kind by its count 0..4 (the note's §3.2).
_HON_NEED0: Final = (0, 2, 1, 0, 2)
_HON_NEED1: Final = (2, 1, 0, 2, 1)


def build_tables() -> bytes:
    """The raw table payload: ``5^9`` suit bytes then ``5^7`` honour bytes, each ``NEED0 << 2 | (D + 1)``.

    ``D = NEED1 − NEED0`` lies in −1..2; for the honours the entry holds ``Σ NEED0`` and ``min D`` over the
    seven kinds (an empty kind contributes D = 2, the joker pair).
    """
    n0, n1 = _build_suit_needs()
    suit = bytes((a << 2) | (b - a + 1) for a, b in zip(n0, n1, strict=True))
    hon = bytearray(HONOUR_KEYS)
    for code in range(HONOUR_KEYS):
        base, dmin, x = 0, 2, code
        for _ in range(7):
            c = x % 5
            x //= 5
            base += _HON_NEED0[c]
            dmin = min(dmin, _HON_NEED1[c] - _HON_NEED0[c])
        hon[code] = (base << 2) | (dmin + 1)
    return suit + bytes(hon)


def write_tables(path: Path = DATA_PATH) -> int:
    """Build and write the compressed table file; returns its size in bytes."""
    blob = _MAGIC + zlib.compress(build_tables(), 9)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(blob)
    return len(blob)


def read_table_payload(path: Path = DATA_PATH) -> bytes:
    """The raw payload from the shipped file (see ``build_tables``)."""
    blob = path.read_bytes()
    if not blob.startswith(_MAGIC):
        raise ValueError(f"{path}: not a hand table file")
    raw = zlib.decompress(blob[len(_MAGIC) :])
    if len(raw) != SUIT_KEYS + HONOUR_KEYS:
        raise ValueError(f"{path}: wrong table size {len(raw)}")
    return raw


def main(argv: Sequence[str] | None = None) -> int:
    """``--build`` writes the table file; ``--check`` exits 1 when the shipped file differs from a rebuild."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--build"]:
        size = write_tables()
        print(f"wrote {DATA_PATH} ({size} bytes)")
        return 0
    if args == ["--check"]:
        ok = read_table_payload() == build_tables()
        print("tables match a rebuild" if ok else "tables DIFFER from a rebuild")
        return 0 if ok else 1
    print("usage: python -m engine.hand_tables --build | --check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
