"""Check the answer fidelity set (``fidelity.jsonl``) against the sample policies.

    python samples/eval/check_fidelity.py [--today YYYY-MM-DD] [--quiet]

For every line it checks that

* the line is well formed: known fields, a known category whose expected
  outcome matches it, a known user, an ISO ``as_of`` date, no duplicate question;
* every ``contains`` string of an answered question (``row_lookup``,
  ``answerable``, ``definition``) occurs verbatim (case-insensitive, whitespace
  and typography normalised) in a sample policy that the question's user may
  read and that is in force on its ``as_of`` date (today by default);
* a question whose ``contains`` strings are in some versions of a policy but
  not in others names its ``as_of`` date, so the set keeps its meaning;
* every ``not_contains`` string occurs in some sample the user may read (a
  value of another row of the table, so the negative check means something)
  and overlaps no ``contains`` string of the same question;
* ``absent_label`` questions expect the phrase "no row for"; ``row_lookup``
  questions list 2-4 ``not_contains`` values;
* each category has at least its minimum number of questions.

Text is read plainly: Markdown as written, HTML through the standard library's
parser, DOCX through python-docx (paragraphs and table cells). Prints a
summary; exit status 1 when anything fails. Warnings (a ``not_contains`` value
that also occurs elsewhere in the visible policies) do not fail.
"""
from __future__ import annotations

import argparse
import collections
import datetime as dt
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLES = HERE.parent
MANIFEST = SAMPLES / "manifest.json"
QUESTIONS = HERE / "fidelity.jsonl"

USERS = {"employee": set(), "manager": {"managers"}}
FIELDS = {"category", "question", "expect", "as_of", "user"}
EXPECT_FIELDS = {"outcome", "contains", "not_contains"}
OUTCOMES = {
    "row_lookup": "answered",
    "absent_label": "not_covered",
    "uncovered": "not_covered",
    "answerable": "answered",
    "definition": "answered",
}
MINIMUMS = {"row_lookup": 40, "absent_label": 10, "uncovered": 60, "answerable": 60, "definition": 15}
ANSWERED = {c for c, o in OUTCOMES.items() if o == "answered"}
ABSENT_PHRASE = "no row for"

_TYPOGRAPHY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                             "\u2013": "-", "\u2014": "-", "\u00a0": " "})


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.translate(_TYPOGRAPHY)).strip().casefold()


# ---------------------------------------------------------------------------
# Reading the samples as plain text
# ---------------------------------------------------------------------------


