"""The table's own vocabulary, which its sockets carry: the messages either side may send (``messages``), the
payloads of ``event`` messages and the snapshot's view (``events``) and the close codes (``close_codes``).

Below the table's game (``app.tables.play`` speaks it) and below the transport (``app.ws`` carries it), so
neither reaches up to the other for a word.  docs/protocol.md is generated from here (``app.docgen.protocol``).
"""
