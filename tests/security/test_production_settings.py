"""The SECRET_KEY refusal, the POLICYPAL_PRODUCTION flag and `check --deploy`.

Settings are read once per process, so each configuration is loaded in a subprocess with its own
environment (and its own var/ folder, so that no kept key is found by accident)."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import checks

from policypal.security.checks import check_secret_key
from policypal.security.keys import DEVELOPMENT_SECRET_KEY

REPO = Path(__file__).resolve().parents[2]
A_KEY = "a-real-looking-key-for-this-test-only-0123456789abcdefghijklmnop"
PRINT_SETTINGS = """
import json
from django.conf import settings
names = ["SECRET_KEY", "DEBUG", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
         "SECURE_HSTS_SECONDS", "SECURE_CONTENT_TYPE_NOSNIFF", "SECURE_REFERRER_POLICY", "X_FRAME_OPTIONS",
         "SECURE_PROXY_SSL_HEADER"]
print(json.dumps({name: getattr(settings, name, None) for name in names}))
"""
CLEARED = ("SECRET_KEY", "DEBUG", "POLICYPAL_PRODUCTION", "TRUSTED_PROXIES", "SECURE_HSTS_SECONDS")


def load_settings(tmp_path, **env) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in CLEARED}
    environment.update(
        DJANGO_SETTINGS_MODULE="policypal.settings",
        POLICYPAL_VAR_DIR=str(tmp_path),
        DATABASE_URL="postgresql://nobody@localhost:1/none",  # never connected: settings only
        **env,
    )
    return subprocess.run([sys.executable, "-c", PRINT_SETTINGS], env=environment, cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def loaded(result: subprocess.CompletedProcess) -> dict:
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("key", [None, "", DEVELOPMENT_SECRET_KEY, "change-me-to-a-long-random-string"])
def test_debug_false_refuses_a_missing_default_or_placeholder_key(tmp_path, key):
    result = load_settings(tmp_path, DEBUG="false", **({} if key is None else {"SECRET_KEY": key}))
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY" in result.stderr
    assert "Set the SECRET_KEY environment variable" in result.stderr


def test_debug_true_runs_with_the_development_key(tmp_path):
    assert loaded(load_settings(tmp_path, DEBUG="true"))["SECRET_KEY"] == DEVELOPMENT_SECRET_KEY


def test_the_key_kept_in_var_is_used_when_none_is_given(tmp_path):
    (tmp_path / "secret_key").write_text(A_KEY + "\n")
    assert loaded(load_settings(tmp_path, DEBUG="false"))["SECRET_KEY"] == A_KEY


def test_without_the_flag_cookies_and_redirects_stay_plain_http(tmp_path):
    values = loaded(load_settings(tmp_path, SECRET_KEY=A_KEY))
    assert values["SECURE_SSL_REDIRECT"] is False and values["SESSION_COOKIE_SECURE"] is False
    assert values["CSRF_COOKIE_SECURE"] is False and values["SECURE_HSTS_SECONDS"] == 0
    assert values["SECURE_CONTENT_TYPE_NOSNIFF"] is True and values["SECURE_REFERRER_POLICY"] == "same-origin"
    assert values["X_FRAME_OPTIONS"] == "DENY" and values["SECURE_PROXY_SSL_HEADER"] is None


def test_the_production_flag_turns_on_https_only_settings(tmp_path):
    values = loaded(load_settings(tmp_path, SECRET_KEY=A_KEY, POLICYPAL_PRODUCTION="true", TRUSTED_PROXIES="1"))
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SESSION_COOKIE_SECURE"] is True and values["CSRF_COOKIE_SECURE"] is True
    assert values["SECURE_HSTS_SECONDS"] == 31536000
    assert values["SECURE_CONTENT_TYPE_NOSNIFF"] is True and values["SECURE_REFERRER_POLICY"] == "same-origin"
    assert values["X_FRAME_OPTIONS"] == "DENY"
    assert values["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_production_with_debug_is_refused(tmp_path):
    result = load_settings(tmp_path, SECRET_KEY=A_KEY, POLICYPAL_PRODUCTION="true", DEBUG="true")
    assert result.returncode != 0 and "POLICYPAL_PRODUCTION" in result.stderr


def test_check_deploy_flags_the_development_key(settings):
    deploy_checks = checks.registry.registry.get_checks(include_deployment_checks=True)
    assert check_secret_key in deploy_checks
    assert check_secret_key not in checks.registry.registry.get_checks()  # only with --deploy
    settings.SECRET_KEY = DEVELOPMENT_SECRET_KEY
    assert [error.id for error in check_secret_key()] == ["policypal.E001"]
    settings.SECRET_KEY = A_KEY
    assert check_secret_key() == []


def test_make_run_keeps_one_random_key_in_var(tmp_path):
    script = 'source scripts/setup.sh; ensure_secret_key >&2; printf %s "$SECRET_KEY"'
    environment = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    environment.update(POLICYPAL_VAR_DIR=str(tmp_path), PATH=f"{Path(sys.executable).parent}:{environment['PATH']}")
    first = subprocess.run(["bash", "-c", script], env=environment, cwd=REPO, capture_output=True, text=True, check=True)
    second = subprocess.run(["bash", "-c", script], env=environment, cwd=REPO, capture_output=True, text=True, check=True)
    kept = tmp_path / "secret_key"
    assert first.stdout == second.stdout == kept.read_text().strip()
    assert len(first.stdout) >= 50
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
