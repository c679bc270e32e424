"""Progress that never misleads: it never goes down across a restarted step, a silent worker is
shown as stopped (and only then offered Retry), a version can be cancelled from its page or the
command line without leaving chunks behind, and conversion runs under a time and memory limit.

Everything runs on the real pipeline, database and model. Two PostgreSQL triggers, created inside
the test's transaction, observe what the pipeline writes (every stored progress value) and stand
in for an admin's click at an exact moment (cancel right after the first embedding batch)."""
from __future__ import annotations

import datetime as dt
import io
import multiprocessing
import time

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from chunking import errors
from chunking.errors import ConversionError
from policypal.policies.conversion import ConversionLimits, convert_in_child, failure_result
from policypal.policies.ingestion import version_chunk, version_convert, version_index, version_ingest_inline
from policypal.policies.models import PolicyVersion
from policypal.policies.services import UploadedSource, policy_upsert, policy_version_create
from retrieval.models import Chunk
from tests.conftest import OUTPUT

pytestmark = pytest.mark.django_db
Status = PolicyVersion.Status

POLICY_MD = b"""# Remote Work Policy

## 1 Working from home

### 1.1 Eligibility

Employees may work from home for up to three days a week once they have completed probation.

This does not apply to roles that need to be on site, such as warehouse and reception staff.

### 1.2 Equipment

The company provides a laptop and a monitor. A home office allowance of 4,000 INR per year covers a chair and a desk.
"""


@pytest.fixture(autouse=True)
def media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def policy_admin(make_policy_admin):
    return make_policy_admin("progress-admin")


@pytest.fixture
def admin_client(client, policy_admin):
    client.force_login(policy_admin)
    return client


def new_version(content: bytes = POLICY_MD, name: str = "remote.md") -> PolicyVersion:
    policy = policy_upsert(key="progress-remote", title="Remote Work Policy", group_names=[])
    return policy_version_create(
        policy=policy, sources=[UploadedSource(name=name, content=content)], effective_from=dt.date(2025, 1, 1),
        enqueue=False,
    )


def version_in(status: str, **fields) -> PolicyVersion:
    """A version row in a given state, as a worker would have left it (no files, no pipeline)."""
    policy = policy_upsert(key="progress-travel", title="Travel Policy", group_names=[])
    updated_at = fields.pop("updated_at", None)
    created_at = fields.pop("created_at", None)
    version = PolicyVersion.objects.create(
        policy=policy, number=policy.versions.count() + 1, effective_from=dt.date(2025, 1, 1), status=status, **fields
    )
    extra = {k: v for k, v in {"updated_at": updated_at, "created_at": created_at}.items() if v}
    if extra:  # auto_now fields: only a queryset update sets them
        PolicyVersion.objects.filter(pk=version.pk).update(**extra)
    return version


@pytest.fixture
def stored_progress():
    """Every progress value stored on a version, in order (a trigger logs each row update)."""
    with connection.cursor() as cursor:
        cursor.execute("""
            CREATE TABLE test_progress_log (seq serial PRIMARY KEY, version_id int, progress int);
            CREATE FUNCTION test_progress_log() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              INSERT INTO test_progress_log (version_id, progress) VALUES (NEW.id, NEW.progress);
              RETURN NEW;
            END $$;
            CREATE TRIGGER test_progress_log AFTER UPDATE ON policies_policyversion
              FOR EACH ROW EXECUTE FUNCTION test_progress_log();
        """)

    def read(version_id: int) -> list[int]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT progress FROM test_progress_log WHERE version_id = %s ORDER BY seq", [version_id])
            return [row[0] for row in cursor.fetchall()]

    return read


# --- progress never goes backwards ------------------------------------------------------------

def test_progress_never_decreases_when_a_worker_restarts_a_step(stored_progress):
    version = new_version()
    version_convert(version_id=version.pk)
    version_chunk(version_id=version.pk)
    # A worker embedding this version showed 80 % and was killed: its step is still recorded as
    # running, its heartbeat stopped. Another worker (redelivered task, or Retry) takes over.
    PolicyVersion.objects.filter(pk=version.pk).update(
        progress=80, progress_detail="Embedded 6 of 8 chunks", running_step="indexing",
        heartbeat_at=timezone.now() - dt.timedelta(minutes=5),
    )
    before = len(stored_progress(version.pk))
    version_index(version_id=version.pk)

    shown = stored_progress(version.pk)[before:]
    assert shown, "the restarted step reports progress"
    assert shown == sorted(shown) and min(shown) >= 80, f"progress went backwards: {shown}"
    version.refresh_from_db()
    assert version.status == Status.READY and version.progress == 100
    assert version.restarted_at is not None and version.running_step == ""


