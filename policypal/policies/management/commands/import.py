"""manage.py import PATH [--manifest FILE] [--effective-from D] [--groups a,b] [--category C] [--dry-run] [--wait]"""
from __future__ import annotations

import argparse
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, DjangoHelpFormatter
from django.utils import timezone

from policypal.policies.bulk_import import Action, ImportDefaults, ImportPlan, import_apply, import_plan, import_wait
from policypal.policies.import_files import ImportSourceError, import_files_open
from policypal.policies.import_manifest import MANIFEST_NAMES, FieldValueError, ManifestError, field_value, manifest_load
from policypal.policies.services import ACCEPTED_LABEL

EPILOG = f"""\
Each file under PATH (a folder, walked; a .zip archive; or one file) in a supported format
({ACCEPTED_LABEL}) becomes a policy, or a new version of the policy with its key.
The key is the file's path slugified ("people/Leave Policy.docx" -> people-leave-policy, at
most 80 characters); the title is the document's first heading, else its file name. A re-run
skips files whose sha256 equals their policy's latest version's and makes a new version of
those that changed. Hidden files, __MACOSX folders and Office lock files (~$...) are passed
over; an archive whose files all sit in one folder is read from inside it. Files that cannot be
imported are listed at the end with the reason, and the exit status is then 1.

Manifest (--manifest, YAML or CSV): entries that set title, key, category, effective_from and
groups for a file, a folder or a glob (relative to PATH; * within a folder, ** across folders).
Entries apply in order; for each field the last matching entry wins; the manifest beats the
options above.

  # manifest.yaml
  - path: "people/**"
    groups: [people-team]
    category: People
  - path: finance/travel.docx
    key: travel
    title: Travel and Expenses Policy
    effective_from: 2026-04-01

  # manifest.csv (a header row; only path is required)
  path,key,title,category,effective_from,groups
  people/**,,,People,,people-team
  finance/travel.docx,travel,Travel and Expenses Policy,,2026-04-01,
"""


