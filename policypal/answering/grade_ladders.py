"""Grade ladders: a table whose rows are the organisation's grades in order, one code per row
("FF-T", "FF-D", "FF-C", "CM-D" ...; "CW1" ... "CW4", "SCW", "TL-R", "TL-D"), and the columns
of other tables that are written for stretches of that ladder ("FF-T to FF-C", "CM-WM",
"SCW–TL", "Pay per visit: SCW and TL-D").

A header's codes need not be codes of the ladder's rows: "CM" stands for every "CM-..." row,
"TL" for "TL-R" and "TL-D", and a span runs from the first row of its low end to the last row
of its high end, in the ladder's own order. The asker says where they stand by a code ("a CW4",
"g m c") or by the words of their row ("a watch manager", "a senior care worker"); the column
holding that place is the one asked for, and no other column of the table answers them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .evidence import TableData, TableRow
from .table_codes import spelt_code
from .terms import GENERIC_WORDS, STOP_WORDS, readings, words

# one grade code: capitals (digits may follow), with a suffix after a hyphen ("FF-T", "TL-D", "CW3")
_CODE = re.compile(r"^[A-Z]{1,4}\d{0,2}(?:-[A-Z0-9]{1,3})?$")
_MIN_ROWS = 3
# what a header says before the codes it is for: "Pay per visit: SCW and TL-D"
_LEAD_IN = re.compile(r"^[^:]*:\s*")
_FAMILY_WORD = re.compile(r"^(?:grades?|levels?|bands?|roles?|ranks?)\s+", re.IGNORECASE)
_TRAILING_FAMILY_WORD = re.compile(r"\s+(?:grades?|levels?|bands?|roles?|ranks?)$", re.IGNORECASE)
_ITEM_SEPARATOR = re.compile(r"\s*(?:,|&|/|\band\b)\s*")
_WORD_SPAN = re.compile(r"\s*(?:\bto\b|–|—)\s*")


@dataclass(frozen=True)
class Ladder:
    table: TableData
    column: int  # the column holding the codes
    codes: tuple[str, ...]  # one per row, in the table's order, as written


def _key(code: str) -> str:
    return re.sub(r"[\s-]", "", code.upper())


@lru_cache(maxsize=2048)
def ladder_of(table: TableData) -> Ladder | None:
    """The table as a ladder: a column (of the first two) whose cells are each one grade code of
    two characters or more, all different, in three rows or more; None for another table."""
    if len(table.rows) < _MIN_ROWS:
        return None
    for column in range(min(2, min(len(r.cells) for r in table.rows))):
        cells = [r.cells[column].strip() for r in table.rows]
        if all(len(c) >= 2 and _CODE.match(c) for c in cells) and len({_key(c) for c in cells}) == len(cells):
            return Ladder(table, column, tuple(cells))
    return None


def _places(code: str, ladder: Ladder) -> list[int]:
    """Rows a code of a header stands for: the row of that code, or every row whose code opens
    with it ("CM": "CM-D", "CM-C"; "CW": "CW1" ... "CW4")."""
    key = _key(code)
    exact = [i for i, c in enumerate(ladder.codes) if _key(c) == key]
    if exact:
        return exact
    return [i for i, c in enumerate(ladder.codes)
            if c.upper().startswith(code.upper()) and len(c) > len(code) and (c[len(code)] == "-" or c[len(code)].isdigit())]


def _span(low: str, high: str, ladder: Ladder) -> frozenset[int] | None:
    lows, highs = _places(low.strip(), ladder), _places(high.strip(), ladder)
    if not lows or not highs or min(lows) > max(highs):
        return None
    return frozenset(range(min(lows), max(highs) + 1))


def _item_places(item: str, ladder: Ladder) -> frozenset[int] | None:
    item = _TRAILING_FAMILY_WORD.sub("", item.strip())  # "TO grades": the TO rows
    if not item:
        return None
    if _CODE.match(item) and (places := _places(item, ladder)):
        return frozenset(places)
    parts = _WORD_SPAN.split(item)
    if len(parts) == 2:
        return _span(parts[0], parts[1], ladder)
    # "CM-WM": a hyphen between two codes, where the whole is no code of the ladder
    for m in re.finditer("-", item):
        span = _span(item[: m.start()], item[m.end():], ladder)
        if span is not None and _CODE.match(item[: m.start()].strip()) and _CODE.match(item[m.end():].strip()):
            return span
    return None


def header_places(header: str, ladder: Ladder) -> frozenset[int] | None:
    """The rows of the ladder a header is written for ("FF-T to FF-C": the first three; "SCW and
    TL-D": those two), or None when the header is not all codes of the ladder."""
    text = _FAMILY_WORD.sub("", _LEAD_IN.sub("", header.strip()))
    out: set[int] = set()
    for item in _ITEM_SEPARATOR.split(text):
        places = _item_places(item, ladder)
        if places is None:
            return None
        out |= places
    return frozenset(out) or None


def written_places(question: str, ladder: Ladder) -> set[int]:
    """Rows whose code the question writes, however spaced or cased ("cw 3", "g m c", "ff-d");
    a lower-case code that is an English word ("am", "it") is a word."""
    out = set()
    for index, code in enumerate(ladder.codes):
        for m in spelt_code(code).finditer(question):
            written = m.group(0)
            if written.islower() and " " not in written and readings(written):
                continue
            out.add(index)
    return out


def asker_places(question: str, ladder: Ladder) -> set[int]:
    """Where on the ladder the question puts the asker: the codes it writes, else the rows its
    words name ("a watch manager": both watch manager rows)."""
    written = written_places(question, ladder)
    if written:
        return written
    from .rows import match_table

    match = match_table(question, ladder.table)
    if match is not None and match.how != "absent" and match.rows:
        ids = {id(r) for r in match.rows}
        return {i for i, r in enumerate(ladder.table.rows) if id(r) in ids}
    return _rows_by_phrase(question, ladder)


def _rows_by_phrase(question: str, ladder: Ladder) -> set[int]:
    """The rows whose other words hold the longest phrase the question writes of them ("a watch
    manager": "Watch manager in development" and "Competent watch manager"); a single word only
    when it is no common word and half the rows or fewer hold it."""
    asked = words(question)
    texts = [" " + " ".join(w for c in r.cells if c.strip() != ladder.codes[i] for w in words(c)) + " "
             for i, r in enumerate(ladder.table.rows)]
    for n in range(min(4, len(asked)), 0, -1):
        best: set[int] = set()
        for start in range(len(asked) - n + 1):
            gram = asked[start:start + n]
            if all(w in STOP_WORDS or w in GENERIC_WORDS for w in gram) or gram[0] in STOP_WORDS or gram[-1] in STOP_WORDS:
                continue
            holding = {i for i, t in enumerate(texts) if f" {' '.join(gram)} " in t}
            if holding and (n >= 2 or 2 * len(holding) <= len(texts)):
                best |= holding
        if best:
            return best
    return set()


@lru_cache(maxsize=2048)
def ladder_headers(table: TableData, ladder: Ladder) -> dict[int, frozenset[int]]:
    """value column -> the ladder rows it is written for, when two or more of the table's value
    headers are written for stretches of the ladder; empty otherwise. Cached (callers only read
    the result)."""
    first = max(table.label_columns, 1)
    out = {c: places for c, header in enumerate(table.headers) if c >= first
           and (places := header_places(header, ladder)) is not None}
    return out if len(out) >= 2 and len(set(out.values())) == len(out) else {}


def ladder_column(question: str, table: TableData, tables: list[TableData]) -> tuple[int, frozenset[int]] | None:
    """(the value column of `table` written for where the question puts the asker on a ladder
    among `tables`, every column written for the ladder), when exactly one column holds every
    row the asker may be; None otherwise. A table's columns may be written for several ladders
    ("PCA2", "VN1-VN2", "VS-A-VS-B"): the first ladder the question puts the asker on decides."""
    ladders = [ladder for other in dict.fromkeys(tables) if not (other is table or other == table)
               and (ladder := ladder_of(other)) is not None]
    if len(ladders) >= 2 and (joined := _joined(tuple(ladders))) is not None:
        ladders.append(joined)  # headers written for stretches of two ladders ("MR1-MR3, LS and TO grades")
    for ladder in ladders:
        columns = ladder_headers(table, ladder)
        if not columns:
            continue
        asker = asker_places(question, ladder)
        if not asker:
            continue  # a ladder the asker is not on ("a student nurse" against the vets' grades)
        holding = [c for c, places in columns.items() if asker <= places]
        return (holding[0], frozenset(columns)) if len(holding) == 1 else None
    return None


# a code in a header: a suffix after a hyphen only where the letters carry no number ("VS-A",
# "FF-T"), so that "VN1-VN2" is two codes, not "VN1" with a suffix
_HEADER_CODE = re.compile(r"(?<![\w-])(?:[A-Z]{1,4}-[A-Z0-9]{1,3}|[A-Z]{1,4}\d{1,2}|[A-Z]{2,4})(?![\w])")


@lru_cache(maxsize=512)
def _joined(ladders: tuple[Ladder, ...]) -> Ladder | None:
    """The ladders as one, in turn (the marine grades, then the shore grades), for headers written
    for stretches of both; None when two of them share a code. Cached per set of ladders."""
    rows = tuple(TableRow(cells=(code, *(c for i, c in enumerate(row.cells) if i != ladder.column)))
                 for ladder in ladders for code, row in zip(ladder.codes, ladder.table.rows))
    codes = tuple(row.cells[0] for row in rows)
    if len({_key(c) for c in codes}) != len(codes):
        return None  # two ladders share a code: no one ladder
    width = max(len(r.cells) for r in rows)
    table = TableData(caption="", headers=("Grade",) + ("",) * (width - 1),
                      rows=tuple(TableRow(cells=r.cells + ("",) * (width - len(r.cells))) for r in rows))
    return Ladder(table, 0, codes)


def ladder_header_codes(table: TableData) -> list[str]:
    """The first code of each family a table's headers write ("VN1" of "VN1-VN2", "VS-A" of
    "VS-A-VS-B"), when two or more of its value headers look like stretches of a ladder ("FF-T to
    FF-C", "CM-WM"): the codes to find the ladders' tables by."""
    first = max(table.label_columns, 1)
    found = []
    for header in table.headers[first:]:
        text = _FAMILY_WORD.sub("", _LEAD_IN.sub("", header.strip()))
        codes = _HEADER_CODE.findall(text)
        if codes and all(len(c) >= 2 for c in codes):
            found.append(codes[0])
    if len(found) < 2:
        return []
    by_family: dict[str, str] = {}
    for code in found:
        by_family.setdefault(code_family(code), code)
    return list(by_family.values())


def code_family(code: str) -> str:
    """The letters a grade code opens with ("VS" of "VS-A", "VN" of "VN1", "PCA" of "PCA2")."""
    return re.match(r"[A-Za-z]*", code).group(0).upper()
