"""Re-indexing a ready version (after a chunking or embedding change): it stays ready and answers
from its old chunks while the new ones are computed, then the new chunks, all embedded, replace
the old ones in one transaction."""
from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

import retrieval.services
from policypal.policies import ingestion
from policypal.policies.ingestion import version_ingest_inline, version_reindex
from policypal.policies.models import AuditEvent, PolicyVersion
from policypal.policies.roles import POLICY_ADMINS
from policypal.policies.services import UploadedSource, policy_upsert, policy_version_create, policy_version_reindex
from retrieval.models import Chunk
from retrieval.search import chunk_search_hybrid

pytestmark = pytest.mark.django_db
Status = PolicyVersion.Status
QUESTION = "How many days a week can I work from home?"

PARAGRAPHS = [
    "Employees may work from home for up to three days a week once they have completed probation.",
    "Managers agree the days in advance and record them in the team calendar each month.",
    "Staff working from home must be reachable by phone and chat during their core hours.",
    "The company provides a laptop and a monitor for every employee who works from home.",
    "A home office allowance of 4,000 INR per year covers a chair, a desk and a lamp.",
    "Confidential papers are never printed at home; use the secure office printers instead.",
    "Roles that need to be on site, such as warehouse and reception staff, are not eligible.",
    "Requests to work from abroad go to the People team at least one month before travel.",
]
POLICY_MD = ("# Remote Work Policy\n\n## 1 Working from home\n\n" + "\n\n".join(p + " " + p for p in PARAGRAPHS) + "\n").encode()


@pytest.fixture(autouse=True)
def media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def ready_version(employee):
    policy = policy_upsert(key="reindex-remote", title="Remote Work Policy", group_names=[])
    version = policy_version_create(policy=policy, sources=[UploadedSource(name="remote.md", content=POLICY_MD)],
                                    effective_from=dt.date(2025, 1, 1), enqueue=False)
    version = version_ingest_inline(version_id=version.pk)
    assert version.status == Status.READY and version.published
    return version


def _chunk_ids(version) -> set[int]:
    return set(Chunk.objects.filter(version=version).values_list("pk", flat=True))


def _found(version, employee) -> set[int]:
    return {h.chunk.pk for h in chunk_search_hybrid(question=QUESTION, user=employee, k=10) if h.chunk.version_id == version.pk}


def test_the_version_answers_from_its_old_chunks_until_the_new_ones_replace_them(ready_version, employee, monkeypatch):
    old = _chunk_ids(ready_version)
    assert _found(ready_version, employee)
    policy_version_reindex(version=ready_version, enqueue=False)
    seen = {}
    compute = retrieval.services.chunk_vectors_compute

    def compute_then_look(*args, **kwargs):  # between computing the new index and the swap
        vectors = compute(*args, **kwargs)
        version = PolicyVersion.objects.get(pk=ready_version.pk)
        seen.update(status=version.status, pending=version.is_reindexing, progress=version.reindex_progress,
                    found=_found(version, employee), chunks=_chunk_ids(version))
        return vectors

    monkeypatch.setattr(retrieval.services, "chunk_vectors_compute", compute_then_look)
    version_reindex(version_id=ready_version.pk)
    assert seen["status"] == Status.READY and seen["pending"] and seen["progress"] >= 90
    assert seen["chunks"] == old and seen["found"] and seen["found"] <= old  # the old index still answers
    version = PolicyVersion.objects.get(pk=ready_version.pk)
    new = _chunk_ids(version)
    assert new and not (new & old)
    assert (version.status, version.progress, version.published, version.reindex_requested_at) == (Status.READY, 100, True, None)
    assert version.reindex_progress == 100 and "Re-indexed" in version.reindex_detail
    assert Chunk.objects.filter(version=version, searchable=True, embedding__isnull=True).count() == 0
    assert _found(version, employee) and _found(version, employee) <= new
    version_reindex(version_id=version.pk)  # run twice (a redelivered message): nothing pending, nothing changes
    assert _chunk_ids(version) == new


def test_a_failed_swap_leaves_the_old_chunks_answering(ready_version, employee, monkeypatch):
    old = _chunk_ids(ready_version)
    policy_version_reindex(version=ready_version, enqueue=False)

    def broken(**kwargs):  # inside the swap's transaction, after the old chunks were deleted
        raise RuntimeError("disk full")

    monkeypatch.setattr(ingestion, "version_headings_store", broken)
    version_reindex(version_id=ready_version.pk)
    version = PolicyVersion.objects.get(pk=ready_version.pk)
    assert _chunk_ids(version) == old and _found(version, employee)
    assert version.status == Status.READY and not version.is_reindexing
    assert "Re-index failed" in version.reindex_detail and "disk full" in version.reindex_detail