def test_an_uninterrupted_run_is_not_marked_restarted(stored_progress):
    version = version_ingest_inline(version_id=new_version().pk)
    shown = stored_progress(version.pk)
    assert version.status == Status.READY and version.restarted_at is None
    assert shown == sorted(shown) and shown[-1] == 100
    assert version.heartbeat_at is not None and version.running_step == ""


def test_the_page_says_restarted_instead_of_starting_over(admin_client):
    now = timezone.now()
    version = version_in(Status.INDEXING, progress=80, progress_detail="Embedded 1 of 8 chunks",
                         running_step="indexing", heartbeat_at=now, restarted_at=now)
    html = admin_client.get(f"/manage/versions/{version.pk}/").content.decode()
    assert 'id="version-progress-value">80%<' in html
    assert 'id="version-restarted"' in html and "Restarted after a worker stopped" in html
    assert 'id="action-retry"' not in html  # the new worker is alive


# --- heartbeats: stopped versus slow ----------------------------------------------------------

def test_a_stale_heartbeat_shows_stopped_and_offers_retry(admin_client):
    long_ago = timezone.now() - dt.timedelta(minutes=5)
    version = version_in(Status.CHUNKING, progress=40, running_step="chunking", heartbeat_at=long_ago,
                         updated_at=long_ago)
    html = admin_client.get(f"/manage/versions/{version.pk}/").content.decode()
    assert 'id="version-status" class="badge badge--large badge--stopped"' in html
    assert "Stopped: the worker stopped responding" in html
    assert 'id="action-retry"' in html and 'id="action-cancel"' in html
    assert 'badge--stopped" title="the worker stopped responding">stopped<' in admin_client.get("/manage/").content.decode()

    response = admin_client.post(f"/manage/versions/{version.pk}/retry/", follow=True)
    assert "is queued again" in response.content.decode()


def test_a_fresh_heartbeat_on_a_long_job_shows_working_without_retry(admin_client, settings):
    settings.INGEST_HEARTBEAT_STALE_SECONDS = 60
    now = timezone.now()
    version = version_in(Status.INDEXING, progress=60, running_step="indexing",
                         heartbeat_at=now - dt.timedelta(seconds=5), created_at=now - dt.timedelta(hours=2))
    html = admin_client.get(f"/manage/versions/{version.pk}/").content.decode()
    assert 'badge--large badge--indexing">indexing<' in html
    assert "stopped responding" not in html
    assert 'id="action-retry"' not in html and 'id="action-cancel"' in html
    response = admin_client.post(f"/manage/versions/{version.pk}/retry/", follow=True)
    assert "still being processed" in response.content.decode()

    # The poll swaps the progress card in place while the actions stay the same; once the
    # heartbeat goes quiet (Retry now offered) it reloads the whole page.
    url = f"/manage/versions/{version.pk}/?partial=progress&actions=none"
    live = admin_client.get(url, HTTP_HX_REQUEST="true")
    assert "HX-Refresh" not in live.headers and "actions=none" in live.content.decode()
    PolicyVersion.objects.filter(pk=version.pk).update(heartbeat_at=now - dt.timedelta(seconds=90))
    assert admin_client.get(url, HTTP_HX_REQUEST="true").headers.get("HX-Refresh") == "true"


# --- cancel -----------------------------------------------------------------------------------

def test_cancel_from_the_page_stops_the_version_and_leaves_no_chunks(admin_client, policy_admin):
    version = new_version()
    version_convert(version_id=version.pk)
    version_chunk(version_id=version.pk)
    assert Chunk.objects.filter(version=version).exists()  # half-way: chunked, not embedded
    url = f"/manage/versions/{version.pk}/cancel/"

    html = admin_client.get(f"/manage/versions/{version.pk}/").content.decode()
    assert 'id="cancel-confirm"' in html and f'action="{url}"' in html and 'name="confirm" value="yes"' in html
    assert admin_client.get(url).status_code == 405
    admin_client.post(url)  # without the confirmation button: nothing happens
    version.refresh_from_db()
    assert version.status == Status.INDEXING

    html = admin_client.post(url, {"confirm": "yes"}, follow=True).content.decode()
    version.refresh_from_db()
    assert version.status == Status.CANCELLED and version.cancelled_by == policy_admin
    assert f"Cancelled by progress-admin at {timezone.localtime(version.cancelled_at):%-d %b %Y %H:%M}" in html
    assert 'id="cancel-confirm"' not in html and "hx-trigger" not in html
    assert not Chunk.objects.filter(version=version).exists()

    version_index(version_id=version.pk)  # the queued step, if a worker still runs it, does nothing
    version.refresh_from_db()
    assert version.status == Status.CANCELLED and not version.published
    assert not Chunk.objects.filter(version=version).exists()


