"""docs/tournaments.md: how tournaments run, with the limits table from ``app.tournaments.spec.LIMITS``."""

from __future__ import annotations

from app.docgen.note import GENERATED_NOTE
from app.tournaments.schedules import LEAD_DEFAULT, LEAD_MINUTES, SCHEDULE_NAME_MAX
from app.tournaments.spec import LIMITS, NAME_MAX, OPERATOR_ACTIONS

_BODY = """\
# Tournaments (比賽)

{note}

docs/rules/rooms.md#tournaments: an operator creates a tournament in one coin room for one variant; players register (the fee goes
into the prize pool through the ledger), are seated, play for tournament points, and the pool is paid out as
prizes exactly once. A cancelled tournament refunds every fee exactly once.

## Life

`scheduled` → `registering` → `running` → `finished`, or `cancelled` from any state before `finished`. The state
is a database row (`tournaments`), so it survives a restart. What an operator may do in each state is declared
once (`app.tournaments.spec.OPERATOR_ACTIONS`) and returned as `actions` with every tournament; anything else
(starting a cancelled one, cancelling a finished one, starting twice) is refused with 409
`tournament_wrong_state`, from the API and the command line alike (exit 1), and the console offers only `actions`.

{actions}

* **Creating** (operators: `POST /api/operator/tournaments`, or `python -m app tournament create`): name, room,
  variant, `starts_at`, optional `opens_at` (default: registration opens at once), `entry_fee`, `player_limit`,
  `rounds`, `hands_per_round` (omit it to play a whole game of the table option `rounds` 圈 per round),
  `prize_split` (whole percentages per place, summing to 100, never paying a place more than the one above),
  optional `guarantee` and table `options`. Times carry their zone (`…Z`, `…+08:00`); `starts_at` is in the
  future and `opens_at` not after it; the name is shown as typed (NFC), may hold no control, bidi, zero-width or
  other default-ignorable character and must hold a visible one (422 `invalid_input` naming the field).
* **Registering** (`POST /api/tournaments/{{id}}/register`, `DELETE` to leave before the start): the player must
  hold the room's entry coins (and the fee) and not be frozen. Registering again changes nothing. Leaving refunds.
  The registration is the player's one **commitment** until the tournament ends (`app.services.commitments`):
  nobody registers while seated at a table or waiting in the quick-play queue (409 `already_seated` /
  `in_queue`), nor in two unfinished tournaments (409 `registered_elsewhere`), and a registered player sits at
  no other table; so nobody can move coins out of reach of a hand being lost, or sit at two tables at once.
* **Starting**: when `starts_at` passes (the director ticks every `TOURNAMENT_TICK_SECONDS`), or at once with
  `POST /api/operator/tournaments/{{id}}/start` / `python -m app tournament start ID`. Fewer than two players: the
  tournament is cancelled and refunded instead.
* **Seating**: round 1 at random; each later round by the standings, best first, so the top players sit together.
* **A number of players that does not divide by the table size**: `player_limit` must be a multiple of the table
  size (refused at creation otherwise). A short field is filled with **house bots** in the last table; a bot plays
  for no prize and is not in the standings. Every other table is all players.
* **A frozen player** (an admin's freeze): in a running tournament the seat plays on 托管 (auto-play) to the end
  of the round, so the table goes on; the player is **disqualified**: not seated in later rounds, no prize, shown
  with `disqualified: true` in the standings. In a tournament not started yet the fee is refunded and the
  registration dropped. Audited as `tournament.disqualify`.
* **Voiding a tournament hand** (`POST /api/admin/hands/{{id}}/void`): its points come off its table's game and
  its players' standings, once its table's game has ended (409 `tournament_game_playing` before) and before the
  prizes are paid (409 `tournament_paid` after).
* **Playing**: each table is a normal table actor; tournament tables move no coins and no 積分: their hands are
  recorded as practice hands, `practice: true` both in the hand record (`GET /api/hands/{{id}}`) and in the table
  socket's `hand_result` (whose payments are points with 0 coins; the snapshot's `coins_per_point` is null);
  the hands' points are the tournament points. A table ends after `hands_per_round` hands (or its 圈); the director records its points, and when every table of the round
  is done it seats the next round or finishes.
* **A table an operator force-closes** (stuck): its hand in progress moves nothing and the game is played again
  from the start at a new table; the closed table stays on the game's record (`closed_tables`) and its hands
  keep its id.
* **Standings**: `GET /api/tournaments/{{id}}` and, live, `{{"type": "tournament_updated", "tournament": …}}` on every
  lobby WebSocket.
* **Restart**: a running tournament's tables are in the table journal like every table, so the restarted server
  resumes each one where it stopped (the same hand, the same wall). The table is the tournament's again before
  its first resumed hand (it is found by its table id, which the director stores with the game before the
  table starts): tournament points, no coins, the round's hand limit, its points to the standings
  (`tests/app/tournaments/test_tournament_restart.py`). A table the journal does not hold is started again on the next tick
  (its game replayed from the start; only finished games count).
* **Several server processes** (one database, one Redis): one director per tournament. A process seats a
  tournament's rounds and runs its tables only while it holds the tournament's Redis lease (`SET NX PX`,
  renewed every tick, `TOURNAMENT_LEASE_SECONDS`); the others' ticks and start requests launch nothing. When the
  holder stops, it gives its leases back (or they lapse if it died) and the next tick of another process takes
  the tournament over, resuming its tables from the journal (`tests/app/tournaments/test_tournament_lease.py`). Without
  Redis the process is alone and directs every tournament.

## Money

Every movement is a pair of ledger entries (a debit and a credit) with an idempotency key, between the player
and the tournament's own **pool account** (a system account `pool#ID`; nobody can log in as it):

| movement | key | reason |
|---|---|---|
| fee in | `tourney:{{t}}:fee:{{user}}:{{n}}` (n-th registration) | `tournament_fee` |
| refund (leaving, or cancel) | `tourney:{{t}}:refund:{{user}}:{{n}}` | `tournament_refund` |
| guarantee (house → pool at creation) | `tourney:{{t}}:guarantee` | `tournament_guarantee` |
| guarantee back to the house (cancel) | `tourney:{{t}}:guarantee:return` | `tournament_guarantee` |
| prize | `tourney:{{t}}:prize:{{place}}` (one per place) | `tournament_prize` |

* **Prizes**: each place gets the floor of its percentage of the pool; the coins the floors leave go to first
  place. Tied players share the amounts of the places they occupy evenly; coins that do not divide go one each to
  the earlier-registered of them (the higher place). If fewer players finish than places are paid, the unpaid
  places' coins go to the winner.
* **Exactly once**: paying, cancelling and every state change lock the pool account first and check the state,
  so a retry or a second process does nothing (`tests/app/tournaments/test_tournaments.py` retries concurrently on Postgres).
* **The guarantee** comes from the house account (`house#`), which an admin funds or drains only with its own
  audited action, `POST /api/admin/house` (`{{"delta", "reason"}}`, audit `house.adjust`); the players' adjustment
  route refuses the house and the pools (403 `system_account`). Creating a tournament whose guarantee the house
  cannot cover is refused (409 `house_short`). If every player was disqualified, the pool goes back to the house.
* After `finished` or `cancelled` the pool holds 0: fees + guarantee = prizes + refunds
  (`GET /api/operator/tournaments/{{id}}/report`, `python -m app tournament report ID`, field `balanced`).

## Limits

| field | minimum | maximum |
|---|---|---|
{limits}
| `name` | 1 character | {name_max} characters |

`places_paid` is the length of `prize_split` (and at most `player_limit`).

## Recurring tournaments

An operator schedules a tournament that recurs (`POST /api/operator/tournament-schedules`, or the console's
"定期比賽" form): the same body as creating one, without `starts_at` and `opens_at`, plus
`recurrence: {{frequency, weekdays, time, timezone, lead_minutes}}`: `daily`, or `weekly` on `weekdays` (`MO` …
`SU`), at the local wall-clock `time` (`HH:MM`) in the IANA `timezone` (e.g. `Asia/Taipei`). The rule and the
zone are stored, never the next UTC instant, and every occurrence is computed from them (python-dateutil's
`rrule` over `zoneinfo`), so "daily at 20:00 America/New_York" stays at 20:00 local on either side of a DST
change. A time inside a spring-forward gap runs as `zoneinfo` reads it (02:30 becomes 03:30 summer time); an
ambiguous one (fall back) runs at the first. The schedule's name is at most {schedule_name_max} characters:
each occurrence is named after it and its local date ("Nightly 2026-12-05").

The director creates each occurrence's tournament `lead_minutes` before its start ({lead_low}–{lead_high}, default
{lead_default}), registration open at once, audited under the director's account, exactly once whatever the
number of processes: the tournament and its row in `tournament_occurrences` (primary key: schedule and
occurrence) commit together, and another process's insert of the same key fails and rolls its copy back. If
the house cannot fund the guarantee then, nothing is created and the next tick tries again until the start.
`GET` lists the schedules with their next start; `POST …/{{id}}/pause {{paused, reason}}` pauses (no further
tournaments) or resumes; `DELETE …/{{id}}` ends a schedule. The tournaments a schedule created stay. Each is
audited (`schedule.create`, `schedule.pause`, `schedule.resume`, `schedule.delete`).

## Command line

```
python -m app tournament create --name N --room beginner --variant taiwan --starts-at 2027-01-01T12:00:00+00:00 \\
    --fee 1000 --players 8 --rounds 2 --hands 4 --split 50,30,20 [--guarantee 0] [--opens-at …] [--option rounds=1]
python -m app tournament list [--state running]
python -m app tournament show|start|report ID
python -m app tournament cancel ID --reason TEXT
```
Each prints JSON. A bad argument (`--split 50,abc,50`, `--room moon`, `--option di=abc`, a spec the rules
refuse) is a usage error: one line on stderr naming the option and what it allows, exit status 2. A refusal of
the service (cancelling a finished tournament …) prints `{{"error", "code"}}` and exits 1. Acts from the command
line are audited with no actor (the console says "command line"); the director's own acts (opening
registration, a due start, the payout) under its system account `director#` (the console says "director").
"""


def render() -> str:
    rows = "\n".join(f"| `{name}` | {low:,} | {high:,} |" for name, (low, high) in LIMITS.items())
    note = GENERATED_NOTE.format(source="`app/docgen/tournaments.py` and `app.tournaments.spec.LIMITS`")
    actions = "| state | operator actions |\n|---|---|\n" + "\n".join(
        f"| `{state.value}` | {', '.join(f'`{a}`' for a in acts) or 'none'} |" for state, acts in OPERATOR_ACTIONS.items())
    return _BODY.format(note=note, limits=rows, name_max=NAME_MAX, actions=actions,
                        schedule_name_max=SCHEDULE_NAME_MAX, lead_low=LEAD_MINUTES[0], lead_high=LEAD_MINUTES[1],
                        lead_default=LEAD_DEFAULT)
