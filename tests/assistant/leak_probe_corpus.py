"""Probe questions and leak markers built from the restricted sample policy
(samples/policies/manager_compensation.md, group "managers"), for tests/assistant/test_leak_probe.py.

A *marker* is a distinctive piece of the restricted policy: every 6-word window of each of its
sentences, table rows, the distinctive figures of its tables, its title and its breadcrumbs. A
response leaks when, normalised (HTML unescaped, tags and table pipes dropped, lower case, spaces
collapsed), it contains a marker that is not already in the question asked (the question itself is
echoed back by the pages and the JSON, which is not a leak).
"""
from __future__ import annotations

import html
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RESTRICTED_PATH = REPO / "samples" / "policies" / "manager_compensation.md"
RESTRICTED_KEY = "manager-compensation"
RESTRICTED_TITLE = "Harbourline Manager Compensation and Bonus Policy"
WINDOW = 6

_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")
_SENTENCE_END = re.compile(r"(?<=[.;:?!])\s+(?=[A-Z0-9])")


def normalise(text: str) -> str:
    text = html.unescape(_TAG.sub(" ", text or ""))
    text = text.replace("|", " ").replace("*", " ").replace("`", " ")
    text = text.replace("\u2019", "'").replace("\u2013", "-").replace("\u2014", "-")
    return _SPACE.sub(" ", text).strip().lower()


def _words(text: str) -> list[str]:
    return normalise(text).split(" ")


def parse_policy(path: Path = RESTRICTED_PATH) -> dict:
    """headings, sentences, tables ([caption, header cells, rows]) and list items of the policy."""
    headings, sentences, tables = [], [], []
    caption, table = "", None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            table = None
            continue
        if line.startswith("#"):
            headings.append(line.lstrip("#").strip())
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if all(set(c) <= set("-: ") for c in cells):
                continue
            if table is None:
                table = {"caption": caption, "header": cells, "rows": []}
                tables.append(table)
            else:
                table["rows"].append(cells)
        elif line.startswith("- "):
            sentences.append(line[2:].strip())
        else:
            if line.startswith("Table "):
                caption = line
            sentences.extend(s.strip() for s in _SENTENCE_END.split(line) if s.strip())
    return {"headings": headings, "sentences": sentences, "tables": tables}


PARAPHRASES = [
    "What is the maximum base salary for an L5 manager?",
    "What is the salary band for L4 managers?",
    "What is the midpoint of the L6 salary band?",
    "How much is the manager bonus pool?",
    "How is the manager bonus pool funded?",
    "What happens to manager bonuses if operating profit is below budget?",
    "What is the company performance multiplier range?",
    "Who sets the bonus multiplier each February?",
    "How is the Customer Success manager bonus pool funded?",
    "What is the target bonus for an L6 manager?",
    "What percentage of base salary is the L4 manager target bonus?",
    "What rating factor does an Exceptional rating get for the bonus?",
    "What bonus do I get with a Partially achieved rating?",
    "Are managers who joined after 1 October eligible for a bonus?",
    "Do managers who joined through an acquisition get a bonus?",
    "What happens to my bonus if I resign before March?",
    "What is the merit budget for the 2026 salary review?",
    "How much of a raise can a manager above the band midpoint get?",
    "Who approves an off-cycle salary increase above 10%?",
    "Who approves a spot award of INR 25,000?",
    "Who approves a retention bonus?",
    "What is the maximum retention bonus for a manager?",
    "When must a retention bonus be repaid?",
    "Can I tell my team the size of the bonus pool?",
    "Who is eligible for the manager compensation policy?",
    "What is a catch-up increase for managers paid below 90% of midpoint?",
    "Can a manager be paid above the band maximum?",
    "What is document HL-HR-11?",
    "manager salary bands 2026",
    "bonus rating factors table",
    "approval limits for manager pay decisions",
    "manager bonus pool 12% of base salary multiplied by performance multiplier",
]


def probe_questions() -> list[str]:
    """Questions built from the restricted policy: headings, each sentence verbatim, short
    fragments of each sentence (its opening and its end), table labels and paraphrases."""
    policy = parse_policy()
    questions: list[str] = []
    questions += policy["headings"]
    questions += [RESTRICTED_TITLE, f"What does the {RESTRICTED_TITLE} say?"]
    for sentence in policy["sentences"]:
        words = sentence.rstrip(".").split()
        questions.append(sentence)
        if len(words) >= 8:
            questions.append(" ".join(words[:6]) + "?")
            questions.append("What does the policy say about " + " ".join(words[-6:]) + "?")
    for table in policy["tables"]:
        if table["caption"]:
            questions.append(table["caption"].split(":", 1)[-1].strip())
        for row in table["rows"]:
            label = row[0]
            for column in table["header"][1:]:
                questions.append(f"{label} {column.lower()}")  # e.g. "L5 band maximum"
            questions.append(f"What is the {table['header'][-1].lower()} for {label}?")
    questions += PARAPHRASES
    seen, out = set(), []
    for q in questions:
        key = normalise(q)
        if key and key not in seen:
            seen.add(key)
            out.append(q)
    return out


def leak_markers(*, breadcrumbs: list[str], other_texts: list[str]) -> list[str]:
    """Normalised distinctive fragments of the restricted policy; fragments that also occur in
    any other (unrestricted) policy's chunks are dropped, so a marker always means a leak."""
    policy = parse_policy()
    markers: set[str] = {normalise(RESTRICTED_TITLE)}
    markers.update(normalise(b) for b in breadcrumbs if " > " in b)
    for sentence in policy["sentences"]:
        words = _words(sentence)
        if len(words) < WINDOW:
            continue
        for i in range(len(words) - WINDOW + 1):
            markers.add(" ".join(words[i:i + WINDOW]))
    for table in policy["tables"]:
        for row in table["rows"]:
            markers.add(normalise(" ".join(row)))
            markers.update(normalise(cell) for cell in row if re.fullmatch(r"\d{1,3}(,\d{3})+", cell))
    others = normalise("\n".join(other_texts))
    return sorted(m for m in markers if m and m not in others)


def leaks_in(body: str, markers: list[str], *, question: str = "") -> list[str]:
    """The markers found in `body` that are not simply an echo of `question`."""
    text = normalise(body)
    asked = normalise(question)
    return [m for m in markers if m in text and m not in asked]
