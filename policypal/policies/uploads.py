"""The admin upload as one write: the policy (created or updated) and its new version together,
so a rejected file never leaves a half-created policy behind."""
from __future__ import annotations

import datetime as dt

from django.db import transaction

from .models import Policy, PolicyVersion
from .services import UploadedSource, policy_upsert, policy_version_create


@transaction.atomic
def policy_upload(
    *,
    key: str,
    title: str,
    category: str = "",
    group_names: list[str] | None,
    sources: list[UploadedSource],
    effective_from: dt.date,
    created_by=None,
    publish_when_ready: bool = True,
    note: str = "",
) -> PolicyVersion:
    policy: Policy = policy_upsert(key=key, title=title, category=category, group_names=group_names)
    return policy_version_create(
        policy=policy,
        sources=sources,
        effective_from=effective_from,
        created_by=created_by,
        publish_when_ready=publish_when_ready,
        note=note,
    )
