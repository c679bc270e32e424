"""A re-index whose Celery message was lost (a worker killed, the broker flushed) does not stay
"re-indexing" forever: after REINDEX_STALE_SECONDS without a sign of life it is queued again (a
real message in the real Redis queue), at most REINDEX_MAX_REQUEUES times, then cleared with its
reason shown; the old index answers throughout. The recovery runs when a worker starts (a real
worker process below), from the beat schedule, from the version page's button, or by asking for
the re-index again."""
from __future__ import annotations

import base64
import datetime as dt
import json
import time
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.utils import timezone

from policypal.celery import app
from policypal.policies.ingestion import version_ingest_inline, version_reindex
from policypal.policies.models import AuditEvent, PolicyVersion
from policypal.policies.pipeline import REINDEX_RECOVER_TASK, REINDEX_TASK, VERSION_LOCK_NAMESPACE
from policypal.policies.services import (
    UploadedSource,
    policy_upsert,
    policy_version_create,
    policy_version_reindex,
    policy_version_reindex_recover,
    policy_version_retire,
    policy_versions_reindex_recover,
)
from retrieval.models import Chunk

Status = PolicyVersion.Status
REPO = Path(__file__).resolve().parents[2]
POLICY_MD = b"""# Remote Work Policy

## 1 Working from home

Employees may work from home for up to three days a week once they have completed probation.
Managers agree the days in advance and record them in the team calendar each month.

## 2 Equipment

The company provides a laptop and a monitor for every employee who works from home.
"""


@pytest.fixture(autouse=True)
def media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


# housekeeping queued whenever a version finishes indexing (a large audience may want its own
# index, see retrieval/audience_indexes.py): not a message of the pipeline these tests follow
AUDIENCE_SYNC_TASK = "retrieval.audience_indexes_sync"


def _messages(queue) -> list[tuple[str, list]]:
    """The (task name, args) of every pipeline message waiting in the queue."""
    client, name = queue
    found = []
    for raw in client.lrange(name, 0, -1):
        message = json.loads(raw)
        body = json.loads(base64.b64decode(message["body"]))
        if message["headers"]["task"] != AUDIENCE_SYNC_TASK:
            found.append((message["headers"]["task"], body[0]))
    return found


def _ready_version(key: str = "recover-remote") -> PolicyVersion:
    policy = policy_upsert(key=key, title="Remote Work Policy", group_names=[])
    version = policy_version_create(policy=policy, sources=[UploadedSource(name="remote.md", content=POLICY_MD)],
                                    effective_from=dt.date(2025, 1, 1), enqueue=False)
    version = version_ingest_inline(version_id=version.pk)
    assert version.status == Status.READY
    return version


def _lost_reindex(version: PolicyVersion, django_capture_on_commit_callbacks, *, age: dt.timedelta) -> PolicyVersion:
    """Ask for a re-index whose message never reaches the broker, `age` ago."""
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        policy_version_reindex(version=version)
    assert len(callbacks) == 1  # the message, dropped: never sent
    then = timezone.now() - age
    PolicyVersion.objects.filter(pk=version.pk).update(reindex_requested_at=then, reindex_queued_at=then, heartbeat_at=then)
    return PolicyVersion.objects.get(pk=version.pk)


def _chunk_ids(version) -> set[int]:
    return set(Chunk.objects.filter(version=version).values_list("pk", flat=True))


