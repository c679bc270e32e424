"""The codes a table writes anywhere in its rows and headers, and the codes a question names.

A table may name its rows by codes that are not the whole label: in a bracket ("Compassionate
leave (CL1)", "Officers (IS1 to IS3)"), in a column of short cells ("Severity level": "Level 1"
... "Level 4"), or name its columns by them ("Category B" ... "Category E"). A question that
writes a code of such a family names the row or column holding it, and a code of the family
that the table does not hold ("CL3", "NS4", "Level 5", "Category F") names nothing the table
has: the honest answer is that the table has no such row, never the nearest code's row.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from .evidence import TableData

# "CL1", "IS12", "NS3": capitals then digits, written as one word
_LETTER_DIGITS = r"([A-Z]{1,4})(\d{1,2})"
# "Category A", "Level 3", "Band 12": a capitalised family word and a letter or a number, standing
# as a name (end of cell, punctuation or a bracket after it; "Maximum 6 days" is a quantity)
_WORD_VALUE = r"([A-Z][a-z]{2,})\s+([A-Z]|\d{1,2})(?=$|[\s]*[),;:(]|\s+(?:to|and|or|-|–)\s)"
_SPAN_SEP = r"\s*(?:to|-|–|—)\s*"

# words that stand before a number without naming a family
_NOT_FAMILIES = frozenset(
    "table section appendix schedule annex page part figure note over under about around within after before "
    "maximum minimum max min total each per from between least more less than days weeks months years hours "
    "day week month year hour".split())


@dataclass
class TableCodes:
    """family -> value -> row indices, and family -> value -> column index."""

    rows: dict[str, dict[str, set[int]]] = field(default_factory=dict)
    columns: dict[str, dict[str, int]] = field(default_factory=dict)
    row_column: dict[str, int] = field(default_factory=dict)  # the column a row family is written in

    def row_family(self, family: str) -> dict[str, set[int]] | None:
        values = self.rows.get(family)
        return values if values and len(values) >= 2 else None

    def column_family(self, family: str) -> dict[str, int] | None:
        values = self.columns.get(family)
        return values if values and len(values) >= 2 else None


def codes_in(text: str, *, whole: bool = False) -> list[tuple[str, str]]:
    """(family, value) of each code the text writes, spans expanded ("IS1 to IS3": IS1, IS2, IS3;
    "Levels 1 to 3"). whole: the text must be one code or one span, nothing else."""
    text = text.strip()
    out: list[tuple[str, str]] = []
    spans = [
        (re.compile(rf"\b{_LETTER_DIGITS}{_SPAN_SEP}(?:\1)?(\d{{1,2}})\b"), lambda m: (m.group(1).lower(), int(m.group(2)), int(m.group(3)))),
        (re.compile(rf"\b([A-Z][a-z]{{2,}}?)s?\s+(\d{{1,2}}){_SPAN_SEP}(\d{{1,2}})\b"), lambda m: (m.group(1).lower(), int(m.group(2)), int(m.group(3)))),
    ]
    # codes with sub-letters ("Bands 7-8a", "Band 8b and above", "bands 8b to 8d"): the whole
    # numbers they reach (7 and 8; 8 and every one above), so that "band 7" is in the table
    spans.append((re.compile(rf"\b([A-Z][a-z]{{2,}}?)s?\s+(\d{{1,2}})([a-z]?){_SPAN_SEP}(\d{{1,2}})([a-z]?)(?![\w])"),
                  lambda m: (m.group(1).lower(), int(m.group(2)), int(m.group(4))) if m.group(3) or m.group(5) else None))
    spans.append((re.compile(r"\b([A-Z][a-z]{2,}?)s?\s+(\d{1,2})([a-z]?)\s*(?:\+|(?:and|or)\s+(?:above|over|higher)\b)"),
                  lambda m: (m.group(1).lower(), int(m.group(2)), int(m.group(2)) + 30)))
    taken: list[tuple[int, int]] = []
    for pattern, read in spans:
        for m in pattern.finditer(text):
            if any(a <= m.start() < b for a, b in taken) or read(m) is None:
                continue
            family, low, high = read(m)
            if family in _NOT_FAMILIES or not (low <= high <= low + 30) or (low == high and not m.group(3)):
                continue
            if whole and m.group(0) != text:
                continue
            out += [(family, str(n)) for n in range(low, high + 1)]
            taken.append(m.span())
    singles = [re.compile(rf"\b{_LETTER_DIGITS}\b"), re.compile(rf"\b{_WORD_VALUE}")]
    for pattern in singles:
        for m in pattern.finditer(text):
            if any(a <= m.start() < b for a, b in taken):
                continue
            family, value = m.group(1).lower(), m.group(2).upper().lstrip("0") or "0"
            if family in _NOT_FAMILIES:
                continue
            if whole and m.group(0) != text:
                continue
            out.append((family, value))
    return out


@lru_cache(maxsize=2048)
def table_codes(table: TableData) -> TableCodes:
    """Every code the table writes: in its labels (a bracket included), in columns whose cells are
    each one code ("Level 1"), and in its value headers. Cached: a table is read for its rows and
    its columns, question after question (callers only read the result)."""
    out = TableCodes()
    label_columns = max(table.label_columns, 1)
    for index, row in enumerate(table.rows):
        for column, cell in enumerate(row.cells):
            if column >= label_columns:  # a code cell may say what it stands for: "S4 (Low)"
                cell = re.sub(r"\s*\([^()]{1,30}\)$", "", cell.strip())
            for family, value in codes_in(cell, whole=column >= label_columns):
                out.rows.setdefault(family, {}).setdefault(value, set()).add(index)
                out.row_column.setdefault(family, column)
    for column, header in enumerate(table.headers):
        if column < label_columns:
            continue
        for family, value in codes_in(header):
            out.columns.setdefault(family, {}).setdefault(value, column)
    # a family written in the rows and the headers alike is not one dimension: leave it alone
    for family in set(out.rows) & set(out.columns):
        del out.rows[family], out.columns[family]
    return out


def asked_codes(question: str, families: set[str]) -> list[tuple[str, str, str]]:
    """(family, value, as written) of each code of one of the families the question writes:
    "cl3", "CL3", "a category f station", "Level 5". Case does not matter, but a bare "a" or "i"
    after a family word is an article or a pronoun, not a letter."""
    out: list[tuple[str, str, str]] = []
    for m in re.finditer(r"\b([A-Za-z]{1,4})(\d{1,2})\b", question):
        if m.group(1).lower() in families:
            out.append((m.group(1).lower(), str(int(m.group(2))), m.group(0).upper()))
    for m in re.finditer(r"\b([A-Za-z]{3,})\s+([A-Za-z]|\d{1,2})\b", question):
        family = m.group(1).lower()
        if family not in families and family.endswith("s") and family[:-1] in families:
            family = family[:-1]
        if family not in families:
            continue
        value = m.group(2)
        if value in ("a", "i"):
            continue
        value = value.upper() if value.isalpha() else str(int(value))
        out.append((family, value, f"{m.group(1).capitalize()} {value}"))
    return out


def _kind(values) -> str:
    return "letter" if all(v.isalpha() for v in values) else "number" if all(v.isdigit() for v in values) else "mixed"


def coded_rows(question: str, table: TableData) -> tuple[set[int], str, int]:
    """(row indices, absent code, the column the codes are written in): the rows holding a code the
    question names, or the code it names of a family the rows write that no row holds ("CL3"
    where the codes are CL1 and CL2)."""
    codes = table_codes(table)
    families = {f for f in codes.rows if codes.row_family(f)}
    coded = set().union(*(i for values in codes.rows.values() for i in values.values())) if codes.rows else set()
    if len(coded) >= max(3, 0.8 * len(table.rows)):
        # every row carries a code, many families of one or two ("Quarry Operative (Q1)", "Shotfirer
        # (Q3)", "Underground Miner (U1)"): each family is the table's, so "U2" is absent, not unknown
        families |= set(codes.rows)
    rows: set[int] = set()
    column = 0
    for family, value, written in asked_codes(question, families):
        values = codes.rows[family]
        if value in values:
            rows |= values[value]
            column = codes.row_column.get(family, 0)
        elif _kind(values) == _kind([value]):
            return set(), written, 0
    return rows, "", column


def coded_columns(question: str, table: TableData) -> tuple[tuple[int, ...], str]:
    """(columns, absent code): the value columns whose header writes a code the question names, or
    the code of the headers' family that no header writes ("Category F" beside B to E)."""
    codes = table_codes(table)
    families = {f for f in codes.columns if codes.column_family(f)}
    out: list[int] = []
    for family, value, written in asked_codes(question, families):
        values = codes.columns[family]
        if value in values:
            out.append(values[value])
        elif _kind(values) == _kind([value]) and not _open_ended(family, table):
            return (), written
    return tuple(sorted(set(out))), ""


