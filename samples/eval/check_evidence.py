"""Check the retrieval evaluation set against the sample policies.

    python samples/eval/check_evidence.py [--docling] [--today YYYY-MM-DD]

For every question in ``questions.jsonl`` it checks that

* the line is well formed (known fields, known user, ISO dates, tags a list);
* every evidence string occurs verbatim (whitespace normalised) inside one
  block (paragraph, heading, list item, table cell, caption, code block) of a
  policy the question's user may read and that is in force on its ``as_of``
  date (the newest version with ``effective_from <= as_of``; today by default);
* a question whose evidence differs between versions of a policy names its
  ``as_of`` date, so the set does not silently change meaning as time passes;
* ``expect_no_answer`` questions have no evidence, and each of their
  ``must_not_retrieve`` strings exists in some policy but in none that the
  user may read on that date (otherwise the negative test proves nothing).

Text is extracted with python-docx (DOCX), a small Markdown block reader and
the standard library's HTML parser. ``--docling`` repeats the presence check
on Docling's conversion of each file, which is what the real pipeline sees.

Exit status 0 when everything passes, 1 otherwise. Warnings (evidence that
occurs in more than one block, lengths outside 4-15 words) do not fail.
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
QUESTIONS = HERE / "questions.jsonl"

USERS = {"employee": set(), "manager": {"managers"}}
FIELDS = {"question", "evidence", "user", "as_of", "expect_no_answer", "tags", "must_not_retrieve"}


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# ---------------------------------------------------------------------------
# Block extraction
# ---------------------------------------------------------------------------


def docx_blocks(path: Path) -> list[str]:
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    blocks: list[str] = []
    for item in docx.Document(str(path)).iter_inner_content():
        if isinstance(item, Paragraph):
            blocks.append(item.text)
        elif isinstance(item, Table):
            for row in item.rows:
                blocks.extend(cell.text for cell in row.cells)
    return blocks


_MD_HEADING = re.compile(r"^#{1,6}\s+(.*)$")
_MD_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$")
_MD_TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$")


def md_blocks(path: Path) -> list[str]:
    blocks: list[str] = []
    paragraph: list[str] = []
    code: list[str] | None = None

    def flush() -> None:
        if paragraph:
            blocks.append(" ".join(paragraph))
            paragraph.clear()

    for line in path.read_text(encoding="utf-8").splitlines():
        if code is not None:
            if line.strip().startswith("```"):
                blocks.append("\n".join(code))
                code = None
            else:
                code.append(line)
            continue
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            code = []
        elif not stripped:
            flush()
        elif m := _MD_HEADING.match(stripped):
            flush()
            blocks.append(m.group(1))
        elif stripped.startswith("|"):
            flush()
            if not _MD_TABLE_RULE.match(stripped):
                blocks.extend(cell.strip() for cell in stripped.strip("|").split("|"))
        elif m := _MD_ITEM.match(line):
            flush()
            blocks.append(m.group(1))
        else:
            paragraph.append(stripped)
    flush()
    if code is not None:
        raise ValueError(f"{path}: unclosed code fence")
    return blocks


class _HtmlBlocks(HTMLParser):
    BLOCK_TAGS = {"title", "h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "td", "th", "caption", "pre"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self._stack: list[list[str]] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.BLOCK_TAGS:
            self._stack.append([])

    def handle_endtag(self, tag):
        if tag in self.BLOCK_TAGS and self._stack:
            self.blocks.append("".join(self._stack.pop()))

    def handle_data(self, data):
        if self._stack:
            self._stack[-1].append(data)


def html_blocks(path: Path) -> list[str]:
    parser = _HtmlBlocks()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser.blocks


def plain_blocks(path: Path) -> list[str]:
    suffix = path.suffix.lower()
    if suffix == ".docx":
        return docx_blocks(path)
    if suffix in {".md", ".markdown"}:
        return md_blocks(path)
    if suffix in {".html", ".htm"}:
        return html_blocks(path)
    raise ValueError(f"no extractor for {path}")


def docling_blocks(path: Path) -> list[str]:
    from docling.document_converter import DocumentConverter
    from docling_core.types.doc import TableItem

    document = DocumentConverter().convert(str(path)).document
    blocks: list[str] = []
    for item, _level in document.iterate_items():
        if isinstance(item, TableItem):
            blocks.extend(cell.text for cell in item.data.table_cells)
        elif getattr(item, "text", None):
            blocks.append(item.text)
    return blocks


# ---------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------


def load_sources(use_docling: bool) -> list[dict]:
    sources = json.loads(MANIFEST.read_text(encoding="utf-8"))
    for source in sources:
        path = SAMPLES / source["path"]
        source["blocks"] = [norm(b) for b in plain_blocks(path) if norm(b)]
        if use_docling:
            source["docling_blocks"] = [norm(b) for b in docling_blocks(path) if norm(b)]
        source["effective"] = dt.date.fromisoformat(source["effective_from"])
    return sources


def in_force(sources: list[dict], as_of: dt.date) -> list[dict]:
    """The newest version of each policy whose effective date has come."""
    newest: dict[str, dict] = {}
    for s in sources:
        if s["effective"] <= as_of:
            if s["policy"] not in newest or s["effective"] > newest[s["policy"]]["effective"]:
                newest[s["policy"]] = s
    return list(newest.values())


def visible(sources: list[dict], user: str) -> list[dict]:
    groups = USERS[user]
    return [s for s in sources if not s["groups"] or groups & set(s["groups"])]


def hits(text: str, sources: list[dict], key: str = "blocks") -> list[tuple[str, int]]:
    return [(s["path"], i) for s in sources for i, b in enumerate(s[key]) if text in b]


def check(questions: list[dict], sources: list[dict], today: dt.date, use_docling: bool):
    errors: list[str] = []
    warnings: list[str] = []
    for n, q in enumerate(questions, 1):
        where = f"line {n}"
        unknown = set(q) - FIELDS
        if unknown:
            errors.append(f"{where}: unknown fields {sorted(unknown)}")
        if not isinstance(q.get("question"), str) or not q["question"].strip():
            errors.append(f"{where}: missing question")
            continue
        where = f"line {n} ({q['question'][:50]!r})"
        user = q.get("user", "employee")
        if user not in USERS:
            errors.append(f"{where}: unknown user {user!r}")
            continue
        as_of = dt.date.fromisoformat(q["as_of"]) if "as_of" in q else today
        evidence = q.get("evidence")
        if not isinstance(evidence, list):
            errors.append(f"{where}: evidence must be a list")
            continue
        if not isinstance(q.get("tags", []), list):
            errors.append(f"{where}: tags must be a list")
        scope = visible(in_force(sources, as_of), user)

        if q.get("expect_no_answer"):
            if evidence:
                errors.append(f"{where}: expect_no_answer with evidence")
            for text in q.get("must_not_retrieve", []):
                t = norm(text)
                if not hits(t, sources):
                    errors.append(f"{where}: must_not_retrieve {text!r} is in no policy at all")
                if found := hits(t, scope):
                    errors.append(f"{where}: must_not_retrieve {text!r} is visible to {user}: {found}")
            continue
        if not evidence:
            errors.append(f"{where}: no evidence and not expect_no_answer")

        for text in evidence:
            t = norm(text)
            words = len(t.split())
            if not 4 <= words <= 15 and "table" not in q.get("tags", []) and "code" not in q.get("tags", []):
                warnings.append(f"{where}: evidence {text!r} has {words} words")
            found = hits(t, scope)
            if not found:
                anywhere = hits(t, sources)
                errors.append(
                    f"{where}: evidence {text!r} not in any policy visible to {user} on {as_of}"
                    + (f" (it is in {sorted({p for p, _ in anywhere})})" if anywhere else " (nowhere)")
                )
                continue
            if len(found) > 1:
                warnings.append(f"{where}: evidence {text!r} occurs in {len(found)} blocks: {found}")
            if use_docling and not hits(t, scope, "docling_blocks"):
                errors.append(f"{where}: evidence {text!r} missing from Docling's conversion")
            # Version sensitivity: evidence present in some versions of a policy only.
            if "as_of" not in q:
                for policy in {s["policy"] for s in scope if any(t in b for b in s["blocks"])}:
                    versions = [s for s in sources if s["policy"] == policy]
                    if len(versions) > 1 and not all(hits(t, [s]) for s in versions):
                        errors.append(f"{where}: evidence {text!r} is version-specific; set as_of")
        for text in q.get("must_not_retrieve", []):
            if hits(norm(text), scope):
                errors.append(f"{where}: must_not_retrieve {text!r} is visible in scope")
    return errors, warnings


def main() -> int:
    parser = argparse.ArgumentParser(description="Check eval evidence against the sample policies.")
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--today", type=dt.date.fromisoformat, default=dt.date.today())
    parser.add_argument("--docling", action="store_true", help="also check Docling's conversion")
    parser.add_argument("--quiet", action="store_true", help="hide warnings")
    args = parser.parse_args()

    sources = load_sources(args.docling)
    lines = [l for l in args.questions.read_text(encoding="utf-8").splitlines() if l.strip()]
    questions = [json.loads(l) for l in lines]
    errors, warnings = check(questions, sources, args.today, args.docling)

    tags = collections.Counter(t for q in questions for t in q.get("tags", []))
    users = collections.Counter(q.get("user", "employee") for q in questions)
    n_evidence = sum(len(q.get("evidence", [])) for q in questions)
    print(f"sources: {len(sources)}  questions: {len(questions)}  evidence strings: {n_evidence}")
    print("by user: " + ", ".join(f"{u}={c}" for u, c in sorted(users.items())))
    print("by tag:  " + ", ".join(f"{t}={c}" for t, c in sorted(tags.items())))
    print(f"no-answer questions: {sum(1 for q in questions if q.get('expect_no_answer'))}")
    print(f"checked with: plain extractors{' + Docling' if args.docling else ''}; today={args.today}")
    if not args.quiet:
        for w in warnings:
            print("WARN  " + w)
    for e in errors:
        print("ERROR " + e)
    print(f"{'FAIL' if errors else 'OK'}: {len(errors)} errors, {len(warnings)} warnings")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
