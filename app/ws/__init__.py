"""The table WebSocket: protocol models (protocol.py), the socket endpoint (table_socket.py), hand records."""