def test_cancel_is_for_policy_admins_only(client, django_user_model):
    version = version_in(Status.CONVERTING, running_step="converting", heartbeat_at=timezone.now())
    client.force_login(django_user_model.objects.create_user("progress-employee", password="pw-employee-123"))
    assert client.post(f"/manage/versions/{version.pk}/cancel/", {"confirm": "yes"}).status_code == 403
    version.refresh_from_db()
    assert version.status == Status.CONVERTING


def test_cancel_from_the_command_line(policy_admin):
    version = new_version()
    out = io.StringIO()
    call_command("cancel_version", str(version.pk), "--user", policy_admin.username, stdout=out)
    assert f"Cancelled progress-remote v{version.number}" in out.getvalue()
    version_ingest_inline(version_id=version.pk)  # its queued tasks, had they not been revoked
    version.refresh_from_db()
    assert version.status == Status.CANCELLED and version.cancelled_by == policy_admin
    assert version.cancelled_at is not None and version.progress == 0
    assert not Chunk.objects.filter(version=version).exists()
    with pytest.raises(CommandError, match="Only a queued or running version can be cancelled"):
        call_command("cancel_version", str(version.pk), stdout=io.StringIO())
    with pytest.raises(CommandError, match="No version with id"):
        call_command("cancel_version", "999999999", stdout=io.StringIO())


def test_a_running_step_stops_between_batches_when_cancelled():
    version = new_version()
    version_convert(version_id=version.pk)
    version_chunk(version_id=version.pk)
    with connection.cursor() as cursor:  # the admin clicks Cancel as the first batch of vectors is stored
        cursor.execute("""
            CREATE FUNCTION test_cancel_on_embed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              UPDATE policies_policyversion SET status = 'cancelled', cancelled_at = now() WHERE id = NEW.version_id;
              RETURN NEW;
            END $$;
            CREATE TRIGGER test_cancel_on_embed AFTER UPDATE OF embedding ON retrieval_chunk
              FOR EACH ROW EXECUTE FUNCTION test_cancel_on_embed();
        """)
    version_index(version_id=version.pk)
    version.refresh_from_db()
    assert version.status == Status.CANCELLED and version.progress < 100 and not version.published
    assert version.running_step == "" and version.error == ""
    assert not Chunk.objects.filter(version=version).exists()


# --- conversion limits ------------------------------------------------------------------------

def test_a_conversion_over_the_time_limit_is_stopped_with_a_readable_reason(settings):
    settings.CONVERT_TIMEOUT_SECONDS = 0.01
    version = version_ingest_inline(version_id=new_version().pk)
    assert version.status == Status.FAILED
    assert version.error.startswith("remote.md: conversion took longer than the 0.01 s time limit")
    assert "CONVERT_TIMEOUT_SECONDS" in version.error and "Traceback" not in version.error
    assert not Chunk.objects.filter(version=version).exists()


def test_a_conversion_over_the_memory_limit_is_stopped_with_a_readable_reason(settings):
    settings.CONVERT_MEMORY_LIMIT_MB = 1
    version = version_ingest_inline(version_id=new_version().pk)
    assert version.status == Status.FAILED
    assert version.error.startswith("remote.md: ") and "1 MB memory limit (CONVERT_MEMORY_LIMIT_MB)" in version.error
    assert "Traceback" not in version.error


def _raised(exc: BaseException) -> BaseException:
    try:
        raise exc
    except BaseException as caught:  # noqa: BLE001
        return caught


def _damaged_after(cause: BaseException) -> ConversionError:
    try:
        try:
            raise cause
        except BaseException as inner:  # noqa: BLE001
            raise errors.corrupt("remote.md", "md") from inner
    except ConversionError as outer:
        return outer


MB = 1024 * 1024


