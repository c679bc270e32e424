"""Fidelity of the built-in answerer, by category, on the shipped fidelity set.

    python bench/answer_eval.py [samples/eval/fidelity.jsonl] [--show-misses 10] [--category row_lookup]
    python bench/answer_eval.py samples/eval/questions.jsonl      # the retrieval set: evidence in the answer
    python bench/answer_eval.py --corpus samples/holdout          # another corpus: its policies and questions

It uses the benchmark database (``policypal_bench`` on the embedded server, or
BENCH_DATABASE_URL) and ingests the sample policies there first when they are missing, so it
needs no running app. With ``--corpus DIR`` it evaluates another corpus instead: DIR holds
``manifest.csv`` (path,key,title,category,effective_from,groups; groups separated by ``;``), the
policy files and ``questions.jsonl``; it gets a database of its own (``policypal_bench_<DIR's
name>``), so its policies never mix with the samples. Categories of samples/eval/fidelity.jsonl and what passes:

- row_lookup: answered, every `contains` string in the answer, no `not_contains` string (a string
  ending or starting with a digit matches a whole number only: "9 hours" is not in "36.9 hours");
- absent_label: not answered, every `contains` string ("no row for"), no `not_contains` string;
- uncovered: refused, i.e. not answered (not covered, or partly answered naming what is missing);
- answerable: not refused (answered or partly); `contains` is reported apart;
- definition: not refused and every `contains` string (the rule's words) in the answer.
"""
from __future__ import annotations

import argparse
import collections
import datetime as dt
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdb import REPO, percentile, setup_django  # noqa: E402

TARGETS = {"row_lookup": 0.95, "absent_label": 0.95, "uncovered": 0.90, "answerable": 0.95, "definition": 0.90}


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower().replace("’", "'")).strip()


def _holds(text: str, phrase: str) -> bool:
    """Whether the answer text holds the phrase, not as the tail or head of a longer number ("9
    hours" is not in "36.9 hours", "£45" not in "£450")."""
    if not phrase:
        return True
    edge_before = r"(?<![\d.,])" if phrase[0].isdigit() else ""
    edge_after = r"(?![\d]|[.,]\d)" if phrase[-1].isdigit() else ""
    return re.search(edge_before + re.escape(phrase) + edge_after, text) is not None


def corpus_entries(folder: Path) -> list:
    """The policies of a corpus folder, from its manifest.csv."""
    import csv

    from policypal.policies.samples import SampleEntry

    with (folder / "manifest.csv").open(newline="", encoding="utf-8") as handle:
        return [
            SampleEntry(
                path=folder / row["path"], policy=row["key"], title=row["title"], category=row.get("category") or "",
                effective_from=dt.date.fromisoformat(row["effective_from"]),
                groups=tuple(g.strip() for g in (row.get("groups") or "").split(";") if g.strip()),
            )
            for row in csv.DictReader(handle)
        ]


def ensure_samples(corpus: Path | None = None) -> None:
    from policypal.policies.demo import demo_users_ensure
    from policypal.policies.ingestion import version_ingest_inline
    from policypal.policies.models import PolicyVersion
    from policypal.policies.samples import sample_manifest, samples_ingest

    demo_users_ensure()
    queued = samples_ingest(corpus_entries(corpus) if corpus else sample_manifest(), enqueue=False)
    for version in queued:
        print(f"ingesting sample {version.policy.key} v{version.number} ...", flush=True)
        version_ingest_inline(version_id=version.pk)
    # a run stopped while it ingested (Ctrl-C) leaves versions queued or half done: finish them,
    # rather than score every question of their policies as not covered
    done = (PolicyVersion.Status.READY, PolicyVersion.Status.FAILED, PolicyVersion.Status.CANCELLED)
    stalled = PolicyVersion.objects.filter(note="sample policy").exclude(status__in=done) \
        .exclude(pk__in=[v.pk for v in queued]).select_related("policy")
    for version in stalled:
        print(f"finishing sample {version.policy.key} v{version.number}, left {version.status} by an interrupted run ...",
              flush=True)
        version_ingest_inline(version_id=version.pk)
    failed = PolicyVersion.objects.exclude(status=PolicyVersion.Status.READY).filter(note="sample policy")
    for version in failed:
        print(f"warning: sample {version} is {version.status}: {version.error}")


