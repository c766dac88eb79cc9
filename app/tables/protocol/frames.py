"""The per-message frames of a playing table, encoded once with orjson and without pydantic (issue 36).

Every event goes to every connected seat and every turn and claim to a prompt: these frames are the bulk of
what a table sends, and building a pydantic model (which validates, copying the event's dict) and then
dumping it was a visible share of the server's CPU per message.  The functions here write the same JSON
text as the models of ``app.tables.protocol.messages`` (``EventMessage``, ``PromptMessage``): the same
fields in the same order, the same compact separators, non-ASCII as UTF-8 (tests/app/tables/play/
test_frames.py compares them frame by frame over whole hands).  Rarer messages (snapshots, results, errors)
still go through their models.
"""

from __future__ import annotations

from typing import Any, Final

import orjson
from pydantic import BaseModel

# Some events key their parts by seat (ints): pydantic writes such a key as a string, and so does orjson with
# this option (it refuses non-string keys by default).
OPTIONS: Final = orjson.OPT_NON_STR_KEYS


def encode(payload: dict[str, Any]) -> str:
    """A frame's JSON text, as pydantic's ``model_dump_json`` writes it (compact, UTF-8)."""
    return orjson.dumps(payload, option=OPTIONS).decode()


def event_frame(v: int, hand_no: int, event: dict[str, Any]) -> str:
    """``EventMessage(v=v, hand_no=hand_no, event=event).model_dump_json()``, without the model."""
    return orjson.dumps({"v": v, "type": "event", "hand_no": hand_no, "event": event}, option=OPTIONS).decode()


def fragment(model: BaseModel) -> orjson.Fragment:
    """A model's JSON, embeddable as is in a frame that ``encode`` writes (encoded by pydantic once)."""
    return orjson.Fragment(model.__pydantic_serializer__.to_json(model))