class _HTMLText(HTMLParser):
    BLOCKS = {"p", "li", "td", "th", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "caption", "div", "br",
              "section", "article", "table", "ul", "ol", "title"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip = max(0, self._skip - 1)
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def read_text(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix == ".docx":
        import docx
        from docx.table import Table
        from docx.text.paragraph import Paragraph

        lines: list[str] = []
        for item in docx.Document(str(path)).iter_inner_content():
            if isinstance(item, Paragraph):
                lines.append(item.text)
            elif isinstance(item, Table):
                for r in item.rows:
                    lines.extend(cell.text for cell in r.cells)
        return "\n".join(lines)
    if suffix in (".html", ".htm"):
        parser = _HTMLText()
        parser.feed(path.read_text(encoding="utf-8"))
        return "".join(parser.parts)
    return path.read_text(encoding="utf-8")


class Corpus:
    def __init__(self, manifest: Path) -> None:
        self.entries = []
        for item in json.loads(manifest.read_text()):
            path = manifest.parent / item["path"]
            self.entries.append({
                "path": item["path"],
                "policy": item["policy"],
                "effective_from": dt.date.fromisoformat(item["effective_from"]),
                "groups": set(item.get("groups", [])),
                "text": norm(read_text(path)),
            })

    def in_force(self, user: str, on: dt.date) -> list[dict]:
        """The version of each policy in force on the date, among those the user may read."""
        groups = USERS[user]
        newest: dict[str, dict] = {}
        for e in self.entries:
            if e["effective_from"] > on or (e["groups"] and not e["groups"] & groups):
                continue
            if e["policy"] not in newest or e["effective_from"] > newest[e["policy"]]["effective_from"]:
                newest[e["policy"]] = e
        return list(newest.values())

    def visible_any_date(self, user: str) -> list[dict]:
        groups = USERS[user]
        return [e for e in self.entries if not e["groups"] or e["groups"] & groups]

    def where(self, needle: str, entries: list[dict]) -> list[str]:
        n = norm(needle)
        return [e["path"] for e in entries if n in e["text"]]

    def occurrences(self, needle: str, entries: list[dict]) -> int:
        n = norm(needle)
        return sum(e["text"].count(n) for e in entries)

    def versions_differ(self, needle: str) -> bool:
        """True when some policy has the string in one of its versions but not in another."""
        n = norm(needle)
        by_policy: dict[str, set[bool]] = collections.defaultdict(set)
        for e in self.entries:
            by_policy[e["policy"]].add(n in e["text"])
        return any(len(found) > 1 for found in by_policy.values())


# ---------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------


def _string_list(value, name: str, problems: list[str]) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(s, str) and s.strip() for s in value):
        problems.append(f"{name} must be a list of non-empty strings")
        return []
    return value


def check_line(q: dict, corpus: Corpus, today: dt.date) -> tuple[list[str], list[str], list[str]]:
    """(errors, warnings, source paths of its contains strings) for one question."""
    errors: list[str] = []
    warnings: list[str] = []
    sources: list[str] = []
    unknown = set(q) - FIELDS
    if unknown:
        errors.append(f"unknown fields {sorted(unknown)}")
    category = q.get("category")
    if category not in OUTCOMES:
        errors.append(f"unknown category {category!r}")
        return errors, warnings, sources
    if not isinstance(q.get("question"), str) or not q["question"].strip():
        errors.append("question missing")
    user = q.get("user", "employee")
    if user not in USERS:
        errors.append(f"unknown user {user!r}")
        return errors, warnings, sources
    on = today
    if "as_of" in q:
        try:
            on = dt.date.fromisoformat(q["as_of"])
        except (TypeError, ValueError):
            errors.append(f"as_of {q['as_of']!r} is not YYYY-MM-DD")
            return errors, warnings, sources
    expect = q.get("expect")
    if not isinstance(expect, dict):
        errors.append("expect missing")
        return errors, warnings, sources
    if set(expect) - EXPECT_FIELDS:
        errors.append(f"unknown expect fields {sorted(set(expect) - EXPECT_FIELDS)}")
    if expect.get("outcome") != OUTCOMES[category]:
        errors.append(f"outcome {expect.get('outcome')!r}, but {category} expects {OUTCOMES[category]!r}")
    contains = _string_list(expect.get("contains"), "contains", errors)
    not_contains = _string_list(expect.get("not_contains"), "not_contains", errors)

    in_force = corpus.in_force(user, on)
    visible = corpus.visible_any_date(user)

    if category in ANSWERED:
        if not contains:
            errors.append("an answered question needs contains strings")
        for s in contains:
            found = corpus.where(s, in_force)
            if not found:
                anywhere = corpus.where(s, corpus.entries)
                why = f" (it is in {anywhere}, not visible to {user} in force on {on})" if anywhere else ""
                errors.append(f"contains {s!r} is not in any sample{why}")
                continue
            sources.extend(found)
            if "as_of" not in q and corpus.versions_differ(s):
                errors.append(f"contains {s!r} differs between versions of a policy: set as_of")
    elif category == "absent_label":
        if [norm(s) for s in contains] != [ABSENT_PHRASE]:
            errors.append(f"absent_label expects contains [{ABSENT_PHRASE!r}]")
    elif contains:
        errors.append("an uncovered question has no contains strings")

    if category == "row_lookup" and not 2 <= len(not_contains) <= 4:
        errors.append(f"row_lookup wants 2-4 not_contains values, has {len(not_contains)}")
    if category == "absent_label" and not not_contains:
        errors.append("absent_label wants not_contains values of rows a wrong answer would give")
    for s in not_contains:
        if not corpus.where(s, visible):
            errors.append(f"not_contains {s!r} is in no sample {user} may read: the check would prove nothing")
        for c in contains:
            if norm(s) in norm(c) or norm(c) in norm(s):
                errors.append(f"not_contains {s!r} overlaps contains {c!r}")
        if category == "row_lookup" and corpus.occurrences(s, in_force) > 1:
            warnings.append(f"not_contains {s!r} occurs {corpus.occurrences(s, in_force)} times in the visible policies")
    return errors, warnings, sources


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", nargs="?", default=str(QUESTIONS))
    parser.add_argument("--today", default=None, help="date used for questions without as_of (default: today)")
    parser.add_argument("--quiet", action="store_true", help="do not print warnings")
    args = parser.parse_args(argv)
    today = dt.date.fromisoformat(args.today) if args.today else dt.date.today()

    corpus = Corpus(MANIFEST)
    problems = 0
    counts: collections.Counter[str] = collections.Counter()
    users: collections.Counter[str] = collections.Counter()
    dated = 0
    sources_by_category: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    seen: dict[str, int] = {}
    for number, line in enumerate(Path(args.questions).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            q = json.loads(line)
        except json.JSONDecodeError as exc:
            print(f"ERROR line {number}: not JSON ({exc})")
            problems += 1
            continue
        if not isinstance(q, dict):
            print(f"ERROR line {number}: not a JSON object")
            problems += 1
            continue
        label = f"line {number} ({str(q.get('question', ''))[:60]!r})"
        key = norm(str(q.get("question", "")))
        if key in seen:
            print(f"ERROR {label}: same question as line {seen[key]}")
            problems += 1
        seen[key] = number
        errors, warnings, sources = check_line(q, corpus, today)
        for e in errors:
            print(f"ERROR {label}: {e}")
        if not args.quiet:
            for w in warnings:
                print(f"WARN  {label}: {w}")
        problems += len(errors)
        category = q.get("category", "?")
        counts[category] += 1
        users[q.get("user", "employee")] += 1
        dated += "as_of" in q
        for path in set(sources):
            sources_by_category[category][path] += 1

    print()
    print(f"{sum(counts.values())} questions ({dated} with as_of; users: "
          + ", ".join(f"{u} {n}" for u, n in sorted(users.items())) + ")")
    for category, minimum in MINIMUMS.items():
        flag = "ok" if counts[category] >= minimum else f"BELOW MINIMUM {minimum}"
        spread = ", ".join(f"{Path(p).name} {n}" for p, n in sorted(sources_by_category[category].items()))
        print(f"  {category:<13} {counts[category]:>4}  {flag}" + (f"  [{spread}]" if spread else ""))
        if counts[category] < minimum:
            problems += 1
    for category in sorted(set(counts) - set(MINIMUMS)):
        print(f"  {category:<13} {counts[category]:>4}  unknown category")
    if problems:
        print(f"FAILED: {problems} problem(s)")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