@pytest.mark.django_db
def test_a_lost_message_is_queued_again_once_and_the_reindex_then_finishes(
        broker_queue, django_capture_on_commit_callbacks, client, make_policy_admin):
    version = _ready_version()
    old = _chunk_ids(version)
    version = _lost_reindex(version, django_capture_on_commit_callbacks, age=dt.timedelta(hours=2))
    assert version.is_reindexing and _messages(broker_queue) == []

    # The version page says so and offers to queue it again.
    client.force_login(make_policy_admin("recover-admin"))
    page = client.get(f"/manage/versions/{version.pk}/").content.decode()
    assert 'id="version-reindex-stale"' in page and "No worker has shown progress on this re-index for 2 hours" in page
    assert 'id="action-reindex-again"' in page

    with django_capture_on_commit_callbacks(execute=True):
        assert policy_versions_reindex_recover() == {version.pk: "requeued"}
    assert _messages(broker_queue) == [(REINDEX_TASK, [version.pk])]  # a real message, in the real queue
    version.refresh_from_db()
    assert version.is_reindexing and version.reindex_requeues == 1 and version.reindex_progress == 0
    assert version.reindex_detail.startswith("Queued again (1 of 3): no worker had shown progress for 2 hours")
    event = AuditEvent.objects.get(version=version, action=AuditEvent.Action.REINDEX_RECOVER)
    assert event.actor_name == "system" and event.detail == version.reindex_detail
    assert 'id="version-reindex-stale"' not in client.get(f"/manage/versions/{version.pk}/").content.decode()

    # Idempotent: the requeue restarted the clock, so nothing more is sent, however often it runs.
    with django_capture_on_commit_callbacks(execute=True):
        assert policy_versions_reindex_recover() == {}
        assert policy_version_reindex_recover(version_id=version.pk) == ""
    assert len(_messages(broker_queue)) == 1

    version_reindex(version_id=version.pk)  # what the worker does with that message
    version.refresh_from_db()
    assert not version.is_reindexing and version.status == Status.READY and "Re-indexed" in version.reindex_detail
    assert _chunk_ids(version) and not (_chunk_ids(version) & old)
    version_reindex(version_id=version.pk)  # and the duplicate a redelivery may bring: nothing pending, no change


@pytest.mark.django_db
def test_after_the_last_requeue_the_request_is_cleared_and_the_old_index_kept(
        django_capture_on_commit_callbacks, settings):
    settings.REINDEX_MAX_REQUEUES = 2
    version = _ready_version()
    old = _chunk_ids(version)
    version = _lost_reindex(version, django_capture_on_commit_callbacks, age=dt.timedelta(hours=1))
    PolicyVersion.objects.filter(pk=version.pk).update(reindex_requeues=2)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert policy_version_reindex_recover(version_id=version.pk) == "cleared"
    assert callbacks == []  # nothing sent
    version.refresh_from_db()
    assert not version.is_reindexing and version.status == Status.READY and version.published
    assert version.reindex_detail.startswith("Re-index stopped: no worker showed progress in 3 tries")
    assert "still answering from the previous index" in version.reindex_detail
    assert _chunk_ids(version) == old
    assert policy_version_reindex_recover(version_id=version.pk) == ""  # nothing pending any more


@pytest.mark.django_db
def test_a_live_or_recent_reindex_is_left_alone(django_capture_on_commit_callbacks, settings):
    version = _ready_version()
    version = _lost_reindex(version, django_capture_on_commit_callbacks, age=dt.timedelta(minutes=5))
    assert policy_versions_reindex_recover() == {}  # younger than REINDEX_STALE_SECONDS (15 minutes)
    settings.REINDEX_STALE_SECONDS = 60
    PolicyVersion.objects.filter(pk=version.pk).update(heartbeat_at=timezone.now())  # a worker's heartbeat
    assert policy_versions_reindex_recover() == {}
    PolicyVersion.objects.filter(pk=version.pk).update(heartbeat_at=timezone.now() - dt.timedelta(hours=1))
    with connection.cursor() as cursor:  # a worker holds the version (its heartbeat late, but it is there)
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", [VERSION_LOCK_NAMESPACE, version.pk])
    try:
        assert policy_versions_reindex_recover() == {}
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [VERSION_LOCK_NAMESPACE, version.pk])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert policy_versions_reindex_recover() == {version.pk: "requeued"}
    assert len(callbacks) == 1


@pytest.mark.django_db
def test_a_stale_reindex_of_a_retired_version_is_dropped(django_capture_on_commit_callbacks):
    version = _ready_version()
    version = _lost_reindex(version, django_capture_on_commit_callbacks, age=dt.timedelta(hours=1))
    policy_version_retire(version=version)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert policy_versions_reindex_recover() == {version.pk: "cleared"}
    assert callbacks == []
    version.refresh_from_db()
    assert not version.is_reindexing and version.reindex_detail.startswith("Re-index dropped")


