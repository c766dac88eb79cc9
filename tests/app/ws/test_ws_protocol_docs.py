"""docs/protocol.md and docs/protocol.schema.json are generated from app.tables.protocol and must be current."""

from __future__ import annotations

import json
import typing

from app.docgen import protocol as docs
from app.tables.protocol import messages as protocol


def test_protocol_docs_are_current():
    assert docs.stale() == [], "run: python -m app.docgen"


def test_every_message_type_is_documented():
    text = docs.render_markdown()
    schema = json.loads(docs.render_schema())
    for model in docs.CLIENT + docs.SERVER:
        (kind,) = typing.get_args(model.model_fields["type"].annotation)
        assert f"### {model.__name__}" in text and f'"{kind}"' in json.dumps(schema)


def test_server_messages_round_trip_through_the_union():
    message = protocol.ErrorMessage(v=3, code="stale", message="old")
    parsed = protocol.server_message.validate_json(message.model_dump_json())
    assert parsed == message
