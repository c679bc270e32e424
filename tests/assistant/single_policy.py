"""A corpus of one small policy, ingested inline on the real pipeline (conversion, chunking,
embedding, index) inside the test's transaction: for answer tests that need the real search."""
from __future__ import annotations

import datetime as dt

from policypal.policies.ingestion import version_ingest_inline
from policypal.policies.models import Policy, PolicyVersion
from policypal.policies.services import UploadedSource, policy_upsert, policy_version_create


def only_policy(*, key: str, title: str, name: str, content: bytes, effective_from: dt.date = dt.date(2026, 1, 1)):
    """Delete every other policy and ingest this one; returns its ready version."""
    Policy.objects.all().delete()
    return another_policy(key=key, title=title, name=name, content=content, effective_from=effective_from)


def another_policy(*, key: str, title: str, name: str, content: bytes, effective_from: dt.date = dt.date(2026, 1, 1)):
    """Ingest this policy beside the ones there are; returns its ready version."""
    policy = policy_upsert(key=key, title=title, group_names=[])
    version = policy_version_create(policy=policy, sources=[UploadedSource(name=name, content=content)],
                                    effective_from=effective_from, enqueue=False)
    version = version_ingest_inline(version_id=version.pk)
    assert version.status == PolicyVersion.Status.READY, version.error
    return version
