"""Bulk import (`manage.py import`): plan, manifest, idempotent re-runs, dry run, archives, and one
end-to-end run on a real Celery worker."""
from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

import docx
import pytest
from django.core.management import CommandError, call_command

from policypal.policies.bulk_import import Action, ImportDefaults, import_apply, import_plan, path_key
from policypal.policies.doc_titles import document_title
from policypal.policies.import_files import ImportSourceError, import_files_open
from policypal.policies.import_manifest import ManifestError, manifest_load, manifest_parse
from policypal.policies.models import Policy, PolicyVersion, SourceDocument

DEFAULTS = ImportDefaults(effective_from=dt.date(2026, 1, 1))
LONG_FOLDERS = (
    "Human Resources Department Policies and Procedures/Employee Benefits and Compensation Schedules/"
    "Regional Addenda for the Asia Pacific Offices"
)


def _docx_bytes(title: str) -> bytes:
    document = docx.Document()
    document.add_paragraph("Harbourline Ltd, internal")
    document.add_heading(title, level=0)  # the Title style
    document.add_heading("1 Purpose", level=1)
    document.add_paragraph("This policy sets out how travel is booked.")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _handbook(root: Path) -> Path:
    """A small generated handbook: nested folders, a long path, two paths with one key, an
    unsupported file, an empty file, files to pass over."""
    files = {
        "People/Leave Policy.md": b"---\nowner: HR\n---\n\n# Leave Policy (India)\n\n## 1 Annual leave\n\nEmployees get 24 days.\n",
        "People/Benefits/health.html": b"<html><head><title>Intranet | Health</title></head><body><h1>Health <b>Insurance</b>"
                                       b"</h1><p>Cover starts on day one.</p></body></html>",
        "Finance/travel.docx": _docx_bytes("Travel and Expenses Policy"),
        "IT/security policy.md": b"Passwords are at least 14 characters long.\n",
        "IT/security-policy.md": b"# Security Policy, Draft 2\n\nPasswords are at least 16 characters long.\n",
        f"{LONG_FOLDERS}/Meal and Subsistence Allowances for Business Travel in Singapore.md":
            b"# Meal Allowances (Singapore)\n\nSGD 80 a day.\n",
        "Brand/logo.png": b"\x89PNG\r\n\x1a\n not really",
        "Finance/empty.md": b"",
        ".git/config": b"[core]\n",
        "People/~$Leave Policy.docx": b"lock",
    }
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    return root


def _plan(path: Path, *, manifest=None, defaults=DEFAULTS):
    return import_plan(files=import_files_open(path), defaults=defaults, manifest=manifest)


def _by_path(plan):
    return {f.path: f for f in plan.files}


# --- plan -------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_plan_of_a_nested_folder(tmp_path):
    plan = _plan(_handbook(tmp_path / "handbook"))
    files = _by_path(plan)
    long_path = f"{LONG_FOLDERS}/Meal and Subsistence Allowances for Business Travel in Singapore.md"
    assert sorted(files) == sorted([
        "People/Leave Policy.md", "People/Benefits/health.html", "Finance/travel.docx", "IT/security policy.md",
        "IT/security-policy.md", long_path, "Brand/logo.png", "Finance/empty.md",
    ])  # .git and the Office lock file passed over
    assert {p: (f.action, f.key, f.title) for p, f in files.items() if f.action == Action.NEW} == {
        "People/Leave Policy.md": (Action.NEW, "people-leave-policy", "Leave Policy (India)"),
        "People/Benefits/health.html": (Action.NEW, "people-benefits-health", "Health Insurance"),
        "Finance/travel.docx": (Action.NEW, "finance-travel", "Travel and Expenses Policy"),
        "IT/security policy.md": (Action.NEW, "it-security-policy", "Security policy"),  # no heading: its name
        "IT/security-policy.md": (Action.NEW, files["IT/security-policy.md"].key, "Security Policy, Draft 2"),
        long_path: (Action.NEW, files[long_path].key, "Meal Allowances (Singapore)"),
    }
    # Two paths with one key: the first keeps it, the other gets a hash of its path.
    collided = files["IT/security-policy.md"].key
    assert collided.startswith("it-security-policy-") and len(collided) == len("it-security-policy-") + 6
    # The long path: at most 80 characters, its last parts kept readable, a hash of the path added.
    long_key = files[long_path].key
    assert len(path_key(long_path)) <= 80 and long_key == path_key(long_path)
    assert "meal-and-subsistence-allowances-for-business-travel-in-singapore" in long_key
    assert not long_key.startswith("human-resources")
    assert files["Brand/logo.png"].action == Action.INVALID and "not supported" in files["Brand/logo.png"].reasons[0]
    assert files["Finance/empty.md"].reasons == ("Finance/empty.md is empty.",)
    assert not plan.ok
    assert all(f.effective_from == dt.date(2026, 1, 1) and f.groups is None for f in files.values() if f.action == Action.NEW)


