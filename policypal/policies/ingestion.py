"""The ingestion pipeline as three idempotent steps: convert, chunk, index.

Each step is keyed by (version id, step): it checks the version's status, skips work already
done, and leaves the version in a visible state if it stops half-way, so running it again
finishes the job. Chunks only become visible to retrieval when the version turns ready, and
they are written in one transaction.
"""
from __future__ import annotations

import logging
import traceback
from contextlib import contextmanager

from django.conf import settings
from django.db import connection, transaction

from chunking.errors import ConversionError
from chunking.serialize import document_from_dict, document_to_dict

from .models import PolicyVersion, SourceDocument
from .services import policy_effective_dates_refresh

logger = logging.getLogger(__name__)
Status = PolicyVersion.Status

_LOCK_NAMESPACE = 7301  # pg advisory lock namespace for "ingesting version N"
_ORDER = [Status.QUEUED, Status.CONVERTING, Status.CHUNKING, Status.INDEXING, Status.READY]


class StepFailed(Exception):
    """A step could not finish; its message is shown to the policy admin."""


def _reached(version: PolicyVersion, status: str) -> bool:
    return version.status in _ORDER and _ORDER.index(version.status) > _ORDER.index(status)


def _set_progress(version_id: int, *, status: str | None = None, progress: int, detail: str) -> None:
    fields = {"progress": progress, "progress_detail": detail[:300]}
    if status:
        fields["status"] = status
    PolicyVersion.objects.filter(pk=version_id).exclude(status=Status.FAILED).update(**fields)


def version_fail(*, version_id: int, message: str) -> None:
    PolicyVersion.objects.filter(pk=version_id).update(
        status=Status.FAILED, error=message, progress_detail="Failed"
    )


def _run_step(version_id: int, step: str, func) -> None:
    """Run one step under a per-version lock; any error marks the version failed with a reason."""
    with _version_lock(version_id) as acquired:
        if not acquired:
            logger.info("version %s is being processed by another worker; %s skipped", version_id, step)
            return
        _run_locked(version_id, step, func)


@contextmanager
def _version_lock(version_id: int):
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [_LOCK_NAMESPACE, version_id])
        acquired = cursor.fetchone()[0]
    try:
        yield acquired
    finally:
        if acquired:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [_LOCK_NAMESPACE, version_id])


def _run_locked(version_id: int, step: str, func) -> None:
    version = PolicyVersion.objects.select_related("policy").filter(pk=version_id).first()
    if version is None or version.status == Status.FAILED:
        return
    try:
        func(version)
    except (StepFailed, ConversionError) as exc:
        logger.info("version %s failed at %s: %s", version_id, step, exc)
        version_fail(version_id=version_id, message=str(exc))
    except Exception as exc:  # noqa: BLE001 - the admin must see every failure, never a stuck version
        logger.error("version %s crashed at %s:\n%s", version_id, step, traceback.format_exc())
        version_fail(version_id=version_id, message=f"Unexpected error while {step}: {type(exc).__name__}: {exc}")


# --- step 1: convert ---------------------------------------------------------------------------

def version_convert(*, version_id: int) -> None:
    _run_step(version_id, "converting", _convert)


def _convert(version: PolicyVersion) -> None:
    if _reached(version, Status.CONVERTING):
        return
    _set_progress(version.pk, status=Status.CONVERTING, progress=5, detail="Converting the document")
    sources = list(version.sources.all())
    for index, source in enumerate(sources):
        if source.tree is not None:
            continue
        _set_progress(version.pk, progress=5 + int(25 * index / len(sources)), detail=f"Converting {source.original_name}")
        document = _convert_source(source)
        source.tree = document_to_dict(document)
        source.document_title = document.title[:300]
        source.page_count = document.page_count
        source.save(update_fields=["tree", "document_title", "page_count"])
    _set_progress(version.pk, status=Status.CHUNKING, progress=30, detail="Converted; waiting to chunk")


def _convert_source(source: SourceDocument):
    from chunking.convert import convert_file

    try:
        document = convert_file(source.file.path, pdf_artifacts_path=settings.PDF_ARTIFACTS_PATH)
    except ConversionError as exc:
        message = str(exc)
        if not message.startswith(source.original_name):
            message = f"{source.original_name}: {message}"
        raise StepFailed(message) from exc
    if not any(block.kind != "heading" for block in document.blocks):
        raise StepFailed(f"{source.original_name}: no text could be read from this file.")
    return document


# --- step 2: chunk -----------------------------------------------------------------------------

def version_chunk(*, version_id: int) -> None:
    _run_step(version_id, "chunking", _through(_convert, _chunk))


def _chunk(version: PolicyVersion) -> None:
    if _reached(version, Status.CHUNKING):
        return
    if version.status != Status.CHUNKING:
        raise StepFailed("The document was not converted; retry the version.")
    from retrieval.services import chunks_replace

    _set_progress(version.pk, progress=32, detail="Chunking along the document's structure")
    records_by_source = []
    for source in version.sources.all():
        document = document_from_dict(source.tree)
        records_by_source.append((source, chunk_records_for(document, category=version.policy.category)))
    count = chunks_replace(version=version, records_by_source=records_by_source)
    _set_progress(version.pk, status=Status.INDEXING, progress=45, detail=f"{count} chunks; waiting to embed")


def chunk_records_for(document, *, category: str = "", overlap_blocks: int | None = None):
    from chunking.chunker import chunk_document
    from chunking.config import ChunkConfig
    from retrieval.embedding import get_token_counter

    config = ChunkConfig(
        target_tokens=settings.CHUNK_TARGET_TOKENS,
        overlap_blocks=settings.CHUNK_OVERLAP_BLOCKS if overlap_blocks is None else overlap_blocks,
        context={"Document type": category} if category else {},
    )
    return chunk_document(document, config=config, counter=get_token_counter())


# --- step 3: embed and index -------------------------------------------------------------------

def version_index(*, version_id: int) -> None:
    _run_step(version_id, "indexing", _through(_convert, _chunk, _index))


def _through(*steps):
    """Run the steps in order, each on the version as the previous one left it; a step that is
    already done returns at once. A later task thus finishes whatever an earlier one left."""

    def run(version: PolicyVersion) -> None:
        for step in steps:
            version.refresh_from_db()
            if version.status == Status.FAILED:
                return
            step(version)

    return run


def _index(version: PolicyVersion) -> None:
    if version.status == Status.READY:
        return
    if version.status != Status.INDEXING:
        raise StepFailed("The document was not chunked; retry the version.")
    from retrieval.services import chunks_embed

    def report(done: int, total: int) -> None:
        _set_progress(version.pk, progress=45 + int(54 * done / max(total, 1)), detail=f"Embedded {done} of {total} chunks")

    chunks_embed(version=version, on_progress=report)
    _mark_ready(version.pk)


@transaction.atomic
def _mark_ready(version_id: int) -> None:
    version = PolicyVersion.objects.select_for_update().select_related("policy").get(pk=version_id)
    if version.status == Status.FAILED:
        return
    version.status = Status.READY
    version.progress = 100
    version.progress_detail = "Ready"
    if version.publish_when_ready:
        version.published = True
    version.save(update_fields=["status", "progress", "progress_detail", "published", "updated_at"])
    policy_effective_dates_refresh(policy=version.policy)


def version_ingest_inline(*, version_id: int) -> PolicyVersion:
    """Run the three steps in this process (the same services the workers run), for scripts and tests."""
    version_convert(version_id=version_id)
    version_chunk(version_id=version_id)
    version_index(version_id=version_id)
    return PolicyVersion.objects.get(pk=version_id)
