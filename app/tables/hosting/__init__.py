"""How a process hosts tables: its runtime (``runtime``: an actor per playing table, started when a table
fills and resumed from the journal) and the ends a socket reaches a table through (``ends``)."""
