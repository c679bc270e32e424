"""The admin zip import: upload (checked, stored through the default storage), the plan (new / new
version / unchanged / invalid, with the archive's manifest or without), confirmation (the plan made
again from the stored file, refused when it changed), one progress view for the whole batch, and a
clear message for every archive that cannot be imported."""
from __future__ import annotations

import io
import os
import re
import zipfile

import pytest
from django.contrib.auth.models import Group
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile

from policypal.policies.import_upload import ImportUploadError, import_batch_create
from policypal.policies.ingestion import version_ingest_inline
from policypal.policies.models import AuditEvent, ImportBatch, Policy, PolicyVersion

pytestmark = pytest.mark.django_db

LEAVE = b"# Leave Policy\n\n## 1 Annual leave\n\nEmployees get 24 days of annual leave.\n"
TRAVEL = b"# Travel Policy\n\n## 1 Booking\n\nBook trains through TravelDesk.\n"
MANIFEST = b"""- path: finance/travel.md
  key: travel
  title: Travel and Expenses Policy
  effective_from: 2026-04-01
  groups: [finance]
- path: people
  category: People
"""


def zip_bytes(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return out.getvalue()


def handbook(**extra: bytes) -> bytes:
    return zip_bytes({"handbook/people/leave.md": LEAVE, "handbook/finance/travel.md": TRAVEL,
                      "handbook/brand/logo.png": b"\x89PNG not really", "handbook/manifest.yaml": MANIFEST, **extra})


@pytest.fixture(autouse=True)
def media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"

@pytest.fixture(autouse=True)
def no_other_policies(only_this_tests_policies):
    """Only this test's policies."""


@pytest.fixture
def policy_admin(make_policy_admin):
    return make_policy_admin("import-admin")


@pytest.fixture
def admin_client(client, policy_admin):
    client.force_login(policy_admin)
    return client


def upload(client, content: bytes, name: str = "handbook.zip", **fields):
    data = {"archive": SimpleUploadedFile(name, content, content_type="application/zip"),
            "effective_from": "2026-01-01", "publish_when_ready": "on", **fields}
    return client.post("/manage/import/", data)


def plan_page(client, content: bytes = b"", **fields):
    response = upload(client, content or handbook(), **fields)
    assert response.status_code == 302, response.content.decode()[-3000:]
    batch = ImportBatch.objects.latest("created_at")
    assert response["Location"] == f"/manage/import/{batch.pk}/"
    return batch, client.get(response["Location"]).content.decode()


def fingerprint(html: str) -> str:
    return re.search(r'name="fingerprint" value="(\w+)"', html).group(1)


def test_upload_plan_confirm_progress(admin_client, policy_admin, django_capture_on_commit_callbacks):
    batch, html = plan_page(admin_client)
    assert default_storage.exists(batch.stored_name) and batch.stored_name.startswith("imports/")
    assert re.search(r'id="count-new">2<', html) and re.search(r'id="count-invalid">1<', html)
    assert "Planned with the archive's manifest, <code>manifest.yaml</code>" in html
    assert "Travel and Expenses Policy" in html and "<code class=\"small\">travel</code>" in html  # the manifest's key and title
    assert "<code class=\"small\">people-leave</code>" in html and "Leave Policy" in html  # derived from path and heading
    assert "brand/logo.png: this file type is not supported" in html
    assert "manifest.yaml</code>" not in html.split('id="plan-table"')[1]  # the manifest is no policy
    assert "Import 2 files" in html and not Policy.objects.exists()  # nothing happened yet

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(f"/manage/import/{batch.pk}/", {"fingerprint": fingerprint(html)})
    assert response.status_code == 302 and response["Location"] == f"/manage/import/{batch.pk}/progress/"
    batch.refresh_from_db()
    assert batch.status == ImportBatch.Status.APPLIED and not default_storage.exists(batch.stored_name)
    travel = Policy.objects.get(key="travel")
    assert travel.title == "Travel and Expenses Policy" and [g.name for g in travel.groups.all()] == ["finance"]
    assert Policy.objects.get(key="people-leave").category == "People"
    versions = list(PolicyVersion.objects.order_by("policy__key"))
    assert [(v.policy.key, str(v.effective_from), v.status) for v in versions] == [
        ("people-leave", "2026-01-01", "queued"), ("travel", "2026-04-01", "queued")]
    event = AuditEvent.objects.get()
    assert (event.action, event.target, event.actor) == ("import", "import handbook.zip", policy_admin)
    assert event.detail == "2 new, 0 new versions, 0 unchanged, 1 invalid, 0 failed to queue"

    html = admin_client.get(response["Location"]).content.decode()
    assert 'id="batch-processing">2<' in html and 'id="batch-ready">0<' in html
    assert 'hx-trigger="every 2s"' in html and 'data-finished="false"' in html
    assert "brand/logo.png: this file type is not supported" in html  # the invalid file stays listed

    for version in versions:
        version_ingest_inline(version_id=version.pk)
    partial = admin_client.get(f"{response['Location']}?partial=progress").content.decode()
    assert partial.lstrip().startswith('<div id="import-progress"') and "<html" not in partial
    assert 'id="batch-ready">2<' in partial and 'id="batch-percent">100%<' in partial
    assert 'data-finished="true"' in partial and "hx-trigger" not in partial  # the poll stops

    # The same zip again: every file unchanged.
    _, html = plan_page(admin_client)
    assert re.search(r'id="count-unchanged">2<', html) and "Nothing to import" in html


def test_without_a_manifest_files_take_the_forms_defaults(admin_client):
    finance = Group.objects.get_or_create(name="finance")[0]
    content = zip_bytes({"travel.md": TRAVEL})
    batch, html = plan_page(admin_client, content, category="Finance", groups=[finance.pk], new_groups="travel-team")
    assert batch.groups == ["finance", "travel-team"] and batch.category == "Finance"
    assert "manifest" not in html.split('id="plan-counts"')[1].split('id="plan-table"')[0]
    admin_client.post(f"/manage/import/{batch.pk}/", {"fingerprint": fingerprint(html)})
    policy = Policy.objects.get(key="travel")
    assert policy.category == "Finance" and {g.name for g in policy.groups.all()} == {"finance", "travel-team"}
    assert policy.title == "Travel Policy"


def test_a_new_version_of_an_existing_policy(admin_client):
    _, html = plan_page(admin_client, zip_bytes({"leave.md": LEAVE}))
    admin_client.post(f"/manage/import/{ImportBatch.objects.get().pk}/", {"fingerprint": fingerprint(html)})
    _, html = plan_page(admin_client, zip_bytes({"leave.md": LEAVE + b"\nUnused days lapse.\n"}))
    assert re.search(r'id="count-new-version">1<', html) and "Import 1 file" in html


def test_a_plan_that_changed_since_it_was_shown_is_not_applied(admin_client):
    batch, html = plan_page(admin_client, zip_bytes({"leave.md": LEAVE}))
    shown = fingerprint(html)
    Policy.objects.create(key="leave", title="Leave (made meanwhile)")  # the file is now a new version, not new
    response = admin_client.post(f"/manage/import/{batch.pk}/", {"fingerprint": shown})
    html = response.content.decode()
    assert response.status_code == 200 and 'id="plan-changed"' in html and "Nothing was imported" in html
    assert not PolicyVersion.objects.exists() and ImportBatch.objects.get().status == "planned"
    response = admin_client.post(f"/manage/import/{batch.pk}/", {"fingerprint": fingerprint(html)})
    assert response.status_code == 302 and PolicyVersion.objects.count() == 1


def test_confirming_twice_imports_once(admin_client):
    batch, html = plan_page(admin_client, zip_bytes({"leave.md": LEAVE}))
    for _ in range(2):
        response = admin_client.post(f"/manage/import/{batch.pk}/", {"fingerprint": fingerprint(html)})
        assert response.status_code == 302
    assert PolicyVersion.objects.count() == 1
    assert admin_client.get(f"/manage/import/{batch.pk}/")["Location"] == f"/manage/import/{batch.pk}/progress/"


def test_discard_forgets_the_upload_and_its_file(admin_client, django_capture_on_commit_callbacks):
    batch, _ = plan_page(admin_client)
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(f"/manage/import/{batch.pk}/discard/", follow=True)
    assert "nothing was imported" in response.content.decode()
    batch.refresh_from_db()
    assert batch.status == "discarded" and not default_storage.exists(batch.stored_name)
    assert admin_client.get(f"/manage/import/{batch.pk}/")["Location"] == "/manage/import/"


@pytest.mark.parametrize("name, content, message", [
    ("handbook.zip", b"this is not an archive at all", "handbook.zip is not a readable zip archive"),
    ("handbook.rar", b"Rar!\x1a\x07", "handbook.rar is not a .zip archive. Upload a .zip of policy documents."),
    ("handbook.zip", b"", "The file is empty."),
    ("handbook.zip", zip_bytes({}), "handbook.zip holds no files to import."),
    ("handbook.zip", zip_bytes({"manifest.csv": b"path,key\n"}), "handbook.zip holds no files to import besides its manifest."),
    ("handbook.zip", zip_bytes({".DS_Store": b"x", "__MACOSX/._a.md": b"x"}), "holds no files to import"),
    ("handbook.zip", zip_bytes({"../evil.md": LEAVE}), None),  # unsafe member: planned as invalid, see below
])
def test_archives_that_cannot_be_imported_say_why(admin_client, name, content, message):
    response = upload(admin_client, content, name=name)
    if message is None:
        html = admin_client.get(response["Location"]).content.decode()
        assert "../evil.md: unsafe path in the archive" in html and "Nothing to import" in html
        return
    html = response.content.decode()
    assert response.status_code == 200 and 'id="form-errors"' in html and message in html
    assert not ImportBatch.objects.exists()
    assert not default_storage.exists("imports") or not default_storage.listdir("imports")[1]  # nothing kept


def test_a_zip_over_the_request_limit_is_refused_with_its_size(admin_client, settings):
    settings.REQUEST_MAX_BYTES = 2000
    response = upload(admin_client, zip_bytes({"big.md": os.urandom(10_000)}))  # random: deflating keeps its size
    html = response.content.decode()
    assert response.status_code == 413 and "larger than the 2.0\xa0KB the server accepts" in html
    assert not ImportBatch.objects.exists()


def test_the_service_refuses_a_zip_over_the_limit_too(settings, policy_admin):
    settings.REQUEST_MAX_BYTES = 100
    file = SimpleUploadedFile("big.zip", zip_bytes({"a.md": LEAVE * 5}))
    with pytest.raises(ImportUploadError, match=r"big.zip is .*, larger than the 100\xa0bytes limit for one upload"):
        import_batch_create(upload=file, effective_from="2026-01-01", created_by=policy_admin)


def test_a_manifest_that_cannot_be_read_refuses_the_whole_archive(admin_client):
    _, html = plan_page(admin_client, zip_bytes({"leave.md": LEAVE, "manifest.yaml": b"- path: [unclosed\n"}))
    assert 'id="plan-error"' in html and "manifest.yaml line" in html and "not valid YAML" in html
    assert 'id="plan-confirm"' not in html


def test_a_manifest_entry_with_a_problem_refuses_the_files_it_matches(admin_client):
    manifest = b"path,effective_from\nleave.md,2026-13-01\n"
    _, html = plan_page(admin_client, zip_bytes({"leave.md": LEAVE, "travel.md": TRAVEL, "manifest.csv": manifest}))
    assert "manifest.csv line 2: effective_from &#x27;2026-13-01&#x27; is not a date (YYYY-MM-DD)" in html
    assert re.search(r'id="count-invalid">1<', html) and "Import 1 file" in html


def test_two_manifests_are_refused(admin_client):
    _, html = plan_page(admin_client, zip_bytes({"leave.md": LEAVE, "manifest.yaml": b"[]", "manifest.csv": b"path\n"}))
    assert "holds manifest.csv and manifest.yaml: keep one manifest" in html


def test_import_pages_are_for_policy_admins_only(client, django_user_model, admin_client):
    batch, _ = plan_page(admin_client)
    employee = django_user_model.objects.create_user("import-employee", password="pw")
    client.force_login(employee)
    for method, url in [("get", "/manage/import/"), ("post", "/manage/import/"), ("get", f"/manage/import/{batch.pk}/"),
                        ("post", f"/manage/import/{batch.pk}/"), ("post", f"/manage/import/{batch.pk}/discard/"),
                        ("get", f"/manage/import/{batch.pk}/progress/")]:
        assert getattr(client, method)(url).status_code == 403, url
    assert ImportBatch.objects.get().status == "planned" and not Policy.objects.exists()


def test_the_upload_page_lists_recent_imports(admin_client):
    batch, _ = plan_page(admin_client)
    html = admin_client.get("/manage/import/").content.decode()
    assert 'id="recent-imports"' in html and f'/manage/import/{batch.pk}/"' in html and "waiting for confirmation" in html
