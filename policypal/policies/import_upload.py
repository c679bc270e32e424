"""The admin import page: the bulk import (bulk_import.py) over an uploaded .zip archive.

Three steps, each its own request, so that any web process (of any machine) can serve each:
- upload (`import_batch_create`): the zip is checked (a .zip, not empty, within the request
  limit, readable as an archive, holding at least one file) and stored through Django's default
  storage, with the choices of the form, as an ImportBatch;
- plan (`import_batch_plan`): the stored zip is copied to a temporary folder, under the name it
  was uploaded with (the messages name the admin's file), and planned by `import_plan` exactly
  as `manage.py import` plans it, with the archive's own manifest when it has one at its root
  (manifest.yaml, manifest.yml or manifest.csv; read by `manifest_load`, left out of the files);
- confirm (`import_batch_apply`): the plan is made again from the stored zip and compared with
  the one the admin saw (a fingerprint of every file's action, key, title, values and checksum):
  when it changed meanwhile (another import, an upload of one of its policies) nothing is done
  and the new plan is shown. Else `import_apply` queues the files; the batch keeps each file's
  outcome and version id for the progress page, and the stored zip is deleted.

The batch is claimed for confirmation with one conditional UPDATE (planned -> applying), so two
clicks, or two machines, never queue it twice. A confirmation that crashes half-way puts the
batch back to planned: confirming it again is safe, as the files already queued are planned
"unchanged" (their checksums are their policy's latest version's).
"""
from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.files.storage import default_storage
from django.db import transaction
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.text import get_valid_filename

from .bulk_import import Action, ImportDefaults, ImportPlan, import_apply, import_plan, import_wait
from .import_files import FoundFile, ImportSourceError, ZipFiles, import_files_open
from .import_manifest import MANIFEST_NAMES, ManifestError, manifest_load
from .models import AuditEvent, ImportBatch, PolicyVersion
from .selectors import versions_with_stopped
from .services import audit_event_record

STORAGE_FOLDER = "imports"


class ImportUploadError(ValueError):
    """The uploaded file cannot be imported at all; the message says why."""


def import_zip_max_bytes() -> int:
    """The largest zip the page takes: what the server accepts in one request (REQUEST_MAX_BYTES,
    which the request-size middleware enforces before the body is read)."""
    return settings.REQUEST_MAX_BYTES


class _WithoutManifest:
    """The archive's files, less its manifest (which would otherwise be planned as a CSV policy)."""

    def __init__(self, files: ZipFiles, manifest: str | None) -> None:
        self._files = files
        self._manifest = manifest
        self.label = files.label

    def list(self) -> list[FoundFile]:
        return [f for f in self._files.list() if f.relative != self._manifest]

    def read(self, relative: str) -> bytes:
        return self._files.read(relative)

    def close(self) -> None:
        self._files.close()


@dataclass(frozen=True)
class _Opened:
    files: _WithoutManifest
    manifest_name: str | None
    manifest: object | None


def _local_name(file_name: str) -> str:
    name = get_valid_filename(Path(file_name).name) or "upload.zip"
    return name if name.lower().endswith(".zip") else f"{name}.zip"


@contextmanager
def _opened(batch: ImportBatch) -> Iterator[_Opened]:
    """The stored zip of `batch`, copied to a temporary folder and opened, with its manifest.
    Raises ImportSourceError or ManifestError when the archive or its manifest cannot be read."""
    with tempfile.TemporaryDirectory(prefix="policypal-import-") as folder:
        local = Path(folder) / _local_name(batch.file_name)
        try:
            with default_storage.open(batch.stored_name, "rb") as stored, open(local, "wb") as copy:
                for chunk in stored.chunks():
                    copy.write(chunk)
        except FileNotFoundError:
            raise ImportSourceError(f"{batch.file_name} is no longer stored; upload it again") from None
        files = import_files_open(local)
        if not isinstance(files, ZipFiles):  # a name that does not end in .zip cannot get here
            raise ImportSourceError(f"{batch.file_name} is not a .zip archive")
        try:
            listed = files.list()
            manifests = [f.relative for f in listed if f.relative.lower() in MANIFEST_NAMES]
            if len(manifests) > 1:
                raise ManifestError(f"{batch.file_name} holds {' and '.join(manifests)}: keep one manifest")
            manifest = None
            if manifests:
                manifest_path = Path(folder) / "manifest" / Path(manifests[0]).name
                manifest_path.parent.mkdir()
                manifest_path.write_bytes(files.read(manifests[0]))
                manifest = manifest_load(manifest_path)
            yield _Opened(_WithoutManifest(files, manifests[0] if manifests else None),
                          manifests[0] if manifests else None, manifest)
        finally:
            files.close()


