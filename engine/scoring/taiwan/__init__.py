"""台灣16張 scorer with the seed 003 台 table (docs/rules/taiwan.md)."""

from engine.scoring.taiwan.options import OPTION_DEFAULTS
from engine.scoring.taiwan.scorer import score, seat_wind_index

__all__ = ["OPTION_DEFAULTS", "score", "seat_wind_index"]
