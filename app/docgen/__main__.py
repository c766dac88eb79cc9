from __future__ import annotations

import argparse
import sys

from app.docgen import __doc__ as DOC
from app.docgen import stale, write


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.docgen", description=DOC)
    parser.add_argument("--check", action="store_true", help="fail if a generated doc is stale")
    if parser.parse_args(argv).check:
        old = stale()
        for path in old:
            print(f"stale: {path} (run python -m app.docgen)", file=sys.stderr)
        return 1 if old else 0
    write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
