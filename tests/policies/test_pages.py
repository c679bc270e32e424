"""Policy admin pages: permissions, upload form, version detail with live progress, actions."""
from __future__ import annotations

import datetime as dt
import hashlib

import pytest
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile

from policypal.policies.models import Policy, PolicyVersion
from policypal.policies.roles import POLICY_ADMINS
from retrieval.models import Chunk

pytestmark = pytest.mark.django_db

MARKDOWN = b"# Leave\n\n## Annual leave\n\nEmployees get 24 days of annual leave.\n"


@pytest.fixture(autouse=True)
def media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def plain_employee(django_user_model):
    return django_user_model.objects.create_user("pages-employee", password="pw-employee-123")


@pytest.fixture
def policy_admin(django_user_model):
    user = django_user_model.objects.create_user("pages-admin", password="pw-admin-123", first_name="Priya")
    user.groups.add(Group.objects.get_or_create(name=POLICY_ADMINS)[0])
    return user


@pytest.fixture
def admin_client(client, policy_admin):
    client.force_login(policy_admin)
    return client


def upload_data(**overrides):
    data = {
        "files": [SimpleUploadedFile("leave.md", MARKDOWN, content_type="text/markdown")],
        "key": "pages-leave",
        "title": "Leave Policy",
        "category": "People",
        "effective_from": "2025-04-01",
        "new_groups": "",
        "publish_when_ready": "on",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def make_version(*, status=PolicyVersion.Status.QUEUED, published=False, **fields) -> PolicyVersion:
    policy, _ = Policy.objects.get_or_create(key="pages-travel", defaults={"title": "Travel Policy"})
    number = policy.versions.count() + 1
    return PolicyVersion.objects.create(policy=policy, number=number, effective_from=dt.date(2025, 1, 1),
                                        status=status, published=published, **fields)


# --- permissions ----------------------------------------------------------------------------

@pytest.mark.parametrize("url", ["/manage/", "/manage/upload/", "/manage/versions/{pk}/", "/manage/sources/1/"])
def test_admin_pages_are_403_for_a_plain_employee(client, plain_employee, url):
    version = make_version()
    client.force_login(plain_employee)
    response = client.get(url.format(pk=version.pk))
    assert response.status_code == 403
    assert 'id="error-403"' in response.content.decode()


@pytest.mark.parametrize("action", ["publish", "retire", "retry"])
def test_version_actions_are_403_for_a_plain_employee(client, plain_employee, action):
    version = make_version(status=PolicyVersion.Status.READY)
    client.force_login(plain_employee)
    assert client.post(f"/manage/versions/{version.pk}/{action}/").status_code == 403
    version.refresh_from_db()
    assert version.published is False and version.retired_at is None


def test_upload_post_is_403_for_a_plain_employee(client, plain_employee):
    client.force_login(plain_employee)
    assert client.post("/manage/upload/", upload_data()).status_code == 403
    assert not Policy.objects.filter(key="pages-leave").exists()


def test_admin_pages_redirect_anonymous_users_to_login(client):
    response = client.get("/manage/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_manage_link_only_for_policy_admins(client, plain_employee, policy_admin):
    client.force_login(plain_employee)
    assert 'id="nav-manage"' not in client.get("/").content.decode()
    client.force_login(policy_admin)
    assert 'id="nav-manage"' in client.get("/").content.decode()


# --- list -----------------------------------------------------------------------------------

def test_policy_list_shows_the_version_in_force_and_the_latest_with_status_badges(admin_client):
    in_force = make_version(status=PolicyVersion.Status.READY, published=True)
    failed = make_version(status=PolicyVersion.Status.FAILED, error="boom")
    html = admin_client.get("/manage/").content.decode()
    assert "Travel Policy" in html
    row = html[html.index('id="policy-pages-travel"'):]
    row = row[: row.index("</tr>")]
    assert f'data-version-id="{in_force.pk}">v1</a> <span class="badge badge--in-force">in force<' in row
    assert f'data-version-id="{failed.pk}">v2</a> <span class="badge badge--failed">failed<' in row
    assert 'id="upload-link"' in html and 'id="import-link"' in html


# --- upload ---------------------------------------------------------------------------------

def test_upload_form_fields(admin_client):
    html = admin_client.get("/manage/upload/").content.decode()
    for marker in ('id="upload-form"', 'enctype="multipart/form-data"', 'id="id_files"', 'multiple', 'id="id_policy"',
                   'id="id_key"', 'id="id_title"', 'id="id_category"', 'id="id_effective_from"', 'id="id_new_groups"',
                   'id="id_publish_when_ready"', 'id="upload-submit"'):
        assert marker in html


@pytest.mark.parametrize("overrides, message", [
    ({"files": None}, "Choose at least one file to upload."),
    ({"key": "", "title": ""}, "Choose an existing policy, or give a key for a new one."),
    ({"title": ""}, "A new policy needs a title."),
    ({"key": "not a slug!"}, "Enter a valid"),
    ({"effective_from": ""}, "Give the date this version takes effect."),
    ({"effective_from": "someday"}, "Enter the date as YYYY-MM-DD."),
    ({"files": [SimpleUploadedFile("notes.txt", b"hello")]}, "notes.txt: this file type is not supported."),
    ({"files": [SimpleUploadedFile("empty.md", b"")]}, "The submitted file is empty."),
])
def test_upload_form_validation_errors_are_shown(admin_client, overrides, message):
    before = PolicyVersion.objects.count()  # the session's sample corpus may be in the database
    response = admin_client.post("/manage/upload/", upload_data(**overrides))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="form-errors"' in html
    assert message in html
    assert PolicyVersion.objects.count() == before


def test_service_errors_are_shown_and_leave_nothing_behind(admin_client, settings):
    settings.POLICY_UPLOAD_MAX_BYTES = 10
    html = admin_client.post("/manage/upload/", upload_data()).content.decode()
    assert 'id="form-errors"' in html
    assert "leave.md is 65\xa0bytes, larger than the 10\xa0bytes limit for one file." in html
    assert not Policy.objects.filter(key="pages-leave").exists()  # policy and version in one transaction


def test_upload_creates_policy_version_and_sources(admin_client, policy_admin):
    Group.objects.create(name="pages-hr")
    data = upload_data(
        files=[SimpleUploadedFile("leave.md", MARKDOWN), SimpleUploadedFile("annex.csv", b"a,b\n1,2\n")],
        groups=[Group.objects.get(name="pages-hr").pk], new_groups="pages-india, pages-hr",
    )
    response = admin_client.post("/manage/upload/", data)
    version = PolicyVersion.objects.get(policy__key="pages-leave")
    assert response.status_code == 302 and response["Location"] == f"/manage/versions/{version.pk}/"
    assert version.number == 1 and version.effective_from == dt.date(2025, 4, 1)
    assert version.publish_when_ready is True and version.created_by == policy_admin
    assert version.status == PolicyVersion.Status.QUEUED
    assert sorted(version.policy.groups.values_list("name", flat=True)) == ["pages-hr", "pages-india"]
    sources = list(version.sources.order_by("ordinal"))
    assert [s.original_name for s in sources] == ["leave.md", "annex.csv"]
    assert sources[0].checksum == hashlib.sha256(MARKDOWN).hexdigest()


def test_upload_new_version_of_existing_policy_keeps_its_groups(admin_client):
    policy = Policy.objects.create(key="pages-leave", title="Leave Policy")
    policy.groups.add(Group.objects.create(name="pages-hr"))
    data = upload_data(key="", title="", policy=policy.pk, effective_from="2026-04-01", publish_when_ready=None)
    assert admin_client.post("/manage/upload/", data).status_code == 302
    version = policy.versions.get()
    assert version.publish_when_ready is False
    assert list(policy.groups.values_list("name", flat=True)) == ["pages-hr"]


def test_upload_with_a_known_key_adds_a_version_to_that_policy(admin_client):
    policy = Policy.objects.create(key="pages-leave", title="Leave Policy")
    policy.groups.add(Group.objects.create(name="pages-hr"))
    assert admin_client.post("/manage/upload/", upload_data(title="")).status_code == 302
    assert policy.versions.count() == 1
    assert list(policy.groups.values_list("name", flat=True)) == ["pages-hr"]  # not opened up by accident


# --- version detail -------------------------------------------------------------------------

def test_version_detail_polls_while_processing(admin_client):
    version = make_version(status=PolicyVersion.Status.CHUNKING, progress=45, progress_detail="Chunking leave.md")
    html = admin_client.get(f"/manage/versions/{version.pk}/").content.decode()
    assert '<span id="version-status" class="badge badge--large badge--chunking">chunking</span>' in html
    assert 'hx-trigger="every 1s"' in html
    assert "Chunking leave.md" in html and 'max="100" value="45"' in html
    assert '<meta http-equiv="refresh"' in html  # no-JS fallback


def test_progress_partial_and_refresh_when_finished(admin_client):
    version = make_version(status=PolicyVersion.Status.INDEXING, progress=80)
    url = f"/manage/versions/{version.pk}/?partial=progress"
    partial = admin_client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith('<section id="version-progress"') and "<html" not in partial
    assert ">indexing<" in partial and 'hx-trigger="every 1s"' in partial
    PolicyVersion.objects.filter(pk=version.pk).update(status=PolicyVersion.Status.READY, progress=100)
    finished = admin_client.get(url, HTTP_HX_REQUEST="true")
    assert finished.headers.get("HX-Refresh") == "true"  # reload the page: actions and chunk preview change
    html = admin_client.get(f"/manage/versions/{version.pk}/").content.decode()
    assert 'id="version-status" class="badge badge--large badge--ready">ready<' in html
    assert 'hx-trigger="every 1s"' not in html


def test_failed_version_shows_its_error_prominently(admin_client):
    version = make_version(status=PolicyVersion.Status.FAILED, error="leave.pdf: this PDF is encrypted")
    html = admin_client.get(f"/manage/versions/{version.pk}/").content.decode()
    assert 'id="version-error"' in html and "leave.pdf: this PDF is encrypted" in html
    assert 'id="action-retry"' in html and 'id="action-publish"' not in html


def test_ready_version_shows_the_chunk_preview(admin_client):
    version = make_version(status=PolicyVersion.Status.READY, progress=100)
    text = "Employees get 24 days of annual leave. Unused leave lapses on 31 March."
    chunk = Chunk.objects.create(
        version=version, policy=version.policy, level=Chunk.Level.BLOCK, kind=Chunk.Kind.TEXT, ordinal=1,
        breadcrumb="Leave > Annual leave", text=text, embed_text=text, token_count=300,
        content_hash="x" * 64, record_id="r1", warnings=["over the size target"],
    )
    html = admin_client.get(f"/manage/versions/{version.pk}/").content.decode()
    assert f'id="chunk-row-{chunk.pk}"' in html
    assert "Leave &gt; Annual leave" in html
    assert "Employees get 24 days of annual leave." in html and "Unused leave lapses on 31 March." in html
    assert "over the size target" in html and "1 over the model limit" in html
    assert 'id="action-publish"' in html


def test_publish_retire_and_retry(admin_client):
    version = make_version(status=PolicyVersion.Status.READY)
    admin_client.post(f"/manage/versions/{version.pk}/publish/")
    version.refresh_from_db()
    assert version.published is True
    admin_client.post(f"/manage/versions/{version.pk}/retire/")
    version.refresh_from_db()
    assert version.published is False and version.retired_at is not None

    failed = make_version(status=PolicyVersion.Status.FAILED, error="boom")
    response = admin_client.post(f"/manage/versions/{failed.pk}/retry/", follow=True)
    failed.refresh_from_db()
    assert failed.status == PolicyVersion.Status.QUEUED and failed.error == ""
    assert "is queued again" in response.content.decode()


def test_publishing_an_unfinished_version_shows_the_reason(admin_client):
    version = make_version(status=PolicyVersion.Status.CONVERTING)
    response = admin_client.post(f"/manage/versions/{version.pk}/publish/", follow=True)
    assert "Only a version that finished processing (ready) can be published." in response.content.decode()
    version.refresh_from_db()
    assert version.published is False


def test_actions_need_post(admin_client):
    version = make_version(status=PolicyVersion.Status.READY)
    assert admin_client.get(f"/manage/versions/{version.pk}/publish/").status_code == 405
