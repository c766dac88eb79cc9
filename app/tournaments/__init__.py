"""Coin-room tournaments (比賽, docs/rules/rooms.md#tournaments): the pure prize maths, the database service, the director that
runs the tables, and the operator command line."""