class _HelpFormatter(DjangoHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Django's option order, with the epilog's examples kept as written."""


class Command(BaseCommand):
    help = "Import a folder, a .zip archive or a file of policy documents: each file a policy or a new version."

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.formatter_class = _HelpFormatter
        parser.epilog = EPILOG
        return parser

    def add_arguments(self, parser):
        parser.add_argument("path", metavar="PATH", help="a folder, a .zip archive or one file")
        parser.add_argument("--manifest", metavar="FILE", help="YAML or CSV file with per-file or per-folder values (below)")
        parser.add_argument("--effective-from", metavar="D", help="YYYY-MM-DD for new versions (default: today)")
        parser.add_argument("--groups", help="comma-separated groups that may read the imported policies (default: everyone for a "
                            "new policy; an existing one keeps its groups)")
        parser.add_argument("--category", help="document type of the imported policies, e.g. 'HR policy' (default: none for a new "
                            "policy; an existing one keeps its own)")
        parser.add_argument("--no-publish", action="store_true", help="leave the versions unpublished when ready")
        parser.add_argument("--dry-run", action="store_true", help="print the plan (new, new version, unchanged, "
                            "invalid) and write nothing")
        parser.add_argument("--wait", action="store_true", help="wait until the workers finish every version, showing progress")
        parser.add_argument("--timeout", type=int, default=3600, help="seconds to wait with --wait (default 3600)")

    def handle(self, *args, **options):
        defaults = self._defaults(options)
        if options["timeout"] <= 0:
            raise CommandError(f"--timeout must be a positive number of seconds, got {options['timeout']}")
        path = Path(options["path"])
        if not options["manifest"] and path.is_dir():
            # as the zip upload does: a manifest at the folder's root is its manifest, not a policy
            root = next((path / name for name in MANIFEST_NAMES if (path / name).is_file()), None)
            if root is not None:
                options["manifest"] = str(root)
                self.stderr.write(f"Using the manifest {root.name} at the folder's root.")
        try:
            manifest = manifest_load(options["manifest"]) if options["manifest"] else None
            files = import_files_open(path, exclude=(Path(options["manifest"]),) if options["manifest"] else ())
        except (ManifestError, ImportSourceError) as exc:
            raise CommandError(str(exc)) from None
        try:
            plan = import_plan(files=files, defaults=defaults, manifest=manifest, progress=_Progress(self.stderr))
            self._print_plan(plan)
            if options["dry_run"]:
                return self._finish_dry_run(plan)
            outcome = import_apply(plan=plan, files=files, publish_when_ready=not options["no_publish"],
                                   progress=_Progress(self.stderr))
        except ImportSourceError as exc:
            raise CommandError(str(exc)) from None
        finally:
            getattr(files, "close", lambda: None)()
        new = sum(1 for a in outcome.queued if a.planned.action == Action.NEW)
        new_versions = sum(1 for a in outcome.queued if a.planned.action == Action.NEW_VERSION)
        updated = sum(1 for a in outcome.applied if a.planned.action == Action.UNCHANGED and not a.error)
        unchanged = len(plan.having(Action.UNCHANGED))
        failures = [*((f.path, "; ".join(f.reasons)) for f in plan.having(Action.INVALID)),
                    *(("manifest", problem) for problem in plan.problems),
                    *((a.planned.path, a.error) for a in outcome.failed)]
        failed_files = len(failures) - len(plan.problems)
        summary = (f"Imported: {new} new {_plural(new, 'policy', 'policies')}, {new_versions} new "
                   f"{_plural(new_versions, 'version')}; {unchanged} unchanged"
                   + (f" ({updated} with their details updated)" if updated else "") + f"; {failed_files} failed"
                   + (f"; {_count(len(plan.problems), 'manifest problem')}" if plan.problems else "") + ".")
        processing_failures: list[tuple[str, str]] = []
        if options["wait"] and outcome.queued:
            self.stdout.write(summary)
            waited = import_wait(version_ids=[a.version_id for a in outcome.queued], timeout=options["timeout"],
                                 progress=_Progress(self.stderr))
            path_of = {a.version_id: a.planned.path for a in outcome.queued}
            processing_failures = [(path_of[pk], reason) for pk, reason in waited.failed]
            processing_failures += [(path_of[pk], f"still processing after {options['timeout']} s (is a Celery worker "
                                                  "running? make run starts one)") for pk in waited.unfinished]
            summary = (f"Processed: {len(waited.ready)} ready, {len(waited.failed)} failed processing"
                       + (f", {len(waited.unfinished)} unfinished" if waited.unfinished else "") + ".")
        self._print_failures(failures, "Not imported")
        self._print_failures(processing_failures, "Failed processing")
        self.stdout.write(self.style.SUCCESS(summary) if not failures and not processing_failures else summary)
        if failures or processing_failures:
            raise CommandError(_failed_line(failed_files + len(processing_failures), plan, "failed"))

    def _defaults(self, options) -> ImportDefaults:
        """The options' values, each checked against the limits of the field it sets."""
        try:
            effective_from = field_value("effective_from", options["effective_from"] or "", label="--effective-from")
            category = field_value("category", options["category"] or "", label="--category")
            groups = field_value("groups", options["groups"] or "", label="--groups")
        except FieldValueError as exc:
            raise CommandError(str(exc)) from None
        if options["groups"] is not None and not groups:
            raise CommandError("--groups names no group; leave it out to let everyone read the new policies")
        return ImportDefaults(effective_from=effective_from or timezone.localdate(), category=category, groups=groups)

    def _print_plan(self, plan: ImportPlan) -> None:
        self.stdout.write(f"Plan for {plan.source}: {len(plan.files)} {_plural(len(plan.files), 'file')}")
        for f in plan.files:
            if f.action == Action.INVALID:
                self.stdout.write(f"  {f.action.value:<12} {f.path}")
                continue
            extra = f" (updates {', '.join(f.updates)})" if f.updates else ""
            self.stdout.write(f"  {f.action.value:<12} {f.path} -> {f.key} \"{_short(f.title)}\"{extra}")
            if f.caution:
                self.stdout.write(self.style.WARNING(f"  {'':<12} caution: {f.caution}"))

    def _finish_dry_run(self, plan: ImportPlan) -> None:
        failures = [*((f.path, "; ".join(f.reasons)) for f in plan.having(Action.INVALID)),
                    *(("manifest", problem) for problem in plan.problems)]
        self._print_failures(failures, "Would not be imported")
        invalid = len(plan.having(Action.INVALID))
        self.stdout.write(
            f"Dry run, nothing written: {len(plan.having(Action.NEW))} new, {len(plan.having(Action.NEW_VERSION))} new "
            f"{_plural(len(plan.having(Action.NEW_VERSION)), 'version')}, {len(plan.having(Action.UNCHANGED))} unchanged, "
            f"{invalid} invalid" + (f"; {_count(len(plan.problems), 'manifest problem')}" if plan.problems else "") + "."
        )
        if failures:
            raise CommandError(_failed_line(invalid, plan, "would fail"))

    def _print_failures(self, failures: list[tuple[str, str]], heading: str) -> None:
        if not failures:
            return
        self.stdout.write(f"{heading} ({len(failures)}):")
        for path, reason in failures:
            # A reason already naming the file ("x.md is empty.") is shown as is.
            self.stdout.write(f"  {reason}" if reason.startswith(path) else f"  {path}: {reason}")


class _Progress:
    """A counter on stderr: one line redrawn on a terminal, else a line every tenth of the way."""

    LABELS = {"read": "read", "queued": "queued", "processing": "finished"}

    def __init__(self, stream) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.last: tuple | None = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        label = self.LABELS.get(stage, stage)
        if self.tty:
            width = 30
            filled = width * done // max(total, 1)
            self.stream.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}",
                              ending="\n" if done >= total else "")
            self.stream.flush()
            return
        step = (stage, 10 * done // max(total, 1))
        if step != self.last:
            self.last = step
            self.stream.write(f"{label} {done}/{total}")


def _failed_line(failed: int, plan: ImportPlan, verb: str) -> str:
    parts = [f"{failed} of {_count(len(plan.files), 'file')} {verb}"] if failed else []
    if plan.problems:
        parts.append(f"the manifest has {_count(len(plan.problems), 'problem')}")
    return " and ".join(parts) + " (listed above)."


def _count(n: int, one: str) -> str:
    return f"{n} {_plural(n, one)}"


def _plural(n: int, one: str, many: str | None = None) -> str:
    return one if n == 1 else (many or one + "s")


def _short(text: str, limit: int = 70) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"

