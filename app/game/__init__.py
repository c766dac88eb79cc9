"""The server's game data: rooms, rank titles, variants and their table options (docs/rules/rooms.md, docs/rules/timing.md#room-options)."""