def judge(row: dict, answer) -> tuple[bool, str]:
    category = row.get("category", "evidence")
    expect = row.get("expect", {})
    text = _norm(answer.text)
    contains = [c for c in expect.get("contains", []) if not _holds(text, _norm(c))]
    leaked = [c for c in expect.get("not_contains", []) if _holds(text, _norm(c))]
    outcome = answer.outcome
    if category == "row_lookup":
        ok = outcome == "answered" and not contains and not leaked
    elif category == "absent_label":
        ok = outcome != "answered" and not contains and not leaked
    elif category == "uncovered":
        ok = outcome != "answered"
    elif category == "answerable":
        ok = outcome != "not_covered"
    elif category == "definition":
        ok = outcome != "not_covered" and not contains
    else:  # the retrieval set: every evidence string in the answer, or "not covered" when expected
        if row.get("expect_no_answer"):
            ok = not answer.covered
        else:
            contains = [e for e in row.get("evidence", []) if _norm(e) not in text]
            ok = not contains
    why = f"outcome {outcome}" + (f"; missing {contains[:2]}" if contains else "") + (f"; shows {leaked[:2]}" if leaked else "")
    return ok, why


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("questions", nargs="?", default=str(REPO / "samples" / "eval" / "fidelity.jsonl"))
    parser.add_argument("--show-misses", type=int, default=10, help="misses to print per category")
    parser.add_argument("--category", default="", help="only this category")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--corpus", metavar="DIR", help="evaluate this corpus (manifest.csv, policies, questions.jsonl)")
    args = parser.parse_args()
    corpus = Path(args.corpus).resolve() if args.corpus else None
    if corpus:
        if not (corpus / "manifest.csv").is_file():
            parser.error(f"{corpus} has no manifest.csv")
        if args.questions == parser.get_default("questions"):
            args.questions = str(corpus / "questions.jsonl")
    setup_django(database=f"policypal_bench_{re.sub(r'[^a-z0-9_]', '_', corpus.name.lower())}" if corpus else None)
    ensure_samples(corpus)
    from django.contrib.auth import get_user_model

    from policypal.assistant.answering import answer_compose

    rows = [json.loads(line) for line in Path(args.questions).read_text().splitlines() if line.strip()]
    if args.category:
        rows = [r for r in rows if r.get("category") == args.category]
    users: dict = {}
    results: dict[str, list[bool]] = collections.defaultdict(list)
    outcomes: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    contains_ok: dict[str, list[bool]] = collections.defaultdict(list)
    misses: dict[str, list[str]] = collections.defaultdict(list)
    timings = []
    failures: list[str] = []  # questions the answer layer failed on (see the log)
    answer_compose(question="warm up the model", user=get_user_model().objects.get(username="employee"))
    for row in rows:
        name = row.get("user", "employee")
        user = users.setdefault(name, get_user_model().objects.get(username=name))
        as_of = dt.date.fromisoformat(row["as_of"]) if row.get("as_of") else None
        started = time.perf_counter()
        answer = answer_compose(question=row["question"], user=user, as_of=as_of)
        timings.append(time.perf_counter() - started)
        category = row.get("category", "expect_no_answer" if row.get("expect_no_answer") else "evidence")
        ok, why = judge(row, answer)
        if getattr(answer, "failed", False):
            failures.append(row["question"])
        results[category].append(ok)
        outcomes[category][answer.outcome] += 1
        wanted = row.get("expect", {}).get("contains")
        if category == "answerable" and wanted:
            contains_ok[category].append(all(_norm(c) in _norm(answer.text) for c in wanted))
        if not ok:
            misses[category].append(f"{row['question'][:90]!r}: {why}")
    figures = {}
    print(f"{'category':<16} {'passed':>9} {'rate':>6} {'target':>7}   outcomes")
    for category, oks in results.items():
        rate = sum(oks) / len(oks)
        target = TARGETS.get(category)
        figures[category] = {"passed": sum(oks), "total": len(oks), "rate": round(rate, 3), "outcomes": dict(outcomes[category])}
        shown = ", ".join(f"{k} {v}" for k, v in sorted(outcomes[category].items()))
        print(f"{category:<16} {sum(oks):>4}/{len(oks):<4} {rate:>6.3f} {'>= ' + format(target, '.2f') if target else '':>7}   {shown}")
    if contains_ok.get("answerable"):
        oks = contains_ok["answerable"]
        print(f"answerable questions whose answer quotes the expected words: {sum(oks)}/{len(oks)}")
        figures["answerable_quotes"] = {"passed": sum(oks), "total": len(oks)}
    refused = outcomes["answerable"].get("not_covered", 0)
    if results.get("answerable"):
        print(f"answerable questions refused (not covered): {refused}/{len(results['answerable'])}")
    print(f"time per answer: p50 {1000 * percentile(timings, 50):.0f} ms, p95 {1000 * percentile(timings, 95):.0f} ms")
    print(f"answer-layer failures (closest sections offered instead): {len(failures)}")
    for question in failures:
        print(f"  FAILED: {question[:120]!r}")
    for category, lines in misses.items():
        for line in lines[: args.show_misses]:
            print(f"  MISS {category}: {line}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
