"""Reads for the policy admin pages (the views check is_policy_admin first; the policy list
checks it again, as it takes the user).

The policy list at company size (thousands of policies): one row per policy, its version in
force, announced and latest found by correlated subqueries on (policy, number) and on the
visible-version rule of retrieval.access, so that filters, sorting and the page count are one SQL
query each and the page's own versions one more. Postgres evaluates a subquery that only the
select list needs after the sort and the LIMIT, so a page costs its 50 rows, not the 5,000.

Search: every word of the query must be in the policy's title or key (substring) or, as a word
prefix, in the headings of its current version (in force today, else the latest). The headings
are stored on each version when it turns ready (`PolicyVersion.headings`, a generated tsvector
with a GIN index, config "simple": no stemming, no stop words, so "of" and "allow" match): a
version's headings never change, whereas which version is current changes with the date and is
therefore decided in the query, not stored on the policy. Each word is one lookup of the
tsvector (the GIN index serves it; at a few thousand versions the planner reads the small table
instead), hashed once, that each row's current-version id is tested against. Measured at 5,000
policies and 7,500 versions: the unfiltered count and page 1-6 ms each, a two-word search 13-22 ms.
"""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.postgres.search import SearchQuery
from django.db.models import (
    BooleanField, Case, Exists, OuterRef, Q, QuerySet, Subquery, Value, When, prefetch_related_objects,
)
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from chunking.preview import first_and_last_sentence
from retrieval.access import versions_visible
from retrieval.models import Chunk

from .models import AuditEvent, Policy, PolicyVersion
from .roles import POLICY_ADMINS, is_policy_admin, is_reviewer
from .version_diff import BREADCRUMB_SEPARATOR, SectionText, VersionDiff, version_diff

# Over this many embedding-model word pieces the model silently ignores the rest.
MODEL_MAX_TOKENS = 256

POLICY_PAGE_SIZE = 50
SEARCH_MAX_WORDS = 8
PROCESSING = (PolicyVersion.Status.QUEUED, PolicyVersion.Status.CONVERTING, PolicyVersion.Status.CHUNKING,
              PolicyVersion.Status.INDEXING)
# The policy list's "state" filter: what the policy's published versions do today.
POLICY_STATES = {
    "in_force": "In force",
    "announced": "Announced (a newer version from a later date)",
    "retired": "Retired (nothing in force or announced)",
    "unpublished": "Never published",
}
POLICY_SORTS = {"title": "Title", "key": "Key", "updated": "Last change", "effective": "Effective date"}


@dataclass(frozen=True)
class PolicyFilters:
    """What the policy list shows: every field optional ("" = no filter). `sort` is a key of
    POLICY_SORTS, with "-" in front for descending."""

    q: str = ""
    status: str = ""  # the latest version's status, or "processing" (any step before ready)
    group: str = ""  # a group id, or "everyone" (no group: open to every signed-in user)
    category: str = ""
    state: str = ""  # a key of POLICY_STATES
    sort: str = "title"


def search_words(q: str) -> list[str]:
    """The words of a search, lower-case, letters and digits only (safe in a tsquery)."""
    return list(dict.fromkeys(re.findall(r"[^\W_]+", q.lower())))[:SEARCH_MAX_WORDS]


def _with_version_ids(policies: QuerySet[Policy], *, today: dt.date) -> QuerySet[Policy]:
    """Annotates in_force_id, announced_id, latest_id, changed_at and ever_retired (and aliases what
    only filters and sorts use)."""
    visible = versions_visible().filter(policy=OuterRef("pk"))
    in_force = visible.filter(effective_from__lte=today).filter(Q(effective_to__isnull=True) | Q(effective_to__gt=today))
    in_force = in_force.order_by("-effective_from", "-number")
    announced = visible.filter(effective_from__gt=today).order_by("effective_from", "number")
    latest = PolicyVersion.objects.filter(policy=OuterRef("pk")).order_by("-number")
    changed = PolicyVersion.objects.filter(policy=OuterRef("pk")).order_by("-updated_at")
    return policies.annotate(
        in_force_id=Subquery(in_force.values("pk")[:1]),
        announced_id=Subquery(announced.values("pk")[:1]),
        latest_id=Subquery(latest.values("pk")[:1]),
        changed_at=Coalesce(Subquery(changed.values("updated_at")[:1]), "created_at"),
        ever_retired=Exists(PolicyVersion.objects.filter(policy=OuterRef("pk"), retired_at__isnull=False)),
    ).alias(
        latest_status=Subquery(latest.values("status")[:1]),
        current_id=Coalesce("in_force_id", "latest_id"),
        effective=Coalesce(Subquery(in_force.values("effective_from")[:1]), Subquery(latest.values("effective_from")[:1])),
    )