def test_keys_and_titles_are_bounded():
    key = path_key("/".join(["a" * 50] * 4) + "/" + "b" * 120 + ".md")
    assert len(key) == 80 and key.startswith("b" * 73)
    assert path_key("規程/方針.md").startswith("policy-")
    long_title = "# " + "Very long heading " * 30
    assert len(document_title(name="x.md", content=long_title.encode())) > 300  # limited by the plan, below


@pytest.mark.django_db
def test_titles_are_limited_to_the_model_field(tmp_path):
    (tmp_path / "long.md").write_text("# " + "Very long heading " * 30 + "\n\nText.\n")
    (planned,) = _plan(tmp_path).files
    assert len(planned.title) == 300 and planned.title.endswith("…")


def test_document_titles():
    assert document_title(name="a.md", content=b"```\n# not a heading\n```\n\nTitle\n=====\n") == "Title"
    assert document_title(name="a.md", content=b"## 1 Scope\n\nno level-1 heading\n") is None
    assert document_title(name="a.html", content=b"<title>Only the  title</title><h2>x</h2>") == "Only the title"
    assert document_title(name="a.docx", content=_docx_bytes("Code of Conduct")) == "Code of Conduct"
    assert document_title(name="a.docx", content=b"PK\x03\x04 broken") is None


# --- manifest ---------------------------------------------------------------------------------------

MANIFEST_CSV = f"""\
path,key,title,category,effective_from,groups
# per folder, then per file
People/**,,,People,,people-team
Finance/travel.docx,handbook-travel,Harbourline Travel Policy,Finance,2026-04-01,
IT/security policy.md,it-security,,,2026-13-01,
IT/security-policy.md,,,,,"it-team, auditors"
Finance/*.md,{"k" * 95},,,,
Archive/**,,,,,
Brand/logo.png,,,,,
"""


@pytest.mark.django_db
def test_manifest_csv_sets_values_and_reports_problems_with_line_numbers(tmp_path):
    root = _handbook(tmp_path / "handbook")
    manifest_path = tmp_path / "manifest.csv"
    manifest_path.write_text(MANIFEST_CSV)
    manifest = manifest_load(manifest_path)
    plan = _plan(root, manifest=manifest)
    files = _by_path(plan)
    leave = files["People/Leave Policy.md"]
    assert (leave.category, leave.groups, leave.key) == ("People", ("people-team",), "people-leave-policy")
    assert files["People/Benefits/health.html"].groups == ("people-team",)  # ** spans folders
    travel = files["Finance/travel.docx"]
    assert (travel.key, travel.title, travel.effective_from, travel.groups) == (
        "handbook-travel", "Harbourline Travel Policy", dt.date(2026, 4, 1), None)
    assert files["IT/security-policy.md"].groups == ("it-team", "auditors")
    # An invalid value refuses the files its entry matches, with the manifest's line.
    bad_date = files["IT/security policy.md"]
    assert bad_date.action == Action.INVALID
    assert bad_date.reasons == ("manifest.csv line 5: effective_from '2026-13-01' is not a date (YYYY-MM-DD)",)
    assert files["Finance/empty.md"].reasons[1] == "manifest.csv line 7: key is 95 characters, the limit is 80"
    assert plan.problems == ("manifest.csv line 8: path 'Archive/**' matches no file",)
    assert files["Finance/travel.docx"].action == Action.NEW  # the other files go on


@pytest.mark.django_db
def test_manifest_key_given_to_two_files_refuses_both(tmp_path):
    root = _handbook(tmp_path / "handbook")
    manifest = manifest_parse("path,key\nIT/*.md,security\n", name="m.csv", fmt="csv")
    files = _by_path(_plan(root, manifest=manifest))
    for path in ("IT/security policy.md", "IT/security-policy.md"):
        assert files[path].action == Action.INVALID
        assert files[path].reasons[-1].startswith("m.csv line 2: key 'security' is given to 2 files")


