"""Test-run environment, set before Django reads its settings.

Tests use their own Celery queue and Redis database so they never disturb a running `make run`,
and their own media folder.
"""
import os
import tempfile

os.environ.setdefault("CELERY_QUEUE", "policypal-test")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
os.environ.setdefault("MEDIA_ROOT", tempfile.mkdtemp(prefix="policypal-test-media-"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
# Playwright's sync API keeps an event loop running in the test thread; Django's guard against
# ORM calls from async code would then refuse the test's own (synchronous) database calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Property tests: no per-example deadline (shared, noisy machines); CI runs a fixed sequence of
# examples so that a red build always points at a reproducible case.
from hypothesis import settings as hypothesis_settings  # noqa: E402

hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "dev")
