"""Setting names that matter are spelled right, docker-compose matches what settings read, and
the database is found, never started, by the settings."""
import functools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
import yaml
from django.conf import settings

from policypal.celery import app
from policypal.embedded_db import DEFAULT_DATABASE, pgdata_dir
from policypal.policies.pipeline import PIPELINE

REPO = Path(__file__).resolve().parent.parent


def test_celery_reads_our_settings():
    assert app.conf.broker_url == settings.CELERY_BROKER_URL
    assert app.conf.task_time_limit == settings.CELERY_TASK_TIME_LIMIT
    assert app.conf.task_soft_time_limit == settings.CELERY_TASK_SOFT_TIME_LIMIT
    assert app.conf.task_acks_late is True
    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.task_default_queue == settings.CELERY_TASK_DEFAULT_QUEUE


def test_pipeline_tasks_are_registered():
    """The pipeline enqueues its tasks by name (policypal/policies/pipeline.py): each name is a task."""
    app.loader.import_default_modules()
    assert PIPELINE == ("policies.convert_version", "policies.chunk_version", "policies.index_version")
    assert set(PIPELINE) <= set(app.tasks)


def test_embedding_model_is_a_local_directory():
    assert Path(settings.EMBEDDING_MODEL, "config.json").is_file()


def _env_names_read_by_settings() -> set[str]:
    source = (REPO / "policypal" / "settings.py").read_text()
    return set(re.findall(r'env(?:\.\w+)?\(\s*"([A-Z_]+)"', source))


def test_docker_compose_services_and_environment_match_settings():
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"db", "redis", "web", "worker"} <= set(services)
    assert "pgvector" in services["db"]["image"]
    assert services["redis"]["image"].startswith("redis")
    assert "gunicorn" in " ".join(services["web"]["command"]) if isinstance(services["web"]["command"], list) else "gunicorn" in services["web"]["command"]
    worker_command = services["worker"]["command"]
    assert "celery" in (" ".join(worker_command) if isinstance(worker_command, list) else worker_command)
    read = _env_names_read_by_settings()
    for name in ("web", "worker"):
        env = services[name]["environment"]
        names = set(env) if isinstance(env, dict) else {e.split("=", 1)[0] for e in env}
        assert {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "EMBEDDING_MODEL"} & names
        unknown = names - read
        assert not unknown, f"{name} sets variables that settings never read: {unknown}"
        assert {"DATABASE_URL", "REDIS_URL", "SECRET_KEY"} <= names


SECURITY_VARIABLES = (
    "SECRET_KEY", "DEBUG", "POLICYPAL_PRODUCTION", "SECURE_HSTS_SECONDS", "TRUSTED_PROXIES", "CACHE_URL",
    "LOGIN_FAILURE_LIMIT", "LOGIN_FAILURE_LIMIT_PER_IP", "LOGIN_LOCKOUT_SECONDS", "ASK_LIMIT_PER_MINUTE",
    "POLICY_UPLOAD_MAX_BYTES", "REQUEST_MAX_BYTES",
)


def test_security_variables_are_read_and_documented():
    read = _env_names_read_by_settings()
    example = (REPO / ".env.example").read_text()
    readme = (REPO / "README.md").read_text()
    for name in SECURITY_VARIABLES:
        assert name in read, name
        assert f"# {name}=" in example, name
        assert f"`{name}`" in readme, name


def test_docker_compose_requires_a_secret_key():
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    for name in ("web", "worker"):
        assert compose["services"][name]["environment"]["SECRET_KEY"].startswith("${SECRET_KEY:?")


# --- The database: the settings start nothing; the scripts start the embedded server; a process
# without one says in one line which command starts it. Each case runs in a subprocess, with its
# own var/ folder (POLICYPAL_VAR_DIR) and no DATABASE_URL.

SETTINGS_SIDE_EFFECTS = """
import json, os
before = dict(os.environ)
from django.conf import settings
database = settings.DATABASES["default"]
after = dict(os.environ)
print(json.dumps({"changed": sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k)),
                  "host": database["HOST"], "name": database["NAME"], "user": database["USER"]}))
"""
START_HINT = "start it with `python -m policypal.embedded_db start` or `make run`."


def _without_database(var_dir: Path, *command: str, timeout: int = 120) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    environment.update(POLICYPAL_VAR_DIR=str(var_dir), DJANGO_SETTINGS_MODULE="policypal.settings")
    return subprocess.run(command, env=environment, cwd=REPO, capture_output=True, text=True, timeout=timeout)


def test_settings_point_at_the_embedded_socket_and_start_nothing(tmp_path):
    result = _without_database(tmp_path, sys.executable, "-c", SETTINGS_SIDE_EFFECTS)
    assert result.returncode == 0, result.stderr[-2000:]
    loaded = json.loads(result.stdout.strip().splitlines()[-1])
    assert loaded["changed"] == []  # no DATABASE_URL (nor anything else) written to the environment
    assert (loaded["host"], loaded["name"], loaded["user"]) == (str(pgdata_dir(tmp_path)), DEFAULT_DATABASE, "postgres")
    assert not pgdata_dir(tmp_path).exists()  # no server started, no cluster created


@pytest.mark.parametrize("command", [
    ["manage.py", "migrate", "--noinput"],
    ["manage.py", "runserver", "--noreload", "127.0.0.1:0"],
    ["-c", "import policypal.wsgi"],  # what gunicorn imports
    ["-m", "celery", "-A", "policypal", "worker", "-Q", "policypal-test-no-database", "--concurrency", "1"],
], ids=["manage.py", "runserver", "wsgi", "celery-worker"])
def test_without_a_database_a_process_says_in_one_line_how_to_start_it(tmp_path, command):
    result = _without_database(tmp_path, sys.executable, *command)
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert f"No PostgreSQL answers at {pgdata_dir(tmp_path)}: {START_HINT}" in output.splitlines(), output[-3000:]
    assert "Traceback" not in output, output[-3000:]


