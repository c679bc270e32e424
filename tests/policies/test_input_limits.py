"""The INPUT_MAX_* settings reach the chunker: a file past a limit fails its version with the
reason (the limit and the value found) on the version, and leaves no chunks."""
from __future__ import annotations

import datetime as dt

import pytest

from policypal.policies.ingestion import version_ingest_inline
from policypal.policies.models import PolicyVersion
from policypal.policies.services import UploadedSource, policy_upsert, policy_version_create
from retrieval.models import Chunk

pytestmark = pytest.mark.django_db

RATES_CSV = (
    ",".join(["Grade"] + [f"City {c}" for c in range(1, 12)]) + "\n"
    + ",".join(["L1"] + [str(100 + c) for c in range(1, 12)]) + "\n"
).encode()


def test_a_table_wider_than_the_setting_fails_the_version_with_the_reason(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.INPUT_MAX_TABLE_COLUMNS = 10
    policy = policy_upsert(key="limits-rates", title="City rates", group_names=[])
    version = policy_version_create(
        policy=policy, sources=[UploadedSource(name="rates.csv", content=RATES_CSV)],
        effective_from=dt.date(2025, 1, 1), enqueue=False,
    )
    version = version_ingest_inline(version_id=version.pk)
    assert version.status == PolicyVersion.Status.FAILED
    assert version.error.startswith("rates.csv: ")
    assert "document has 12 columns in table 1; the limit is 10 columns." in version.error
    assert Chunk.objects.filter(version=version).count() == 0
