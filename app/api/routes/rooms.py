from __future__ import annotations

from fastapi import APIRouter, status

from app.api.deps import CurrentUser, RegistryDep
from app.game.rooms import ROOMS, RoomKey
from app.game.variants import VARIANT_INFO, VariantKey, option_specs
from app.schemas import OptionSpecOut, RoomOut, ScoringItemOut, TableCreateIn, TableOut, VariantOut
from app.tables import seating
from engine.options import item_units
from engine.scoring.names import item_name

router = APIRouter(prefix="/api", tags=["rooms"])


@router.get("/rooms")
async def list_rooms() -> list[RoomOut]:
    return [RoomOut(key=r.key.value, name=r.name, names=r.names.to_json(), coins_per_point=r.coins_per_point, entry_coins=r.entry_coins)
            for r in ROOMS.values()]


def _items(variant: VariantKey) -> list[ScoringItemOut]:
    """The variant's scoring items with names, unit and default value (for the rules page)."""
    specs = option_specs(variant)
    return [ScoringItemOut(key=key, names=item_name(variant.value, key).to_json(), unit=unit,
                           value=specs[key].default if key in specs else 0)
            for key, unit in item_units(variant.value).items()]


@router.get("/variants")
async def list_variants() -> list[VariantOut]:
    """The variants and every table option each accepts, with its type, default and range or choices
    (the engine's one option table; docs/options.md)."""
    return [
        VariantOut(
            key=v.key.value,
            name=v.name,
            seats=v.seats,
            options={name: OptionSpecOut.of(spec) for name, spec in option_specs(v.key).items()},
            items=_items(v.key),
        )
        for v in VARIANT_INFO.values()
    ]


@router.get("/rooms/{room}/tables")
async def list_tables(room: RoomKey, registry: RegistryDep) -> list[TableOut]:
    return [TableOut.model_validate(t.public()) for t in await registry.listing(room)]


@router.post("/rooms/{room}/tables", status_code=status.HTTP_201_CREATED)
async def create_table(room: RoomKey, body: TableCreateIn, user: CurrentUser, registry: RegistryDep) -> TableOut:
    """Open a table in this room; you take seat 0.  Needs the room's entry coins."""
    table = await seating.open_table(
        registry=registry, user=user, room=room, variant=body.variant, options=body.options
    )
    return TableOut.model_validate(table.public())