def _open_ended(family: str, table: TableData) -> bool:
    """Whether a value header runs the family's codes on to a code of another shape ("FT3-ST",
    "CW3 to SCW"): the codes between are the ladder's, not written, so a code of the family no
    header writes ("FT4") may still be in a column."""
    return any(re.search(rf"\b{re.escape(family)}\d{{1,2}}\s*(?:-|–|—|to)\s*(?!{re.escape(family)}\d)[A-Z]{{1,4}}(?:-[A-Z0-9]{{1,3}})?\b(?!\d)",
                         header, re.IGNORECASE) for header in table.headers)


def families_named(question: str, tables: list[TableData]) -> tuple[list[str], set[str]]:
    """The code families the question names by a word that every row of those families, and no
    row of another family, writes in a table of several families ("a nurse": RVN and SVN, where
    each RVN and SVN grade's role is a kind of nurse and no VS grade's is), as the labels write
    them ("RVN", "SVN"); none that the question writes a code of itself. With the stems that named
    them."""
    from .terms import stems_of

    asked = stems_of(question)
    written = {family for family, _, _ in asked_codes(question, {f for t in tables for f in table_codes(t).rows})}
    out: list[str] = []
    naming: set[str] = set()
    for table in dict.fromkeys(tables):
        for word, families in _family_words(table).items():
            if word in asked and not families & written:
                out += [f.upper() for f in sorted(families) if f.upper() not in out]
                naming.add(word)
    return out, naming


