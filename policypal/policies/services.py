"""Writes on policies and versions: create, upload, publish, retire, retry, cancel; a version's
headings for the admin search; the audit trail."""
from __future__ import annotations

import datetime as dt
import hashlib
import uuid
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import Group
from django.core.files.base import ContentFile, File
from django.db import connection, transaction
from django.db.models import Max
from django.template.defaultfilters import filesizeformat
from django.utils import timezone

from .models import AuditEvent, Policy, PolicyVersion, SourceDocument
from .pipeline import (
    PIPELINE,
    VERSION_LOCK_NAMESPACE,
    audience_indexes_sync_after_commit,
    ingestion_pipeline,
    ingestion_revoke,
    reindex_message,
)
from .selectors import (
    SYSTEM_ACTOR,
    duration_text,
    reindex_last_sign,
    version_progress_state,
    version_reindex_is_stale,
    versions_reindex_stale,
)


class PolicyInputError(ValueError):
    """Input that a policy admin must correct; the message says how."""


ACCEPTED_EXTENSIONS = (".docx", ".pdf", ".html", ".htm", ".xhtml", ".md", ".markdown", ".xlsx", ".csv", ".pptx")
ACCEPTED_LABEL = "DOCX, PDF, HTML, Markdown, XLSX, CSV or PPTX"


def source_problem(*, name: str, size: int) -> str | None:
    """Why a file cannot be uploaded as a policy source, or None. One rule and one wording for the
    upload form and `manage.py ingest` (which checks before reading the file)."""
    if Path(name).suffix.lower() not in ACCEPTED_EXTENSIONS:
        return f"{name}: this file type is not supported. Upload {ACCEPTED_LABEL}."
    return source_size_problem(name=name, size=size)


def source_size_problem(*, name: str, size: int) -> str | None:
    """Empty or over POLICY_UPLOAD_MAX_BYTES. (policy_version_create checks only this: a file of an
    unknown type that gets that far fails in the pipeline, with its reason on the version page.)"""
    if size == 0:
        return f"{name} is empty."
    if size > settings.POLICY_UPLOAD_MAX_BYTES:
        return (f"{name} is {filesizeformat(size)}, larger than the {filesizeformat(settings.POLICY_UPLOAD_MAX_BYTES)} "
                "limit for one file.")
    return None


@dataclass(frozen=True)
class UploadedSource:
    """One file of a new version: its bytes, or a Django File that is read in chunks (an upload
    that Django streamed to a temporary file is moved into storage, never read whole)."""

    name: str
    content: bytes = b""
    file: File | None = None

    @property
    def size(self) -> int:
        return self.file.size if self.file is not None else len(self.content)

    def as_file(self) -> File:
        return self.file if self.file is not None else ContentFile(self.content)


def _sha256(file: File) -> str:
    digest = hashlib.sha256()
    for chunk in file.chunks():
        digest.update(chunk)
    return digest.hexdigest()


def policy_upsert(*, key: str, title: str, category: str = "", group_names: list[str] | None = None) -> Policy:
    """Create the policy or update its title, category and (when given) its access groups; a
    change of the groups of a policy with chunks queues the audience index sync."""
    key = (key or "").strip()
    if not key:
        raise PolicyInputError("A policy key is required, for example 'travel'.")
    if not (title or "").strip():
        raise PolicyInputError("A policy title is required.")
    # every entry point (command line, form, import, API) comes through here: an over-long value is
    # refused with its field and limit before the database would refuse it with a DataError
    for field, value in (("key", key), ("title", title.strip()), ("category", category or "")):
        limit = Policy._meta.get_field(field).max_length
        if len(value) > limit:
            raise PolicyInputError(f"The policy {field} is {len(value)} characters; the limit is {limit}.")
    group_limit = Group._meta.get_field("name").max_length
    for name in group_names or []:
        if len(name.strip()) > group_limit:
            raise PolicyInputError(f"The group name {name.strip()[:40]!r}... is {len(name.strip())} characters; "
                                   f"the limit is {group_limit}.")
    with transaction.atomic():
        policy, _ = Policy.objects.update_or_create(
            key=key, defaults={"title": title.strip(), **({"category": category} if category else {})}
        )
        if group_names is not None:
            groups = [Group.objects.get_or_create(name=name.strip())[0] for name in group_names if name.strip()]
            before = set(policy.groups.values_list("pk", flat=True))
            policy.groups.set(groups)
            if before != {g.pk for g in groups} and policy.versions.exists():
                audience_indexes_sync_after_commit()
    return policy


