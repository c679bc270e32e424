"""manage.py export_regressions [PATH]

Write the reviewers' regression questions as JSON Lines, the format `manage.py evaluate` reads,
to PATH or to stdout:  python manage.py export_regressions regressions.jsonl
                        python manage.py evaluate regressions.jsonl
"""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from policypal.assistant.models import RegressionQuestion
from policypal.assistant.reviews import regression_questions_jsonl


class Command(BaseCommand):
    help = "Export the regression questions made by reviewers as JSONL for `manage.py evaluate`."

    def add_arguments(self, parser):
        parser.add_argument("path", nargs="?", default=None, help="file to write (default: stdout)")

    def handle(self, *args, **options):
        # The command line is the operator's, who can read the database anyway: every question.
        jsonl = regression_questions_jsonl(RegressionQuestion.objects.order_by("created_at", "id"))
        count = jsonl.count("\n")
        if options["path"] in (None, "-"):
            self.stdout.write(jsonl, ending="")
        else:
            path = Path(options["path"])
            try:
                path.write_text(jsonl, encoding="utf-8")
            except OSError as exc:
                raise CommandError(f"cannot write {path}: {exc}") from None
        if count == 0:
            self.stderr.write("no regression questions yet: make them from an answer under /review/")
        elif options["path"] not in (None, "-"):
            self.stderr.write(f"wrote {count} regression question{'s' if count != 1 else ''} to {options['path']}")
