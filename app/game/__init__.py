"""The server's game data: rooms, rank titles, variants and their table options (RULES.md §7–§8)."""