def sources_from_paths(paths: list[str | Path]) -> list[UploadedSource]:
    """The files at `paths`, every one checked (found, type, size) before any is read."""
    paths = [Path(raw) for raw in paths]
    for path in paths:
        if not path.is_file():
            raise PolicyInputError(f"File not found: {path}")
        if problem := source_problem(name=path.name, size=path.stat().st_size):
            raise PolicyInputError(problem)
    return [UploadedSource(name=path.name, content=path.read_bytes()) for path in paths]


@transaction.atomic
def policy_version_create(
    *,
    policy: Policy,
    sources: list[UploadedSource],
    effective_from: dt.date,
    created_by=None,
    publish_when_ready: bool = True,
    note: str = "",
    enqueue: bool = True,
) -> PolicyVersion:
    """Store the files of a new version and queue its ingestion once the row is committed."""
    if not sources:
        raise PolicyInputError("Upload at least one file.")
    for source in sources:
        if problem := source_size_problem(name=source.name, size=source.size):
            raise PolicyInputError(problem)
    Policy.objects.select_for_update().filter(pk=policy.pk).first()  # serialise version numbering
    number = (policy.versions.aggregate(n=Max("number"))["n"] or 0) + 1
    version = PolicyVersion.objects.create(
        policy=policy,
        number=number,
        effective_from=effective_from,
        created_by=created_by,
        publish_when_ready=publish_when_ready,
        note=note,
        progress_detail="Waiting for a worker",
    )
    for ordinal, source in enumerate(sources):
        stored = source.as_file()
        document = SourceDocument(
            version=version,
            ordinal=ordinal,
            original_name=source.name,
            checksum=_sha256(stored),
            size_bytes=source.size,
        )
        document.file.save(source.name, stored, save=False)
        document.save()
    if enqueue:
        policy_version_enqueue(version=version)
    return version


def policy_version_enqueue(*, version: PolicyVersion) -> None:
    """Start the ingestion pipeline after the current transaction commits. The tasks' ids are
    stored first, so that cancelling the version can revoke them."""
    version_id = version.pk
    task_ids = [str(uuid.uuid4()) for _ in PIPELINE]
    PolicyVersion.objects.filter(pk=version_id).update(task_ids=task_ids)
    transaction.on_commit(lambda: ingestion_pipeline(version_id, task_ids=task_ids).delay())


@transaction.atomic
def policy_version_retry(*, version: PolicyVersion) -> PolicyVersion:
    """Run a failed, cancelled or stopped version's pipeline again; finished steps are skipped
    (a failed or cancelled one starts over from its files, at 0 %)."""
    version = PolicyVersion.objects.select_for_update().get(pk=version.pk)
    if version.status == PolicyVersion.Status.READY:
        raise PolicyInputError("This version is already ready.")
    state = version_progress_state(version=version)
    if not state.can_retry:
        if state.key == "waiting":
            raise PolicyInputError("This version is queued and waiting for a worker; Retry is offered if none takes it.")
        raise PolicyInputError("This version is still being processed: its worker reported progress moments ago.")
    fields = ["status", "error", "progress_detail", "updated_at"]
    if version.status in (PolicyVersion.Status.FAILED, PolicyVersion.Status.CANCELLED):
        version.sources.update(tree=None)
        version.status = PolicyVersion.Status.QUEUED
        version.progress = 0
        version.running_step = ""
        version.restarted_at = version.cancelled_at = version.cancelled_by = None
        fields += ["progress", "running_step", "restarted_at", "cancelled_at", "cancelled_by"]
    version.error = ""
    version.progress_detail = "Queued again"
    version.save(update_fields=fields)
    policy_version_enqueue(version=version)
    return version


