"""Opening tables and taking seats: the checks that need the account (coins), then the registry."""

from __future__ import annotations

from typing import Any

from app.bots import BOT_LEVELS, DEFAULT_BOT_LEVEL
from app.game.rooms import ROOMS, RoomKey
from app.game.variants import VariantKey, validate_options
from app.models import User
from app.services.errors import Conflict, ErrorCode, Forbidden, InvalidInput
from app.tables.registry import TableInfo, TableRegistry
from app.tables.settings import DEFAULT_BOT_SPEED


def check_not_frozen(user: User) -> None:
    """A frozen account (app.services.admin.set_frozen) may not sit down anywhere."""
    if user.frozen:
        raise Forbidden("this account is frozen", ErrorCode.ACCOUNT_FROZEN)


def check_entry_coins(user: User, room: RoomKey) -> None:
    """The room's entry coins (docs/rules/rooms.md#rooms): 409 ``insufficient_coins`` below them."""
    # Checked at sitting down; the actor re-checks before each hand (coins can move in between).
    entry = ROOMS[room].entry_coins
    if user.coins < entry:
        raise Conflict(f"the {ROOMS[room].name} room needs at least {entry} coins to sit; you have {user.coins}",
                       ErrorCode.INSUFFICIENT_COINS, room=room.value, needed=entry, have=user.coins)


def _options(variant: VariantKey, options: dict[str, Any]) -> dict[str, Any]:
    return validate_options(variant, options)  # TableOptionError is an InvalidInput with its code


async def open_table(
    *, registry: TableRegistry, user: User, room: RoomKey, variant: VariantKey, options: dict[str, Any]
) -> TableInfo:
    check_not_frozen(user)
    full_options = _options(variant, options)
    check_entry_coins(user, room)
    return await registry.create_table(
        room=room, variant=variant, options=full_options, user_id=user.id, username=user.username
    )


async def take_seat(*, registry: TableRegistry, user: User, table_id: str, seat: int | None) -> TableInfo:
    check_not_frozen(user)
    table = await registry.lookup(table_id)
    if table.room is not None:
        check_entry_coins(user, table.room)
    return await registry.sit(table_id, user_id=user.id, username=user.username, seat=seat)


async def open_practice(
    *, registry: TableRegistry, user: User, variant: VariantKey, options: dict[str, Any],
    bot_level: str = DEFAULT_BOT_LEVEL, suggest_discard: bool = False, bot_speed: str = DEFAULT_BOT_SPEED,
    hands_limit: int | None = None,
) -> TableInfo:
    """A practice table against server bots of ``bot_level`` (app.bots.BOT_LEVELS), answering at
    ``bot_speed`` (app.tables.settings.BOT_SPEEDS); ``hands_limit`` ends the game early (a short game)."""
    # No entry check: practice moves no coins, and a broke player should still be able to play.
    check_not_frozen(user)
    if bot_level not in BOT_LEVELS:
        raise InvalidInput(f"unknown bot level {bot_level!r}; one of {', '.join(BOT_LEVELS)}",
                           ErrorCode.OPTION_OUT_OF_RANGE, option="bot_level", choices=list(BOT_LEVELS))
    return await registry.create_practice_table(
        variant=variant, options=_options(variant, options), user_id=user.id, username=user.username,
        bot_level=bot_level, suggest_discard=suggest_discard, bot_speed=bot_speed, hands_limit=hands_limit,
    )


async def unseat_below_entry(
    *, registry: TableRegistry, table_id: str, coins_after: list[int | None]
) -> list[int]:
    """After a hand: free the seats of players who can no longer afford the room (docs/rules/rooms.md#rooms).

    ``coins_after`` is ``Settlement.coins_after``.  Returns the seats freed.  For the table actor.
    """
    if all(coins is None for coins in coins_after):  # no coins moved (practice): skip the registry's copy
        return []
    table = registry.get(table_id)
    if table.room is None:
        return []
    entry = ROOMS[table.room].entry_coins
    freed = [seat for seat, coins in enumerate(coins_after) if coins is not None and coins < entry]
    for seat in freed:
        await registry.vacate_seat(table_id, seat)
    return freed
