"""Requests over REQUEST_MAX_BYTES are refused with 413 before their body is read; files beyond
FILE_UPLOAD_MAX_MEMORY_SIZE stream to disk and are stored from there."""
from __future__ import annotations

import hashlib

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile

from policypal.policies.models import PolicyVersion
from policypal.policies.roles import POLICY_ADMINS

pytestmark = pytest.mark.django_db

MiB = 1024 * 1024


class UnreadableBody:
    """A wsgi.input that fails the test if anything reads it."""

    def read(self, *args):
        raise AssertionError("the request body was read")

    readline = read


@pytest.fixture
def admin_client(client, django_user_model, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    user = django_user_model.objects.create_user("size-admin", password="x-Password-3")
    user.groups.add(Group.objects.get_or_create(name=POLICY_ADMINS)[0])
    client.force_login(user)
    return client


def declared_post(client, path, size, content_type):
    return client.generic("POST", path, b"", content_type=content_type, CONTENT_LENGTH=str(size),
                          CONTENT_TYPE=content_type, **{"wsgi.input": UnreadableBody()})


def test_an_oversized_upload_gets_413_without_its_body_being_read(admin_client):
    before = PolicyVersion.objects.count()  # the session's sample corpus may be loaded already
    response = declared_post(admin_client, "/manage/upload/", 200 * MiB, "multipart/form-data; boundary=xyz")
    assert response.status_code == 413
    html = response.content.decode()
    assert 'id="error-413"' in html
    assert "This request is 200.0\xa0MB, larger than the 51.0\xa0MB the server accepts" in html
    assert "a policy file may be at most 50.0\xa0MB" in html
    assert PolicyVersion.objects.count() == before


def test_the_api_answers_413_in_json(client):
    response = declared_post(client, "/api/ask", 60 * MiB, "application/json")
    assert response.status_code == 413 and "larger than" in response.json()["error"]


def test_limits_are_configured():
    assert django_settings.REQUEST_MAX_BYTES == django_settings.POLICY_UPLOAD_MAX_BYTES + MiB
    assert django_settings.FILE_UPLOAD_MAX_MEMORY_SIZE <= 2.5 * MiB  # larger files go to a temporary file
    assert django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= 2.5 * MiB


def test_a_file_streamed_to_disk_is_stored_whole(admin_client):
    content = b"# Leave\n\n## Annual leave\n\n" + b"Employees get 24 days of annual leave. " * 90_000  # 3.5 MB
    assert len(content) > django_settings.FILE_UPLOAD_MAX_MEMORY_SIZE
    response = admin_client.post("/manage/upload/", {
        "files": [SimpleUploadedFile("big-leave.md", content)], "key": "size-leave", "title": "Leave",
        "effective_from": "2025-04-01",
    })
    assert response.status_code == 302
    source = PolicyVersion.objects.get(policy__key="size-leave").sources.get()
    assert source.size_bytes == len(content) and source.checksum == hashlib.sha256(content).hexdigest()
    with source.file.open("rb") as stored:
        assert stored.read() == content
