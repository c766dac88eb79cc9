"""Issue 35 item 8: each process serves when it started, so a restart shows as a new value on its instance
(the MahjongProcessRestarted and MahjongRestartLoop alerts, the dashboard's restart panels), however quick."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

START = re.compile(r"^mahjong_process_start_time_seconds ([0-9.e+]+)$", re.MULTILINE)


def _os_start() -> float:
    """This process's start time as the kernel has it (Linux: /proc)."""
    ticks = int(Path(f"/proc/{os.getpid()}/stat").read_text().rsplit(")", 1)[1].split()[19])
    boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                if line.startswith("btime "))
    return boot + ticks / os.sysconf("SC_CLK_TCK")


async def test_the_scrape_says_when_the_process_started(client) -> None:
    first = float(START.findall((await client.get("/metrics")).text)[0])
    assert _os_start() - 2 <= first <= time.time()  # set as the process started, not at the scrape
    again = float(START.findall((await client.get("/metrics")).text)[0])
    assert again == first  # steady while the process lives: only a restart changes it
