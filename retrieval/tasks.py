"""Celery tasks of retrieval: thin wrappers over one service each, enqueued by name."""
from celery import shared_task

from .audience_indexes import AUDIENCE_INDEXES_TASK, audience_indexes_sync


@shared_task(name=AUDIENCE_INDEXES_TASK, acks_late=True)
def audience_indexes_sync_task() -> None:
    """Create / drop the partial audience indexes (safe to repeat: nothing to do is two reads;
    a concurrent run returns at once)."""
    audience_indexes_sync()
