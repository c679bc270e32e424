"""Request counters in Django's cache: fixed-window rate limits and lockouts after failures.

The cache is Redis outside the tests (settings.CACHES), so every gunicorn worker and every machine
behind the same Redis counts together. `cache.add` then `cache.incr` is atomic there (and in the
local-memory cache the tests use): two requests at the same moment never both read "4 of 5".
Identities (user names, addresses) are hashed into the keys, so any string is a safe key part.

A cache that cannot be reached lets the request through and logs a warning: a Redis outage should
not stop everyone from signing in, and the counters protect against guessing, not against an
attacker who already controls the network between the app and Redis.
"""
from __future__ import annotations

import hashlib
import logging
import math
import time

from django.core.cache import cache

log = logging.getLogger(__name__)


def _key(*parts: str) -> str:
    return "throttle:" + ":".join(parts)


def _digest(identity: str) -> str:
    return hashlib.sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _count(key: str, *, timeout: int) -> int:
    """Add one to the counter at `key` (created with `timeout` if missing); return its new value."""
    cache.add(key, 0, timeout=timeout)
    try:
        return cache.incr(key)
    except ValueError:  # it expired between add and incr
        cache.set(key, 1, timeout=timeout)
        return 1


def window_hit(*, scope: str, identity: str, limit: int, window: int) -> int:
    """Count one request of `identity` in the current fixed window of `window` seconds.

    Returns 0 while the window holds at most `limit` requests, else the whole seconds until the
    window ends (for Retry-After). Windows are aligned to the clock, so the key names its window
    and no second key is needed to know when it ends. A limit of 0 or less means no limit."""
    if limit <= 0:
        return 0
    now = time.time()
    start = int(now // window) * window
    try:
        count = _count(_key(scope, _digest(identity), str(start)), timeout=window + 1)
    except Exception:  # noqa: BLE001 - see the module docstring
        log.warning("rate limit %s not counted: the cache is unavailable", scope, exc_info=True)
        return 0
    return 0 if count <= limit else max(1, math.ceil(start + window - now))


def lockout_remaining(*, scope: str, identity: str) -> int:
    """Whole seconds left on `identity`'s lockout in `scope`, 0 when it is not locked out."""
    try:
        until = cache.get(_key(scope, "lock", _digest(identity)))
    except Exception:  # noqa: BLE001
        log.warning("lockout %s not checked: the cache is unavailable", scope, exc_info=True)
        return 0
    return max(0, math.ceil(until - time.time())) if until else 0


def failure_record(*, scope: str, identity: str, limit: int, seconds: int) -> int:
    """Count one failure of `identity`. The `limit`-th failure within `seconds` of the first one
    locks `identity` out for `seconds` (and starts a fresh count for afterwards).

    Returns the seconds of the lockout it started, or 0."""
    if limit <= 0:
        return 0
    digest = _digest(identity)
    try:
        count = _count(_key(scope, "failures", digest), timeout=seconds)
        if count < limit:
            return 0
        cache.set(_key(scope, "lock", digest), time.time() + seconds, timeout=seconds)
        cache.delete(_key(scope, "failures", digest))
    except Exception:  # noqa: BLE001
        log.warning("failure in %s not counted: the cache is unavailable", scope, exc_info=True)
        return 0
    return seconds


def failures_clear(*, scope: str, identity: str) -> None:
    try:
        cache.delete(_key(scope, "failures", _digest(identity)))
    except Exception:  # noqa: BLE001
        log.warning("failures in %s not cleared: the cache is unavailable", scope, exc_info=True)


def seconds_in_words(seconds: int) -> str:
    """"42 seconds", "1 minute", "15 minutes": how long to wait, for a message."""
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
