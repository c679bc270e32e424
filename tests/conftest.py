"""Fixtures shared by the Django-side tests: users, the ingested sample corpus, a real Celery
worker process, and a real browser."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
OUTPUT = REPO / "test-output"


@pytest.fixture(autouse=True)
def _empty_cache():
    """Every test starts with no login failures and no questions counted (a local-memory cache,
    see the root conftest.py)."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """Runs before pytest-django creates the test database: with no PostgreSQL answering (pytest run
    without `make test`, which starts it), stop the run with one line naming the command that starts it."""
    from policypal.embedded_db import database_problem

    if problem := database_problem(server_only=True):
        pytest.exit(problem, returncode=3)


class _SampleCorpus:
    """The sample corpus's rows, kept once ingested and put back when they are gone.

    A test that needs committed rows (a live server, a Celery worker process) runs in a real
    transaction, and pytest-django empties the whole database after it. The corpus is put back
    before the next test that asks for it, outside that test's transaction (pytest_runtest_setup
    below), with Django's own loader for serialized test data: so no test depends on running
    before or after the others.
    """

    # Rebuilt by the flush with new ids (content types, permissions) or nothing to keep.
    _SKIPPED_APPS = {"contenttypes", "sessions", "admin"}

    def __init__(self) -> None:
        self.blocker = None
        self.rows = ""
        self.version_ids: list[int] = []

    def keep(self, *, blocker, version_ids: list[int]) -> None:
        from django.apps import apps
        from django.contrib.auth.models import Permission
        from django.core import serializers

        models = [m for m in apps.get_models() if m._meta.app_label not in self._SKIPPED_APPS and m is not Permission]
        objects = (obj for model in models for obj in model._base_manager.order_by("pk"))
        self.rows = serializers.serialize("json", objects)
        self.blocker, self.version_ids = blocker, version_ids

    def put_back_if_gone(self) -> None:
        if self.blocker is None:
            return  # not ingested yet: the fixture does it
        from django.db import connection

        from policypal.policies.models import PolicyVersion

        with self.blocker.unblock():
            if PolicyVersion.objects.filter(pk__in=self.version_ids).count() < len(self.version_ids):
                connection.creation.deserialize_db_from_string(self.rows)


_SAMPLE_CORPUS = _SampleCorpus()


@pytest.fixture(scope="session")
def sample_corpus(django_db_setup, django_db_blocker):
    """The shipped sample policies, ingested once per session by the real pipeline (in-process)
    and the demo users; in the database for every test that asks for it, whatever ran before.
    Returns {policy key: [versions]}."""
    from policypal.policies.demo import demo_users_ensure
    from policypal.policies.ingestion import version_ingest_inline
    from policypal.policies.models import PolicyVersion
    from policypal.policies.samples import sample_manifest, samples_ingest

    with django_db_blocker.unblock():
        demo_users_ensure()
        for version in samples_ingest(sample_manifest(), enqueue=False):
            version_ingest_inline(version_id=version.pk)
        versions = list(PolicyVersion.objects.select_related("policy"))
        failed = [f"{v}: {v.error}" for v in versions if v.status != PolicyVersion.Status.READY]
        assert not failed, f"sample policies failed to ingest: {failed}"
        _SAMPLE_CORPUS.keep(blocker=django_db_blocker, version_ids=[v.pk for v in versions])
        by_key: dict[str, list] = {}
        for version in versions:
            by_key.setdefault(version.policy.key, []).append(version)
        return by_key


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before any fixture of a test that uses the sample corpus (its own transaction not begun
    yet): the corpus back in the database if a test before it emptied it."""
    if "sample_corpus" in item.fixturenames:
        _SAMPLE_CORPUS.put_back_if_gone()


@pytest.fixture
def employee(sample_corpus, django_user_model):
    return django_user_model.objects.get(username="employee")


@pytest.fixture
def manager(sample_corpus, django_user_model):
    return django_user_model.objects.get(username="manager")


def _database_url_for_workers() -> str:
    from django.db import connection

    s = connection.settings_dict
    host = s.get("HOST") or ""
    port = s.get("PORT") or ""
    from urllib.parse import quote

    auth = quote(s["USER"], safe="") + (f":{quote(s['PASSWORD'], safe='')}" if s.get("PASSWORD") else ":")
    if host.startswith("/"):
        return f"postgresql://{auth}@/{s['NAME']}?host={host}" + (f"&port={port}" if port else "")
    return f"postgresql://{auth}@{host}{':' + str(port) if port else ''}/{s['NAME']}"


@pytest.fixture
def celery_worker_process(transactional_db, settings):
    """A real Celery worker process on the test database and the tests' own queue."""
    OUTPUT.mkdir(exist_ok=True)
    env = dict(os.environ)
    env.update(
        DATABASE_URL=_database_url_for_workers(),
        CELERY_QUEUE=settings.CELERY_TASK_DEFAULT_QUEUE,
        REDIS_URL=settings.CELERY_BROKER_URL,
        MEDIA_ROOT=str(settings.MEDIA_ROOT),
    )
    celery = [sys.executable, "-m", "celery", "-A", "policypal"]
    subprocess.run(celery + ["purge", "-f", "-Q", settings.CELERY_TASK_DEFAULT_QUEUE], env=env, cwd=REPO, capture_output=True)
    log_path = OUTPUT / "celery-worker.log"
    log = open(log_path, "w")
    proc = subprocess.Popen(
        celery + ["worker", "-Q", settings.CELERY_TASK_DEFAULT_QUEUE, "--concurrency", "1", "--loglevel", "INFO",
                  "--hostname", f"test-{os.getpid()}@%h"],
        env=env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 90
    while "ready." not in log_path.read_text():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"Celery worker did not start:\n{log_path.read_text()[-3000:]}")
        time.sleep(0.3)
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


BROWSER_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]


@pytest.fixture(scope="session")
def browser():
    """Chromium, for the session. While Playwright's event loop runs, Django keeps the test thread's
    database connection apart from the one it had before (connections are per thread, and per
    context inside an event loop): a test without a live server that runs after a browser test
    opens one there. It is closed here, while it can still be reached, or the test database could
    not be dropped at the end of the session ("being accessed by other users")."""
    from django.db import connections
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium")
    assert executable, "Debian's chromium is required for the browser tests (apt-get install chromium)"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=BROWSER_ARGS, headless=True)
        yield browser
        browser.close()
        connections.close_all()


@pytest.fixture
def screenshots(request):
    """Save a screenshot of a page under test-output/screenshots/<test name>-NN-<step>.png."""
    folder = OUTPUT / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    counter = {"n": 0}

    def take(page, step: str) -> Path:
        counter["n"] += 1
        path = folder / f"{request.node.name}-{counter['n']:02d}-{step}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


def signed_in_page(browser, live_server, username: str, password: str, *, height: int = 900):
    """A new browser page signed in as the user (the login form filled like a person would).
    Returns (context, page); the caller closes the context."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": height})
    page = context.new_page()
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("#login-submit")
    expect(page.locator("#nav-username")).to_be_visible()
    return context, page


def policy_admin_user(django_user_model, username: str, password: str, *, first_name: str = "Asha"):
    """A user in the policy admins group, for the browser tests of the admin pages."""
    from django.contrib.auth.models import Group

    from policypal.policies.roles import POLICY_ADMINS

    user = django_user_model.objects.create_user(username, password=password, first_name=first_name)
    user.groups.add(Group.objects.get_or_create(name=POLICY_ADMINS)[0])
    return user
