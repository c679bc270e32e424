"""Setting names that matter are spelled right, and docker-compose matches what settings read."""
import re
from pathlib import Path

import yaml
from django.conf import settings

from policypal.celery import app

REPO = Path(__file__).resolve().parent.parent


def test_celery_reads_our_settings():
    assert app.conf.broker_url == settings.CELERY_BROKER_URL
    assert app.conf.task_time_limit == settings.CELERY_TASK_TIME_LIMIT
    assert app.conf.task_soft_time_limit == settings.CELERY_TASK_SOFT_TIME_LIMIT
    assert app.conf.task_acks_late is True
    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.task_default_queue == settings.CELERY_TASK_DEFAULT_QUEUE


def test_pipeline_tasks_are_registered():
    app.loader.import_default_modules()
    assert {"policies.convert_version", "policies.chunk_version", "policies.index_version"} <= set(app.tasks)


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
