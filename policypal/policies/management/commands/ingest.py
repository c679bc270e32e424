"""manage.py ingest PATH... --policy KEY --title T --effective-from YYYY-MM-DD [--groups a,b] [--wait]"""
from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from policypal.commandline import parse_date
from policypal.policies.models import PolicyVersion
from policypal.policies.services import (
    PolicyInputError,
    policy_upsert,
    policy_version_create,
    sources_from_paths,
)


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
            policy = policy_upsert(key=options["policy"], title=options["title"], category=options["category"], group_names=groups)
            version = policy_version_create(
                policy=policy,
                sources=sources_from_paths(options["paths"]),
                effective_from=effective_from,
                publish_when_ready=not options["no_publish"],
            )
        except PolicyInputError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"Queued {policy.key} v{version.number} (version id {version.pk}), effective from {effective_from}.")
        if options["wait"]:
            self._wait(version, options["timeout"])

    def _wait(self, version: PolicyVersion, timeout: int) -> None:
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            version.refresh_from_db()
            line = f"  {version.status:<10} {version.progress:>3}%  {version.progress_detail}"
            if line != last:
                self.stdout.write(line)
                last = line
            if version.status == PolicyVersion.Status.READY:
                chunks = version.chunks.count()
                self.stdout.write(self.style.SUCCESS(f"Ready: {chunks} chunks{', published' if version.published else ''}."))
                return
            if version.status == PolicyVersion.Status.FAILED:
                raise CommandError(f"Ingestion failed: {version.error}")
            time.sleep(0.5)
        raise CommandError(
            f"Still {version.status} after {timeout}s. Is a Celery worker running? (make run starts one; "
            "or: celery -A policypal worker -Q policypal)"
        )
