"""One table's play (对局): the table actor and what it owns — the hand flow, the end of a hand, the seats
and their 托管, the outbox, the clock and the hints."""