def _defaults(batch: ImportBatch) -> ImportDefaults:
    return ImportDefaults(
        effective_from=batch.effective_from,
        category=batch.category or None,
        groups=tuple(batch.groups) if batch.groups else None,
    )


@transaction.atomic
def import_batch_create(
    *, upload, effective_from, category: str = "", groups: list[str] | None = None, publish_when_ready: bool = True,
    created_by=None,
) -> ImportBatch:
    """Store an uploaded zip and its import choices; raises ImportUploadError (nothing is kept)
    when it is not a .zip, is empty, too large, unreadable, or holds no file to import."""
    name = Path(upload.name or "").name
    if not name.lower().endswith(".zip"):
        raise ImportUploadError(f"{name or 'The file'} is not a .zip archive. Upload a .zip of policy documents.")
    if not upload.size:
        raise ImportUploadError(f"{name} is empty.")
    limit = import_zip_max_bytes()
    if upload.size > limit:
        raise ImportUploadError(f"{name} is {filesizeformat(upload.size)}, larger than the {filesizeformat(limit)} limit "
                                "for one upload. Split the archive, or use manage.py import on the server.")
    batch = ImportBatch(
        created_by=created_by if getattr(created_by, "is_authenticated", False) else None,
        file_name=name[:255], size_bytes=upload.size, effective_from=effective_from, category=category,
        groups=list(groups) if groups else None, publish_when_ready=publish_when_ready,
    )
    batch.stored_name = default_storage.save(f"{STORAGE_FOLDER}/{batch.pk}.zip", upload)
    try:
        with _opened(batch) as opened:
            if not opened.files.list():
                raise ImportUploadError(
                    f"{name} holds no files to import" + (" besides its manifest." if opened.manifest_name else ".")
                    + " Hidden files and __MACOSX folders are passed over."
                )
    except ManifestError:
        pass  # the archive itself is fine: the plan page shows what its manifest gets wrong
    except (ImportSourceError, ImportUploadError) as exc:
        default_storage.delete(batch.stored_name)
        raise ImportUploadError(str(exc)) from None
    batch.save(force_insert=True)
    return batch


@dataclass(frozen=True)
class BatchPlan:
    plan: ImportPlan | None
    error: str = ""  # the archive or its manifest cannot be read at all
    manifest_name: str | None = None

    @property
    def fingerprint(self) -> str:
        if self.plan is None:
            return ""
        rows = [[f.path, f.action.value, f.key, f.title, f.category, f.groups, str(f.effective_from), f.checksum,
                 f.reasons, f.updates] for f in self.plan.files]
        return hashlib.sha256(json.dumps([rows, self.plan.problems], default=str).encode()).hexdigest()[:32]

    @property
    def work(self) -> int:
        """Files that confirming would queue or change."""
        if self.plan is None:
            return 0
        return sum(1 for f in self.plan.files if f.action in (Action.NEW, Action.NEW_VERSION)
                   or (f.action == Action.UNCHANGED and f.updates))

    @property
    def counts(self) -> dict[str, int]:
        """Files per action, keyed for templates: new, new_version, unchanged, invalid."""
        return {action.name.lower(): len(self.plan.having(action)) if self.plan else 0 for action in Action}


def _plan(batch: ImportBatch, opened: _Opened) -> BatchPlan:
    plan = import_plan(files=opened.files, defaults=_defaults(batch), manifest=opened.manifest)
    return BatchPlan(plan=plan, manifest_name=opened.manifest_name)


def import_batch_plan(*, batch: ImportBatch) -> BatchPlan:
    """What confirming `batch` would do, file by file (reads the stored zip; writes nothing)."""
    try:
        with _opened(batch) as opened:
            return _plan(batch, opened)
    except (ImportSourceError, ManifestError) as exc:
        return BatchPlan(plan=None, error=str(exc))


@dataclass(frozen=True)
class ApplyResult:
    batch: ImportBatch
    applied: bool  # queued now
    changed: BatchPlan | None = None  # the plan changed since it was shown (or cannot be read): nothing done


def import_batch_apply(*, batch: ImportBatch, actor, fingerprint: str) -> ApplyResult:
    """Queue the files of `batch` if its plan is still the one with `fingerprint`."""
    claimed = ImportBatch.objects.filter(pk=batch.pk, status=ImportBatch.Status.PLANNED).update(
        status=ImportBatch.Status.APPLYING)
    batch.refresh_from_db()
    if not claimed:
        return ApplyResult(batch=batch, applied=False)
    try:
        with _opened(batch) as opened:
            current = _plan(batch, opened)
            if current.fingerprint != fingerprint:
                _unclaim(batch)
                return ApplyResult(batch=batch, applied=False, changed=current)
            outcome = import_apply(plan=current.plan, files=opened.files, created_by=actor,
                                   publish_when_ready=batch.publish_when_ready)
    except (ImportSourceError, ManifestError) as exc:
        _unclaim(batch)
        return ApplyResult(batch=batch, applied=False, changed=BatchPlan(plan=None, error=str(exc)))
    except BaseException:
        _unclaim(batch)
        raise
    _applied(batch, current.plan, outcome, actor=actor)
    stored = batch.stored_name
    transaction.on_commit(lambda: default_storage.delete(stored))
    return ApplyResult(batch=batch, applied=True)


