"""The WebSocket endpoints: the lobby (lobby.py), a seat at a table (table_socket.py), a spectator
(spectate.py), and what they share: who may open a socket and the caps (guard.py), what a table socket
accepts from its client (inbound.py) and one socket's life (serve.py).  What the sockets carry is the
table's own vocabulary, declared below the tables in ``app.tables.protocol``."""
