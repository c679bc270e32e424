"""manage.py ingest PATH... --policy KEY --title T --effective-from YYYY-MM-DD [--groups a,b] [--wait]"""
from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from policypal.commandline import parse_date
from policypal.policies.models import PolicyVersion
from policypal.policies.services import PolicyInputError, sources_from_paths
from policypal.policies.uploads import policy_upload


class Command(BaseCommand):
    help = "Upload one or more files as a new version of a policy and queue its ingestion."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH", help="files of this version (DOCX, PDF, HTML, Markdown, XLSX, CSV, PPTX)")
        parser.add_argument("--policy", required=True, help="stable policy key, e.g. travel")
        parser.add_argument("--title", required=True, help="policy title")
        parser.add_argument("--effective-from", required=True, help="YYYY-MM-DD")
        parser.add_argument("--groups", default=None, help="comma-separated groups that may read it (default: everyone)")
        parser.add_argument("--category", default="", help="document type, e.g. 'HR policy'")
        parser.add_argument("--no-publish", action="store_true", help="leave the version unpublished when ready")
        parser.add_argument("--wait", action="store_true", help="wait until the workers finish, showing progress")
        parser.add_argument("--timeout", type=int, default=1800, help="seconds to wait with --wait")

    def handle(self, *args, **options):
        effective_from = parse_date(options["effective_from"], option="--effective-from")
        groups = None if options["groups"] is None else [g for g in options["groups"].split(",") if g.strip()]
        try:
            # Every file is checked before anything is written; the policy and its version are then
            # created in one transaction, so a refused upload leaves nothing behind.
            sources = sources_from_paths(options["paths"])
            version = policy_upload(
                key=options["policy"],
                title=options["title"],
                category=options["category"],
                group_names=groups,
                sources=sources,
                effective_from=effective_from,
                publish_when_ready=not options["no_publish"],
            )
        except PolicyInputError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"Queued {version.policy.key} v{version.number} (version id {version.pk}), effective from {effective_from}."
        )
        if options["wait"]:
            self._wait(version, options["timeout"])

    def _wait(self, version: PolicyVersion, timeout: int) -> None:
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            version.refresh_from_db()
            line = f"  {version.status:<10} {version.progress:>3}%  {version.progress_detail}"
            if version.restarted_at and not version.is_finished:
                line += " (restarted after a worker stopped)"
            if line != last:
                self.stdout.write(line)
                last = line
            if version.status == PolicyVersion.Status.READY:
                chunks = version.chunks.count()
                self.stdout.write(self.style.SUCCESS(f"Ready: {chunks} chunks{', published' if version.published else ''}."))
                return
            if version.status == PolicyVersion.Status.FAILED:
                raise CommandError(f"Ingestion failed: {version.error}")
            if version.status == PolicyVersion.Status.CANCELLED:
                raise CommandError("Ingestion was cancelled.")
            time.sleep(0.5)
        raise CommandError(
            f"Still {version.status} after {timeout}s. Is a Celery worker running? (make run starts one; "
            "or: celery -A policypal worker -Q policypal)"
        )
