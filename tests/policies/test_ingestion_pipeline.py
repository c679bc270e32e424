"""The ingestion pipeline's steps: idempotent, all-or-nothing visibility, readable failures."""
import datetime as dt

import pytest

from policypal.policies.ingestion import version_chunk, version_convert, version_index, version_ingest_inline
from policypal.policies.models import PolicyVersion
from policypal.policies.services import UploadedSource, policy_upsert, policy_version_create
from retrieval.models import Chunk
from retrieval.search import chunk_search_hybrid

pytestmark = pytest.mark.django_db

POLICY_MD = b"""# Remote Work Policy

## 1 Working from home

### 1.1 Eligibility

Employees may work from home for up to three days a week once they have completed probation.

This does not apply to roles that need to be on site, such as warehouse and reception staff.

### 1.2 Equipment

The company provides a laptop and a monitor. A home office allowance of 4,000 INR per year covers a chair and a desk.
"""


def _new_version(name, content, *, key="remote", effective=dt.date(2025, 1, 1)):
    policy = policy_upsert(key=key, title="Remote Work Policy", group_names=[])
    return policy_version_create(
        policy=policy, sources=[UploadedSource(name=name, content=content)], effective_from=effective, enqueue=False
    )


def test_markdown_version_becomes_ready_and_published(employee):
    version = version_ingest_inline(version_id=_new_version("remote.md", POLICY_MD).pk)
    assert version.status == PolicyVersion.Status.READY and version.published and version.progress == 100
    chunks = Chunk.objects.filter(version=version)
    assert chunks.filter(level="document").count() == 1
    assert chunks.filter(searchable=True, embedding__isnull=True).count() == 0
    eligibility = chunks.get(level="block", text__contains="three days a week")
    assert "This does not apply" in eligibility.text  # the exception stays with its rule
    assert eligibility.breadcrumb == "Remote Work Policy > 1 Working from home > 1.1 Eligibility"
    assert eligibility.source.checksum and len(eligibility.source.checksum) == 64


def test_steps_are_idempotent(employee):
    version = _new_version("remote.md", POLICY_MD)
    version_convert(version_id=version.pk)
    version_convert(version_id=version.pk)
    version_chunk(version_id=version.pk)
    first = Chunk.objects.filter(version=version).count()
    PolicyVersion.objects.filter(pk=version.pk).update(status=PolicyVersion.Status.CHUNKING)  # a worker died after chunking
    version_chunk(version_id=version.pk)
    assert Chunk.objects.filter(version=version).count() == first  # replaced, not duplicated
    version_index(version_id=version.pk)
    version_index(version_id=version.pk)
    version.refresh_from_db()
    assert version.status == PolicyVersion.Status.READY
    assert Chunk.objects.filter(version=version).count() == first


def test_chunks_are_invisible_until_the_version_is_ready(employee):
    version = _new_version("remote.md", POLICY_MD)
    version_convert(version_id=version.pk)
    version_chunk(version_id=version.pk)
    question = "How many days a week can I work from home?"
    assert all(h.chunk.version_id != version.pk for h in chunk_search_hybrid(question=question, user=employee, k=10))
    version_index(version_id=version.pk)
    assert chunk_search_hybrid(question=question, user=employee, k=3)[0].chunk.version_id == version.pk


@pytest.mark.parametrize(
    "name, content, reason",
    [
        ("policy.docx", b"PK\x03\x04 this is not really a zip archive", "docx"),
        ("policy.pdf", b"%PDF-1.4\n%%EOF garbage", "pdf"),
        ("policy.exe", b"MZ\x90\x00\x03\x00\x00\x00\x04\x00binary", "not a supported format"),
    ],
)
def test_bad_files_fail_with_a_readable_reason_and_leave_nothing_behind(employee, name, content, reason):
    version = version_ingest_inline(version_id=_new_version(name, content).pk)
    assert version.status == PolicyVersion.Status.FAILED
    assert name in version.error and reason.lower() in version.error.lower()
    assert "Traceback" not in version.error
    assert not version.published
    assert Chunk.objects.filter(version=version).count() == 0


def test_empty_upload_is_refused_before_anything_is_stored():
    from policypal.policies.services import PolicyInputError

    with pytest.raises(PolicyInputError, match="empty"):
        _new_version("empty.md", b"")
    assert not PolicyVersion.objects.filter(policy__key="remote").exists()


def test_new_version_closes_the_previous_ones_dates(employee):
    first = version_ingest_inline(version_id=_new_version("remote.md", POLICY_MD).pk)
    second = version_ingest_inline(
        version_id=_new_version("remote.md", POLICY_MD.replace(b"three days", b"two days"), effective=dt.date(2026, 6, 1)).pk
    )
    first.refresh_from_db()
    assert first.effective_to == dt.date(2026, 6, 1) and second.effective_to is None


def test_unfinished_versions_are_queued_again_at_start(employee, django_capture_on_commit_callbacks):
    from policypal.policies.services import policy_versions_resume

    stuck = _new_version("remote.md", POLICY_MD)
    PolicyVersion.objects.filter(pk=stuck.pk).update(status=PolicyVersion.Status.CHUNKING)
    with django_capture_on_commit_callbacks() as callbacks:
        resumed = policy_versions_resume()
    assert [v.pk for v in resumed if v.policy.key == "remote"] == [stuck.pk]
    assert callbacks, "the pipeline is enqueued on commit"
    assert all(v.status not in ("ready", "failed") for v in resumed)
