"""The mahjong server: accounts, coins, rooms and tables over HTTP and WebSocket.

Game rules live in ``engine`` (pure, no I/O); this package is everything around them.
"""