def test_the_new_chunks_follow_a_changed_chunking_setting(ready_version, settings):
    def block_sizes(version):
        return sorted(Chunk.objects.filter(version=version, level="block").values_list("token_count", flat=True))

    before = block_sizes(ready_version)
    settings.CHUNK_TARGET_TOKENS = 48
    policy_version_reindex(version=ready_version, enqueue=False)
    version_reindex(version_id=ready_version.pk)
    after = block_sizes(ready_version)
    assert len(after) > len(before) and max(after) < max(before)
    assert max(after) <= 2 * 48  # a block is split near the target (a sentence may overrun it a little)


def test_reindex_command_reindexes_and_prints_progress(ready_version):
    old = _chunk_ids(ready_version)
    out = StringIO()
    call_command("reindex", "--policy", "reindex-remote", stdout=out)
    text = out.getvalue()
    assert "[1/1] reindex-remote v1: re-indexing (answering from the previous index meanwhile)" in text
    assert "chunks" in text and "Re-indexed 1 of 1 versions." in text
    version = PolicyVersion.objects.get(pk=ready_version.pk)
    assert _chunk_ids(version) and not (_chunk_ids(version) & old) and not version.is_reindexing
    event = AuditEvent.objects.get(version=version)
    assert (event.action, event.actor_name, event.detail) == ("reindex", "system", "manage.py reindex")
    with pytest.raises(CommandError):
        call_command("reindex", stdout=StringIO())  # --all or --policy is required
    with pytest.raises(CommandError, match="No policy"):
        call_command("reindex", "--policy", "no-such-policy", stdout=StringIO())


def test_reindex_all_takes_every_ready_unretired_version(ready_version):
    from policypal.policies.models import Policy

    Policy.objects.exclude(pk=ready_version.policy_id).delete()  # (rolled back with the test)
    other = policy_upsert(key="reindex-other", title="Other", group_names=[])
    PolicyVersion.objects.create(policy=other, number=1, effective_from=dt.date(2025, 1, 1), status=Status.FAILED)
    out = StringIO()
    call_command("reindex", "--all", stdout=out)
    assert "Re-indexed 1 of 1 versions." in out.getvalue() and "reindex-other" not in out.getvalue()
    assert not PolicyVersion.objects.filter(reindex_requested_at__isnull=False).exists()


def test_bulk_reindex_keeps_the_version_in_service(ready_version, employee, client, django_user_model,
                                                   django_capture_on_commit_callbacks):
    admin = django_user_model.objects.create_user("reindex-admin", password="pw-admin-123")
    admin.groups.add(Group.objects.get_or_create(name=POLICY_ADMINS)[0])
    client.force_login(admin)
    old = _chunk_ids(ready_version)
    confirm = client.post("/manage/bulk/", {"ids": [ready_version.policy_id], "action": "reindex"}).content.decode()
    assert "keeps answering from its previous index" in confirm and "answers no questions" not in confirm
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post("/manage/bulk/", {"ids": [ready_version.policy_id], "action": "reindex", "confirm": "yes"})
    assert response.status_code == 302 and len(callbacks) == 1  # the re-index message, sent on commit
    version = PolicyVersion.objects.get(pk=ready_version.pk)
    assert (version.status, version.progress, version.published) == (Status.READY, 100, True)
    assert version.is_reindexing and _chunk_ids(version) == old and _found(version, employee)
    page = client.get(f"/manage/versions/{version.pk}/").content.decode()
    assert "Re-indexing, answering from the previous index" in page and 'id="version-reindexing"' in page
    partial = client.get(f"/manage/versions/{version.pk}/?partial=progress", HTTP_HX_REQUEST="true")
    assert partial.status_code == 200 and "version-reindexing" in partial.content.decode()  # polls, no reload
    version_reindex(version_id=version.pk)  # what the worker does with the message
    version.refresh_from_db()
    assert not version.is_reindexing and _chunk_ids(version) and not (_chunk_ids(version) & old)
    assert "1 Working from home" in version.headings


def test_a_version_retired_during_the_reindex_is_left_as_it_was(ready_version, monkeypatch):
    from policypal.policies.services import policy_version_retire

    old = _chunk_ids(ready_version)
    policy_version_reindex(version=ready_version, enqueue=False)
    compute = retrieval.services.chunk_vectors_compute

    def compute_then_retire(*args, **kwargs):
        vectors = compute(*args, **kwargs)
        policy_version_retire(version=ready_version)
        return vectors

    monkeypatch.setattr(retrieval.services, "chunk_vectors_compute", compute_then_retire)
    version_reindex(version_id=ready_version.pk)
    version = PolicyVersion.objects.get(pk=ready_version.pk)
    assert _chunk_ids(version) == old and not version.is_reindexing and "dropped" in version.reindex_detail