def test_manifest_csv_structure_errors():
    with pytest.raises(ManifestError, match=r"m.csv line 1: unknown column 'efective_from'; the columns are path"):
        manifest_parse("path,efective_from\nx,2026-01-01\n", name="m.csv", fmt="csv")
    with pytest.raises(ManifestError, match=r"m.csv line 2: the header has no 'path' column"):
        manifest_parse("# comment\nkey,title\n", name="m.csv", fmt="csv")
    manifest = manifest_parse('path,title\n"a.md\nstill the path",x\n../up.md,y\nb.md,c,d\n', name="m.csv", fmt="csv")
    assert [e.line for e in manifest.entries] == [2, 4, 5]  # a quoted line break: the next entry starts on line 4
    assert manifest.entries[1].problems == (
        "m.csv line 4: path '../up.md' must be relative to the imported folder, without '..'",)
    assert manifest.entries[2].problems == ("m.csv line 5: 3 values for 2 columns (quote a value that holds a comma)",)


MANIFEST_YAML = """\
# people
- path: "People/**"
  groups: [people-team, managers]
  category: People

- path: Finance/travel.docx
  key: travel
  title: Travel Policy
  effective_from: 2026-13-01
- path: IT/security-policy.md
  key: Security Policy
  efective_from: 2026-01-01
- path: Finance/empty.md
  title: "{title}"
- title: no path here
"""


@pytest.mark.django_db
def test_manifest_yaml_values_and_errors_with_line_numbers(tmp_path):
    root = _handbook(tmp_path / "handbook")
    manifest = manifest_parse(MANIFEST_YAML.format(title="T" * 301), name="manifest.yaml", fmt="yaml")
    plan = _plan(root, manifest=manifest)
    files = _by_path(plan)
    assert files["People/Leave Policy.md"].groups == ("people-team", "managers")
    assert files["Finance/travel.docx"].reasons == (
        "manifest.yaml line 9: effective_from '2026-13-01' is not a date (YYYY-MM-DD)",)
    assert files["IT/security-policy.md"].reasons == (
        "manifest.yaml line 11: key 'Security Policy' may hold only letters, digits, hyphens and underscores "
        "(for example 'travel-policy')",
        "manifest.yaml line 12: unknown field 'efective_from'; the fields are path, title, key, category, "
        "effective_from, groups",
    )
    assert "manifest.yaml line 14: title is 301 characters, the limit is 300" in files["Finance/empty.md"].reasons
    assert plan.problems == ("manifest.yaml line 15: path is missing (a file, a folder or a glob such as 'people/**')",)
    with pytest.raises(ManifestError, match=r"^m.yaml line 3: not valid YAML"):
        manifest_parse("- path: a\n  title: [unclosed\n- path: b\n", name="m.yaml", fmt="yaml")
    with pytest.raises(ManifestError, match=r"^m.yaml line 1: the manifest is a list of entries"):
        manifest_parse("path: a\n", name="m.yaml", fmt="yaml")


# --- apply, re-run, dry run ------------------------------------------------------------------------


@pytest.mark.django_db
def test_second_run_is_unchanged_and_a_changed_file_makes_one_new_version(tmp_path):
    root = _handbook(tmp_path / "handbook")
    files = import_files_open(root)
    plan = import_plan(files=files, defaults=DEFAULTS)
    outcome = import_apply(plan=plan, files=files)
    assert len(outcome.queued) == 6 and not outcome.failed
    keys = [f.key for f in plan.files if f.action == Action.NEW]
    assert Policy.objects.filter(key__in=keys).count() == 6
    assert PolicyVersion.objects.filter(policy__key__in=keys).count() == 6
    leave = SourceDocument.objects.get(version__policy__key="people-leave-policy")
    assert leave.original_name == "Leave Policy.md" and leave.version.note == "bulk import: People/Leave Policy.md"

    again = _plan(root)
    assert {f.action for f in again.files if f.action != Action.INVALID} == {Action.UNCHANGED}

    (root / "People/Leave Policy.md").write_bytes(b"# Leave Policy (India)\n\nEmployees get 26 days.\n")
    changed = _plan(root, defaults=ImportDefaults(effective_from=dt.date(2026, 7, 1)))
    assert [(f.path, f.action) for f in changed.files if f.action not in (Action.UNCHANGED, Action.INVALID)] == [
        ("People/Leave Policy.md", Action.NEW_VERSION)]
    import_apply(plan=changed, files=import_files_open(root))
    versions = PolicyVersion.objects.filter(policy__key="people-leave-policy").order_by("number")
    assert [(v.number, v.effective_from) for v in versions] == [(1, dt.date(2026, 1, 1)), (2, dt.date(2026, 7, 1))]
    assert PolicyVersion.objects.filter(policy__key__in=keys).count() == 7
    assert {f.action for f in _plan(root).files if f.action != Action.INVALID} == {Action.UNCHANGED}