def _search(policies: QuerySet[Policy], q: str) -> QuerySet[Policy]:
    for word in search_words(q):
        in_headings = PolicyVersion.objects.filter(
            headings_search=SearchQuery(f"{word}:*", search_type="raw", config="simple")
        ).values("pk")
        policies = policies.filter(Q(title__icontains=word) | Q(key__icontains=word) | Q(current_id__in=in_headings))
    return policies


def _ordering(sort: str) -> list:
    descending = sort.startswith("-")
    name = sort.lstrip("-") if sort.lstrip("-") in POLICY_SORTS else "title"
    field = {"title": "title", "key": "key", "updated": "changed_at", "effective": "effective"}[name]
    return [f"-{field}" if descending else field, "key"]  # key: unique, a stable order across pages


def policy_list(*, user, filters: PolicyFilters, as_of: dt.date | None = None) -> QuerySet[Policy]:
    """The policies of the admin list, filtered and sorted (nothing for a user who is not a policy
    admin). Rows carry in_force_id, announced_id, latest_id and changed_at; `policy_rows` turns a
    page of them into rows with their versions."""
    if not is_policy_admin(user):
        return Policy.objects.none()
    policies = _with_version_ids(Policy.objects.all(), today=as_of or timezone.localdate())
    if filters.q.strip():
        policies = _search(policies, filters.q)
    if filters.status == "processing":
        policies = policies.filter(latest_status__in=PROCESSING)
    elif filters.status in PolicyVersion.Status.values:
        policies = policies.filter(latest_status=filters.status)
    memberships = Policy.groups.through.objects.filter(policy_id=OuterRef("pk"))
    if filters.group == "everyone":
        policies = policies.filter(~Exists(memberships))
    elif filters.group.isdigit():
        policies = policies.filter(Exists(memberships.filter(group_id=int(filters.group))))
    if filters.category:
        policies = policies.filter(category=filters.category)
    if filters.state == "in_force":
        policies = policies.filter(in_force_id__isnull=False)
    elif filters.state == "announced":
        policies = policies.filter(announced_id__isnull=False)
    elif filters.state == "retired":
        policies = policies.filter(in_force_id__isnull=True, announced_id__isnull=True, ever_retired=True)
    elif filters.state == "unpublished":
        policies = policies.filter(in_force_id__isnull=True, announced_id__isnull=True, ever_retired=False)
    return policies.order_by(*_ordering(filters.sort))


@dataclass(frozen=True)
class PolicyRow:
    policy: Policy
    in_force: PolicyVersion | None
    announced: PolicyVersion | None
    latest: PolicyVersion | None

    @property
    def latest_is_other(self) -> bool:
        """The latest version is neither the one in force nor the announced one (a draft, one
        being processed, a failed upload)."""
        return self.latest is not None and self.latest not in (self.in_force, self.announced)


def policy_rows(*, policies: Iterable[Policy]) -> list[PolicyRow]:
    """A page of `policy_list` with its groups and versions: two queries, whatever the page size."""
    policies = list(policies)
    prefetch_related_objects(policies, "groups")
    ids = {pk for p in policies for pk in (p.in_force_id, p.announced_id, p.latest_id) if pk}
    versions = {
        v.pk: v for v in versions_with_stopped(PolicyVersion.objects.filter(pk__in=ids)).defer("headings", "headings_search")
    } if ids else {}
    return [
        PolicyRow(policy=p, in_force=versions.get(p.in_force_id), announced=versions.get(p.announced_id),
                  latest=versions.get(p.latest_id))
        for p in policies
    ]


@dataclass(frozen=True)
class FilterChoices:
    groups: list[Group]
    categories: list[str]


def policy_filter_choices() -> FilterChoices:
    """The groups and categories the list's filters offer (two queries)."""
    return FilterChoices(
        groups=list(Group.objects.order_by("name")),
        categories=list(Policy.objects.exclude(category="").order_by("category").values_list("category", flat=True).distinct()),
    )


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
                message=f"Stopped: the worker stopped responding (no heartbeat for {duration_text(silent)}, while "
                        f"{version.running_step}). Retry resumes from the last finished step.",
            )
        return ProgressState("working", can_retry=False, can_cancel=True)
    if silent > WAITING_RETRY_AFTER:
        return ProgressState(
            "waiting", can_retry=True, can_cancel=True,
            message=f"No worker has taken this version for {duration_text(silent)}. Is a worker running? "
                    "Retry queues it again.",
        )
    return ProgressState("waiting", can_retry=False, can_cancel=True)


