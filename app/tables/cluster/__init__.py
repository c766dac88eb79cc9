"""The processes that host tables: this process's runtime, and across several processes the leases, the
relay between a socket's holder and a table's owner, and the directory of every process's tables."""
