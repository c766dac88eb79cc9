"""Situation ⇄ JSON (計分情境的 JSON 格式), strictly validated; the format is described in docs/scoring.md.

``situation_from_json`` checks everything that can be checked without the variant's scoring rules: known
keys only, tile notation, tiles that exist in the variant, at most 4 copies of a tile (1 of a flower) across
the table, each seat's tile count, meld shapes, seat indices, and who-won-how consistency.  Every problem is
a ``ValueError`` whose message starts with the path of the offending field (e.g. ``seats[1].melds[0]``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.melds import Meld, MeldKind
from engine.scoring.situation import Declaration, KongKind, SeatHand, Situation, WinKind
from engine.tiles import FLOWER_BASE, HONOUR_BASE, NotationError, Tile, format_tiles, parse_tiles

WHITE = HONOUR_BASE + 6  # 白 (7z): a bonus tile in 台炮 unless it is a 財神 face


@dataclass(frozen=True)
class VariantShape:
    seats: int
    hand: int  # tiles of a waiting hand (non-dealer deal), kongs counted as 3
    suits: str
    chow: bool
    max_winners: int
    win_kinds: frozenset[WinKind]


_COMMON_WINS = frozenset(
    {WinKind.DISCARD, WinKind.SELF_DRAW, WinKind.KONG_REPLACEMENT, WinKind.FLOWER_REPLACEMENT, WinKind.ROB_KONG}
)
VARIANT_SHAPES: dict[str, VariantShape] = {
    "tiantai": VariantShape(3, 13, "mp", False, 2, _COMMON_WINS | {WinKind.EIGHT_FLOWERS}),
    "taipao": VariantShape(4, 16, "mps", True, 1, _COMMON_WINS | {WinKind.SPLIT_DEAL, WinKind.KILL_PIG, WinKind.EIGHT_FLOWERS}),
    "taiwan": VariantShape(4, 16, "mps", True, 1, _COMMON_WINS | {WinKind.EIGHT_FLOWERS, WinKind.SEVEN_ROB_ONE}),
}
FED = frozenset({WinKind.DISCARD, WinKind.ROB_KONG})
NO_TILE_WINS = frozenset({WinKind.KILL_PIG, WinKind.EIGHT_FLOWERS, WinKind.SEVEN_ROB_ONE})
FLOWER_WINS = frozenset({WinKind.EIGHT_FLOWERS, WinKind.SEVEN_ROB_ONE})

TOP_KEYS = frozenset({
    "variant", "seats", "dealer", "winners", "winning_tile", "win_kind", "discarder", "kong_kind",
    "kong_tile", "dealer_streak", "round_wind", "open_seat", "wildcards", "indicators", "last_tile", "heavenly",
    "earthly", "human", "options",
})
SEAT_KEYS = frozenset({"concealed", "melds", "flowers", "declaration"})
MELD_KEYS = frozenset({"kind", "tiles", "from", "claimed", "added"})


# -- small typed readers ------------------------------------------------------------------------------


def _fail(path: str, why: str) -> ValueError:
    return ValueError(f"{path}: {why}")


def _keys(obj: Any, allowed: frozenset[str], path: str, required: tuple[str, ...] = ()) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise _fail(path, f"expected an object, got {type(obj).__name__}")
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise _fail(path, f"unknown key(s) {unknown}; allowed: {sorted(allowed)}")
    for key in required:
        if key not in obj:
            raise _fail(path, f"missing required key {key!r}")
    return obj


def _int(obj: dict[str, Any], key: str, path: str, default: int | None, low: int, high: int) -> int | None:
    value = obj.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"{path}{key}", f"expected an integer, got {value!r}")
    if not low <= value <= high:
        raise _fail(f"{path}{key}", f"must be in {low}..{high}, got {value}")
    return value


def _index(value: Any, path: str, last: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= last:
        raise _fail(path, f"expected a seat index 0..{last}, got {value!r}")
    return value


def _bool(obj: dict[str, Any], key: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise _fail(key, f"expected true or false, got {value!r}")
    return value


def _tiles(value: Any, path: str) -> tuple[Tile, ...]:
    if not isinstance(value, str):
        raise _fail(path, f"expected a tile string such as \"123m55z\", got {value!r}")
    try:
        return tuple(parse_tiles(value))
    except NotationError as e:
        raise _fail(path, str(e)) from None


def _tile(value: Any, path: str) -> Tile:
    tiles = _tiles(value, path)
    if len(tiles) != 1:
        raise _fail(path, f"expected exactly one tile, got {value!r}")
    return tiles[0]


def _enum(cls: type[Any], value: Any, path: str) -> Any:
    try:
        return cls(value)
    except ValueError:
        raise _fail(path, f"{value!r} is not one of {[m.value for m in cls]}") from None


# -- seats --------------------------------------------------------------------------------------------


def _meld(obj: Any, path: str, seat: int, n_seats: int, spec: VariantShape) -> Meld:
    d = _keys(obj, MELD_KEYS, path, ("kind", "tiles"))
    kind: MeldKind = _enum(MeldKind, d["kind"], f"{path}.kind")
    tiles = tuple(sorted(_tiles(d["tiles"], f"{path}.tiles")))
    if kind is MeldKind.CHOW and not spec.chow:
        raise _fail(path, "this variant has no chow (吃)")
    _meld_shape(kind, tiles, path)
    src = _int(d, "from", f"{path}.", None, 0, n_seats - 1)
    added = d.get("added", False)
    if not isinstance(added, bool):
        raise _fail(f"{path}.added", f"expected true or false, got {added!r}")
    if added and kind is not MeldKind.KONG:
        raise _fail(path, "only a kong can be added (加槓 / 補槓)")
    claimed = _tile(d["claimed"], f"{path}.claimed") if "claimed" in d else None
    if kind is MeldKind.AKONG and (src is not None or claimed is not None):
        raise _fail(path, "an akong (暗槓) has no 'from' or 'claimed' tile")
    if src == seat:
        raise _fail(f"{path}.from", "a meld cannot be claimed from its own seat")
    if kind is MeldKind.CHOW and src is not None and src != (seat - 1) % n_seats:
        raise _fail(f"{path}.from", f"a chow is claimed from the 上家 (seat {(seat - 1) % n_seats})")
    if claimed is not None and claimed not in tiles:
        raise _fail(f"{path}.claimed", f"{claimed} is not in the meld")
    return Meld(kind, tiles, claimed, src, added)


def _meld_shape(kind: MeldKind, tiles: tuple[Tile, ...], path: str) -> None:
    if any(t >= FLOWER_BASE for t in tiles):
        raise _fail(path, "flowers cannot form melds")
    if kind is MeldKind.CHOW:
        ok = len(tiles) == 3 and tiles[0] < HONOUR_BASE and tiles[0] % 9 <= 6 and (
            tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2
        )
        if not ok:
            raise _fail(path, f"a chow is 3 consecutive tiles of one suit, got {format_tiles(tiles)}")
        return
    size = 3 if kind is MeldKind.PONG else 4
    if len(tiles) != size or len(set(tiles)) != 1:
        raise _fail(path, f"a {kind.value} is {size} identical tiles, got {format_tiles(tiles)}")


def _seat(obj: Any, i: int, variant: str, spec: VariantShape, wildcards: tuple[Tile, ...]) -> SeatHand:
    path = f"seats[{i}]"
    d = _keys(obj, SEAT_KEYS, path, ("concealed",))
    concealed = tuple(sorted(_tiles(d["concealed"], f"{path}.concealed")))  # order carries no meaning
    for t in concealed:
        bonus = t >= FLOWER_BASE or (variant == "taipao" and t == WHITE)
        if bonus and t not in wildcards:
            raise _fail(f"{path}.concealed", f"{t} is a bonus tile here: list it under 'flowers'")
    melds_raw = d.get("melds", [])
    if not isinstance(melds_raw, list):
        raise _fail(f"{path}.melds", "expected a list of melds")
    melds = tuple(_meld(m, f"{path}.melds[{k}]", i, spec.seats, spec) for k, m in enumerate(melds_raw))
    for k, m in enumerate(melds):
        if m.tiles[0] in wildcards or (variant == "taipao" and m.tiles[0] == WHITE):
            raise _fail(f"{path}.melds[{k}]", f"{m.tiles[0]} cannot be melded in taipao (財神 or bonus 白)")
    flowers = tuple(sorted(_tiles(d.get("flowers", ""), f"{path}.flowers")))
    for f in flowers:
        if f in wildcards:
            raise _fail(f"{path}.flowers", f"{f} is a 財神 face: it stays in the hand")
        if f < FLOWER_BASE and not (variant == "taipao" and f == WHITE):
            raise _fail(f"{path}.flowers", f"{f} is not a bonus tile in {variant}")
    declaration = None
    if d.get("declaration") is not None:
        if variant != "taiwan":
            raise _fail(f"{path}.declaration", "眼牌 / Miji exist only in taiwan")
        declaration = _enum(Declaration, d["declaration"], f"{path}.declaration")
    return SeatHand(concealed, melds, flowers, declaration)


# -- whole situation ----------------------------------------------------------------------------------


def situation_from_json(obj: Any) -> Situation:
    """Build a validated ``Situation`` from the JSON object of docs/scoring.md."""
    d = _keys(obj, TOP_KEYS, "situation", ("variant", "seats", "dealer"))
    variant = d["variant"]
    if variant not in VARIANT_SHAPES:
        raise _fail("variant", f"unknown variant {variant!r}; expected one of {sorted(VARIANT_SHAPES)}")
    spec = VARIANT_SHAPES[variant]
    wildcards = _wildcards(d, variant)
    seats_raw = d["seats"]
    if not isinstance(seats_raw, list) or len(seats_raw) != spec.seats:
        raise _fail("seats", f"{variant} needs a list of exactly {spec.seats} seats")
    seats = tuple(_seat(s, i, variant, spec, wildcards) for i, s in enumerate(seats_raw))
    last = spec.seats - 1
    winners_raw = d.get("winners", [])
    if not isinstance(winners_raw, list):
        raise _fail("winners", "expected a list of seat indices")
    winners = tuple(_index(w, f"winners[{k}]", last) for k, w in enumerate(winners_raw))
    win_kind = _enum(WinKind, d["win_kind"], "win_kind") if d.get("win_kind") is not None else None
    s = Situation(
        variant=variant,
        seats=seats,
        dealer=_int(d, "dealer", "", 0, 0, last) or 0,
        winners=winners,
        winning_tile=_tile(d["winning_tile"], "winning_tile") if d.get("winning_tile") is not None else None,
        win_kind=win_kind,
        discarder=_int(d, "discarder", "", None, 0, last),
        kong_kind=_enum(KongKind, d["kong_kind"], "kong_kind") if d.get("kong_kind") is not None else None,
        kong_tile=_tile(d["kong_tile"], "kong_tile") if d.get("kong_tile") is not None else None,
        dealer_streak=_int(d, "dealer_streak", "", 0, 0, 10_000) or 0,
        round_wind=_int(d, "round_wind", "", 0, 0, 3) or 0,
        open_seat=_int(d, "open_seat", "", None, 0, last),
        wildcards=wildcards,
        last_tile=_bool(d, "last_tile"),
        heavenly=_bool(d, "heavenly"),
        earthly=_bool(d, "earthly"),
        human=_bool(d, "human"),
        options=_options(d.get("options", {})),
    )
    _check_win(s, spec)
    _check_tiles(s, spec)
    return s


def _wildcards(d: dict[str, Any], variant: str) -> tuple[Tile, ...]:
    if d.get("indicators") not in (None, ""):
        return _indicated(d, variant)
    if d.get("wildcards") in (None, ""):
        return ()
    if variant != "taipao":
        raise _fail("wildcards", "財神 exist only in taipao")
    faces = _tiles(d["wildcards"], "wildcards")
    if not 1 <= len(faces) <= 2 or len(set(faces)) != len(faces):
        raise _fail("wildcards", "one face, or two different faces (same-face mode is written once)")
    return faces


def _indicated(d: dict[str, Any], variant: str) -> tuple[Tile, ...]:
    """The 財神 faces from the two turned ``indicators`` (docs/rules/taipao.md#caishen): two faces, one face twice
    (same-face mode), or one a flower: a one-face hand (docs/rules/taipao.md#one-face F-4), kept as the flower
    face, which has no live copy, and the live face."""
    if variant != "taipao":
        raise _fail("indicators", "財神 exist only in taipao")
    if d.get("wildcards") not in (None, ""):
        raise _fail("indicators", "give the turned indicators or the 財神 faces (wildcards), not both")
    turned = _tiles(d["indicators"], "indicators")
    if len(turned) != 2:
        raise _fail("indicators", f"the two turned tiles, got {len(turned)}")
    return tuple(dict.fromkeys(turned))


def _options(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail("options", "expected an object of option key → value")
    for k, v in value.items():
        if not isinstance(v, bool | int | float | str):
            raise _fail(f"options.{k}", f"expected a number, a string or true/false, got {v!r}")
    return dict(value)


def _check_tiles(s: Situation, spec: VariantShape) -> None:
    """Existence, copies and per-seat counts."""
    copies = [0] * (FLOWER_BASE + 8)
    for i, seat in enumerate(s.seats):
        for t in (*seat.concealed, *(x for m in seat.melds for x in m.tiles), *seat.flowers):
            if t < HONOUR_BASE and "mps"[t // 9] not in spec.suits:
                raise _fail(f"seats[{i}]", f"{t} does not exist in {s.variant} (no {'mps'[t // 9]} suit)")
            copies[t] += 1
    if s.winning_tile is not None and len(s.winners) > 1:  # 一炮多響: one discard in several hands
        copies[s.winning_tile] -= len(s.winners) - 1
    for kind, n in enumerate(copies):
        limit = 1 if kind >= FLOWER_BASE else 4
        if n > limit:
            raise _fail("seats", f"{n} copies of {Tile(kind)} on the table; there are only {limit}")
    for i, seat in enumerate(s.seats):
        n = len(seat.concealed) + 3 * len(seat.melds)
        allowed = _allowed_counts(s, spec, i)
        if n not in allowed:
            want = " or ".join(str(a) for a in sorted(allowed))
            raise _fail(f"seats[{i}]", f"holds {n} tiles (concealed + 3 per meld); expected {want}")


def _allowed_counts(s: Situation, spec: VariantShape, seat: int) -> set[int]:
    if seat not in s.winners:
        if s.win_kind is WinKind.SPLIT_DEAL:  # 分牌: others may hold the tile they drew (docs/rules/taipao.md#split-deal)
            return {spec.hand, spec.hand + 1}
        return {spec.hand}
    if s.win_kind in FLOWER_WINS:  # the hand ends on the flower, in or out of the player's turn
        return {spec.hand, spec.hand + 1}
    return {spec.hand + 1}


def _check_win(s: Situation, spec: VariantShape) -> None:
    """Who won how: the fields that go together."""
    if s.is_draw:
        for key in ("win_kind", "winning_tile", "discarder", "kong_kind", "kong_tile"):
            if getattr(s, key) is not None:
                raise _fail(key, "a drawn hand (no winners) has none")
        if s.heavenly or s.earthly or s.human or s.last_tile:
            raise _fail("situation", "heavenly / earthly / human / last_tile need a winner")
        return
    kind = s.win_kind
    if kind is None:
        raise _fail("win_kind", "required when there is a winner")
    if kind not in spec.win_kinds:
        raise _fail("win_kind", f"{kind.value!r} is not a {s.variant} win")
    if len(set(s.winners)) != len(s.winners):
        raise _fail("winners", "a seat is listed twice")
    if len(s.winners) > 1 and (spec.max_winners == 1 or kind is not WinKind.DISCARD):
        raise _fail("winners", "several winners are possible only on a 天台 discard (一炮多響)")
    if kind in FED:
        if s.discarder is None:
            raise _fail("discarder", f"required for a {kind.value} win (the discarder / the konger)")
        if s.discarder in s.winners:
            raise _fail("discarder", "the discarder cannot win on his own discard")
    elif s.discarder is not None:
        raise _fail("discarder", f"a {kind.value} win has no discarder")
    _check_winning_tile(s, kind)
    _check_kong(s, kind)
    if s.variant == "taiwan" and s.open_seat is None:
        raise _fail("open_seat", "required for a taiwan win (隨開門 winds)")
    if s.human and s.variant != "taiwan":
        raise _fail("human", "人胡 exists only in taiwan")


def _check_winning_tile(s: Situation, kind: WinKind) -> None:
    tile = s.winning_tile
    if tile is None:
        if kind not in NO_TILE_WINS and not s.heavenly:
            raise _fail("winning_tile", "required for this win")
        return
    if tile >= FLOWER_BASE:
        raise _fail("winning_tile", "a flower cannot be a winning tile")
    for w in s.winners:
        if tile not in s.seats[w].concealed:
            raise _fail(f"seats[{w}].concealed", f"must include the winning tile {tile}")


def _check_kong(s: Situation, kind: WinKind) -> None:
    if kind is WinKind.ROB_KONG:
        if s.kong_kind not in (None, KongKind.ADDED):
            raise _fail("kong_kind", "only an added kong (加槓 / 補槓) can be robbed")
        if s.kong_tile is not None and s.kong_tile != s.winning_tile:
            raise _fail("kong_tile", "the robbed tile is the winning tile")
    elif kind is not WinKind.KONG_REPLACEMENT and (s.kong_kind is not None or s.kong_tile is not None):
        raise _fail("kong_kind", "only a kong_replacement or rob_kong win names a kong")


def situation_to_json(s: Situation) -> dict[str, Any]:
    """The JSON object for ``s``; fields at their default are left out."""
    out: dict[str, Any] = {"variant": s.variant, "dealer": s.dealer, "seats": [_seat_json(x) for x in s.seats]}
    if s.winners:
        out["winners"] = list(s.winners)
    optional: Mapping[str, Any] = {
        "winning_tile": None if s.winning_tile is None else str(s.winning_tile),
        "win_kind": None if s.win_kind is None else s.win_kind.value,
        "discarder": s.discarder,
        "kong_kind": None if s.kong_kind is None else s.kong_kind.value,
        "kong_tile": None if s.kong_tile is None else str(s.kong_tile),
        "dealer_streak": s.dealer_streak or None,
        "round_wind": s.round_wind or None,
        "open_seat": s.open_seat,
        "wildcards": format_tiles(s.wildcards) or None,
        "last_tile": s.last_tile or None,
        "heavenly": s.heavenly or None,
        "earthly": s.earthly or None,
        "human": s.human or None,
        "options": dict(s.options) or None,
    }
    out.update({k: v for k, v in optional.items() if v is not None})
    return out


def _seat_json(seat: SeatHand) -> dict[str, Any]:
    out: dict[str, Any] = {"concealed": format_tiles(seat.concealed)}
    if seat.melds:
        out["melds"] = [_meld_json(m) for m in seat.melds]
    if seat.flowers:
        out["flowers"] = format_tiles(seat.flowers)
    if seat.declaration is not None:
        out["declaration"] = seat.declaration.value
    return out


def _meld_json(m: Meld) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": m.kind.value, "tiles": format_tiles(m.tiles)}
    if m.from_seat is not None:
        out["from"] = m.from_seat
    if m.claimed is not None:
        out["claimed"] = str(m.claimed)
    if m.added:
        out["added"] = True
    return out