@lru_cache(maxsize=2048)
def _family_words(table: TableData) -> dict[str, frozenset[str]]:
    """stem -> the families most rows of which write it in their other cells, when no row of another
    family writes it, for a table whose rows hold codes of two families or more."""
    from .terms import GENERIC_WORDS, STOP_WORDS, stem, words

    codes = table_codes(table)
    families = {f: set().union(*values.values()) for f, values in codes.rows.items() if len(values) >= 2}
    if len(families) < 2:
        return {}
    first = max(table.label_columns, 1)

    def row_stems(index: int) -> set[str]:
        cells = [c for c in table.rows[index].cells[first:] if re.search(r"[A-Za-z]{3}", c)]
        return {stem(w) for c in cells for w in words(c) if w not in STOP_WORDS and w not in GENERIC_WORDS and not w.isdigit()}

    stems = {i: row_stems(i) for rows in families.values() for i in rows}
    common = {f: set.intersection(*(stems[i] for i in rows)) for f, rows in families.items()}
    out = {}
    for word in set().union(*(stems[i] for i in stems)):
        # (most rows of each family writing it: "conductor" of "Trainee conductor", "Senior
        # conductor", "Conductor team leader" beside the G4 "Train manager")
        writers = frozenset(f for f, rows in families.items() if any(word in stems[i] for i in rows))
        if len(writers) < len(families) and all(
                2 * sum(word in stems[i] for i in families[f]) > len(families[f]) for f in writers):
            out[word] = writers
    return out


def family_span(family: str, tables: list[TableData]) -> str:
    """The family's codes as a span of the lowest and the highest a table's rows write ("G1 to
    G5"); empty when no table's rows write two of them."""
    numbers = sorted({int(v) for t in tables for v in table_codes(t).rows.get(family.lower(), {}) if v.isdigit()})
    return f"{family.upper()}{numbers[0]} to {family.upper()}{numbers[-1]}" if len(numbers) >= 2 else ""


def spelt_code(code: str, *, spaced: bool = False) -> re.Pattern:
    """The code as a question may write it, any case, its characters run together or apart ("cw3",
    "CW 3", "g m c", "ff-d" for "FF-D"); spaced: apart only ("G M C"), a space or hyphen between
    every two."""
    separator = r"[\s-]" if spaced else r"[\s-]?"
    pattern = separator.join(re.escape(ch) for ch in code if ch != "-")
    return re.compile(rf"(?<![\w-]){pattern}(?![\w-])", re.IGNORECASE)
