"""Draw the tiles the public-domain set lacks: the eight flowers 1f..8f, the back and a framed 7z 白板.

A dev-time tool, not part of the app (the app ships the SVGs this writes).  Needs fontTools:

    pip install fonttools && python web/tools/make_tiles.py [/path/to/wqy-microhei.ttc]

The characters are turned into plain paths (outlines of WenQuanYi Micro Hei, Apache-2.0, Debian package
fonts-wqy-microhei), so the SVGs need no font on the player's machine.  Faces are transparent like the
FluffyStuff faces (300×400, drawn over front.svg); the back is a whole tile.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTCollection, TTFont

OUT = Path(__file__).resolve().parents[1] / "assets" / "tiles"
FONT = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"

# (file, character, index, colour): seasons 春夏秋冬 red, plants 梅蘭菊竹 blue-green (docs/rules/common.md#notation: 1f..8f).
FLOWERS = [
    ("1f", "春", "1", "#c8282d"), ("2f", "夏", "2", "#c8282d"), ("3f", "秋", "3", "#c8282d"),
    ("4f", "冬", "4", "#c8282d"),
    ("5f", "梅", "1", "#1d5fa8"), ("6f", "蘭", "2", "#1d5fa8"), ("7f", "菊", "3", "#1d5fa8"),
    ("8f", "竹", "4", "#1d5fa8"),
]
# A small emblem per flower, drawn with circles/lines (no font): petals for 梅, leaves for 蘭/竹 ...
EMBLEM_COLOUR = {"1f": "#2e8b3d", "2f": "#2e8b3d", "3f": "#2e8b3d", "4f": "#2e8b3d",
                 "5f": "#c8282d", "6f": "#c8282d", "7f": "#c8282d", "8f": "#c8282d"}


def _font(path: str) -> TTFont:
    if path.endswith(".ttc"):
        return TTCollection(path).fonts[0]
    return TTFont(path)


def glyph_path(font: TTFont, char: str, box: tuple[float, float, float, float]) -> str:
    """The outline of ``char`` scaled to fit ``box`` (x, y, w, h), centred, as SVG path data."""
    glyphs = font.getGlyphSet()
    name = font.getBestCmap()[ord(char)]
    bounds = BoundsPen(glyphs)
    glyphs[name].draw(bounds)
    x0, y0, x1, y1 = bounds.bounds
    bx, by, bw, bh = box
    scale = min(bw / (x1 - x0), bh / (y1 - y0))
    dx = bx + (bw - (x1 - x0) * scale) / 2 - x0 * scale
    dy = by + (bh - (y1 - y0) * scale) / 2 + y1 * scale  # y flips: font y up, SVG y down
    pen = SVGPathPen(glyphs, ntos=lambda v: f"{v:.1f}".rstrip("0").rstrip("."))
    glyphs[name].draw(TransformPen(pen, (scale, 0, 0, -scale, dx, dy)))
    return pen.getCommands()


def emblem(code: str) -> str:
    """Five petals round a dot, top-right: a simple flower mark, like the small pictures on real tiles."""
    c = EMBLEM_COLOUR[code]
    cx, cy, r = 238, 72, 15
    petals = "".join(
        f'<circle cx="{cx + r * dx:.1f}" cy="{cy + r * dy:.1f}" r="10" fill="{c}" fill-opacity=".85"/>'
        for dx, dy in ((0, -1), (0.95, -0.31), (0.59, 0.81), (-0.59, 0.81), (-0.95, -0.31))
    )
    return petals + f'<circle cx="{cx}" cy="{cy}" r="7" fill="#e6b422"/>'


def flower_svg(font: TTFont, code: str, char: str, index: str, colour: str) -> str:
    big = glyph_path(font, char, (45, 120, 210, 220))
    small = glyph_path(font, index, (38, 40, 40, 56))
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 400" width="300" height="400">'
        f'<title>{char} {code}</title>'
        f'<path d="{small}" fill="{colour}"/>{emblem(code)}'
        f'<path d="{big}" fill="{colour}" stroke="{colour}" stroke-width="5" stroke-linejoin="round"/></svg>\n'
    )


def back_svg() -> str:
    """A whole tile seen from behind: a blue lacquered back with a lighter inner panel and a lattice."""
    lattice = "".join(
        f'<path d="M{x} 60 L{x + 120} 340 M{x + 120} 60 L{x} 340" stroke="#7fb0e6" stroke-width="3" '
        f'stroke-opacity=".35" fill="none"/>'
        for x in (30, 90, 150)
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 400" width="300" height="400">'
        '<title>back</title>'
        '<rect x="4" y="4" width="292" height="392" rx="36" fill="#1f4f86"/>'
        '<rect x="4" y="4" width="292" height="392" rx="36" fill="none" stroke="#12315a" stroke-width="8"/>'
        '<rect x="30" y="34" width="240" height="332" rx="22" fill="#2b63a3"/>'
        f'<clipPath id="p"><rect x="30" y="34" width="240" height="332" rx="22"/></clipPath>'
        f'<g clip-path="url(#p)">{lattice}</g>'
        '<rect x="30" y="34" width="240" height="332" rx="22" fill="none" stroke="#a9cdf5" '
        'stroke-width="4" stroke-opacity=".6"/></svg>\n'
    )


def white_dragon_svg() -> str:
    """白板 as Chinese sets draw it: an empty blue frame (the plain FluffyStuff face is easy to miss)."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 400" width="300" height="400">'
        '<title>白 7z</title>'
        '<rect x="58" y="78" width="184" height="244" rx="10" fill="none" stroke="#1d5fa8" stroke-width="14"/>'
        '<rect x="82" y="102" width="136" height="196" rx="4" fill="none" stroke="#1d5fa8" stroke-width="5"/>'
        '</svg>\n'
    )


def main() -> None:
    font = _font(sys.argv[1] if len(sys.argv) > 1 else FONT)
    OUT.mkdir(parents=True, exist_ok=True)
    for code, char, index, colour in FLOWERS:
        (OUT / f"{code}.svg").write_text(flower_svg(font, code, char, index, colour), encoding="utf-8")
    (OUT / "back.svg").write_text(back_svg(), encoding="utf-8")
    (OUT / "7z.svg").write_text(white_dragon_svg(), encoding="utf-8")
    print(f"wrote 1f..8f, back, 7z to {OUT}")


if __name__ == "__main__":
    main()
