"""The rules guide's worked examples (``web/js/guide_examples.json``, read by the client's rules page): one
finished hand per variant, scored here by the engine itself, so the numbers a player reads in the guide are
the numbers the server pays.  The hands are the documented examples of docs/scoring.md."""

from __future__ import annotations

import json
from typing import Any

from app.core.config import PROJECT_ROOT
from engine.scoring import score
from engine.scoring.json_io import situation_from_json

GUIDE_EXAMPLES = PROJECT_ROOT / "web" / "js" / "guide_examples.json"

# One hand per variant: the winner's tiles are drawn in the guide, the engine's items and totals listed.
EXAMPLES: dict[str, dict[str, Any]] = {
    # 槓上開花 with a concealed 東 kong and an exposed 5p kong, waiting on the pair: 64 胡, 2 台.
    "tiantai": {"variant": "tiantai", "dealer": 0,
                "seats": [{"concealed": "234678m22p",
                           "melds": [{"kind": "akong", "tiles": "1111z"},
                                     {"kind": "kong", "tiles": "5555p", "from": 2}]},
                          {"concealed": "119m6789p223366z"},
                          {"concealed": "34599m1234p5577z"}],
                "winners": [0], "win_kind": "kong_replacement", "kong_kind": "kong", "winning_tile": "2p"},
    # Seat 2 (西) wins on seat 3's discard with a 西 pung and no 財神 in hand: B 1 + 硬牌 7 = 8 台.
    "taipao": {"variant": "taipao", "dealer": 0, "wildcards": "9p9s",
               "seats": [{"concealed": "345678m1145678p",
                          "melds": [{"kind": "kong", "tiles": "9999m", "claimed": "9m"}], "flowers": "15f"},
                         {"concealed": "1122334455667788p"},
                         {"concealed": "123456m234p55678s333z"},
                         {"concealed": "1122334455667799s"}],
               "winners": [2], "win_kind": "discard", "winning_tile": "5s", "discarder": 3},
    # Seat 1 self-draws a concealed hand while the dealer is on his first streak: 門清自摸 3 台.
    "taiwan": {"variant": "taiwan", "dealer": 0, "dealer_streak": 1, "open_seat": 2, "round_wind": 0,
               "seats": [{"concealed": "111222m333p444s5566z"},
                         {"concealed": "123456789m234p56788s"},
                         {"concealed": "555m666p999s1122334z"},
                         {"concealed": "777m8889p123s123477z"}],
               "winners": [1], "win_kind": "self_draw", "winning_tile": "7s"},
}


def render() -> str:
    """The examples with the engine's result for each, as JSON."""
    out = {key: {"situation": situation, "result": score(situation_from_json(situation)).to_json()}
           for key, situation in EXAMPLES.items()}
    return json.dumps(out, ensure_ascii=False) + "\n"
