"""Which row of a table a question names: exact labels, not similar words.

Row labels come from the table itself (its label column, normally the first). Three kinds of
label are recognised from the labels' own shape:
- codes: a letter prefix and a number ("B14", "L4", "EX-101", "Grade 3"). The question names
  one exactly ("b14"), or by the column's noun and the number ("band 14"). A code of the same
  family that the table lacks ("B25", "band C3") is *absent*, and said to be.
- ranges: "Less than 1 year", "1-2 years", "3-5 years", "10+ years", "Over 50,000". A number
  the question states in the same unit picks the row whose span holds it ("4 years" -> "3-5
  years"; a span reaches up to the next row's start).
- names: anything else ("Sick leave", "Germany", "Engineering and data"). A row is named when
  the question holds every word that tells its label apart from the others (word forms and the
  lexicon's synonyms count).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .evidence import TableData, TableRow
from .terms import GENERIC_WORDS, equivalents, numbers, stem, stems_of, words

_CODE_LABEL = re.compile(r"^([A-Za-z]{1,6}(?:[ -][A-Za-z]{1,6})?)?[ -]?(\d+)([A-Za-z]?)$")


@dataclass(frozen=True)
class RowMatch:
    table: TableData
    rows: tuple[TableRow, ...]  # the named rows (empty when absent)
    columns: tuple[int, ...] = ()  # value columns the question names, in table order
    how: str = "label"  # label | range | absent
    asked: str = ""  # the label as the question gives it (for an absent row)


def label_of(table: TableData, row: TableRow) -> str:
    return " ".join(c for c in row.cells[: max(table.label_columns, 1)] if c) or (row.cells[0] if row.cells else "")


def match_table(question: str, table: TableData) -> RowMatch | None:
    """The rows of `table` the question names, or an absent label, or None (names no row)."""
    if not table.rows:
        return None
    labels = [label_of(table, row) for row in table.rows]
    columns = asked_columns(question, table)
    codes = [_code(label) for label in labels]
    if sum(c is not None for c in codes) >= max(2, int(0.8 * len(labels))):
        found = _match_codes(question, table, labels, codes)
    elif sum(_range(label) is not None for label in labels) >= max(2, int(0.6 * len(labels))):
        found = _match_ranges(question, table, labels)
    else:
        found = _match_names(question, table, labels)
    if found is None:
        return None
    return RowMatch(table, found.rows, columns, found.how, found.asked)


# --------------------------------------------------------------------------- codes


def _code(label: str) -> tuple[str, int, str] | None:
    m = _CODE_LABEL.match(label.strip())
    if not m:
        return None
    return ((m.group(1) or "").replace("-", " ").strip().lower(), int(m.group(2)), m.group(3).lower())


def _match_codes(question: str, table: TableData, labels: list[str], codes) -> RowMatch | None:
    prefixes = {c[0] for c in codes if c is not None}
    nouns = _label_nouns(table)
    text = question.replace(",", " ")
    asked: list[tuple[str, int, str, str]] = []  # (prefix, number, suffix, as written)
    absent: list[str] = []
    for m in re.finditer(r"\b([A-Za-z]{1,6})?[ -]?(\d+)([A-Za-z]?)\b", text):
        prefix, number, suffix = (m.group(1) or "").lower(), int(m.group(2)), m.group(3).lower()
        before = words(text[: m.start()])[-1:]
        after_noun = bool(before) and before[0] in nouns
        if prefix and prefix in prefixes:
            asked.append((prefix, number, suffix, m.group(0)))
        elif prefix in nouns or (not prefix and after_noun):
            # "band 14": the label column's noun and a number mean the code of that number
            asked.extend((p, number, suffix, _written(p, number, suffix, labels)) for p in sorted(prefixes))
        elif prefix and after_noun:
            absent.append((m.group(1) + m.group(2) + m.group(3)).upper())  # "band C3": another family
    rows = []
    for prefix, number, suffix, _ in asked:
        for row, code in zip(table.rows, codes):
            if code == (prefix, number, suffix) and row not in rows:
                rows.append(row)
    if rows:
        return RowMatch(table, tuple(rows), how="label")
    if asked:
        return RowMatch(table, (), how="absent", asked=asked[0][3].replace(" ", "").upper())
    if absent:
        return RowMatch(table, (), how="absent", asked=absent[0])
    return None


def _written(prefix: str, number: int, suffix: str, labels: list[str]) -> str:
    """How the table writes a code of this family ("B" + 14 -> "B14")."""
    for label in labels:
        code = _code(label)
        if code is not None and code[0] == prefix:
            m = _CODE_LABEL.match(label.strip())
            head = label.strip()[: m.start(2)]
            return f"{head}{number}{suffix.upper()}"
    return f"{prefix.upper()}{number}{suffix.upper()}"


def _label_nouns(table: TableData) -> set[str]:
    """Nouns a question may put before a code: the label column's name ("Band", "Grade")."""
    out = set()
    for header in table.headers[: max(table.label_columns, 1)]:
        for w in words(header):
            if w not in GENERIC_WORDS or w in ("grade", "level", "band"):
                out.add(w)
    return out