def test_the_embedded_server_starts_creates_its_database_and_stops(tmp_path):
    odd_name = 'policy "pal"; drop'  # quoted as an identifier, never spliced into SQL
    run = functools.partial(_without_database, tmp_path, sys.executable, "-m", "policypal.embedded_db")
    assert run("status").returncode == 3
    try:
        started = run("start", odd_name)
        assert started.returncode == 0, started.stderr[-2000:]
        url = started.stdout.strip().splitlines()[-1]
        with psycopg.connect(url) as connection:
            assert connection.execute("SELECT current_database()").fetchone() == (odd_name,)
        assert run("start", odd_name).returncode == 0  # running, and the database exists: nothing to do
        assert run("status").returncode == 0
    finally:
        stopped = run("stop")
    assert stopped.stdout.strip() == "stopped", stopped.stderr[-2000:]
    assert run("status").returncode == 3


def test_the_scripts_start_the_embedded_server_and_export_its_url(tmp_path):
    """scripts/setup.sh `ensure_database` (make run, make test) starts the server, exports
    DATABASE_URL for the processes started after it, and stops on exit the server it started."""
    script = """source scripts/setup.sh
ensure_database >&2
python -c 'import os, psycopg; print(psycopg.connect(os.environ["DATABASE_URL"]).execute("SELECT current_database()").fetchone()[0])'
stop_started
python -m policypal.embedded_db status || true"""
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    environment.update(POLICYPAL_VAR_DIR=str(tmp_path), PATH=f"{Path(sys.executable).parent}:{environment['PATH']}")
    result = subprocess.run(["bash", "-c", script], env=environment, cwd=REPO, capture_output=True, text=True, timeout=120)
    try:
        assert result.returncode == 0, result.stderr[-2000:]
        assert result.stdout.split() == [DEFAULT_DATABASE, "not", "running"]
    finally:
        _without_database(tmp_path, sys.executable, "-m", "policypal.embedded_db", "stop")


# --- A PostgreSQL that the app does not start: CI's second pass runs the suite against a server
# that scripts/tcp_postgres.py starts on 127.0.0.1, reached over TCP with a password (DATABASE_URL).

def _tcp_postgres(directory: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "scripts/tcp_postgres.py", *args, "--dir", str(directory)],
                          cwd=REPO, capture_output=True, text=True, timeout=120)


def test_the_tcp_server_script_starts_an_independent_password_protected_server(tmp_path):
    from urllib.parse import urlsplit

    directory = tmp_path / "pg-tcp"
    try:
        started = _tcp_postgres(directory, "start")
        assert started.returncode == 0, started.stdout + started.stderr[-2000:]
        url = started.stdout.strip()
        parts = urlsplit(url)
        assert (parts.scheme, parts.hostname, parts.username, parts.path) == ("postgresql", "127.0.0.1", "policypal", "/policypal")
        assert len(parts.password) >= 32 and parts.port
        assert _tcp_postgres(directory, "url").stdout.strip() == url
        assert oct((directory / "url").stat().st_mode & 0o777) == "0o600"
        with psycopg.connect(url, autocommit=True) as connection:
            assert connection.execute("SELECT rolsuper, rolcreatedb FROM pg_roles WHERE rolname = current_user").fetchone() == (False, True)
            # what Django's test runner and the first migration do, as the app's (non-super) role
            connection.execute("CREATE DATABASE scratch")
        with psycopg.connect(url.rsplit("/", 1)[0] + "/scratch") as scratch:
            scratch.execute("CREATE EXTENSION IF NOT EXISTS vector")
            assert scratch.execute("SELECT '[1,0]'::vector <=> '[0,1]'::vector").fetchone() == (1.0,)
        for wrong in (url.replace(parts.password, "wrong"), url.replace(f":{parts.password}", "")):
            with pytest.raises(psycopg.OperationalError, match="password"):
                psycopg.connect(wrong, connect_timeout=5)

        # DATABASE_URL given: the scripts use it and start no embedded server
        script = "source scripts/setup.sh\nensure_database\npython -m policypal.embedded_db status || true"
        environment = {**os.environ, "DATABASE_URL": url, "POLICYPAL_VAR_DIR": str(tmp_path / "var"),
                       "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
        result = subprocess.run(["bash", "-c", script], env=environment, cwd=REPO, capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr[-2000:]
        assert f"(policypal@127.0.0.1:{parts.port}/policypal)" in result.stdout and parts.password not in result.stdout
        assert result.stdout.strip().endswith("not running")
        assert not pgdata_dir(tmp_path / "var").exists()

        # a server left running by an earlier run: start stops it and makes a fresh one
        again = _tcp_postgres(directory, "start")
        assert again.returncode == 0, again.stderr[-2000:]
        assert again.stdout.strip() != url
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(url, connect_timeout=5)
        with psycopg.connect(again.stdout.strip()) as connection:
            assert connection.execute("SELECT count(*) FROM pg_database WHERE datname = 'scratch'").fetchone() == (0,)
    finally:
        stopped = _tcp_postgres(directory, "stop")
    assert stopped.stdout.strip() == "stopped", stopped.stderr[-2000:]
    assert not directory.exists()
    assert _tcp_postgres(directory, "status").returncode == 3
