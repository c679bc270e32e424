"""Shared set-up for the retrieval benchmarks: a separate database, Django, small helpers.

Benchmarks never touch the development data: unless BENCH_DATABASE_URL is given, they use a
database named ``policypal_bench`` on the embedded PostgreSQL server (the one under var/),
created and migrated on first use.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCH_DB = "policypal_bench"
VAR_BENCH = REPO / "var" / "bench"


def setup_django(*, migrate: bool = True, database: str | None = None) -> str:
    """Point Django at the benchmark database (`database`: another one on the embedded server),
    set it up, migrate; returns the database URL."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "policypal.settings")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    # a benchmark serves no pages: a throwaway key, so a fresh clone needs no var/secret_key
    os.environ.setdefault("SECRET_KEY", "benchmark-only-" + os.urandom(24).hex())
    url = os.environ.get("BENCH_DATABASE_URL")
    if url and database:  # the same server, the other database
        from urllib.parse import urlparse

        url = urlparse(url)._replace(path="/" + database).geturl()
    if not url:
        from policypal.embedded_db import embedded_database_url

        url = embedded_database_url(Path(os.environ.get("POLICYPAL_VAR_DIR", REPO / "var")), database or BENCH_DB)
    os.environ["DATABASE_URL"] = url
    import django

    django.setup()
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
    return url


def database_name(url: str) -> str:
    from urllib.parse import urlparse

    return urlparse(url).path.lstrip("/") or "?"


@contextmanager
def timed(store: dict, key: str):
    start = time.perf_counter()
    try:
        yield
    finally:
        store[key] = store.get(key, 0.0) + time.perf_counter() - start


def percentile(values: list[float], q: float) -> float:
    """q in [0, 100], linear interpolation (numpy's default)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    position = (len(ordered) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def machine_line() -> str:
    load = os.getloadavg()
    return f"machine: {os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (shared; figures are noisy)"


def heading(title: str) -> None:
    print(f"\n== {title} ==", flush=True)


def row(label: str, value: str, target: str = "") -> None:
    print(f"  {label:<52} {value:>16}  {target}", flush=True)