# --- a re-index whose message was lost -----------------------------------------------------------

def reindex_stale_after() -> dt.timedelta:
    return dt.timedelta(seconds=float(getattr(settings, "REINDEX_STALE_SECONDS", 15 * 60)))


def reindex_last_sign(version: PolicyVersion) -> dt.datetime | None:
    """When a pending re-index last showed it was alive: asked for, its message (re)sent, or its
    worker's heartbeat (None when no re-index is pending)."""
    if version.reindex_requested_at is None:
        return None
    return max(t for t in (version.reindex_requested_at, version.reindex_queued_at, version.heartbeat_at) if t)


def version_reindex_is_stale(*, version: PolicyVersion, now: dt.datetime | None = None) -> bool:
    """A re-index is pending and nothing has shown for REINDEX_STALE_SECONDS: no worker took its
    message, or the worker that took it stopped (killed) without anyone redelivering it."""
    last_sign = reindex_last_sign(version)
    return last_sign is not None and (now or timezone.now()) - last_sign > reindex_stale_after()


def versions_reindex_stale(*, now: dt.datetime | None = None) -> QuerySet[PolicyVersion]:
    """The versions whose pending re-index is stale: version_reindex_is_stale in SQL
    (PostgreSQL's GREATEST skips NULLs)."""
    cutoff = (now or timezone.now()) - reindex_stale_after()
    return (PolicyVersion.objects.filter(reindex_requested_at__isnull=False)
            .alias(last_sign=Greatest("reindex_requested_at", "reindex_queued_at", "heartbeat_at"))
            .filter(last_sign__lt=cutoff))


def version_reindex_message(*, version: PolicyVersion, now: dt.datetime | None = None) -> str:
    """What the version page adds about a stale pending re-index ("" when none is stale)."""
    now = now or timezone.now()
    if not version_reindex_is_stale(version=version, now=now):
        return ""
    silent = duration_text(now - reindex_last_sign(version))
    return (f"No worker has shown progress on this re-index for {silent}: its message was probably lost (a worker "
            "stopped, or the queue was emptied). Workers queue it again when they start (and the beat process, if one "
            "runs, every few minutes); Queue again does it now.")


def duration_text(delta: dt.timedelta) -> str:
    seconds = int(delta.total_seconds())
    if seconds < 120:
        return f"{seconds} seconds"
    if seconds < 7200:
        return f"{seconds // 60} minutes"
    return f"{seconds // 3600} hours"


def versions_with_stopped(versions: QuerySet[PolicyVersion]) -> QuerySet[PolicyVersion]:
    """Annotates `is_stopped`: the rule of version_progress_state's "stopped", in SQL, for lists."""
    stale = Q(running_step__gt="") & Q(status__in=[PolicyVersion.Status.QUEUED, PolicyVersion.Status.CONVERTING,
                                                 PolicyVersion.Status.CHUNKING, PolicyVersion.Status.INDEXING])
    stale &= Q(last_sign__lt=timezone.now() - heartbeat_stale_after())
    return versions.annotate(last_sign=Coalesce("heartbeat_at", "updated_at")).annotate(
        is_stopped=Case(When(stale, then=Value(True)), default=Value(False), output_field=BooleanField())
    )


_with_stopped = versions_with_stopped  # its former name (bench/kill_trials.py)


def policy_versions_other(*, version: PolicyVersion) -> QuerySet[PolicyVersion]:
    return versions_with_stopped(PolicyVersion.objects).filter(policy_id=version.policy_id).exclude(pk=version.pk).order_by("-number")


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


# --- the diff between two versions --------------------------------------------------------------

def may_compare_versions(user) -> bool:
    """Who may open the diff of two versions: policy admins and reviewers (both see every
    version of every policy elsewhere already)."""
    return is_policy_admin(user) or is_reviewer(user)


@dataclass(frozen=True)
class PolicyVersionDiff:
    policy: Policy
    old: PolicyVersion
    new: PolicyVersion
    diff: VersionDiff
    ready_versions: list[PolicyVersion]  # every ready version of the policy, newest first: the pickers