@pytest.mark.django_db
def test_an_existing_policy_keeps_its_title_and_the_manifest_updates_unchanged_policies(tmp_path):
    root = _handbook(tmp_path / "handbook")
    call_command("import", str(root / "People/Leave Policy.md"), stdout=io.StringIO(), stderr=io.StringIO())
    Policy.objects.filter(key="leave-policy").update(title="Leave Policy (renamed by an admin)")
    manifest = manifest_parse("path,groups,category\n**,hr,People\n", name="m.csv", fmt="csv")
    (planned,) = _plan(root / "People/Leave Policy.md", manifest=manifest).files
    assert (planned.action, planned.title, planned.updates) == (
        Action.UNCHANGED, "Leave Policy (renamed by an admin)", ("category", "groups"))
    import_apply(plan=_plan(root / "People/Leave Policy.md", manifest=manifest), files=import_files_open(root / "People/Leave Policy.md"))
    policy = Policy.objects.get(key="leave-policy")
    assert [g.name for g in policy.groups.all()] == ["hr"] and policy.category == "People"
    assert policy.versions.count() == 1


@pytest.mark.django_db
def test_dry_run_writes_nothing_and_prints_the_plan(tmp_path):
    root = _handbook(tmp_path / "handbook")
    out, err = io.StringIO(), io.StringIO()
    rows = (Policy.objects.count(), PolicyVersion.objects.count(), SourceDocument.objects.count())
    with pytest.raises(CommandError, match="2 of 8 files would fail"):
        call_command("import", str(root), "--dry-run", "--groups", "staff", stdout=out, stderr=err)
    assert (Policy.objects.count(), PolicyVersion.objects.count(), SourceDocument.objects.count()) == rows
    text = out.getvalue()
    assert f'{"new":<12} People/Leave Policy.md -> people-leave-policy "Leave Policy (India)"' in text
    assert "  Finance/empty.md is empty." in text
    assert "Dry run, nothing written: 6 new, 0 new versions, 0 unchanged, 2 invalid." in text
    assert "read 8/8" in err.getvalue()


@pytest.mark.django_db
def test_command_imports_lists_failures_and_exits_non_zero(tmp_path):
    root = _handbook(tmp_path / "handbook")
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="2 of 8 files failed"):
        call_command("import", str(root), "--category", "Handbook", "--effective-from", "2026-02-01", stdout=out, stderr=err)
    assert "Imported: 6 new policies, 0 new versions; 0 unchanged; 2 failed." in out.getvalue()
    assert "queued 6/6" in err.getvalue()
    imported = PolicyVersion.objects.filter(note__startswith="bulk import: ")
    assert imported.count() == 6
    assert set(imported.values_list("policy__category", flat=True)) == {"Handbook"}
    assert set(imported.values_list("effective_from", flat=True)) == {dt.date(2026, 2, 1)}
    (root / "Brand/logo.png").unlink()
    (root / "Finance/empty.md").unlink()
    out = io.StringIO()
    call_command("import", str(root), stdout=out, stderr=io.StringIO())  # all unchanged: exit status 0
    assert "Imported: 0 new policies, 0 new versions; 6 unchanged; 0 failed." in out.getvalue()


@pytest.mark.parametrize("args, message", [
    (["--category", "c" * 121], "--category is 121 characters, the limit is 120"),
    (["--effective-from", "2026-13-01"], "--effective-from '2026-13-01' is not a date (YYYY-MM-DD)"),
    (["--groups", "g" * 151], "--groups: the group name 'ggg"),
    (["--manifest", "manifest.txt"], "manifest.txt: a manifest is a .yaml, .yml or .csv file"),
    (["--timeout", "0"], "--timeout must be a positive number"),
])
def test_invalid_options_are_refused_with_the_field_and_the_limit(tmp_path, args, message):
    (tmp_path / "a.md").write_text("# A\n")
    with pytest.raises(CommandError) as raised:
        call_command("import", str(tmp_path), *args, stdout=io.StringIO(), stderr=io.StringIO())
    assert message in str(raised.value)


# --- archives ---------------------------------------------------------------------------------------


