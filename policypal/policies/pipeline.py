"""The ingestion pipeline as Celery messages: three tasks, run in order for one version, and the
re-index of a ready version as one more.

Services enqueue and revoke through here; tasks.py registers the tasks under these names. The
chain is built from the task names, not from the task objects, so that enqueuing never imports the
tasks: they import the steps (ingestion.py), which use the services, which enqueue. Imports go one
way: tasks -> ingestion -> services -> pipeline.
"""
from __future__ import annotations

import logging

from celery import chain

from policypal.celery import app

logger = logging.getLogger(__name__)

CONVERT_TASK = "policies.convert_version"
CHUNK_TASK = "policies.chunk_version"
INDEX_TASK = "policies.index_version"
PIPELINE = (CONVERT_TASK, CHUNK_TASK, INDEX_TASK)
REINDEX_TASK = "policies.reindex_version"  # chunk and embed a ready version again, then swap
REINDEX_RECOVER_TASK = "policies.reindex_recover_stale"  # queue again the re-indexes whose message was lost
# The PostgreSQL advisory lock (this namespace, the version's id) that a worker holds while it works
# on a version: only one worker at a time, and held means a worker is alive on it.
VERSION_LOCK_NAMESPACE = 7301


def ingestion_pipeline(version_id: int, *, task_ids: list[str] | None = None):
    """The three steps in order for one version, as a Celery chain; `task_ids` (one per step)
    are the ids the tasks will carry, so that they can be revoked before they run."""
    signatures = [app.signature(name, args=(version_id,), immutable=True) for name in PIPELINE]
    if task_ids:
        signatures = [signature.set(task_id=task_id) for signature, task_id in zip(signatures, task_ids, strict=True)]
    return chain(*signatures)


def reindex_message(version_id: int):
    """The re-index of a ready version as one Celery message (it stays ready meanwhile)."""
    return app.signature(REINDEX_TASK, args=(version_id,), immutable=True)


def audience_indexes_enqueue() -> None:
    """Queue the audience index sync (retrieval/audience_indexes.py; it does nothing when no
    audience crossed a threshold). Best effort: without a broker the next one, or
    ``manage.py index_audiences``, does it."""
    from retrieval.audience_indexes import AUDIENCE_INDEXES_TASK

    try:
        app.send_task(AUDIENCE_INDEXES_TASK)
    except Exception:  # noqa: BLE001 - the version is ready either way
        logger.warning("could not queue %s", AUDIENCE_INDEXES_TASK, exc_info=True)


def audience_indexes_sync_after_commit() -> None:
    """Queue the audience index sync once the current transaction commits, when the settings ask
    for it: after a version finished indexing or a policy's groups changed (either can move
    chunks into an audience that now wants its own index, or empty one)."""
    from django.conf import settings
    from django.db import transaction

    if settings.AUDIENCE_INDEX_SYNC_AFTER_INDEXING:
        transaction.on_commit(audience_indexes_enqueue)


def ingestion_revoke(task_ids: list[str]) -> None:
    """Ask the workers to drop these tasks if they have not started them. A step already running
    is not killed: it sees that its version was cancelled at its next heartbeat and stops. Best
    effort: with the broker unreachable the steps still stop on their own status check."""
    if not task_ids:
        return
    try:
        app.control.revoke(list(task_ids))
    except Exception:  # noqa: BLE001 - the cancel itself is already stored
        logger.warning("could not send the revoke of %s to the workers", task_ids, exc_info=True)
