"""Writes on policies and versions: create, upload, publish, retire, retry."""
from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import Group
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from .models import Policy, PolicyVersion, SourceDocument


class PolicyInputError(ValueError):
    """Input that a policy admin must correct; the message says how."""


@dataclass(frozen=True)
class UploadedSource:
    name: str
    content: bytes


def policy_upsert(*, key: str, title: str, category: str = "", group_names: list[str] | None = None) -> Policy:
    """Create the policy or update its title, category and (when given) its access groups."""
    key = (key or "").strip()
    if not key:
        raise PolicyInputError("A policy key is required, for example 'travel'.")
    if not (title or "").strip():
        raise PolicyInputError("A policy title is required.")
    with transaction.atomic():
        policy, _ = Policy.objects.update_or_create(
            key=key, defaults={"title": title.strip(), **({"category": category} if category else {})}
        )
        if group_names is not None:
            groups = [Group.objects.get_or_create(name=name.strip())[0] for name in group_names if name.strip()]
            policy.groups.set(groups)
    return policy


def sources_from_paths(paths: list[str | Path]) -> list[UploadedSource]:
    sources = []
    for raw in paths:
        path = Path(raw)
        if not path.is_file():
            raise PolicyInputError(f"File not found: {path}")
        sources.append(UploadedSource(name=path.name, content=path.read_bytes()))
    return sources


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
        if not source.content:
            raise PolicyInputError(f"{source.name} is empty.")
        if len(source.content) > settings.POLICY_UPLOAD_MAX_BYTES:
            limit_mb = settings.POLICY_UPLOAD_MAX_BYTES // (1024 * 1024)
            raise PolicyInputError(f"{source.name} is larger than the {limit_mb} MB limit.")
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
        document = SourceDocument(
            version=version,
            ordinal=ordinal,
            original_name=source.name,
            checksum=hashlib.sha256(source.content).hexdigest(),
            size_bytes=len(source.content),
        )
        document.file.save(source.name, ContentFile(source.content), save=False)
        document.save()
    if enqueue:
        policy_version_enqueue(version=version)
    return version


def policy_version_enqueue(*, version: PolicyVersion) -> None:
    """Start the ingestion pipeline after the current transaction commits."""
    from .tasks import ingestion_pipeline

    version_id = version.pk
    transaction.on_commit(lambda: ingestion_pipeline(version_id).delay())


@transaction.atomic
def policy_version_retry(*, version: PolicyVersion) -> PolicyVersion:
    """Run a failed or stuck version's pipeline again; finished steps are skipped."""
    version = PolicyVersion.objects.select_for_update().get(pk=version.pk)
    if version.status == PolicyVersion.Status.READY:
        raise PolicyInputError("This version is already ready.")
    if version.status == PolicyVersion.Status.FAILED:
        version.sources.update(tree=None)
        version.status = PolicyVersion.Status.QUEUED
    version.error = ""
    version.progress_detail = "Queued again"
    version.save(update_fields=["status", "error", "progress_detail", "updated_at"])
    policy_version_enqueue(version=version)
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
        PolicyVersion.objects.exclude(status__in=[PolicyVersion.Status.READY, PolicyVersion.Status.FAILED])
    )
    for version in unfinished:
        policy_version_enqueue(version=version)
    return unfinished
