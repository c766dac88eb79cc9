"""The WebSocket close codes of the table, spectator and lobby sockets, declared once (docs/protocol.md).

Refusals are sent after the handshake (accept, then close), so a client always reads one of these rather
than a bare HTTP 403.  The codes the server names in code have a constant here; ``CLOSE_CODES`` says what
every code means and is what the generated protocol docs list.
"""

from __future__ import annotations

NOT_SEATED = 4003  # a table socket from an account with no seat at the table
NO_GAME = 4004  # no game runs at the table (never started, over, or unknown)
TABLE_GONE = 4005  # the table was closed for good (after `game_over`, reason `table_closed`)
TOO_MANY = 4029  # too many sockets (account or address), or too many reconnects

CLOSE_CODES: dict[int, str] = {
    1000: "the game is over (a seat that reconnects within `TABLE_ENDED_LINGER_SECONDS` of the end is sent its "
          "snapshot, the last `hand_result` and `game_over` first, then this)",
    1001: "the server is restarting (after `server_restarting`), or the table is restarting here after a "
          "lost journal: reconnect",
    1008: "not authenticated: no ticket or a missing, used or expired one (or an invalid session token in the "
          "Authorization header); or over the message rate limit",
    1009: "message too big",
    1012: "several server processes: the table moved to another process, or its process stopped answering "
          "a relayed socket; reconnect (the snapshot puts you back in step)",
    1013: "too slow to read messages, the table is busy, or it is moving between server processes; reconnect",
    4001: "replaced by a newer connection for the same seat",
    NOT_SEATED: "you are not seated at this table",
    NO_GAME: "no game is running at this table (or its game ended more than `TABLE_ENDED_LINGER_SECONDS` ago)",
    TABLE_GONE: "the table was closed for good (an operator closed it, or its tournament was cancelled), after "
                "`game_over` with reason `table_closed`: do not reconnect",
    4401: "your login session ended while connected (logged out, ended from another session, password "
          "changed, account frozen, an admin's log-out-everywhere, or its lifetime ran out): log in again",
    TOO_MANY: "too many open sockets for your account or address (Settings.sockets_per_user / sockets_per_ip), "
              "or too many reconnects; close others or wait",
}
