"""Celery tasks: thin, idempotent wrappers that take ids and call one service each. They are
enqueued by name (pipeline.py), so nothing that enqueues imports this module."""
import logging

from celery import shared_task, signals

from . import ingestion, services
from .pipeline import CHUNK_TASK, CONVERT_TASK, INDEX_TASK, REINDEX_RECOVER_TASK, REINDEX_TASK

logger = logging.getLogger(__name__)


@shared_task(name=CONVERT_TASK, acks_late=True)
def convert_version(version_id: int) -> None:
    ingestion.version_convert(version_id=version_id)


@shared_task(name=CHUNK_TASK, acks_late=True)
def chunk_version(version_id: int) -> None:
    ingestion.version_chunk(version_id=version_id)


@shared_task(name=INDEX_TASK, acks_late=True)
def index_version(version_id: int) -> None:
    ingestion.version_index(version_id=version_id)


@shared_task(name=REINDEX_TASK, acks_late=True)
def reindex_version(version_id: int) -> None:
    ingestion.version_reindex(version_id=version_id)


@shared_task(name=REINDEX_RECOVER_TASK, acks_late=True)
def reindex_recover_stale() -> None:
    """Periodic (CELERY_BEAT_SCHEDULE, when a beat process runs)."""
    services.policy_versions_reindex_recover()


@signals.worker_ready.connect
def _reindex_recover_at_start(**_) -> None:
    """A worker that starts (after a crash, a redeploy, a flushed broker) queues again the
    re-indexes that lost their message; never stops the worker from starting."""
    try:
        if done := services.policy_versions_reindex_recover():
            logger.warning("re-indexes that had lost their message: %s", done)
    except Exception:  # noqa: BLE001 - a database hiccup here must not keep the worker down
        logger.exception("could not check for re-indexes that lost their message")
