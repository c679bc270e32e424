"""manage.py search "question" --user NAME [--as-of DATE] [--k 5] [--budget TOKENS] [--batch FILE.jsonl] [--json]

Prints the answer context, what the answerer sees:
{"question", "user", "as_of", "token_count", "budget", "chunks": [{"chunk_id", "breadcrumb", "text",
"score", "policy", "version", "level", "kind", "token_count", "unit", ...}], "left_out": [...],
"notices": [...]}.
Without --budget: the top k searchable chunks, in rank order. With --budget: policy first, then
sections (retrieval/packing.py): the best-covering policy (two when they cover alike), its most
relevant sections whole or by their ranking blocks (a table or a rule with its exception is
never cut), at most k units (sections under one heading; "unit" numbers them, best first;
document order inside a unit), total token_count within the budget. "left_out": the sections that
ranked but did not fit ({"chunk_id", "breadcrumb", "policy", "token_count", "reason": "budget" |
"units" | "partly"}).
--batch FILE.jsonl: one question per line ({"question", optional "user", "as_of", "k", "budget"});
prints one JSON object per line, the model loaded once.
"""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from policypal.commandline import get_user, parse_date
from retrieval.context import AnswerContext, answer_context


def context_dict(context: AnswerContext, *, user: str) -> dict:
    return {
        "question": context.question,
        "user": user,
        "as_of": context.as_of.isoformat(),
        "token_count": context.token_count,
        "budget": context.budget,
        "chunks": [
            {
                "chunk_id": item.chunk.pk,
                "breadcrumb": item.chunk.breadcrumb,
                "text": item.text,
                "score": round(item.score, 6),
                "similarity": None if item.similarity is None else round(item.similarity, 4),
                "policy": item.chunk.version.policy.key,
                "policy_title": item.chunk.version.policy.title,
                "version": item.chunk.version.number,
                "effective_from": item.chunk.version.effective_from.isoformat(),
                "effective_to": item.chunk.version.effective_to.isoformat() if item.chunk.version.effective_to else None,
                "level": item.chunk.level,
                "kind": item.chunk.kind,
                "token_count": item.token_count,
                "rank": item.rank,
                "unit": item.unit or position,
                "expanded_from": item.expanded_from,
                "pages": list(item.chunk.pages),
            }
            for position, item in enumerate(context.chunks, start=1)
        ],
        "left_out": [
            {"chunk_id": o.chunk_id, "breadcrumb": o.breadcrumb, "policy": o.policy, "token_count": o.token_count,
             "reason": o.reason}
            for o in context.left_out
        ],
        "notices": [
            {
                "message": notice.message,
                "policy": notice.version.policy.key,
                "version": notice.version.number,
                "effective_from": notice.version.effective_from.isoformat(),
                "chunk_id": notice.chunk.pk if notice.chunk else None,
                "breadcrumb": notice.chunk.breadcrumb if notice.chunk else None,
            }
            for notice in context.notices
        ],
    }


class Command(BaseCommand):
    help = "Print the ranked answer context for a question, as a user on a date."

    def add_arguments(self, parser):
        parser.add_argument("question", nargs="?", default=None)
        parser.add_argument("--user", default=None, help="username whose access applies (batch lines may carry their own)")
        parser.add_argument("--as-of", default=None, help="YYYY-MM-DD (default today)")
        parser.add_argument("--k", type=int, default=5, help="ranked chunks (default 5)")
        parser.add_argument("--budget", type=int, default=None,
                            help="token budget; packs the best policy's sections into it (policy first, then sections)")
        parser.add_argument("--batch", default=None, help="JSON Lines file of questions; prints one JSON object per line")
        parser.add_argument("--json", action="store_true", help="print JSON")

    def handle(self, *args, **options):
        if options["k"] < 1:
            raise CommandError("--k must be at least 1")
        if options["budget"] is not None and options["budget"] < 1:
            raise CommandError("--budget must be a positive number of tokens")
        if options["batch"]:
            self._batch(options)
            return
        if not options["question"]:
            raise CommandError("give a question, or --batch FILE.jsonl")
        if not options["user"]:
            raise CommandError("--user is required")
        data = self._search(options["question"], options["user"], options["as_of"], options["k"], options["budget"])
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False))
        else:
            self._print(data)

    def _search(self, question: str, username: str, as_of: str | None, k: int, budget: int | None) -> dict:
        question = " ".join(question.split())
        if not question:
            raise CommandError("the question is empty")
        user = get_user(username)
        day = parse_date(as_of, option="as_of")
        context = answer_context(question=question, user=user, as_of=day, k=k, budget=budget)
        return context_dict(context, user=username)

    def _batch(self, options) -> None:
        try:
            lines = open(options["batch"], encoding="utf-8").read().splitlines()
        except OSError as exc:
            raise CommandError(f"cannot read {options['batch']}: {exc}") from None
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                raise CommandError(f"{options['batch']}:{number}: not JSON ({exc.msg})") from None
            if not isinstance(item, dict) or not str(item.get("question", "")).strip():
                raise CommandError(f"{options['batch']}:{number}: needs a \"question\"")
            username = item.get("user") or options["user"]
            if not username:
                raise CommandError(f"{options['batch']}:{number}: no user (give --user or a \"user\" field)")
            data = self._search(
                str(item["question"]), username, item.get("as_of") or options["as_of"],
                int(item.get("k") or options["k"]), item.get("budget") or options["budget"],
            )
            self.stdout.write(json.dumps(data, ensure_ascii=False))

    def _print(self, data: dict) -> None:
        budget = f" of {data['budget']}" if data["budget"] else ""
        self.stdout.write(f"{data['question']}  (as {data['user']} on {data['as_of']}, {data['token_count']}{budget} tokens)")
        for n, c in enumerate(data["chunks"], start=1):
            self.stdout.write(self.style.MIGRATE_HEADING(
                f"\n[{n}] unit {c['unit']}: {c['breadcrumb']}  ({c['policy']} v{c['version']}, {c['level']}/{c['kind']}, "
                f"score {c['score']:.4f}, {c['token_count']} tokens)"
            ))
            self.stdout.write(c["text"])
        for o in data["left_out"]:
            self.stdout.write(self.style.WARNING(f"\nLeft out ({o['reason']}, {o['token_count']} tokens): {o['breadcrumb']}"))
        for notice in data["notices"]:
            self.stdout.write(self.style.WARNING(f"\nNote: {notice['message']}"))