# --------------------------------------------------------------------------- ranges

_RANGE_UNITS = {"year": 12.0, "yr": 12.0, "month": 1.0, "week": 12 / 52, "day": 12 / 365}


def _range(label: str) -> tuple[float, float | None] | None:
    """(low, high) of a range label in the label's own unit; high None when open."""
    text = label.lower().replace(",", "").replace("–", "-").replace("—", "-")
    nums = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", text)]
    if not nums:
        return None
    if re.search(r"\b(less than|under|below|up to|fewer than|within)\b|<", text):
        return (0.0, nums[0])
    if re.search(r"\+|\b(or more|and over|and above|more than|over|above|at least|plus)\b|>", text):
        return (nums[0], None)
    if len(nums) >= 2 and re.search(r"\d\s*(?:-|to)\s*\d", text):
        return (nums[0], nums[1])
    return None


def _unit(text: str) -> float | None:
    for w in words(text):
        s = w.rstrip("s")
        if s in _RANGE_UNITS:
            return _RANGE_UNITS[s]
    return None


def _match_ranges(question: str, table: TableData, labels: list[str]) -> RowMatch | None:
    spans = [_range(label) for label in labels]
    label_unit = next((u for u in (_unit(label) for label in labels) if u), None) or _unit(" ".join(table.headers))
    values = _quantities(question, label_unit)
    if not values:
        return None
    starts = sorted({s[0] for s in spans if s is not None})
    for value in values:
        for row, span in zip(table.rows, spans):
            if span is None:
                continue
            low, high = span
            later = [s for s in starts if s > low]
            upper = min(later) if later else None
            if high is not None and upper is None:
                upper = high + 1 if float(high).is_integer() else high
            if low <= value and (upper is None or value < upper) and (high is None or low == 0 or value <= max(high, (upper or high) - 1e-9)):
                return RowMatch(table, (row,), how="range")
    return None


def _quantities(question: str, label_unit: float | None) -> list[float]:
    """Quantities the question states, converted to the labels' unit when both have one."""
    out = []
    text = question.lower().replace(",", "")
    for m in re.finditer(r"(\d+(?:\.\d+)?|[a-z]+)(?:\s+and\s+a\s+half)?\s*(years?|yrs?|months?|weeks?|days?)?\b", text):
        token, unit_word = m.group(1), m.group(2)
        value = numbers(token)
        if not value:
            continue
        amount = value[0] + (0.5 if "and a half" in m.group(0) else 0.0)
        if unit_word and label_unit:
            amount = amount * _RANGE_UNITS[unit_word.rstrip("s")] / label_unit
        elif not unit_word and not token[0].isdigit():
            continue  # a number word with no unit ("one of") says nothing
        out.append(amount)
    return out


# --------------------------------------------------------------------------- names


