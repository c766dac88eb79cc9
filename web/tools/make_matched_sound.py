"""Dev-time generator of web/assets/sounds/matched.wav (self-made, CC0): quick play found a table.

Three soft rising bell tones, synthesised with the standard library only (no SoX needed):
``python web/tools/make_matched_sound.py``.
"""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

RATE = 22050
NOTES = [(587.3, 0.0), (784.0, 0.11), (1174.7, 0.22)]  # D5, G5, D6: a rising fourth and fifth
LENGTH = 0.75


def samples() -> list[int]:
    out = []
    for i in range(int(RATE * LENGTH)):
        t = i / RATE
        value = 0.0
        for freq, start in NOTES:
            if t >= start:
                age = t - start
                envelope = min(1.0, age / 0.005) * math.exp(-age * 6.0)
                value += envelope * (math.sin(2 * math.pi * freq * age) + 0.3 * math.sin(4 * math.pi * freq * age))
        out.append(int(max(-1.0, min(1.0, value * 0.28)) * 32767))
    return out


def main() -> None:
    path = Path(__file__).resolve().parents[1] / "assets" / "sounds" / "matched.wav"
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(b"".join(struct.pack("<h", s) for s in samples()))
    print(path, path.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
