"""Test-run environment, set before Django reads its settings.

Tests use a Celery queue of their run and their own Redis database so they never disturb a running `make run`,
and their own media folder.

Django is set up here, at the end, rather than by pytest-django from pytest.ini: pytest-django
reads the settings before it loads any conftest.py, which would be too late for the variables below.
"""
import os
import tempfile

# A queue of this run's own: two test runs on one machine (one Redis) never take each other's tasks.
os.environ.setdefault("CELERY_QUEUE", f"policypal-test-{os.getpid()}")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
os.environ.setdefault("MEDIA_ROOT", tempfile.mkdtemp(prefix="policypal-test-media-"))
# Set, not defaulted: the tests run with DEBUG false, which needs a real-looking key (the development
# default is refused); a local-memory cache, so that login lockouts and rate limits of parallel test
# runs never meet (tests/conftest.py empties it before each test); plain HTTP for the test client.
os.environ["SECRET_KEY"] = "policypal-tests-only-secret-key-not-used-anywhere-else-3f9a1c7e"
os.environ["CACHE_URL"] = "locmemcache://"
os.environ["POLICYPAL_PRODUCTION"] = "false"
# Playwright's sync API keeps an event loop running in the test thread; Django's guard against
# ORM calls from async code would then refuse the test's own (synchronous) database calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "policypal.settings")
# The settings start no database: `make test` (scripts/test.sh) starts the embedded one and exports
# DATABASE_URL; without it, they point at the embedded server's socket under var/.
from policypal.library_env import library_defaults_set  # noqa: E402  (offline Hugging Face, quiet tokenizers)

library_defaults_set()

# Property tests: no per-example deadline (shared, noisy machines); CI runs a fixed sequence of
# examples so that a red build always points at a reproducible case.
from hypothesis import settings as hypothesis_settings  # noqa: E402

hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "dev")

import django  # noqa: E402

django.setup()  # pytest-django finds it set up (and blocks database access outside marked tests)
