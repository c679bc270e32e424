"""The ingestion pipeline as three idempotent steps: convert, chunk, index.

Each step is keyed by (version id, step): it checks the version's status, skips work already
done, and leaves the version in a visible state if it stops half-way, so running it again
finishes the job. Chunks only become visible to retrieval when the version turns ready, and
they are written in one transaction. A ready version is re-indexed without leaving "ready":
its new chunks replace the old ones in one transaction once all are embedded (version_reindex).

Liveness: a step records itself as the version's `running_step` and beats `heartbeat_at` (and
`updated_at`) every few seconds of work: while the conversion child works, while the chunker
counts tokens, after each embedding batch. The admin page thus tells a slow step from a worker
that stopped. Progress only goes up: a worker that takes over a step another one started and
never finished keeps the highest progress shown and marks the version restarted. A cancelled
version is no longer active: the running step notices at its next heartbeat, stops, and removes
the version's chunks.
"""
from __future__ import annotations

import logging
import tempfile
import time
import traceback
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, PositiveSmallIntegerField, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from chunking.errors import ConversionError
from chunking.serialize import document_from_dict
from retrieval.chunking_settings import chunk_config, input_limits

from .conversion import ConversionLimits, ConversionStopped, Converted, convert_in_child
from .models import PolicyVersion, SourceDocument
from .pipeline import VERSION_LOCK_NAMESPACE, audience_indexes_sync_after_commit
from .services import policy_effective_dates_refresh, version_headings_store

logger = logging.getLogger(__name__)
Status = PolicyVersion.Status

_ORDER = [Status.QUEUED, Status.CONVERTING, Status.CHUNKING, Status.INDEXING, Status.READY]
_ACTIVE = [Status.QUEUED, Status.CONVERTING, Status.CHUNKING, Status.INDEXING]  # a step may still move it
HEARTBEAT_EVERY = 2.0  # seconds of work between two heartbeats of a running step


class StepFailed(Exception):
    """A step could not finish; its message is shown to the policy admin."""


class StepStopped(Exception):
    """The version stopped being active while a step ran (cancelled): stop quietly."""


def _reached(version: PolicyVersion, status: str) -> bool:
    return version.status in _ORDER and _ORDER.index(version.status) > _ORDER.index(status)


def _set_progress(version_id: int, *, status: str | None = None, progress: int, detail: str) -> None:
    """Move an active version on; the progress shown never goes down (a restarted step starts
    counting again from where its own work begins). Raises StepStopped when it is not active."""
    now = timezone.now()
    fields = {
        "progress": Greatest(F("progress"), Value(progress), output_field=PositiveSmallIntegerField()),
        "progress_detail": detail[:300],
        "heartbeat_at": now,
        "updated_at": now,
    }
    if status:
        fields["status"] = status
    if not PolicyVersion.objects.filter(pk=version_id, status__in=_ACTIVE).update(**fields):
        raise StepStopped()


class _Throttled:
    """Call it as often as convenient: it runs `action` at most every HEARTBEAT_EVERY seconds."""

    def __init__(self, action) -> None:
        self._action = action
        self._last = time.monotonic()

    def __call__(self) -> None:
        if time.monotonic() - self._last < HEARTBEAT_EVERY:
            return
        self._last = time.monotonic()
        self._action()


def _heartbeat(version_id: int) -> _Throttled:
    """Marks the version alive (at most every HEARTBEAT_EVERY seconds), and raises StepStopped
    once the version is no longer active (cancelled)."""

    def alive() -> None:
        now = timezone.now()
        if not PolicyVersion.objects.filter(pk=version_id, status__in=_ACTIVE).update(heartbeat_at=now, updated_at=now):
            raise StepStopped()

    return _Throttled(alive)


def version_fail(*, version_id: int, message: str) -> None:
    """Mark an active version failed (a cancelled or finished one keeps its state)."""
    PolicyVersion.objects.filter(pk=version_id, status__in=_ACTIVE).update(
        status=Status.FAILED, error=message, progress_detail="Failed", running_step="", updated_at=timezone.now()
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
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [VERSION_LOCK_NAMESPACE, version_id])
        acquired = cursor.fetchone()[0]
    try:
        yield acquired
    finally:
        if acquired:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [VERSION_LOCK_NAMESPACE, version_id])


