"""Quick play (快速開始): matchmaking in every coin room, by rank, across processes (docs/server.md)."""
