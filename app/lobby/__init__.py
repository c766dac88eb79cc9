"""The lobby: table events fanned out to lobby WebSockets."""