def _run_locked(version_id: int, step: str, func) -> None:
    version = PolicyVersion.objects.select_related("policy").filter(pk=version_id).first()
    if version is None or version.status not in _ACTIVE:
        return
    _step_begin(version, step)
    try:
        func(version)
    except StepStopped:
        logger.info("version %s stopped at %s: it was cancelled", version_id, step)  # (or failed elsewhere)
        _chunks_discard_if_cancelled(version_id)
    except (StepFailed, ConversionError, ConversionStopped) as exc:
        logger.info("version %s failed at %s: %s", version_id, step, exc)
        version_fail(version_id=version_id, message=str(exc))
    except Exception as exc:  # noqa: BLE001 - the admin must see every failure, never a stuck version
        child = getattr(exc, "child_traceback", "")
        logger.error("version %s crashed at %s:\n%s%s", version_id, step, child, traceback.format_exc())
        version_fail(version_id=version_id, message=f"Unexpected error while {step}: {type(exc).__name__}: {exc}")
    finally:
        PolicyVersion.objects.filter(pk=version_id, running_step=step).update(running_step="")


def _step_begin(version: PolicyVersion, step: str) -> None:
    """Claim the version for this step. A step still recorded as running means the worker that
    ran it stopped (this one holds the version's lock, so that one is gone): say so."""
    now = timezone.now()
    fields = {"running_step": step, "heartbeat_at": now, "updated_at": now}
    if version.running_step:
        logger.warning("version %s: %s was left unfinished by a worker that stopped; restarting", version.pk,
                       version.running_step)
        fields["restarted_at"] = now
    PolicyVersion.objects.filter(pk=version.pk, status__in=_ACTIVE).update(**fields)


def _chunks_discard_if_cancelled(version_id: int) -> None:
    from retrieval.models import Chunk

    Chunk.objects.filter(version_id=version_id, version__status=Status.CANCELLED).delete()


# --- step 1: convert ---------------------------------------------------------------------------

def version_convert(*, version_id: int) -> None:
    _run_step(version_id, "converting", _convert)


def _convert(version: PolicyVersion) -> None:
    if _reached(version, Status.CONVERTING):
        return
    _set_progress(version.pk, status=Status.CONVERTING, progress=5, detail="Converting the document")
    sources = list(version.sources.all())
    beat = _heartbeat(version.pk)
    for index, source in enumerate(sources):
        if source.tree is not None:
            continue
        _set_progress(version.pk, progress=5 + int(25 * index / len(sources)), detail=f"Converting {source.original_name}")
        converted = _convert_source(source, on_wait=beat)
        source.tree = converted.tree
        source.document_title = converted.title[:300]
        source.page_count = converted.page_count
        source.save(update_fields=["tree", "document_title", "page_count"])
    _set_progress(version.pk, status=Status.CHUNKING, progress=30, detail="Converted; waiting to chunk")


def conversion_limits() -> ConversionLimits:
    return ConversionLimits(
        memory_mb=int(getattr(settings, "CONVERT_MEMORY_LIMIT_MB", 2048)),
        timeout_seconds=float(getattr(settings, "CONVERT_TIMEOUT_SECONDS", 600)),
    )


@contextmanager
def source_local_path(source: SourceDocument, *, on_wait=None):
    """A path on this machine holding the source's bytes, for the converter (which reads files by
    path). The storage's own path when it has one (the local MEDIA_ROOT); else (S3-compatible
    object storage) a temporary copy read through the storage API, removed afterwards."""
    try:
        path = source.file.path
    except NotImplementedError:  # a storage without local paths
        path = None
    if path is not None:
        yield path
        return
    suffix = Path(source.original_name).suffix.lower()
    with tempfile.TemporaryDirectory(prefix="policypal-source-") as folder:
        local = Path(folder) / f"source{suffix}"
        try:
            with source.file.open("rb") as stored, open(local, "wb") as copy:
                for chunk in stored.chunks():
                    copy.write(chunk)
                    if on_wait:
                        on_wait()
        except FileNotFoundError:
            raise StepFailed(f"{source.original_name}: the stored file is missing from the storage") from None
        yield str(local)