def _unclaim(batch: ImportBatch) -> None:
    ImportBatch.objects.filter(pk=batch.pk, status=ImportBatch.Status.APPLYING).update(status=ImportBatch.Status.PLANNED)
    batch.refresh_from_db()


@transaction.atomic
def _applied(batch: ImportBatch, plan: ImportPlan, outcome, *, actor) -> None:
    by_path = {a.planned.path: a for a in outcome.applied}
    files = []
    for f in plan.files:
        applied = by_path.get(f.path)
        files.append({
            "path": f.path, "action": f.action.value, "key": f.key, "title": f.title, "reasons": list(f.reasons),
            "updates": list(f.updates), "version_id": applied.version_id if applied else None,
            "error": applied.error if applied else "",
        })
    batch.results = {"files": files, "problems": list(plan.problems)}
    batch.status = ImportBatch.Status.APPLIED
    batch.applied_at = timezone.now()
    batch.save(update_fields=["results", "status", "applied_at"])
    queued = [a for a in outcome.applied if a.version_id is not None]
    detail = (f"{sum(1 for a in queued if a.planned.action == Action.NEW)} new, "
              f"{sum(1 for a in queued if a.planned.action == Action.NEW_VERSION)} new versions, "
              f"{len(plan.having(Action.UNCHANGED))} unchanged, {len(plan.having(Action.INVALID))} invalid, "
              f"{len(outcome.failed)} failed to queue")
    audit_event_record(actor=actor, action=AuditEvent.Action.IMPORT, target=f"import {batch.file_name}", detail=detail)


@transaction.atomic
def import_batch_discard(*, batch: ImportBatch) -> bool:
    """Forget a batch that was not confirmed, and its stored zip."""
    if not ImportBatch.objects.filter(pk=batch.pk, status=ImportBatch.Status.PLANNED).update(
            status=ImportBatch.Status.DISCARDED):
        return False
    stored = batch.stored_name
    transaction.on_commit(lambda: default_storage.delete(stored))
    return True


# --- progress ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BatchFileRow:
    path: str
    action: str
    key: str
    title: str
    reasons: tuple[str, ...]
    updates: tuple[str, ...]
    error: str
    version: PolicyVersion | None


@dataclass(frozen=True)
class BatchProgress:
    rows: list[BatchFileRow]
    problems: list[str]
    queued: int
    ready: int
    failed: int
    unfinished: int
    percent: int

    @property
    def finished(self) -> bool:
        return self.unfinished == 0


def import_batch_progress(*, batch: ImportBatch) -> BatchProgress:
    """Where the queued files of an applied batch are: ready, failed (cancelled included) or still
    processing (import_wait's rule, looked at once), and each file's version (two queries)."""
    entries = (batch.results or {}).get("files", [])
    ids = [e["version_id"] for e in entries if e.get("version_id")]
    waited = import_wait(version_ids=ids, timeout=0) if ids else None
    versions = {v.pk: v for v in versions_with_stopped(PolicyVersion.objects.filter(pk__in=ids)).select_related("policy")
                .defer("headings", "headings_search")} if ids else {}
    rows = [BatchFileRow(path=e["path"], action=e["action"], key=e.get("key", ""), title=e.get("title", ""),
                         reasons=tuple(e.get("reasons", ())), updates=tuple(e.get("updates", ())), error=e.get("error", ""),
                         version=versions.get(e.get("version_id")))
            for e in entries]
    shown = [v for v in versions.values()]
    percent = round(sum(100 if v.is_finished else v.progress for v in shown) / len(shown)) if shown else 100
    return BatchProgress(
        rows=rows, problems=list((batch.results or {}).get("problems", [])), queued=len(ids),
        ready=len(waited.ready) if waited else 0, failed=len(waited.failed) if waited else 0,
        unfinished=len(waited.unfinished) if waited else 0, percent=percent,
    )


def import_batches_recent(*, limit: int = 8) -> list[ImportBatch]:
    return list(ImportBatch.objects.exclude(status=ImportBatch.Status.DISCARDED).select_related("created_by")[:limit])
