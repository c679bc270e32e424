"""Policy files in S3-compatible object storage, chosen by configuration (STORAGE_BACKEND=s3 and
the S3_* variables), against a real S3 server on this machine: moto's server, started here on a
free port, stands in for AWS S3 or MinIO (an external service; nothing of our own is replaced).

A policy is uploaded through the admin page into the bucket, converted and indexed by the
ingestion steps the workers run, which read it back through the storage API (no file on local
disk), and downloaded from the source-download view, byte for byte."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import boto3
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from policypal.policies.ingestion import version_ingest_inline
from policypal.policies.models import PolicyVersion, SourceDocument
from retrieval.models import Chunk

REPO = Path(__file__).resolve().parents[2]
BUCKET = "policypal-test-sources"
ACCESS_KEY, SECRET_KEY = "test-access-key", "test-secret-key"

POLICY_MD = b"""# Remote Work Policy

## 1 Working from home

Employees may work from home for up to three days a week once they have completed probation.
Managers agree the days in advance and record them in the team calendar.

## 2 Equipment

The company provides a laptop and a monitor for every employee who works from home.
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def s3_endpoint():
    """A local S3-compatible server (moto in server mode) with an empty bucket."""
    from moto.server import ThreadedMotoServer

    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY,
                 region_name="us-east-1").create_bucket(Bucket=BUCKET)
    yield endpoint
    server.stop()


def _settings_in_subprocess(env: dict[str, str], expression: str) -> subprocess.CompletedProcess:
    """Load the settings in a fresh process with `env` (as a web or worker process would)."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("S3_", "STORAGE_BACKEND"))}
    full.update(env)
    code = f"import json, django; django.setup(); from django.conf import settings; print(json.dumps({expression}))"
    return subprocess.run([sys.executable, "-c", code], env=full, cwd=REPO, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def s3_storage_config(s3_endpoint) -> dict:
    """The default storage as the settings build it from the environment variables."""
    result = _settings_in_subprocess({
        "STORAGE_BACKEND": "s3", "S3_BUCKET": BUCKET, "S3_ENDPOINT_URL": s3_endpoint, "S3_ACCESS_KEY_ID": ACCESS_KEY,
        "S3_SECRET_ACCESS_KEY": SECRET_KEY, "S3_REGION": "us-east-1", "S3_PREFIX": "/policypal/",
        "S3_ADDRESSING_STYLE": "path",
    }, "settings.STORAGES['default']")
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_settings_read_the_storage_from_the_environment(s3_storage_config, s3_endpoint):
    assert s3_storage_config == {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": BUCKET, "endpoint_url": s3_endpoint, "access_key": ACCESS_KEY, "secret_key": SECRET_KEY,
            "region_name": "us-east-1", "location": "policypal", "addressing_style": "path", "file_overwrite": False,
            "default_acl": None, "querystring_auth": True,
        },
    }
    default = _settings_in_subprocess({}, "settings.STORAGES['default']")
    assert json.loads(default.stdout.strip().splitlines()[-1]) == {"BACKEND": "django.core.files.storage.FileSystemStorage"}


@pytest.mark.parametrize("env, message", [
    ({"STORAGE_BACKEND": "s3"}, "STORAGE_BACKEND=s3 needs S3_BUCKET, the name of an existing bucket."),
    ({"STORAGE_BACKEND": "ftp"}, "STORAGE_BACKEND='ftp' is not known: use 'filesystem' (the default) or 's3'."),
])
def test_a_storage_misconfiguration_is_named(env, message):
    result = _settings_in_subprocess(env, "1")
    assert result.returncode != 0 and f"ImproperlyConfigured: {message}" in result.stderr


@pytest.fixture
def in_s3(settings, s3_storage_config, tmp_path):
    """This process's default storage is the bucket (as configured above); MEDIA_ROOT an empty
    folder that must stay empty."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STORAGES = {**settings.STORAGES, "default": s3_storage_config}
    s3 = boto3.client("s3", endpoint_url=s3_storage_config["OPTIONS"]["endpoint_url"], aws_access_key_id=ACCESS_KEY,
                      aws_secret_access_key=SECRET_KEY, region_name="us-east-1")
    yield s3
    assert not (tmp_path / "media").exists() or not any((tmp_path / "media").rglob("*"))


