"""How often the built-in answerer's text contains the expected evidence, and how often it says
"not covered" when it should. Uses the questions file format of `manage.py evaluate`.

    python bench/answer_eval.py [samples/eval/questions.jsonl] [--show-misses 20]

Run it against a database where the sample policies are ingested (make run does that).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "policypal.settings")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower()).strip()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("questions", nargs="?", default="samples/eval/questions.jsonl")
    parser.add_argument("--show-misses", type=int, default=15)
    args = parser.parse_args()
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from policypal.assistant.answering import answer_compose

    users = {}
    rows = [json.loads(line) for line in Path(args.questions).read_text().splitlines() if line.strip()]
    all_found = any_found = answerable = no_answer_right = no_answer = 0
    misses = []
    started = time.perf_counter()
    for row in rows:
        name = row.get("user", "employee")
        user = users.setdefault(name, get_user_model().objects.get(username=name))
        as_of = dt.date.fromisoformat(row["as_of"]) if row.get("as_of") else None
        answer = answer_compose(question=row["question"], user=user, as_of=as_of)
        if row.get("expect_no_answer"):
            no_answer += 1
            no_answer_right += not answer.covered
            continue
        answerable += 1
        text = _norm(answer.text)
        found = [_norm(e) in text for e in row["evidence"]]
        all_found += all(found)
        any_found += any(found)
        if not all(found):
            misses.append((row["question"], [e for e, f in zip(row["evidence"], found) if not f]))
    elapsed = time.perf_counter() - started
    print(f"questions: {len(rows)} ({answerable} answerable, {no_answer} expecting no answer)")
    print(f"answers containing every evidence string: {all_found}/{answerable} = {all_found / max(answerable, 1):.3f}")
    print(f"answers containing at least one:          {any_found}/{answerable} = {any_found / max(answerable, 1):.3f}")
    print(f"'not covered' when expected:              {no_answer_right}/{no_answer}")
    print(f"mean time per answer: {1000 * elapsed / max(len(rows), 1):.0f} ms")
    for question, missing in misses[: args.show_misses]:
        print(f"  MISS {question[:80]!r}: {missing[:2]}")


if __name__ == "__main__":
    main()
