"""Several processes hosting tables together: the cluster runtime (each process's ``ProcessRuntime`` made one
of many), the leases, the relay between a socket's holder and a table's owner, and the directory of every
process's tables."""