def _keys(s3) -> set[str]:
    return {o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET).get("Contents", [])}


def _upload(client, name: str, content: bytes, **fields):
    data = {"files": [SimpleUploadedFile(name, content, content_type="text/markdown")], "key": "s3-remote",
            "title": "Remote Work Policy", "effective_from": "2025-01-01", "publish_when_ready": "on", **fields}
    response = client.post("/manage/upload/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return PolicyVersion.objects.get(pk=int(response["Location"].rstrip("/").rsplit("/", 1)[1]))


def _download(client, source: SourceDocument) -> tuple[int, bytes, str]:
    response = client.get(f"/manage/sources/{source.pk}/", follow=True)
    body = b"".join(response.streaming_content) if response.status_code == 200 else b""
    return response.status_code, body, response.get("Content-Disposition", "")


@pytest.mark.django_db
def test_upload_ingest_and_download_through_s3(in_s3, client, make_policy_admin, only_this_tests_policies):
    s3 = in_s3
    client.force_login(make_policy_admin("s3-admin"))

    version = _upload(client, "remote.md", POLICY_MD)
    source = version.sources.get()
    assert source.file.name.startswith("policies/") and source.file.name.endswith(".md")
    key = f"policypal/{source.file.name}"
    assert key in _keys(s3)  # in the bucket, under the prefix
    assert s3.get_object(Bucket=BUCKET, Key=key)["Body"].read() == POLICY_MD
    with pytest.raises(NotImplementedError):
        source.file.path  # noqa: B018 - no local path: the ingestion must read it through the storage

    version = version_ingest_inline(version_id=version.pk)  # the steps a worker runs
    assert version.status == PolicyVersion.Status.READY, version.error
    source.refresh_from_db()
    assert source.tree is not None and source.document_title == "Remote Work Policy"
    texts = " ".join(Chunk.objects.filter(version=version).values_list("text", flat=True))
    assert "three days a week" in texts and "laptop and a monitor" in texts

    status, body, disposition = _download(client, source)
    assert (status, body) == (200, POLICY_MD) and 'filename="remote.md"' in disposition

    # The next version's file has the same name: a key of its own, the first file kept as it was.
    changed = POLICY_MD.replace(b"three days", b"two days")
    second = _upload(client, "remote.md", changed)
    second_source = second.sources.get()
    assert second_source.file.name != source.file.name and len(_keys(s3) & {key, f"policypal/{second_source.file.name}"}) == 2
    assert _download(client, source)[1] == POLICY_MD and _download(client, second_source)[1] == changed
    second = version_ingest_inline(version_id=second.pk)
    assert second.status == PolicyVersion.Status.READY, second.error


@pytest.mark.django_db
def test_a_source_missing_from_the_bucket_fails_the_version_with_a_reason(in_s3, client, make_policy_admin,
                                                                          only_this_tests_policies):
    s3 = in_s3
    client.force_login(make_policy_admin("s3-admin-2"))
    version = _upload(client, "gone.md", POLICY_MD, key="s3-gone", title="Gone Policy")
    source = version.sources.get()
    s3.delete_object(Bucket=BUCKET, Key=f"policypal/{source.file.name}")
    version = version_ingest_inline(version_id=version.pk)
    assert version.status == PolicyVersion.Status.FAILED
    assert version.error == "gone.md: the stored file is missing from the storage"
    assert _download(client, source)[0] == 404


def test_the_storage_variables_are_documented():
    readme, example = (REPO / "README.md").read_text(), (REPO / ".env.example").read_text()
    for name in ("STORAGE_BACKEND", "S3_BUCKET", "S3_ENDPOINT_URL", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY",
                 "S3_REGION", "S3_PREFIX", "S3_ADDRESSING_STYLE"):
        assert f"`{name}`" in readme and f"# {name}=" in example, name


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_a_worker_process_ingests_from_the_bucket(request, s3_storage_config, settings, tmp_path, monkeypatch, client,
                                                  make_policy_admin):
    """Two processes that share no disk, as on two machines: this one takes the upload into the
    bucket; a real Celery worker, configured by the same environment variables, converts and
    indexes it from there."""
    import time

    from policypal.policies.models import Policy

    Policy.objects.all().delete()  # (the database is emptied after this test in any case)
    options = s3_storage_config["OPTIONS"]
    for name, value in {"STORAGE_BACKEND": "s3", "S3_BUCKET": BUCKET, "S3_ENDPOINT_URL": options["endpoint_url"],
                        "S3_ACCESS_KEY_ID": ACCESS_KEY, "S3_SECRET_ACCESS_KEY": SECRET_KEY, "S3_REGION": "us-east-1",
                        "S3_PREFIX": "policypal", "S3_ADDRESSING_STYLE": "path"}.items():
        monkeypatch.setenv(name, value)  # the worker's environment
    settings.STORAGES = {**settings.STORAGES, "default": s3_storage_config}
    settings.MEDIA_ROOT = tmp_path / "web-media"
    request.getfixturevalue("celery_worker_process")
    client.force_login(make_policy_admin("s3-worker-admin"))
    version = _upload(client, "remote-worker.md", POLICY_MD, key="s3-worker", title="Remote Work Policy")
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        version.refresh_from_db()
        if version.is_finished:
            break
        time.sleep(0.5)
    assert version.status == PolicyVersion.Status.READY, (version.status, version.error, version.progress_detail)
    assert Chunk.objects.filter(version=version, text__contains="three days a week").exists()
    assert _download(client, version.sources.get())[1] == POLICY_MD
    assert not (tmp_path / "web-media").exists()


@pytest.mark.django_db
def test_a_zip_import_is_kept_in_the_bucket_until_confirmed(in_s3, client, make_policy_admin, only_this_tests_policies,
                                                             django_capture_on_commit_callbacks, settings):
    import re

    import redis

    from policypal.policies.models import ImportBatch
    from tests.policies.test_import_upload import handbook

    s3 = in_s3
    client.force_login(make_policy_admin("s3-importer"))
    response = client.post("/manage/import/", {
        "archive": SimpleUploadedFile("handbook.zip", handbook(), content_type="application/zip"),
        "effective_from": "2026-01-01", "publish_when_ready": "on"})
    assert response.status_code == 302, response.content.decode()[-2000:]
    batch = ImportBatch.objects.get()
    assert f"policypal/{batch.stored_name}" in _keys(s3)
    html = client.get(response["Location"]).content.decode()  # the plan, read back from the bucket
    assert re.search(r'id="count-new">2<', html)
    fingerprint = re.search(r'name="fingerprint" value="(\w+)"', html).group(1)
    queue = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        with django_capture_on_commit_callbacks(execute=True):  # the pipelines are queued, the zip removed
            client.post(f"/manage/import/{batch.pk}/", {"fingerprint": fingerprint})
    finally:
        queue.delete(settings.CELERY_TASK_DEFAULT_QUEUE)  # no worker here: the messages are not needed
    assert f"policypal/{batch.stored_name}" not in _keys(s3)
    sources = SourceDocument.objects.order_by("original_name")
    assert [s.original_name for s in sources] == ["leave.md", "travel.md"]
    assert all(f"policypal/{s.file.name}" in _keys(s3) for s in sources)
    version = version_ingest_inline(version_id=sources[0].version_id)
    assert version.status == PolicyVersion.Status.READY, version.error
