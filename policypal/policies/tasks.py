"""Celery tasks: thin, idempotent wrappers that take ids and call one service each."""
import logging

from celery import chain, shared_task

from . import ingestion

logger = logging.getLogger(__name__)


@shared_task(name="policies.convert_version", acks_late=True)
def convert_version(version_id: int) -> None:
    ingestion.version_convert(version_id=version_id)


@shared_task(name="policies.chunk_version", acks_late=True)
def chunk_version(version_id: int) -> None:
    ingestion.version_chunk(version_id=version_id)


@shared_task(name="policies.index_version", acks_late=True)
def index_version(version_id: int) -> None:
    ingestion.version_index(version_id=version_id)


PIPELINE = (convert_version, chunk_version, index_version)


def ingestion_pipeline(version_id: int, *, task_ids: list[str] | None = None):
    """The three steps in order for one version, as a Celery chain; `task_ids` (one per step)
    are the ids the tasks will carry, so that they can be revoked before they run."""
    signatures = [task.si(version_id) for task in PIPELINE]
    if task_ids:
        signatures = [signature.set(task_id=task_id) for signature, task_id in zip(signatures, task_ids, strict=True)]
    return chain(*signatures)


def ingestion_revoke(task_ids: list[str]) -> None:
    """Ask the workers to drop these tasks if they have not started them. A step already running
    is not killed: it sees that its version was cancelled at its next heartbeat and stops. Best
    effort: with the broker unreachable the steps still stop on their own status check."""
    if not task_ids:
        return
    from policypal.celery import app

    try:
        app.control.revoke(list(task_ids))
    except Exception:  # noqa: BLE001 - the cancel itself is already stored
        logger.warning("could not send the revoke of %s to the workers", task_ids, exc_info=True)
