"""Pure mahjong rules: tiles, hands, the three variants, scoring.

No I/O, no asyncio, no clock: randomness and time are passed in, so a hand replays bit for bit from its
seed and its actions. Nothing here imports ``app``.
"""
