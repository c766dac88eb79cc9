from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from app.api.deps import BeforeId, CurrentUser, RegistryDep, SessionDep
from app.schemas import CurrentSeatOut, LedgerEntryOut, MeOut, MePatch
from app.services import accounts, ledger
from app.services.errors import NotFound

router = APIRouter(prefix="/api/me", tags=["me"])


# Pages of the ledger: at most this many entries (docs/settings.md).
LEDGER_PAGE_MAX = 200


@router.get("")
async def read_me(user: CurrentUser, registry: RegistryDep) -> MeOut:
    """Your account, and the table and seat you occupy now (``table``), if any."""
    me = MeOut.of(user)
    table_id = await registry.seated_at(user.id)
    if table_id is not None:
        try:
            table = await registry.lookup(table_id)
        except NotFound:  # it ended (or moved) between the two looks
            return me
        me.table = CurrentSeatOut(table_id=table_id, seat=table.seats.index(user.id), status=table.status.value,
                                  practice=table.practice)
    return me


@router.patch("")
async def update_me(user: CurrentUser, session: SessionDep, body: MePatch) -> MeOut:
    """Change your own settings: today the client language, so it follows you to another browser."""
    if "language" in body.model_fields_set:  # null forgets the choice: each browser picks its own again
        user = await accounts.set_language(session, user_id=user.id, language=body.language)
    return MeOut.of(user)


@router.get("/ledger")
async def read_my_ledger(
    user: CurrentUser,
    session: SessionDep,
    asset: Literal["coins", "rank_points"] | None = None,
    before_id: BeforeId = None,
    limit: Annotated[int, Query(ge=1, le=LEDGER_PAGE_MAX)] = 50,
) -> list[LedgerEntryOut]:
    """Your coin and 積分 history, newest first."""
    entries = await ledger.list_entries(session, user_id=user.id, asset=asset, before_id=before_id, limit=limit)
    return [LedgerEntryOut.model_validate(entry) for entry in entries]
