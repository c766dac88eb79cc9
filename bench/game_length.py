"""How long a game lasts at the default pace, per variant and game length (F-8: quick play offers one 圈 or four).

Plays whole games in the server's own hand flow (``HandFlow``) with every seat a server bot, on a fake clock
with the *default* table settings (``TableSettings()``): bot thinking time ``bot_delay_seconds`` × 0.5–1.5, the
claim hold after every discard, the bots' claim answers, the pause between hands (``hand_pause_seconds``);
a hand ends as the table actor ends it (the match records it, the next deal follows the pause).  The game
ends when its 圈 are played (``Match.finished``).  No database, no sockets: the figure is the game's clock,
not the machine's.

    python bench/game_length.py [--games 20] [--seed 1]

Prints, per variant and rounds, the mean and spread of hands per game and minutes per game.  The minutes are
a floor for people, who think longer than the bots; docs/server.md quotes them for the quick-play panel.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
from typing import Any

from app.bots import TableBots
from app.game.variants import VARIANT_INFO, VariantKey
from app.quickplay.matching import QUICK_PLAY_ROUNDS
from app.tables.play.clock import FakeClock
from app.tables.play.commands import Command, Tick
from app.tables.play.flow import HandFlow
from app.tables.play.outbox import Outbox
from app.tables.play.seats import SeatSlot
from app.tables.settings import TableSettings
from app.tables.table_info import TableInfo, TableStatus

STEP = 0.05  # seconds of game time per step of the fake clock


def _flow(variant: VariantKey, rounds: int, seed: int) -> tuple[HandFlow, FakeClock, list[Command]]:
    n = VARIANT_INFO[variant].seats
    info = TableInfo(id=f"len{seed}", room=None, variant=variant, options={"rounds": rounds}, seats=[None] * n,
                     bots=list(range(n)), status=TableStatus.PLAYING, practice=False)
    slots = [SeatSlot(seat, None, None, True) for seat in range(n)]
    clock, posted = FakeClock(), []
    flow = HandFlow(info, TableSettings(), clock, slots, Outbox(slots, clock), TableBots(seed=seed),
                    post=posted.append, table_closed=lambda: False)
    return flow, clock, posted


async def play_game(variant: VariantKey, rounds: int, seed: int) -> tuple[int, float]:
    """One game: (hands played, seconds on the game's clock)."""
    flow, clock, posted = _flow(variant, rounds, seed)
    flow.start_game()
    while True:
        while posted:
            tick = posted.pop(0)
            assert isinstance(tick, Tick)
            played = flow.on_tick(tick)
            if played.hand_ended and flow.hand is not None:
                flow.settled_hand = flow.hand
                flow.match.record(flow.hand)
                if flow.match.finished:
                    return flow.match.hands_played, clock.now()
                flow.timer(flow.settings.hand_pause_seconds, Tick("next_hand", flow.hand_no))
        await asyncio.sleep(0)  # timers already due run on the loop
        if not posted:
            clock.advance(STEP)


async def measure(games: int, seed: int) -> list[dict[str, Any]]:
    rows = []
    for variant in VariantKey:
        for rounds in QUICK_PLAY_ROUNDS:
            played = [await play_game(variant, rounds, seed * 1000 + g) for g in range(games)]
            hands = [h for h, _ in played]
            minutes = [s / 60 for _, s in played]
            rows.append({"variant": variant.value, "rounds": rounds, "games": games,
                         "hands": statistics.fmean(hands), "minutes": statistics.fmean(minutes),
                         "minutes_sd": statistics.stdev(minutes) if games > 1 else 0.0,
                         "minutes_per_hand": sum(minutes) / sum(hands)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| variant | 圈 | games | hands per game | minutes per game (sd) | minutes per hand |")
    print("|---|---|---|---|---|---|")
    for r in asyncio.run(measure(args.games, args.seed)):
        print(f"| {r['variant']} | {r['rounds']} | {r['games']} | {r['hands']:.1f} | {r['minutes']:.1f} "
              f"({r['minutes_sd']:.1f}) | {r['minutes_per_hand']:.2f} |")


if __name__ == "__main__":
    main()