def _zip_of(folder: Path, target: Path, *, extra: dict[str, bytes] | None = None) -> Path:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_dir():
                archive.writestr(path.relative_to(folder.parent).as_posix() + "/", b"")
            else:
                archive.write(path, path.relative_to(folder.parent).as_posix())
        for name, content in (extra or {}).items():
            archive.writestr(name, content)
    return target


@pytest.mark.django_db
def test_zip_gives_the_same_plan_as_its_folder_and_refuses_unsafe_paths(tmp_path):
    root = _handbook(tmp_path / "handbook")
    archive = _zip_of(root, tmp_path / "handbook.zip", extra={
        "__MACOSX/handbook/._travel.docx": b"\x00\x05resource fork",
        "handbook/../../etc/evil.md": b"# Evil\n",
        "/abs/evil.md": b"# Evil\n",
    })
    from_folder = {(f.path, f.action, f.key, f.title, f.checksum) for f in _plan(root).files}
    from_zip = _plan(archive)
    unsafe = {f.path: f.reasons for f in from_zip.files if "evil" in f.path}
    assert unsafe == {
        "handbook/../../etc/evil.md": ("handbook/../../etc/evil.md: unsafe path in the archive (absolute, or with '..'); not read",),
        "/abs/evil.md": ("/abs/evil.md: unsafe path in the archive (absolute, or with '..'); not read",),
    }
    assert {(f.path, f.action, f.key, f.title, f.checksum) for f in from_zip.files if "evil" not in f.path} == from_folder

    files = import_files_open(archive)
    outcome = import_apply(plan=import_plan(files=files, defaults=DEFAULTS), files=files)
    assert len(outcome.queued) == 6
    assert {f.action for f in _plan(root).files if f.action != Action.INVALID} == {Action.UNCHANGED}


@pytest.mark.django_db
def test_zip_total_size_is_capped_by_the_bytes_inflated(tmp_path):
    archive = tmp_path / "big.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(3):
            zf.writestr(f"p{i}.md", b"# P\n" + b" " * 400_000)
    with pytest.raises(ImportSourceError, match=r"big.zip holds 1.1.MB, the limit for one archive is 976.6.KB"):
        import_plan(files=import_files_open(archive, max_total_bytes=1_000_000), defaults=DEFAULTS)
    # The bytes read are counted as well (zipfile itself never inflates past a member's stated size).
    files = import_files_open(archive, max_total_bytes=1_300_000)
    plan = import_plan(files=files, defaults=DEFAULTS)
    assert len(plan.files) == 3 and files._inflated == 3 * 400_004
    files.read("p0.md")
    assert files._inflated == 3 * 400_004  # a second read (the apply step) is not counted again
    with pytest.raises(CommandError, match="is not a readable zip archive"):
        (tmp_path / "broken.zip").write_bytes(b"PK not a zip")
        call_command("import", str(tmp_path / "broken.zip"), stdout=io.StringIO(), stderr=io.StringIO())


# --- end to end, on a real worker -------------------------------------------------------------------


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_import_wait_on_a_real_worker(celery_worker_process, tmp_path):
    root = tmp_path / "handbook"
    (root / "people").mkdir(parents=True)
    (root / "people/leave.md").write_text("# Leave Policy\n\n## 1 Annual leave\n\nEmployees get 24 days of annual leave.\n")
    (root / "remote.md").write_text("# Remote Work\n\n## 1 Eligibility\n\nEmployees may work from home two days a week.\n")
    (root / "broken.docx").write_bytes(b"PK\x03\x04 this is not really a zip archive")
    manifest = tmp_path / "manifest.yaml"
    manifest.write_text('- path: "people/**"\n  groups: [people-team]\n')
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="1 of 3 files failed"):
        call_command("import", str(root), "--manifest", str(manifest), "--wait", "--timeout", "300",
                     stdout=out, stderr=err)
    text = out.getvalue()
    assert "Imported: 3 new policies, 0 new versions; 0 unchanged; 0 failed." in text
    assert "Processed: 2 ready, 1 failed processing." in text
    assert "Failed processing (1):\n  broken.docx" in text
    assert "finished 3/3" in err.getvalue()
    leave = PolicyVersion.objects.get(policy__key="people-leave")
    assert leave.status == PolicyVersion.Status.READY and leave.published and leave.chunks.exists()
    assert [g.name for g in leave.policy.groups.all()] == ["people-team"]
    assert PolicyVersion.objects.get(policy__key="broken").status == PolicyVersion.Status.FAILED


