"""Bulk actions of the policy list on a selection of policies: publish, retire, re-index, change
who may read them.

`bulk_plan` says what an action would do to each selected policy, or why it would leave it alone;
the confirm page shows it, and the service of the action (one transaction, the selected policies
locked first) plans again from the rows it locked and does exactly that, writing one AuditEvent
per version or policy it changed. What a policy admin confirmed is thus what happens, unless the
rows changed in between, in which case the outcome message says what was done.

Which versions an action takes, per policy:
- publish: the latest ready version, unless it is published already (a retired one is published
  again);
- retire: every published version (the policy stops answering questions);
- re-index: every ready version that is not retired (superseded ones answer questions about past
  dates); each stays ready and answers from its old chunks until the new ones, all embedded,
  replace them in one transaction;
- groups: none; the policy's groups are added to, removed from or replaced.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Prefetch

from .models import AuditEvent, Policy, PolicyVersion
from .pipeline import audience_indexes_sync_after_commit
from .roles import is_policy_admin
from .services import (
    audit_event_record,
    policy_version_publish,
    policy_version_reindex,
    policy_version_retire,
)

BULK_ACTIONS = {
    "publish": "Publish the latest ready version",
    "retire": "Retire every published version",
    "reindex": "Re-index (chunk and embed again)",
    "groups": "Change who may read them",
}
GROUP_MODES = {"add": "Add these groups", "remove": "Remove these groups", "set": "Replace the groups with these"}
# A selection "of every policy matching the filters" may hold at most this many.
BULK_MAX_POLICIES = 5000


@dataclass(frozen=True)
class GroupChange:
    mode: str  # a key of GROUP_MODES
    groups: tuple[Group, ...] = ()

    def applied_to(self, current: set[str]) -> set[str]:
        names = {g.name for g in self.groups}
        if self.mode == "add":
            return current | names
        if self.mode == "remove":
            return current - names
        return names


@dataclass(frozen=True)
class BulkItem:
    """What an action does to one policy: `change` in words, or `skip` (why nothing)."""

    policy: Policy
    versions: tuple[PolicyVersion, ...] = ()
    change: str = ""
    skip: str = ""
    groups_after: tuple[str, ...] = ()


@dataclass
class BulkOutcome:
    done: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (policy key, reason)


def bulk_policies(*, user, policy_ids: list[int], lock: bool = False) -> list[Policy]:
    """The selected policies with their versions (newest first) and groups: three queries."""
    if not is_policy_admin(user):
        return []
    versions = PolicyVersion.objects.order_by("-number").defer("headings", "headings_search")
    policies = Policy.objects.filter(pk__in=policy_ids)
    if lock:  # the policies' rows, in one order, so that two bulk actions never deadlock
        list(policies.select_for_update().order_by("pk").values_list("pk", flat=True))
    return list(policies.prefetch_related("groups", Prefetch("versions", queryset=versions)).order_by("title", "key"))


def _readers(names) -> str:
    return ", ".join(sorted(names)) if names else "everyone signed in"


def _numbers(versions) -> str:
    return ", ".join(f"v{v.number}" for v in versions)


def _plan_publish(policy: Policy, versions: list[PolicyVersion]) -> BulkItem:
    ready = next((v for v in versions if v.status == PolicyVersion.Status.READY), None)
    if ready is None:
        latest = versions[0] if versions else None
        why = f"no ready version (v{latest.number} is {latest.get_status_display().lower()})" if latest else "no versions"
        return BulkItem(policy, skip=why)
    if ready.published and ready.retired_at is None:
        return BulkItem(policy, skip=f"v{ready.number}, its latest ready version, is already published")
    when = f"{ready.effective_from.day} {ready.effective_from:%b %Y}"
    return BulkItem(policy, versions=(ready,), change=f"publish v{ready.number} (effective {when})")


def _plan_retire(policy: Policy, versions: list[PolicyVersion]) -> BulkItem:
    published = tuple(v for v in versions if v.published)
    if not published:
        return BulkItem(policy, skip="no published version")
    return BulkItem(policy, versions=published, change=f"retire {_numbers(published)}")


def _plan_reindex(policy: Policy, versions: list[PolicyVersion]) -> BulkItem:
    ready = tuple(v for v in versions if v.status == PolicyVersion.Status.READY and v.retired_at is None)
    if not ready:
        return BulkItem(policy, skip="no ready version that is not retired")
    return BulkItem(policy, versions=ready, change=f"re-index {_numbers(ready)}")


def _plan_groups(policy: Policy, change: GroupChange) -> BulkItem:
    before = {g.name for g in policy.groups.all()}
    after = change.applied_to(before)
    if after == before:
        return BulkItem(policy, skip=f"already readable by {_readers(before)}")
    return BulkItem(policy, change=f"readable by {_readers(after)} (was {_readers(before)})", groups_after=tuple(sorted(after)))


def bulk_plan(*, action: str, policies: list[Policy], group_change: GroupChange | None = None) -> list[BulkItem]:
    """What `action` does to each policy (from `bulk_policies`), in their order."""
    if action == "groups":
        if group_change is None:
            raise ValueError("changing groups needs a GroupChange")
        return [_plan_groups(p, group_change) for p in policies]
    planner: Callable = {"publish": _plan_publish, "retire": _plan_retire, "reindex": _plan_reindex}[action]
    return [planner(p, list(p.versions.all())) for p in policies]


def _require_admin(actor) -> None:
    if not is_policy_admin(actor):
        raise PermissionDenied("Only policy admins can change policies.")


def _apply(*, actor, action: str, policy_ids: list[int], group_change: GroupChange | None, act) -> BulkOutcome:
    """Plan on the locked rows, then `act(item)` for every item that changes something."""
    _require_admin(actor)
    outcome = BulkOutcome()
    policies = bulk_policies(user=actor, policy_ids=policy_ids, lock=True)
    for item in bulk_plan(action=action, policies=policies, group_change=group_change):
        if item.skip:
            outcome.skipped.append((item.policy.key, item.skip))
            continue
        act(item)
        outcome.done.append(f"{item.policy.key}: {item.change}")
    return outcome


def _version_target(version: PolicyVersion, policy: Policy) -> str:
    return f"{policy.key} v{version.number}"


def _each_version(*, actor, audit: str, service):
    """The act of a bulk action done version by version: the service, then one audit row."""

    def act(item: BulkItem) -> None:
        for version in item.versions:
            service(version=version)
            audit_event_record(actor=actor, action=audit, target=_version_target(version, item.policy),
                               policy=item.policy, version=version, detail=f"bulk action: {item.change}")

    return act


@transaction.atomic
def policies_publish(*, actor, policy_ids: list[int]) -> BulkOutcome:
    """Publish the latest ready version of each policy."""
    act = _each_version(actor=actor, audit=AuditEvent.Action.PUBLISH, service=policy_version_publish)
    return _apply(actor=actor, action="publish", policy_ids=policy_ids, group_change=None, act=act)


@transaction.atomic
def policies_retire(*, actor, policy_ids: list[int]) -> BulkOutcome:
    """Retire every published version of each policy: none of them answers questions any more."""
    act = _each_version(actor=actor, audit=AuditEvent.Action.RETIRE, service=policy_version_retire)
    return _apply(actor=actor, action="retire", policy_ids=policy_ids, group_change=None, act=act)


@transaction.atomic
def policies_reindex(*, actor, policy_ids: list[int]) -> BulkOutcome:
    """Queue a re-index of every ready, unretired version of each policy (the workers start when
    this transaction commits); the versions stay ready and answering meanwhile."""
    act = _each_version(actor=actor, audit=AuditEvent.Action.REINDEX, service=policy_version_reindex)
    return _apply(actor=actor, action="reindex", policy_ids=policy_ids, group_change=None, act=act)


@transaction.atomic
def policies_groups_change(*, actor, policy_ids: list[int], change: GroupChange) -> BulkOutcome:
    """Add, remove or replace the groups that may read each policy (takes effect at once: access
    is checked against the policy's groups at every question). When any policy changed, the
    audience index sync is queued once, after the commit."""
    by_name = {g.name: g for g in change.groups}

    def act(item: BulkItem) -> None:
        current = {g.name: g for g in item.policy.groups.all()}
        item.policy.groups.set([by_name.get(name) or current[name] for name in item.groups_after])
        audit_event_record(actor=actor, action=AuditEvent.Action.GROUPS, target=item.policy.key, policy=item.policy,
                           detail=f"bulk action: {item.change}")

    outcome = _apply(actor=actor, action="groups", policy_ids=policy_ids, group_change=change, act=act)
    if outcome.done:
        audience_indexes_sync_after_commit()
    return outcome
