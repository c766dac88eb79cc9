"""Finished games' final standings (app.services.games): yours, newest first, and one game by its id."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from app.api.deps import CurrentUser, GameId, SessionDep
from app.models import Game, User
from app.schemas import UtcDatetime
from app.services import games

router = APIRouter(prefix="/api", tags=["games"])


class TitleOut(BaseModel):
    title: str = Field(description="the rank title in 繁體 (as GET /api/me's title)")
    title_names: dict[str, str] = Field(description="the same title as {zh_hans, zh_hant, en}")


class GameSeatOut(BaseModel):
    seat: int
    user_id: int | None = Field(description="null for a bot")
    username: str | None = Field(description="null for a bot")
    bot: bool
    place: int = Field(description="1 first, by net points; equal points share a place (1, 2, 2, 4)")
    points: int = Field(description="net points over the game")
    coins: int = Field(description="net coins over the game (0 at practice and tournament tables)")
    stood_up: bool = Field(description="stood up at the end: below the room's entry (or frozen)")
    rank_points_before: int | None = Field(description="積分 before the game's first hand; null for a bot")
    rank_points_after: int | None = Field(description="積分 after its last hand; null for a bot")
    title_before: TitleOut | None = Field(description="the rank title before the game; null for a bot")
    title_after: TitleOut | None = Field(description="the rank title after the game; null for a bot")


class GameOut(BaseModel):
    """A finished game's final standings: what ``game_over`` told its seats, and every seat's title change."""

    id: str = Field(description="the game_over message's game_id")
    table_id: str
    variant: str
    room: str | None = Field(description="null for a practice table")
    kind: Literal["practice", "coin", "tournament"]
    options: dict[str, object] = Field(description="the table's options")
    hands_limit: int | None = Field(description="a short game's hands; null: the game played its 圈")
    reason: Literal["rounds_complete", "player_left", "server_error", "table_closed"]
    hands_played: int
    ended_at: UtcDatetime
    your_seat: int | None = Field(description="your seat in this game; null when you did not play it")
    seats: list[GameSeatOut]
    hand_ids: list[int] = Field(description="the game's settled hands, in play order (GET /api/hands/{id}/replay "
                                            "each): the replay of the whole game")

    @classmethod
    def of(cls, game: Game, user: User, hand_ids: list[int]) -> GameOut:
        seats = list(game.seats)
        return cls(
            id=game.id, table_id=game.table_id, variant=game.variant, room=game.room, kind=game.kind,  # type: ignore[arg-type]
            options=dict(game.options), hands_limit=game.hands_limit, reason=game.reason,  # type: ignore[arg-type]
            hands_played=game.hands_played, ended_at=game.ended_at,
            your_seat=seats.index(user.id) if user.id in seats else None,
            seats=[_seat(game, seat) for seat in range(len(seats))], hand_ids=hand_ids)


def _seat(game: Game, seat: int) -> GameSeatOut:
    return GameSeatOut(
        seat=seat, user_id=game.seats[seat], username=game.seat_names[seat], bot=seat in game.bots,
        place=game.places[seat], points=game.points[seat], coins=game.coins[seat],
        stood_up=seat in game.stood_up, rank_points_before=game.rank_before[seat],
        rank_points_after=game.rank_after[seat], title_before=_title(game.titles_before[seat]),
        title_after=_title(game.titles_after[seat]))


def _title(title: str | None) -> TitleOut | None:
    names = games.title_names(title)
    return None if names is None or title is None else TitleOut(title=title, title_names=names.to_json())


@router.get("/me/games")
async def my_games(user: CurrentUser, session: SessionDep,
                   limit: Annotated[int, Query(ge=1, le=games.GAMES_LIMIT)] = games.GAMES_LIMIT) -> list[GameOut]:
    """The games you played to their end, newest first, each with its final standings."""
    records = await games.player_games(session, user.id, limit)
    hands = await games.game_hands(session, [game.id for game in records])
    return [GameOut.of(game, user, hands.get(game.id, [])) for game in records]


@router.get("/games/{game_id}", responses={403: {"description": "not a player of this game"}})
async def read_game(game_id: GameId, user: CurrentUser, session: SessionDep) -> GameOut:
    """One finished game's final standings.  Readable by its players, operators and admins (403
    ``game_private`` for anyone else, 404 ``game_not_found`` for no such game)."""
    game = await games.readable_game(session, game_id, user)
    return GameOut.of(game, user, (await games.game_hands(session, [game.id])).get(game.id, []))
