"""Celery tasks: thin, idempotent wrappers that take ids and call one service each. They are
enqueued by name (pipeline.py), so nothing that enqueues imports this module."""
from celery import shared_task

from . import ingestion
from .pipeline import CHUNK_TASK, CONVERT_TASK, INDEX_TASK, REINDEX_TASK


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