def version_sections(*, version: PolicyVersion) -> list[SectionText]:
    """A ready version's sections in document order: its section-level chunks, whose text is the
    whole section (tables as pipe tables, from which the diff reads the rows). One query."""
    chunks = (Chunk.objects.filter(version=version, level=Chunk.Level.SECTION)
              .order_by("ordinal", "id").values_list("breadcrumb", "text"))
    return [SectionText(path=tuple(breadcrumb.split(BREADCRUMB_SEPARATOR)), text=text) for breadcrumb, text in chunks]


def policy_version_previous_ready(*, version: PolicyVersion) -> PolicyVersion | None:
    """The ready version numbered just below a ready `version`: what "Compare with previous
    version" compares it with (None for a version that is not ready, or the first ready one)."""
    if version.status != PolicyVersion.Status.READY:
        return None
    return (PolicyVersion.objects.filter(policy_id=version.policy_id, status=PolicyVersion.Status.READY,
                                         number__lt=version.number)
            .defer("headings", "headings_search").order_by("-number").first())


def policy_version_diff(*, user, policy_key: str, from_number: int | None = None,
                        to_number: int | None = None) -> PolicyVersionDiff | None:
    """The diff of two ready versions of the policy (None when the user may not compare versions,
    or the policy, or either version, does not exist or is not ready). `to` defaults to the latest
    ready version, `from` to the ready version before `to`."""
    if not may_compare_versions(user):
        return None
    policy = Policy.objects.filter(key=policy_key).first()
    if policy is None:
        return None
    ready = list(PolicyVersion.objects.filter(policy=policy, status=PolicyVersion.Status.READY)
                 .defer("headings", "headings_search").order_by("-number"))
    by_number = {v.number: v for v in ready}
    new = by_number.get(to_number) if to_number is not None else (ready[0] if ready else None)
    if new is None:
        return None
    if from_number is None:
        old = next((v for v in ready if v.number < new.number), None)
    else:
        old = by_number.get(from_number)
    if old is None:
        return None
    diff = version_diff(version_sections(version=old), version_sections(version=new))
    return PolicyVersionDiff(policy=policy, old=old, new=new, diff=diff, ready_versions=ready)


# --- the audit log ------------------------------------------------------------------------------
#
# Newest first, 50 a page: the page costs two queries whatever the table holds, its count and its
# rows (each row's policy joined). Every filter has an index that serves it in that order:
# (-at) alone and for dates, (actor_name, -at), (action, -at) and (policy, -at); the policy key is
# looked up once, in a subquery, so the planner reads only that policy's rows of the index.

AUDIT_PAGE_SIZE = 50
SYSTEM_ACTOR = "system"  # the actor_name of what commands and workers do (audit_event_record)


@dataclass(frozen=True)
class AuditFilters:
    """What the audit log shows; every field optional. Dates are local days, both included."""

    actor: str = ""  # a username, exactly (or "system")
    action: str = ""  # an AuditEvent.Action value
    policy: str = ""  # a policy key, exactly
    date_from: dt.date | None = None
    date_to: dt.date | None = None

    @property
    def any(self) -> bool:
        return self != AuditFilters()


def may_read_audit_log(user) -> bool:
    """Policy admins only, as every other page of the admin console (reviewers compare versions,
    which they see elsewhere already, but not who changed what)."""
    return is_policy_admin(user)


def _day_start(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


def audit_events_list(*, user, filters: AuditFilters) -> QuerySet[AuditEvent]:
    """The audit trail, newest first, filtered (nothing for a user who may not read it)."""
    if not may_read_audit_log(user):
        return AuditEvent.objects.none()
    events = AuditEvent.objects.select_related("policy").only(
        "at", "actor_name", "action", "target", "detail", "version", "policy", "policy__key", "policy__title",
    )
    if filters.actor:
        events = events.filter(actor_name=filters.actor)
    if filters.action:
        events = events.filter(action=filters.action)
    if filters.policy:
        events = events.filter(policy_id__in=Policy.objects.filter(key=filters.policy).values("pk"))
    if filters.date_from:
        events = events.filter(at__gte=_day_start(filters.date_from))
    if filters.date_to:
        events = events.filter(at__lt=_day_start(filters.date_to + dt.timedelta(days=1)))
    return events.order_by("-at", "-id")


def audit_actor_names() -> list[str]:
    """The names the actor filter suggests: every policy admin and superuser, and "system" (one
    query; the filter takes any other name too, such as a deleted account's)."""
    users = get_user_model().objects.filter(Q(is_superuser=True) | Q(groups__name=POLICY_ADMINS))
    names = users.order_by("username").values_list("username", flat=True).distinct()
    return [*names, SYSTEM_ACTOR]