@pytest.mark.django_db
def test_a_manifest_inside_the_folder_is_not_imported(tmp_path):
    (tmp_path / "a.md").write_text("# A\n")
    (tmp_path / "manifest.csv").write_text("path,category\na.md,Finance\n")
    out = io.StringIO()
    call_command("import", str(tmp_path), "--manifest", str(tmp_path / "manifest.csv"), "--dry-run", stdout=out,
                 stderr=io.StringIO())
    assert f"Plan for {tmp_path}: 1 file\n" in out.getvalue() and "manifest.csv ->" not in out.getvalue()


@pytest.mark.django_db
def test_a_manifest_entry_that_matches_no_file_fails_the_run(tmp_path):
    (tmp_path / "a.md").write_text("# A\n")
    manifest = tmp_path / "m.yaml"
    manifest.write_text("- path: peple/**\n  groups: [people-team]\n")
    out = io.StringIO()
    with pytest.raises(CommandError, match=r"^the manifest has 1 problem \(listed above\)\.$"):
        call_command("import", str(tmp_path / "a.md"), "--manifest", str(manifest), stdout=out, stderr=io.StringIO())
    assert "  manifest: m.yaml line 1: path 'peple/**' matches no file" in out.getvalue()
    assert "Imported: 1 new policy, 0 new versions; 0 unchanged; 0 failed; 1 manifest problem." in out.getvalue()


@pytest.mark.django_db
def test_a_manifest_at_the_folders_root_is_read_without_the_option(tmp_path):
    (tmp_path / "a.md").write_text("# A\n")
    (tmp_path / "manifest.csv").write_text("path,category\na.md,Finance\n")
    out, err = io.StringIO(), io.StringIO()
    call_command("import", str(tmp_path), "--dry-run", stdout=out, stderr=err)
    assert "Using the manifest manifest.csv at the folder's root." in err.getvalue()
    assert f"Plan for {tmp_path}: 1 file\n" in out.getvalue() and "manifest.csv ->" not in out.getvalue()


@pytest.mark.django_db
def test_a_derived_key_landing_on_another_teams_policy_is_flagged_in_the_plan(tmp_path):
    from policypal.policies.services import UploadedSource, policy_upsert, policy_version_create

    policy = policy_upsert(key="leave", title="Harbourline Annual and Sick Leave Policy", group_names=[])
    policy_version_create(policy=policy, sources=[UploadedSource(name="leave.md", content=b"# Harbourline Leave\n\n25 days.\n")],
                          effective_from=dt.date(2025, 1, 1), enqueue=False)
    root = tmp_path / "handbook"
    root.mkdir()
    (root / "leave.md").write_bytes(b"# Staff Leave Policy\n\nEmployees get 24 days.\n")
    (planned,) = _plan(root).files
    assert planned.action == Action.NEW_VERSION and planned.key == "leave"
    assert "Harbourline Annual and Sick Leave Policy" in planned.caution and "Staff Leave Policy" in planned.caution
    out = io.StringIO()
    call_command("import", str(root), "--dry-run", stdout=out, stderr=io.StringIO())
    assert "caution: policy 'leave' is titled" in out.getvalue()

    # a key the manifest sets is the admin's choice
    manifest = manifest_parse("path,key\nleave.md,leave\n", name="m.csv", fmt="csv")
    assert _plan(root, manifest=manifest).files[0].caution == ""
    # a file of another name whose heading is the policy's title is flagged by its name
    other = tmp_path / "other"
    (other / "people").mkdir(parents=True)
    (other / "people" / "leave").mkdir()
    (other / "people" / "leave" / "policy.md").write_bytes(b"# Harbourline Annual and Sick Leave Policy\n\n26 days.\n")
    Policy.objects.filter(key="leave").update(key="people-leave-policy")
    (flagged,) = _plan(other).files
    assert flagged.action == Action.NEW_VERSION and flagged.caution.startswith("policy 'people-leave-policy' was made from leave.md")


@pytest.mark.django_db
def test_a_changed_file_of_its_own_policy_is_not_flagged(tmp_path):
    root = _handbook(tmp_path / "handbook")
    files = import_files_open(root)
    import_apply(plan=import_plan(files=files, defaults=DEFAULTS), files=files)
    (root / "People/Leave Policy.md").write_bytes(b"# Leave Policy (India)\n\nEmployees get 26 days.\n")
    changed = _by_path(_plan(root))["People/Leave Policy.md"]
    assert changed.action == Action.NEW_VERSION and changed.caution == ""
