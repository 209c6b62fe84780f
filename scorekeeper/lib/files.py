"""How many connections a process may take: each is one file, and a process that runs out of
files can accept nothing, nor reach its database (no Django here: the events server's worker
reads it before Django is set up)."""

import resource

RESERVE = 64  # files a process keeps for its database connection, its logs and its own


def most_connections() -> int:
    """Below the files this process may open, keeping ``RESERVE``."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 100_000 if soft == resource.RLIM_INFINITY else max(16, soft - RESERVE)
