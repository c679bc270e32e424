"""One rule and one wording for a refused file in the upload form and in `manage.py ingest`; the
command checks every file before it writes anything, so a refused file leaves no policy behind."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.template.defaultfilters import filesizeformat

from policypal.policies.models import Policy
from policypal.policies.roles import POLICY_ADMINS

pytestmark = pytest.mark.django_db

MARKDOWN = b"# Leave\n\n## Annual leave\n\nEmployees get 24 days of annual leave.\n"
LIMIT = 40


@pytest.fixture(autouse=True)
def small_limit(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.POLICY_UPLOAD_MAX_BYTES = LIMIT


def too_large_message(name: str, size: int) -> str:
    return f"{name} is {filesizeformat(size)}, larger than the {filesizeformat(LIMIT)} limit for one file."


def ingest(path, key="limits-leave"):
    call_command("ingest", str(path), "--policy", key, "--title", "Leave", "--effective-from", "2025-04-01")


def test_form_and_command_say_the_same_about_a_file_too_large(client, django_user_model, tmp_path):
    admin = django_user_model.objects.create_user("limits-admin", password="x-Password-4")
    admin.groups.add(Group.objects.get_or_create(name=POLICY_ADMINS)[0])
    client.force_login(admin)
    html = client.post("/manage/upload/", {
        "files": [SimpleUploadedFile("leave.md", MARKDOWN)], "key": "limits-leave", "title": "Leave",
        "effective_from": "2025-04-01",
    }).content.decode()
    expected = too_large_message("leave.md", len(MARKDOWN))
    assert 'id="form-errors"' in html and expected in html

    path = tmp_path / "leave.md"
    path.write_bytes(MARKDOWN)
    with pytest.raises(CommandError) as refused:
        ingest(path)
    assert str(refused.value) == expected
    assert not Policy.objects.filter(key="limits-leave").exists()


@pytest.mark.parametrize("name, content, message", [
    ("leave.md", MARKDOWN, "larger than the"),
    ("empty.md", b"", "empty.md is empty."),
    ("notes.txt", b"some notes", "notes.txt: this file type is not supported."),
])
def test_a_file_refused_by_ingest_leaves_nothing_behind(tmp_path, monkeypatch, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    monkeypatch.setattr(type(path), "read_bytes", lambda self: pytest.fail("read before it was checked"))
    with pytest.raises(CommandError, match=message):
        ingest(path)
    assert not Policy.objects.filter(key="limits-leave").exists()


def test_ingest_checks_every_file_before_writing_anything(tmp_path):
    good, bad = tmp_path / "leave.md", tmp_path / "annex.txt"
    good.write_bytes(MARKDOWN[:LIMIT])
    bad.write_bytes(b"annex")
    with pytest.raises(CommandError, match="annex.txt"):
        call_command("ingest", str(good), str(bad), "--policy", "limits-leave", "--title", "Leave",
                     "--effective-from", "2025-04-01")
    assert not Policy.objects.filter(key="limits-leave").exists()


def test_ingest_of_an_accepted_file_creates_the_policy_and_its_version(tmp_path):
    path = tmp_path / "leave.md"
    path.write_bytes(MARKDOWN[:LIMIT])
    ingest(path)
    version = Policy.objects.get(key="limits-leave").versions.get()
    assert version.number == 1 and version.sources.get().size_bytes == LIMIT


@pytest.mark.parametrize("option, value, message", [
    ("--policy", "k" * 120, "The policy key is 120 characters; the limit is 80."),
    ("--title", "T" * 301, "The policy title is 301 characters; the limit is 300."),
    ("--category", "c" * 121, "The policy category is 121 characters; the limit is 120."),
    ("--groups", "g" * 151, "is 151 characters; the limit is 150."),
])
def test_an_over_long_value_given_to_ingest_is_refused_with_its_field_and_limit(tmp_path, option, value, message):
    """It used to end in a raw DataError traceback ("value too long for type character varying(80)")."""
    path = tmp_path / "leave.md"
    path.write_bytes(MARKDOWN[:LIMIT])
    args = {"--policy": "limits-leave", "--title": "Leave", "--category": "", "--groups": ""}
    args[option] = value
    argv = [str(path), "--effective-from", "2025-04-01"] + [a for k, v in args.items() if v for a in (k, v)]
    with pytest.raises(CommandError) as refused:
        call_command("ingest", *argv)
    assert message in str(refused.value)
    assert not Policy.objects.filter(key__in=["limits-leave", "k" * 80]).exists()
