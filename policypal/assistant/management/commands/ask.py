"""manage.py ask "question" --user NAME [--as-of YYYY-MM-DD] [--json]"""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from policypal.assistant.forms import AskForm
from policypal.assistant.presenters import answer_dict
from policypal.assistant.services import answer_question
from policypal.commandline import get_user, parse_date


class Command(BaseCommand):
    help = "Ask the assistant a question as a user, optionally as of a date."

    def add_arguments(self, parser):
        parser.add_argument("question")
        parser.add_argument("--user", required=True, help="username whose access applies")
        parser.add_argument("--as-of", default=None, help="YYYY-MM-DD (default today)")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--no-record", action="store_true", help="do not keep the answer for reviewers")

    def handle(self, *args, **options):
        user = get_user(options["user"])
        as_of = parse_date(options["as_of"], option="--as-of")
        # the chat page's and the API's own check, so the three say the same ("Keep the question to ...")
        form = AskForm({"question": options["question"]})
        if not form.is_valid() and "question" in form.errors:
            raise CommandError(" ".join(form.errors["question"]))
        composed, _ = answer_question(question=form.cleaned_data["question"], user=user, as_of=as_of,
                                      record=not options["no_record"])
        data = answer_dict(composed)
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False))
            return
        self.stdout.write(data["answer"])
        for notice in data["notices"]:
            self.stdout.write(self.style.WARNING(f"Note: {notice}"))
        for c in data["citations"]:
            dates = f"{c['effective_from']} to {c['effective_to'] or 'now'}"
            self.stdout.write(f"\n[{c['n']}] {c['breadcrumb']}  ({c['policy_title']} v{c['version']}, {dates})")