def _convert_source(source: SourceDocument, *, on_wait) -> Converted:
    """The file converted in a child process under the conversion limits (see conversion.py)."""
    try:
        with source_local_path(source, on_wait=on_wait) as path:
            converted = convert_in_child(
                path, name=source.original_name, pdf_artifacts_path=settings.PDF_ARTIFACTS_PATH,
                limits=conversion_limits(), on_wait=on_wait,
                convert_options={"limits": input_limits()},
            )
    except ConversionError as exc:
        message = str(exc)
        if not message.startswith(source.original_name):
            message = f"{source.original_name}: {message}"
        raise StepFailed(message) from exc
    if not any(block["kind"] != "heading" for block in converted.tree["blocks"]):
        raise StepFailed(f"{source.original_name}: no text could be read from this file.")
    return converted


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
    beat = _heartbeat(version.pk)
    records_by_source = []
    for source in version.sources.all():
        document = document_from_dict(source.tree)
        records_by_source.append((source, chunk_records_for(document, category=version.policy.category, on_work=beat)))
        beat()
    with transaction.atomic():
        # Under the version's row lock, so a cancel either comes first (nothing is written) or
        # after (and removes what was written): never chunks of a cancelled version left over.
        if PolicyVersion.objects.select_for_update().filter(pk=version.pk).values_list("status", flat=True).first() != Status.CHUNKING:
            raise StepStopped()
        count = chunks_replace(version=version, records_by_source=records_by_source)
    _set_progress(version.pk, status=Status.INDEXING, progress=45, detail=f"{count} chunks; waiting to embed")


def chunk_records_for(document, *, category: str = "", overlap_blocks: int | None = None, on_work=None):
    """The chunk records of a converted document, with the chunker the settings configure
    (retrieval.chunking_settings, which evaluation uses too). `on_work` is called as the chunker
    works (at each token count: every section and block), for the step's heartbeat."""
    from chunking.chunker import chunk_document
    from retrieval.embedding import get_token_counter

    config = chunk_config(category=category, overlap_blocks=overlap_blocks)
    counter = get_token_counter()
    return chunk_document(document, config=config, counter=_WorkingCounter(counter, on_work) if on_work else counter)


class _WorkingCounter:
    """The token counter, calling `on_work` before each count: the chunker is pure code with no
    progress hook, and it counts tokens for every section and block it handles."""

    def __init__(self, counter, on_work) -> None:
        self._counter = counter
        self._on_work = on_work

    @property
    def max_tokens(self) -> int:
        return self._counter.max_tokens

    def count(self, text: str) -> int:
        self._on_work()
        return self._counter.count(text)

    def count_many(self, texts) -> list[int]:
        self._on_work()
        return self._counter.count_many(texts)


# --- step 3: embed and index -------------------------------------------------------------------

def version_index(*, version_id: int) -> None:
    _run_step(version_id, "indexing", _through(_convert, _chunk, _index))


def _through(*steps):
    """Run the steps in order, each on the version as the previous one left it; a step that is
    already done returns at once. A later task thus finishes whatever an earlier one left."""

    def run(version: PolicyVersion) -> None:
        for step in steps:
            version.refresh_from_db()
            if version.status not in _ACTIVE and version.status != Status.READY:
                return
            step(version)

    return run


def _index(version: PolicyVersion) -> None:
    if version.status == Status.READY:
        return
    if version.status != Status.INDEXING:
        raise StepFailed("The document was not chunked; retry the version.")
    from retrieval.services import chunks_embed

    def report(done: int, total: int) -> None:  # after each batch: heartbeat, and stops a cancelled version
        _set_progress(version.pk, progress=45 + int(54 * done / max(total, 1)), detail=f"Embedded {done} of {total} chunks")

    chunks_embed(version=version, on_progress=report)
    _mark_ready(version.pk)


@transaction.atomic
def _mark_ready(version_id: int) -> None:
    version = PolicyVersion.objects.select_for_update().select_related("policy").get(pk=version_id)
    if version.status != Status.INDEXING:  # failed or cancelled meanwhile
        raise StepStopped()
    version.status = Status.READY
    version.progress = 100
    version.progress_detail = "Ready"
    version.running_step = ""
    version.heartbeat_at = timezone.now()
    if version.publish_when_ready:
        version.published = True
    version.save(update_fields=["status", "progress", "progress_detail", "running_step", "heartbeat_at", "published", "updated_at"])
    version_headings_store(version_id=version_id)
    policy_effective_dates_refresh(policy=version.policy)
    audience_indexes_sync_after_commit()  # a large audience may now want its own index


# --- re-index a ready version -------------------------------------------------------------------

