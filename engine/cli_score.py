"""``python -m engine score [FILE]``: score JSON-lines situations (docs/scoring.md).

Reads one situation per line from FILE (or stdin), prints one ``ScoreResult.to_json()`` per line, and for
a malformed or impossible line prints ``{"line": N, "error": "..."}`` and goes on.  Blank lines are
skipped.  Exit code 0 when every line scored, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import TextIO

from engine.scoring import score
from engine.scoring.json_io import situation_from_json


def score_line(text: str) -> dict[str, object]:
    """One JSON line → the result object; raises ValueError for a bad or impossible situation."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"invalid JSON: {e}") from None
    return score(situation_from_json(obj)).to_json()


def run(lines: Iterable[str], out: TextIO) -> int:
    failed = False
    for n, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            result: dict[str, object] = score_line(text)
        except ValueError as e:
            result, failed = {"line": n, "error": str(e)}, True
        except Exception as e:  # noqa: BLE001 - a scorer bug must not stop the batch
            result, failed = {"line": n, "error": f"internal error: {type(e).__name__}: {e}"}, True
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine score",
        description="Score finished hands: JSON lines in (docs/scoring.md), JSON lines out.",
    )
    parser.add_argument("file", nargs="?", help="JSON-lines file (default: stdin)")
    args = parser.parse_args(argv)
    if args.file is None or args.file == "-":
        return run(sys.stdin, sys.stdout)
    try:
        with open(args.file, encoding="utf-8") as f:
            return run(f, sys.stdout)
    except OSError as e:
        print(f"python -m engine score: {e}", file=sys.stderr)
        return 2
