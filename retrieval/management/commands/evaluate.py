"""manage.py evaluate QUESTIONS.jsonl [--k 5] [--budget 1000] [--user NAME] [--as-of DATE]
[--strategy default|structure|overlap|fixed|fixed256|heading|all ...] [--json] [--min-recall X]
[--min-all-evidence X]

Evidence recall@k, all-evidence@k and MRR of retrieval over a question set, over the first k
units of the answer context within the token budget; the same over the whole context within the
budget; the no-answer (permission) questions; and per-question misses with the chunks that
ranked instead (retrieval/evaluation.py). Several strategies compare on the same questions in
one run: the live chunk table ("default", packed policy first, then sections) and the published
documents re-chunked into temporary chunk tables of this session (retrieval/strategies.py:
the structure-aware variants, and the baselines fixed, fixed256 and heading, ranked by the
same hybrid search; nothing the app serves is touched).
"""
from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from policypal.commandline import parse_date
from retrieval.evaluation import (
    QuestionFileError,
    StrategyReport,
    evaluate_questions,
    question_vectors,
    questions_load,
)
from retrieval.strategies import LIVE, PACKED, STRATEGIES, strategy_chunk_table


def parse_strategies(values: list[str] | None) -> list[str]:
    names: list[str] = []
    for value in values or [LIVE]:
        for name in value.split(","):
            name = name.strip()
            if not name:
                continue
            if name == "all":
                names.extend(STRATEGIES)
            elif name in STRATEGIES:
                names.append(name)
            else:
                raise CommandError(f"unknown --strategy {name!r}; choose from {', '.join(STRATEGIES)} or all")
    return list(dict.fromkeys(names))