@transaction.atomic
def policy_version_reindex(*, version: PolicyVersion, enqueue: bool = True) -> PolicyVersion:
    """Chunk and embed a ready version again from its converted files (after a change of the
    chunker or the embedding model), on a worker once this transaction commits. The version stays
    ready and answers from its old chunks meanwhile; the new ones, all embedded, replace them in
    one transaction (ingestion.version_reindex). Asking again while one is pending queues nothing
    more, unless that one is stale (no sign of life for REINDEX_STALE_SECONDS: its message was
    lost): it is then queued again, its requeue count starting over. `enqueue=False`: the caller
    runs it (manage.py reindex)."""
    version = PolicyVersion.objects.select_for_update().get(pk=version.pk)
    if version.status != PolicyVersion.Status.READY:
        raise PolicyInputError(f"Only a ready version can be re-indexed; v{version.number} is {version.get_status_display().lower()}.")
    if version.retired_at is not None:
        raise PolicyInputError(f"v{version.number} is retired; it answers no questions, so it is not re-indexed.")
    if version.sources.filter(tree__isnull=True).exists():
        raise PolicyInputError(f"v{version.number} has a file that was never converted; use Retry on its page.")
    detail = "Queued for re-indexing"
    if version.reindex_requested_at is not None:
        if not enqueue or not version_reindex_is_stale(version=version) or version_is_locked(version_id=version.pk):
            return version  # pending and alive (or run by the caller): nothing more to queue
        silent = duration_text(timezone.now() - reindex_last_sign(version))
        detail = f"Queued for re-indexing again (the earlier request had shown no progress for {silent})"
    now = timezone.now()
    version.reindex_requested_at = version.reindex_queued_at = now
    version.reindex_requeues = 0
    version.reindex_progress = 0
    version.reindex_detail = detail
    version.save(update_fields=["reindex_requested_at", "reindex_queued_at", "reindex_requeues", "reindex_progress",
                                "reindex_detail", "updated_at"])
    if enqueue:
        _reindex_send(version.pk)
    return version


@transaction.atomic
def policy_version_reindex_ask(*, version: PolicyVersion, actor) -> str:
    """The version page's re-index, with its audit row: "queued", "requeued" (a stale pending one
    queued again), or "pending" when one is pending and alive (nothing done, nothing recorded)."""
    version = PolicyVersion.objects.select_for_update().select_related("policy").get(pk=version.pk)
    was_pending, queued_before = version.reindex_requested_at is not None, version.reindex_queued_at
    version = policy_version_reindex(version=version)
    if version.reindex_queued_at == queued_before:
        return "pending"
    audit_event_record(actor=actor, action=AuditEvent.Action.REINDEX, target=f"{version.policy.key} v{version.number}",
                       policy=version.policy, version=version,
                       detail="version page" + (": queued again, the earlier request showed no progress" if was_pending else ""))
    return "requeued" if was_pending else "queued"


def _reindex_send(version_id: int) -> None:
    transaction.on_commit(lambda: reindex_message(version_id).delay())


