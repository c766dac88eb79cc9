from __future__ import annotations

from fastapi import APIRouter, status

from app.api.deps import CurrentUser, RegistryDep, TableId
from app.schemas import PracticeCreateIn, SitIn, StandOut, TableOut
from app.tables import seating

router = APIRouter(prefix="/api", tags=["tables"])


@router.get("/tables/{table_id}")
async def read_table(table_id: TableId, registry: RegistryDep) -> TableOut:
    return TableOut.model_validate((await registry.lookup(table_id)).public())


@router.post("/tables/{table_id}/sit")
async def sit(table_id: TableId, user: CurrentUser, registry: RegistryDep, body: SitIn | None = None) -> TableOut:
    """Take a seat (the first free one if none is given).  One table per account at a time."""
    table = await seating.take_seat(
        registry=registry, user=user, table_id=table_id, seat=body.seat if body else None
    )
    return TableOut.model_validate(table.public())


@router.post("/tables/{table_id}/bots")
async def fill_with_bots(table_id: TableId, user: CurrentUser, registry: RegistryDep) -> TableOut:
    """The table's creator seats server bots in every empty seat and the game starts.  Bots hold no
    coins: a payment to or from a bot seat moves nothing; only payments between players move coins."""
    table = await registry.fill_with_bots(table_id, user_id=user.id)
    return TableOut.model_validate(table.public())


@router.post("/tables/{table_id}/stand")
async def stand(table_id: TableId, user: CurrentUser, registry: RegistryDep) -> StandOut:
    table = await registry.stand(table_id, user_id=user.id)
    return StandOut(table=TableOut.model_validate(table.public()) if table else None)


@router.post("/practice", status_code=status.HTTP_201_CREATED)
async def create_practice(body: PracticeCreateIn, user: CurrentUser, registry: RegistryDep) -> TableOut:
    """A private table against server bots of the chosen level; no coins move."""
    table = await seating.open_practice(registry=registry, user=user, variant=body.variant, options=body.options,
                                        bot_level=body.bot_level, suggest_discard=body.suggest_discard,
                                        bot_speed=body.bot_speed, hands_limit=body.hands)
    return TableOut.model_validate(table.public())