@pytest.mark.django_db
def test_asking_again_requeues_a_stale_reindex_only(client, make_policy_admin, django_capture_on_commit_callbacks):
    admin = make_policy_admin("recover-asker")
    client.force_login(admin)
    version = _ready_version()
    version = _lost_reindex(version, django_capture_on_commit_callbacks, age=dt.timedelta(minutes=2))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:  # pending and recent: nothing more
        response = client.post(f"/manage/versions/{version.pk}/reindex/", follow=True)
    assert callbacks == [] and "is already queued" in response.content.decode()
    PolicyVersion.objects.filter(pk=version.pk).update(
        reindex_requested_at=timezone.now() - dt.timedelta(hours=3), reindex_queued_at=timezone.now() - dt.timedelta(hours=3),
        heartbeat_at=timezone.now() - dt.timedelta(hours=3), reindex_requeues=3)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:  # stale: queued again, counting anew
        response = client.post(f"/manage/versions/{version.pk}/reindex/", follow=True)
    assert len(callbacks) == 1 and "Queued the re-index of version 1 again" in response.content.decode()
    version.refresh_from_db()
    assert version.is_reindexing and version.reindex_requeues == 0
    assert version.reindex_detail == "Queued for re-indexing again (the earlier request had shown no progress for 3 hours)"
    assert AuditEvent.objects.filter(version=version, action="reindex", actor_name="recover-asker").count() == 1
    with django_capture_on_commit_callbacks(execute=False) as callbacks:  # the bulk action the same
        client.post("/manage/bulk/", {"ids": [version.policy_id], "action": "reindex", "confirm": "yes"})
    assert callbacks == []
    response = client.post("/manage/versions/999999/reindex/")
    assert response.status_code == 404


@pytest.mark.django_db
def test_the_command_recovers_for_a_cron_job(django_capture_on_commit_callbacks):
    from io import StringIO

    from django.core.management import call_command

    version = _ready_version()
    _lost_reindex(version, django_capture_on_commit_callbacks, age=dt.timedelta(hours=5))
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        call_command("reindex", "--recover-stale", stdout=out)
    assert len(callbacks) == 1
    assert out.getvalue().splitlines() == [
        "recover-remote v1: Queued again (1 of 3): no worker had shown progress for 5 hours; its message was probably lost",
        "Queued again: 1; cleared: 0."]
    out = StringIO()
    call_command("reindex", "--recover-stale", stdout=out)
    assert out.getvalue() == "Queued again: 0; cleared: 0.\n"


def test_the_recovery_settings_and_schedule_are_spelled_right():
    assert django_settings.REINDEX_STALE_SECONDS == 900 and django_settings.REINDEX_MAX_REQUEUES == 3
    schedule = django_settings.CELERY_BEAT_SCHEDULE["reindex-recover-stale"]
    assert schedule["task"] == REINDEX_RECOVER_TASK and schedule["schedule"] == 300
    assert app.conf.beat_schedule["reindex-recover-stale"]["task"] == REINDEX_RECOVER_TASK
    import policypal.policies.tasks  # noqa: F401 - registers the tasks, as a worker does

    assert REINDEX_RECOVER_TASK in app.tasks and REINDEX_TASK in app.tasks
    readme, example = (REPO / "README.md").read_text(), (REPO / ".env.example").read_text()
    for name in ("REINDEX_STALE_SECONDS", "REINDEX_MAX_REQUEUES"):
        assert f"`{name}`" in readme and f"# {name}=" in example, name


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_a_worker_that_starts_requeues_the_lost_reindex_and_runs_it(request, broker_queue, settings):
    """The whole story with a real worker process: the message was lost before the worker
    started; the worker, starting, finds the stale re-index, queues it again, takes it and
    swaps the chunks."""
    from policypal.policies.models import Policy

    Policy.objects.all().delete()  # (the database is emptied after this test in any case)
    version = _ready_version("recover-worker")
    old = _chunk_ids(version)
    policy_version_reindex(version=version, enqueue=False)  # pending, and no message anywhere
    then = timezone.now() - dt.timedelta(hours=1)
    PolicyVersion.objects.filter(pk=version.pk).update(reindex_requested_at=then, reindex_queued_at=then, heartbeat_at=then)
    assert _messages(broker_queue) == []
    request.getfixturevalue("celery_worker_process")
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        version.refresh_from_db()
        if not version.is_reindexing:
            break
        time.sleep(0.5)
    assert not version.is_reindexing, version.reindex_detail
    assert "Re-indexed" in version.reindex_detail and version.status == Status.READY
    assert _chunk_ids(version) and not (_chunk_ids(version) & old)
    event = AuditEvent.objects.get(version=version, action=AuditEvent.Action.REINDEX_RECOVER)
    assert event.detail.startswith("Queued again (1 of 3): no worker had shown progress for 60 minutes")