def version_reindex(*, version_id: int) -> None:
    """Chunk and embed a ready version again with the current settings, then swap its chunks.

    The version stays ready throughout, answering from its old chunks: the new chunk records and
    their vectors are computed first, outside any transaction, and only then written in one
    transaction that deletes the old rows, adds the new ones with their vectors and stores the
    headings. Readers see the old chunks until it commits, the new ones after. Safe to run twice:
    a version with no re-index pending (done, retired or no longer ready) is left alone."""
    with _version_lock(version_id) as acquired:
        if not acquired:
            logger.info("version %s is being processed by another worker; re-index skipped", version_id)
            return
        try:
            _reindex(version_id)
        except StepStopped:
            logger.info("version %s: re-index dropped (no longer ready, or retired)", version_id)
            PolicyVersion.objects.filter(pk=version_id).update(
                reindex_requested_at=None, reindex_progress=0, reindex_detail="Re-index dropped: the version was retired",
            )
        except Exception as exc:  # noqa: BLE001 - the old chunks still answer; say why the new ones did not come
            logger.error("version %s: re-index failed:\n%s", version_id, traceback.format_exc())
            PolicyVersion.objects.filter(pk=version_id).update(
                reindex_requested_at=None, reindex_progress=0, updated_at=timezone.now(),
                reindex_detail=f"Re-index failed ({type(exc).__name__}: {exc}); still answering from the previous index"[:300],
            )


def _reindex_pending():
    return PolicyVersion.objects.filter(status=Status.READY, retired_at__isnull=True, reindex_requested_at__isnull=False)


def _reindex_progress(version_id: int, *, progress: int, detail: str) -> None:
    """Show the re-index's progress; raises StepStopped when it is no longer pending."""
    now = timezone.now()
    if not _reindex_pending().filter(pk=version_id).update(
        reindex_progress=progress, reindex_detail=detail[:300], heartbeat_at=now, updated_at=now
    ):
        raise StepStopped()


def _reindex(version_id: int) -> None:
    from retrieval.services import chunk_vectors_compute

    version = _reindex_pending().select_related("policy").filter(pk=version_id).first()
    if version is None:
        return
    _reindex_progress(version_id, progress=5, detail="Chunking along the document's structure")
    # the re-index's heartbeat while the chunker works
    beat = _Throttled(lambda: _reindex_progress(version_id, progress=5, detail="Chunking along the document's structure"))
    records_by_source = []
    for source in version.sources.all():
        if source.tree is None:
            raise StepFailed(f"{source.original_name} was never converted")
        document = document_from_dict(source.tree)
        records_by_source.append((source, chunk_records_for(document, category=version.policy.category, on_work=beat)))
    count = sum(len(records) for _, records in records_by_source)

    def report(done: int, total: int) -> None:
        _reindex_progress(version_id, progress=10 + int(85 * done / max(total, 1)),
                          detail=f"Embedded {done} of {total} chunks")

    vectors = chunk_vectors_compute(records_by_source, on_progress=report)
    _reindex_swap(version, records_by_source=records_by_source, vectors=vectors, count=count)


@transaction.atomic
def _reindex_swap(version: PolicyVersion, *, records_by_source, vectors, count: int) -> None:
    """The atomic switch: under the version's row lock, its old chunks out and the new ones in."""
    from retrieval.services import chunks_replace

    if not _reindex_pending().select_for_update().filter(pk=version.pk).exists():
        raise StepStopped()
    chunks_replace(version=version, records_by_source=records_by_source, vectors=vectors)
    PolicyVersion.objects.filter(pk=version.pk).update(
        reindex_requested_at=None, reindex_progress=100, updated_at=timezone.now(),
        reindex_detail=f"Re-indexed {timezone.now():%Y-%m-%d %H:%M}: {count} chunks",
    )
    version_headings_store(version_id=version.pk)


def version_reindex_inline(*, version_id: int) -> PolicyVersion:
    """The re-index in this process (the service the worker runs), for `manage.py reindex` and tests."""
    version_reindex(version_id=version_id)
    return PolicyVersion.objects.get(pk=version_id)


def version_ingest_inline(*, version_id: int) -> PolicyVersion:
    """Run the three steps in this process (the same services the workers run), for scripts and tests."""
    version_convert(version_id=version_id)
    version_chunk(version_id=version_id)
    version_index(version_id=version_id)
    return PolicyVersion.objects.get(pk=version_id)