def _match_names(question: str, table: TableData, labels: list[str]) -> RowMatch | None:
    asked = _expanded(stems_of(question))
    label_stems = [{stem(w) for w in words(label)} - _GENERIC_STEMS for label in labels]
    common = set.intersection(*label_stems) if label_stems else set()
    best: list[tuple[int, TableRow]] = []
    for row, stems in zip(table.rows, label_stems):
        distinctive = stems - common
        if not distinctive:
            continue
        if all(s in asked for s in distinctive):
            best.append((len(distinctive), row))
    if not best:
        return None
    top = max(n for n, _ in best)
    rows = tuple(row for n, row in best if n == top)
    if len(rows) > 2:
        return None  # names too many rows to be a lookup
    return RowMatch(table, rows, how="label")


_GENERIC_STEMS = frozenset(stem(w) for w in GENERIC_WORDS) | {stem(w) for w in ("and", "or", "of", "the", "a", "with", "without", "for", "only")}


def _expanded(stems: set[str]) -> set[str]:
    out = set()
    for s in stems:
        for e in equivalents(s):
            out.add(e)
            # a synonym phrase stands for its words ("vacation" -> earned leave), but a word
            # does not stand for the phrases it is part of ("leave" is not "earned leave")
            if "_" in e and s not in e.split("_"):
                out |= set(e.split("_"))
    return out


# --------------------------------------------------------------------------- columns


def asked_columns(question: str, table: TableData) -> tuple[int, ...]:
    """Value columns whose name the question holds (every distinctive word of it)."""
    asked = _expanded(stems_of(question))
    first = max(table.label_columns, 1)
    names = [{stem(w) for w in words(h)} - _GENERIC_STEMS for h in table.headers]
    value_names = names[first:]
    common = set.intersection(*value_names) if len(value_names) > 1 else set()
    out = []
    for index in range(first, len(table.headers)):
        distinctive = names[index] - common
        if distinctive and all(s in asked for s in distinctive):
            out.append(index)
    return tuple(out) if len(out) < len(table.headers) - first else ()


def absent_name(question: str, table: TableData, known_words: set[str]) -> str | None:
    """A proper name the question gives where the table's row names are proper names ("Norway"
    against a table of countries), that no row, column or known word has; else None."""
    labels = [label_of(table, row) for row in table.rows]
    if not labels or not all(label[:1].isupper() and len(label.split()) <= 3 for label in labels):
        return None
    label_words = {w for label in labels for w in words(label)} | {w for h in table.headers for w in words(h)}
    tokens = re.findall(r"(?<![.?!]\s)(?<!^)\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)", question.strip())
    for token in tokens:
        lowered = [w for w in words(token)]
        if any(w in label_words or w in known_words for w in lowered):
            continue
        return token
    return None


def row_sentence_text(match: RowMatch, row: TableRow) -> str:
    """The row as an answer: caption, label, then the asked columns first and the rest."""
    table = match.table
    first = max(table.label_columns, 1)
    order = list(match.columns) + [i for i in range(first, len(row.cells)) if i not in match.columns]
    label_parts = []
    for i in range(min(first, len(row.cells))):
        name = table.headers[i] if i < len(table.headers) else ""
        value = row.cells[i]
        if value:
            label_parts.append(value if not name or value.lower().startswith(name.lower()) else f"{name} {value}")
    values = []
    for i in order:
        if i < len(row.cells) and row.cells[i]:
            name = table.headers[i] if i < len(table.headers) else ""
            values.append(f"{name}: {row.cells[i]}" if name else row.cells[i])
    lead = table.caption.rstrip(" .:;")
    body = ", ".join(label_parts) + (": " + "; ".join(values) if values else "")
    return f"{lead}: {body}." if lead else f"{body}."


def table_range_text(table: TableData) -> str:
    """What rows a table has, in a few words ("bands B1 to B20", "Germany, France and 8 more")."""
    labels = [label_of(table, row) for row in table.rows]
    noun = (table.headers[0].strip().lower() if table.headers else "row") or "row"
    plural = noun if noun.endswith("s") else noun + "s"
    if all(_code(label) is not None for label in labels) and len(labels) > 2:
        return f"{plural} {labels[0]} to {labels[-1]}"
    if len(labels) <= 6:
        return f"{plural} " + ", ".join(labels[:-1]) + f" and {labels[-1]}" if len(labels) > 1 else f"{plural} {labels[0]}"
    return f"{plural} " + ", ".join(labels[:5]) + f" and {len(labels) - 5} more"
