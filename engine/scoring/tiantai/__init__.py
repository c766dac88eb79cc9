"""天台麻將 scorer (docs/rules/tiantai.md#scoring): only the winner scores, S = min(ceil(H·2^T/10)·10, cap)."""

from engine.scoring.tiantai.options import OPTION_DEFAULTS
from engine.scoring.tiantai.scorer import score, seat_wind_index

__all__ = ["OPTION_DEFAULTS", "score", "seat_wind_index"]