def test_a_file_refused_as_damaged_because_an_allocation_failed_is_put_down_to_the_memory_limit():
    """Docling catches what it raises while reading a file and reports the file as unreadable: a
    MemoryError inside it used to reach the admin as 'the file is damaged' (seen in CI)."""
    wrapped = _damaged_after(MemoryError())
    assert failure_result(wrapped, memory_bytes=2048 * MB, peak_bytes=900 * MB) == ("memory", {})
    # the MemoryError's words lost, but the child had reached its limit
    swallowed = _raised(errors.corrupt("remote.md", "md"))
    assert failure_result(swallowed, memory_bytes=1 * MB, peak_bytes=900 * MB) == ("memory", {})
    assert failure_result(swallowed, memory_bytes=2048 * MB, peak_bytes=2000 * MB) == ("memory", {})


def test_a_damaged_file_far_from_the_memory_limit_is_still_called_damaged():
    damaged = _raised(errors.corrupt("remote.md", "md"))
    kind, payload = failure_result(damaged, memory_bytes=2048 * MB, peak_bytes=950 * MB)
    assert kind == "conversion_error" and payload["reason"] == "corrupt" and "damaged" in payload["message"]
    assert failure_result(damaged, memory_bytes=0, peak_bytes=4096 * MB)[0] == "conversion_error"  # no limit set
    assert failure_result(damaged, memory_bytes=2048 * MB, peak_bytes=None)[0] == "conversion_error"
    kind, payload = failure_result(_raised(ValueError("boom")), memory_bytes=2048 * MB, peak_bytes=950 * MB)
    assert kind == "error" and payload["error"] == "ValueError: boom" and "Traceback" in payload["traceback"]


def test_conversion_starts_from_a_celery_pool_process(monkeypatch, tmp_path):
    """Celery's prefork pool processes are daemonic and carry billiard's authentication key, which
    multiprocessing would refuse (no children; a key that refuses pickling). Set up here as in a
    pool process; the e2e and worker tests run the real thing."""
    from billiard.process import AuthenticationString as BilliardKey

    config = multiprocessing.current_process()._config
    monkeypatch.setitem(config, "daemon", True)
    monkeypatch.setitem(config, "authkey", BilliardKey(bytes(config["authkey"])))
    path = tmp_path / "remote.md"
    path.write_bytes(POLICY_MD)
    converted = convert_in_child(path, name="remote.md", pdf_artifacts_path=None,
                                 limits=ConversionLimits(memory_mb=2048, timeout_seconds=60))
    assert converted.title == "Remote Work Policy" and converted.tree["blocks"]
    assert isinstance(config["authkey"], BilliardKey) and config["daemon"] is True  # put back


# --- on a real worker -------------------------------------------------------------------------

def _wait_until(condition, *, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_cancel_stops_the_step_running_on_a_worker_and_revokes_the_next_ones(celery_worker_process, policy_admin):
    # Large enough that converting it takes the worker several seconds.
    sections = "".join(
        f"## {i} Band {i}\n\nEmployees in band {i} may claim {i} units of allowance a month, unless their manager "
        "decides otherwise.\n\n" for i in range(20000)
    )
    policy = policy_upsert(key="progress-big", title="Big Policy", group_names=[])
    version = policy_version_create(  # queued on commit, to the test worker
        policy=policy, sources=[UploadedSource(name="big.md", content=f"# Big Policy\n\n{sections}".encode())],
        effective_from=dt.date(2025, 1, 1), created_by=policy_admin,
    )
    _wait_until(lambda: PolicyVersion.objects.get(pk=version.pk).running_step == "converting", timeout=90,
                what="the worker to start converting")

    call_command("cancel_version", str(version.pk), "--user", policy_admin.username, stdout=io.StringIO())

    log_path = OUTPUT / "celery-worker.log"
    version.refresh_from_db()
    chunk_task = version.task_ids[1]
    _wait_until(lambda: f"Discarding revoked task: policies.chunk_version[{chunk_task}]" in log_path.read_text(),
                timeout=30, what="the worker to drop the revoked chunk step")
    log = log_path.read_text()
    assert f"version {version.pk} stopped at converting: it was cancelled" in log
    assert f"policies.index_version[{version.task_ids[2]}]" not in log  # the chain ended at the revoked step
    version.refresh_from_db()
    assert version.status == Status.CANCELLED and version.running_step == ""
    assert not Chunk.objects.filter(version=version).exists()
