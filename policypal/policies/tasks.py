"""Celery tasks: thin, idempotent wrappers that take ids and call one service each."""
from celery import chain, shared_task

from . import ingestion


@shared_task(name="policies.convert_version", acks_late=True)
def convert_version(version_id: int) -> None:
    ingestion.version_convert(version_id=version_id)


@shared_task(name="policies.chunk_version", acks_late=True)
def chunk_version(version_id: int) -> None:
    ingestion.version_chunk(version_id=version_id)


@shared_task(name="policies.index_version", acks_late=True)
def index_version(version_id: int) -> None:
    ingestion.version_index(version_id=version_id)


def ingestion_pipeline(version_id: int):
    """The three steps in order for one version, as a Celery chain."""
    return chain(convert_version.si(version_id), chunk_version.si(version_id), index_version.si(version_id))
