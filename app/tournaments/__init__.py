"""Coin-room tournaments (比賽, RULES.md §7): the pure prize maths, the database service, the director that
runs the tables, and the operator command line."""
