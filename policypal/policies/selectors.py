"""Reads for the policy admin pages (callers check is_policy_admin first)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.db.models import BooleanField, Case, Count, Prefetch, Q, QuerySet, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from chunking.preview import first_and_last_sentence
from retrieval.models import Chunk

from .models import Policy, PolicyVersion

# Over this many embedding-model word pieces the model silently ignores the rest.
MODEL_MAX_TOKENS = 256


def policy_list_with_versions() -> QuerySet[Policy]:
    versions = _with_stopped(PolicyVersion.objects).annotate(
        source_count=Count("sources", distinct=True), chunk_count=Count("chunks", distinct=True)
    ).order_by("-number")
    return Policy.objects.prefetch_related("groups", Prefetch("versions", queryset=versions)).order_by("title")


def version_get(*, version_id: int) -> PolicyVersion | None:
    return (
        PolicyVersion.objects.select_related("policy", "created_by", "cancelled_by")
        .prefetch_related("sources", "policy__groups")
        .filter(pk=version_id)
        .first()
    )


# A version that no worker has claimed for this long (queued, or between two steps) gets a Retry
# button too: the broker may have lost its task, or no worker is running.
WAITING_RETRY_AFTER = dt.timedelta(minutes=15)


def heartbeat_stale_after() -> dt.timedelta:
    return dt.timedelta(seconds=float(getattr(settings, "INGEST_HEARTBEAT_STALE_SECONDS", 60)))


@dataclass(frozen=True)
class ProgressState:
    """What the version page says about a version's processing, and which actions it offers.

    key: "working" (a worker runs a step and its heartbeat is fresh), "stopped" (a worker
    claimed a step but its heartbeat is older than INGEST_HEARTBEAT_STALE_SECONDS), "waiting"
    (queued, or between two steps: no worker holds it), or "finished" (ready, failed, cancelled)."""

    key: str
    can_retry: bool
    can_cancel: bool
    message: str = ""

    @property
    def actions(self) -> str:
        """Which actions the page offers, for the progress poll to notice a change."""
        return "retry" if self.can_retry else "none"


def version_progress_state(*, version: PolicyVersion, now: dt.datetime | None = None) -> ProgressState:
    now = now or timezone.now()
    if version.is_finished:
        retry = version.status in (PolicyVersion.Status.FAILED, PolicyVersion.Status.CANCELLED)
        return ProgressState("finished", can_retry=retry, can_cancel=False)
    last_sign = version.heartbeat_at or version.updated_at
    silent = now - last_sign
    if version.running_step:
        if silent > heartbeat_stale_after():
            return ProgressState(
                "stopped", can_retry=True, can_cancel=True,
                message=f"Stopped: the worker stopped responding (no heartbeat for {_duration(silent)}, while "
                        f"{version.running_step}). Retry resumes from the last finished step.",
            )
        return ProgressState("working", can_retry=False, can_cancel=True)
    if silent > WAITING_RETRY_AFTER:
        return ProgressState(
            "waiting", can_retry=True, can_cancel=True,
            message=f"No worker has taken this version for {_duration(silent)}. Is a worker running? "
                    "Retry queues it again.",
        )
    return ProgressState("waiting", can_retry=False, can_cancel=True)


def _duration(delta: dt.timedelta) -> str:
    seconds = int(delta.total_seconds())
    if seconds < 120:
        return f"{seconds} seconds"
    if seconds < 7200:
        return f"{seconds // 60} minutes"
    return f"{seconds // 3600} hours"


def _with_stopped(versions: QuerySet[PolicyVersion]) -> QuerySet[PolicyVersion]:
    """Annotates `is_stopped`: the rule of version_progress_state's "stopped", in SQL, for lists."""
    stale = Q(running_step__gt="") & Q(status__in=[PolicyVersion.Status.QUEUED, PolicyVersion.Status.CONVERTING,
                                                 PolicyVersion.Status.CHUNKING, PolicyVersion.Status.INDEXING])
    stale &= Q(last_sign__lt=timezone.now() - heartbeat_stale_after())
    return versions.annotate(last_sign=Coalesce("heartbeat_at", "updated_at")).annotate(
        is_stopped=Case(When(stale, then=Value(True)), default=Value(False), output_field=BooleanField())
    )


def policy_versions_other(*, version: PolicyVersion) -> QuerySet[PolicyVersion]:
    return _with_stopped(PolicyVersion.objects).filter(policy_id=version.policy_id).exclude(pk=version.pk).order_by("-number")


@dataclass(frozen=True)
class ChunkPreviewRow:
    id: int
    parent_id: int | None
    level: str
    kind: str
    breadcrumb: str
    token_count: int
    searchable: bool
    pages: list[int]
    first_sentence: str
    last_sentence: str
    warnings: list[str]
    text: str

    @property
    def over_limit(self) -> bool:
        return self.token_count > MODEL_MAX_TOKENS


@dataclass(frozen=True)
class ChunkPreview:
    rows: list[ChunkPreviewRow]
    by_level: dict[str, int]
    max_tokens: int
    warning_count: int
    over_limit_count: int


def version_chunk_preview(*, version: PolicyVersion) -> ChunkPreview:
    """The chunk preview table of a version: the Chunk rows in reading order."""
    rows = []
    for chunk in Chunk.objects.filter(version=version).defer("embedding", "embed_text").order_by("ordinal", "id"):
        first, last = first_and_last_sentence(chunk)
        rows.append(
            ChunkPreviewRow(
                id=chunk.pk,
                parent_id=chunk.parent_id,
                level=chunk.level,
                kind=chunk.kind,
                breadcrumb=chunk.breadcrumb,
                token_count=chunk.token_count,
                searchable=chunk.searchable,
                pages=list(chunk.pages),
                first_sentence=first,
                last_sentence=last if last != first else "",
                warnings=list(chunk.warnings),
                text=chunk.text,
            )
        )
    by_level: dict[str, int] = {}
    for row in rows:
        by_level[row.level] = by_level.get(row.level, 0) + 1
    return ChunkPreview(
        rows=rows,
        by_level=by_level,
        max_tokens=max((r.token_count for r in rows), default=0),
        warning_count=sum(1 for r in rows if r.warnings),
        over_limit_count=sum(1 for r in rows if r.over_limit),
    )
