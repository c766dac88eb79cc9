"""``python -m engine COMMAND [ARGS]``: the engine's command-line tools."""

from __future__ import annotations

import sys
from collections.abc import Callable


def _duel(argv: list[str]) -> int:
    from engine.duel import main

    return main(argv)


def _score(argv: list[str]) -> int:
    from engine.cli_score import main

    return main(argv)


def _simulate(argv: list[str]) -> int:
    from engine.simulate import main

    return main(argv)


def _waits(argv: list[str]) -> int:
    from engine.cli_waits import main

    return main(argv)


COMMANDS: dict[str, Callable[[list[str]], int]] = {
    "duel": _duel,
    "score": _score,
    "simulate": _simulate,
    "waits": _waits,
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: python -m engine {{{','.join(sorted(COMMANDS))}}} [ARGS]", file=sys.stderr)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