class Command(BaseCommand):
    help = "Evaluate retrieval over a JSON Lines question set (evidence recall@k, all-evidence@k, MRR, misses)."

    def add_arguments(self, parser):
        parser.add_argument("questions", help="JSON Lines file: question, evidence[], user, as_of, expect_no_answer, ...")
        parser.add_argument("--k", type=int, default=5, help="ranked chunks considered (default 5)")
        parser.add_argument("--budget", type=int, default=1000,
                            help="token budget of the answer context after parent expansion (default 1000; 0 = skip)")
        parser.add_argument("--user", default=None, help="user for questions without one (default employee)")
        parser.add_argument("--as-of", default=None, help="date for questions without one, YYYY-MM-DD (default today)")
        parser.add_argument("--strategy", action="append", default=None,
                            help=f"chunking strategy, repeatable or comma-separated: {', '.join(STRATEGIES)}, all "
                                 "(default: the live index)")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--misses", type=int, default=10, help="misses listed per strategy in the table (default 10)")
        parser.add_argument("--min-recall", type=float, default=None,
                            help="exit with status 1 when recall@k of the first strategy is below this")
        parser.add_argument("--min-all-evidence", type=float, default=None,
                            help="exit with status 1 when all-evidence@k of the first strategy is below this")

    def handle(self, *args, **options):
        if options["k"] < 1:
            raise CommandError("--k must be at least 1")
        budget = options["budget"] or None
        strategies = parse_strategies(options["strategy"])
        as_of = parse_date(options["as_of"], option="--as-of")
        try:
            questions = questions_load(options["questions"])
        except (OSError, QuestionFileError) as exc:
            raise CommandError(str(exc)) from None
        vectors = question_vectors(questions)
        reports: list[StrategyReport] = []
        for strategy in strategies:
            self._progress(f"evaluating {strategy} on {len(questions)} questions")
            try:
                if strategy == LIVE:
                    report = evaluate_questions(questions, k=options["k"], budget=budget, user=options["user"],
                                                as_of=as_of, strategy=strategy, vectors=vectors, packed=True)
                else:
                    with strategy_chunk_table(strategy=strategy, on_progress=self._progress) as chunk_source:
                        report = evaluate_questions(questions, k=options["k"], budget=budget, user=options["user"],
                                                    as_of=as_of, chunk_source=chunk_source, strategy=strategy,
                                                    vectors=vectors, packed=strategy in PACKED)
            except QuestionFileError as exc:
                raise CommandError(str(exc)) from None
            reports.append(report)
        if options["json"]:
            self.stdout.write(json.dumps({
                "questions_file": str(options["questions"]),
                "questions": len(questions),
                "k": options["k"],
                "budget": budget,
                "strategies": {r.strategy: r.as_dict() for r in reports},
            }, ensure_ascii=False))
        else:
            self._print_table(reports, misses=options["misses"])
        self._check_floors(reports[0], options)

    def _progress(self, message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    def _check_floors(self, report: StrategyReport, options) -> None:
        m = report.metrics
        failures = []
        if options["min_recall"] is not None and m.recall_at_k < options["min_recall"]:
            failures.append(f"recall@{report.k} {m.recall_at_k:.3f} < {options['min_recall']}")
        if options["min_all_evidence"] is not None and m.all_evidence_at_k < options["min_all_evidence"]:
            failures.append(f"all-evidence@{report.k} {m.all_evidence_at_k:.3f} < {options['min_all_evidence']}")
        if failures:
            raise CommandError(f"{report.strategy}: " + "; ".join(failures))

    def _print_headline(self, reports: list[StrategyReport]) -> None:
        """The three figures the scenario targets name, one row per strategy."""
        k, budget = reports[0].k, reports[0].budget
        if not budget:
            return
        rows = [("strategy", f"all evidence in the top {k} units", f"evidence recall within {budget} tokens",
                 f"all evidence within {budget} tokens")]
        for r in reports:
            m = r.metrics
            rows.append((r.strategy, f"{m.all_evidence_at_k:.3f}", _fmt(m.recall_in_budget), _fmt(m.all_evidence_in_budget)))
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        self.stdout.write("")
        for i, row in enumerate(rows):
            self.stdout.write("  ".join(cell.ljust(w) if j == 0 else cell.rjust(w) for j, (cell, w) in enumerate(zip(row, widths))))
            if i == 0:
                self.stdout.write("  ".join("-" * w for w in widths))

    def _print_table(self, reports: list[StrategyReport], *, misses: int) -> None:
        k = reports[0].k
        budget = reports[0].budget
        b = f"{budget}t" if budget else "budget"
        rows = [("strategy", "chunks", f"recall@{k}", f"all-ev@{k}", f"MRR@{k}", f"tokens@{k}",
                 f"recall@{b}", f"all-ev@{b}", f"MRR@{b}", "tokens", "no-answer", "leaks")]
        for r in reports:
            m = r.metrics
            rows.append((
                r.strategy, "live" if r.chunks is None else str(r.chunks),
                f"{m.recall_at_k:.3f}", f"{m.all_evidence_at_k:.3f}", f"{m.mrr_at_k:.3f}", f"{m.mean_top_k_tokens:.0f}",
                _fmt(m.recall_in_budget), _fmt(m.all_evidence_in_budget), _fmt(m.mrr_in_budget),
                "-" if m.mean_budget_tokens is None else f"{m.mean_budget_tokens:.0f}",
                f"{m.no_answer_passed}/{m.no_answer_questions}", str(m.leaks),
            ))
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for i, row in enumerate(rows):
            self.stdout.write("  ".join(cell.ljust(w) if j == 0 else cell.rjust(w) for j, (cell, w) in enumerate(zip(row, widths))))
            if i == 0:
                self.stdout.write("  ".join("-" * w for w in widths))
        m0 = reports[0].metrics
        within = f" within {budget} tokens" if budget else ""
        self.stdout.write(f"\n{m0.questions} questions, {m0.answerable} with evidence, "
                          f"{m0.no_answer_questions} expecting no answer. @{k}: the first {k} units of the "
                          f"answer context{within} (default, structure, overlap: packed sections; fixed, "
                          f"fixed256, heading: ranked chunks)"
                          + (f"; @{b}: the whole answer context within {budget} tokens (baselines: the top "
                             f"{reports[0].budget_depth} hits after parent expansion)" if budget else ""))
        self._print_headline(reports)
        for report in reports:
            listed = report.misses()
            if not listed:
                continue
            self.stdout.write(self.style.WARNING(f"\n{report.strategy}: {len(listed)} questions missed (first {min(misses, len(listed))})"))
            for result in listed[:misses]:
                q = result.question
                self.stdout.write(f"  line {q.line}: {q.question}  [{result.user}, {result.as_of}]")
                top = result.top_k
                if q.expect_no_answer:
                    self.stdout.write(f"    leaked: {top.leaks or ''} hidden policies: {top.hidden_policies or ''}")
                else:
                    for evidence, rank in zip(q.evidence, top.found):
                        mark = f"@{rank}" if rank else "MISSING"
                        self.stdout.write(f"    {mark:>7}  {evidence[:90]}")
                    if result.budget is not None:
                        missing_b = sum(r is None for r in result.budget.found)
                        self.stdout.write(f"    in budget: {len(q.evidence) - missing_b}/{len(q.evidence)} found, {result.budget.tokens} tokens")
                self.stdout.write("    ranked instead:")
                for c in top.chunks:
                    holds = f" holds {len(c.evidence)}" if c.evidence else ""
                    self.stdout.write(f"      {c.rank}. [{c.policy} v{c.version} {c.kind}] {c.breadcrumb[-70:]}{holds}")


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"