def version_is_locked(*, version_id: int) -> bool:
    """A worker holds the version's advisory lock (ingestion._version_lock): it is working on it
    now, whatever its heartbeat says. A killed worker's lock goes with its connection."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = %s AND objid = %s"
            " AND objsubid = 2 AND granted)",
            [VERSION_LOCK_NAMESPACE, version_id],
        )
        return cursor.fetchone()[0]


REINDEX_REQUEUED = "requeued"
REINDEX_CLEARED = "cleared"


@transaction.atomic
def policy_version_reindex_recover(*, version_id: int, now: dt.datetime | None = None) -> str:
    """Recover one re-index that lost its message: pending, nothing shown for REINDEX_STALE_SECONDS
    and no worker holding the version. Queued again (REINDEX_REQUEUED), up to REINDEX_MAX_REQUEUES
    times; after that, or when the version is no longer ready or is retired, the request is cleared
    (REINDEX_CLEARED) and the version keeps answering from its current index. Either way its
    re-index detail says what happened and one audit row records it. "" when there was nothing to
    do: safe to run any number of times, from any number of processes (the row is locked, and a
    requeue restarts the stale clock)."""
    now = now or timezone.now()
    version = PolicyVersion.objects.select_for_update().select_related("policy").filter(pk=version_id).first()
    if version is None or not version_reindex_is_stale(version=version, now=now) or version_is_locked(version_id=version_id):
        return ""
    silent = duration_text(now - reindex_last_sign(version))
    target = f"{version.policy.key} v{version.number}"
    if version.status != PolicyVersion.Status.READY or version.retired_at is not None:
        outcome, detail = REINDEX_CLEARED, "Re-index dropped: the version is no longer ready, or was retired"
    elif version.reindex_requeues >= settings.REINDEX_MAX_REQUEUES:
        outcome = REINDEX_CLEARED
        detail = (f"Re-index stopped: no worker showed progress in {version.reindex_requeues + 1} tries (the last "
                  f"{silent} ago); still answering from the previous index. Check that a worker runs, then re-index again.")
    else:
        outcome = REINDEX_REQUEUED
        detail = (f"Queued again ({version.reindex_requeues + 1} of {settings.REINDEX_MAX_REQUEUES}): no worker had shown "
                  f"progress for {silent}; its message was probably lost")
    if outcome == REINDEX_CLEARED:
        PolicyVersion.objects.filter(pk=version_id).update(
            reindex_requested_at=None, reindex_queued_at=None, reindex_progress=0, reindex_detail=detail[:300], updated_at=now)
    else:
        PolicyVersion.objects.filter(pk=version_id).update(
            reindex_queued_at=now, reindex_requeues=version.reindex_requeues + 1, reindex_progress=0,
            reindex_detail=detail[:300], updated_at=now)
        _reindex_send(version_id)
    audit_event_record(actor=None, action=AuditEvent.Action.REINDEX_RECOVER, target=target, policy=version.policy,
                       version=version, detail=detail)
    return outcome


def policy_versions_reindex_recover(*, now: dt.datetime | None = None) -> dict[int, str]:
    """Recover every stale pending re-index (see policy_version_reindex_recover), each in its own
    transaction: {version id: what was done}, for those where something was."""
    done = {}
    for version_id in versions_reindex_stale(now=now).order_by("pk").values_list("pk", flat=True):
        if outcome := policy_version_reindex_recover(version_id=version_id, now=now):
            done[version_id] = outcome
    return done


@transaction.atomic
def policy_version_cancel(*, version: PolicyVersion, cancelled_by=None) -> PolicyVersion:
    """Stop a queued or running version: it is marked cancelled and its chunks removed at once;
    its queued tasks are revoked, and a step already running stops at its next heartbeat."""
    from retrieval.models import Chunk

    version = PolicyVersion.objects.select_for_update().get(pk=version.pk)
    if version.is_finished:
        raise PolicyInputError(f"Only a queued or running version can be cancelled; this one is {version.get_status_display().lower()}.")
    version.status = PolicyVersion.Status.CANCELLED
    version.cancelled_at = timezone.now()
    version.cancelled_by = cancelled_by if getattr(cancelled_by, "is_authenticated", False) else None
    version.running_step = ""
    version.progress_detail = "Cancelled"
    version.save(update_fields=["status", "cancelled_at", "cancelled_by", "running_step", "progress_detail", "updated_at"])
    Chunk.objects.filter(version=version).delete()
    task_ids = list(version.task_ids)
    transaction.on_commit(lambda: ingestion_revoke(task_ids))
    return version


@transaction.atomic
def policy_version_publish(*, version: PolicyVersion) -> PolicyVersion:
    version = PolicyVersion.objects.select_for_update().get(pk=version.pk)
    if version.status != PolicyVersion.Status.READY:
        raise PolicyInputError("Only a version that finished processing (ready) can be published.")
    version.published = True
    version.retired_at = None
    version.save(update_fields=["published", "retired_at", "updated_at"])
    policy_effective_dates_refresh(policy=version.policy)
    return version


@transaction.atomic
def policy_version_retire(*, version: PolicyVersion) -> PolicyVersion:
    """Withdraw a version: it stops answering questions; the previous one takes over its dates."""
    version = PolicyVersion.objects.select_for_update().get(pk=version.pk)
    version.published = False
    version.retired_at = timezone.now()
    version.save(update_fields=["published", "retired_at", "updated_at"])
    policy_effective_dates_refresh(policy=version.policy)
    return version


def policy_effective_dates_refresh(*, policy: Policy) -> None:
    """effective_to of each published version is the effective_from of the next published one."""
    published = list(
        PolicyVersion.objects.filter(policy=policy, published=True).order_by("effective_from", "number")
    )
    for current, following in zip(published, published[1:] + [None]):
        end = following.effective_from if following else None
        if current.effective_to != end:
            current.effective_to = end
            current.save(update_fields=["effective_to", "updated_at"])
    PolicyVersion.objects.filter(policy=policy, published=False).exclude(effective_to=None).update(effective_to=None)


def policy_versions_resume() -> list[PolicyVersion]:
    """Queue again every version left unfinished (a worker or the broker stopped mid-way).

    Safe to call at every start: the steps skip finished work and a per-version lock keeps two
    workers off the same version."""
    unfinished = list(
        PolicyVersion.objects.exclude(
            status__in=[PolicyVersion.Status.READY, PolicyVersion.Status.FAILED, PolicyVersion.Status.CANCELLED]
        )
    )
    for version in unfinished:
        policy_version_enqueue(version=version)
    reindexing = list(PolicyVersion.objects.filter(status=PolicyVersion.Status.READY, reindex_requested_at__isnull=False))
    for version in reindexing:  # the re-index skips a version whose swap is already done
        _reindex_send(version.pk)
    return unfinished + reindexing


HEADINGS_MAX_CHARS = 100_000


def headings_text(breadcrumbs) -> str:
    """The distinct headings of breadcrumbs ("A > B > C", in reading order), one a line."""
    seen: dict[str, None] = {}
    for breadcrumb in breadcrumbs:
        for part in breadcrumb.split(" > "):
            if part.strip():
                seen.setdefault(" ".join(part.split()), None)
    return "\n".join(seen)[:HEADINGS_MAX_CHARS]


def version_headings_store(*, version_id: int) -> None:
    """Store the headings of a version's chunks on the version, for the policy list's search. Run
    when the version turns ready: its chunks no longer change after that."""
    from retrieval.models import Chunk

    breadcrumbs = Chunk.objects.filter(version_id=version_id).order_by("ordinal").values_list("breadcrumb", flat=True)
    PolicyVersion.objects.filter(pk=version_id).update(headings=headings_text(breadcrumbs.iterator(chunk_size=2000)))


def audit_event_record(
    *, actor, action: str, target: str, policy: Policy | None = None, version: PolicyVersion | None = None,
    detail: str = "",
) -> AuditEvent:
    """One row of the audit trail; written inside the transaction of the action it records."""
    user = actor if getattr(actor, "is_authenticated", False) else None
    return AuditEvent.objects.create(
        actor=user,
        actor_name=user.get_username() if user else SYSTEM_ACTOR,
        action=action,
        target=target[:300],
        policy=policy,
        version=version,
        detail=detail,
    )
