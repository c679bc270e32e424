"""The plain data the answer layer works on: evidence in, an answer out.

The app loads evidence from the chunk table (``policypal.assistant.evidence_loading``) and
renders the answer; everything in between is plain Python over these dataclasses, so every
fidelity rule can be tested on data written by hand.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

Outcome = Literal["answered", "partly", "not_covered"]
ANSWERED: Outcome = "answered"
PARTLY: Outcome = "partly"
NOT_COVERED: Outcome = "not_covered"

# Why a piece of evidence is in the context.
ROLE_HIT = "hit"  # ranked by the search
ROLE_CARRIES = "carries"  # holds the most of the question's key terms (a full-text look-up)
ROLE_ROW = "row"  # a table row matched by an identifier the question names
ROLE_DEFINITION_USE = "definition_use"  # a rule that uses a term an evidence chunk defines
ROLE_REFERENCE = "reference"  # a section an evidence chunk refers to ("see 4.2")
ROLE_DEFINITION = "definition"  # the definition of a term the question is about


_UNITS_LABEL = re.compile(r"^[\s*_(\[]*(?:units?|unit of measure)?[\s*_)\]:]*$", re.IGNORECASE)
_A_VALUE = re.compile(r"[£$€¥%]|^\s*[\d.,]+\s*$")


def header_rows_folded(headers: tuple[str, ...], body: list[tuple[str, ...]]
                       ) -> tuple[tuple[str, ...], tuple[str, ...], list[tuple[str, ...]]]:
    """(headers, units, body rows) with the leading rows that are more header taken out of the
    body: first body rows labelled "(units)" or nothing, whose other cells are words, not values,
    say what each column holds ("first 8,500 miles": into its header, "Casual user first 8,500
    miles") or what it is measured in ("£ per hour", "pence per mile": the column's unit, shown
    with the value but no name of the column). They are no rows to answer with. Any other table
    comes back as it came, with no units."""
    folded, units, rows = list(headers), [""] * len(headers), list(body)
    while len(rows) > 2 and headers and _is_header_row(rows[0]):
        cells = [c.strip().strip("*_ ").strip() for c in rows[0][1:]]
        measured = bool(rows[0][0].strip().strip("*_ ").strip())  # labelled "(units)"
        if not measured and not any(re.search(r"\d", c) for c in cells) \
                and all(re.search(r"\bper\b|^[^\w\s]", c) or not c for c in cells):
            measured = True  # "pence per mile", "£ per year" under an empty label: units too
        for i, cell in enumerate(cells, start=1):
            if cell and i < len(folded):
                if measured:
                    units[i] = f"{units[i]} {cell}".strip()
                else:
                    folded[i] = f"{folded[i]} {cell}"
        rows.pop(0)
    return tuple(folded), tuple(units) if any(units) else (), rows


def _is_header_row(cells: tuple[str, ...]) -> bool:
    values = [c.strip().strip("*_ ").strip() for c in cells[1:]]
    return bool(cells) and bool(_UNITS_LABEL.match(cells[0])) and any(values) \
        and not any(_A_VALUE.search(v) and not re.search(r"\bper\b", v) or len(v.split()) > 5 for v in values)


@dataclass(frozen=True)
class TableRow:
    """One body row of a table: its cells (label cells first) and its row sentence."""

    cells: tuple[str, ...]
    sentence: str = ""  # the row sentence as indexed ("Table 3: ...: Band B14, Europe: 61"), if any
    chunk_id: int | None = None  # the row sentence's chunk, when it has one


@dataclass(frozen=True)
class TableData:
    """A whole table: caption, one name per column, body rows in document order."""

    caption: str
    headers: tuple[str, ...]
    rows: tuple[TableRow, ...]
    label_columns: int = 1  # leading columns that name a row
    key: int | None = None  # the chunk that shows the table (its first piece), to cite it whole
    notes: tuple[str, ...] = ()  # sentences of the table's own section ("The capital city cap also applies to ...")
    units: tuple[str, ...] = ()  # per column, what its values are measured in ("£ per hour"; "" for none), if given apart


@dataclass(frozen=True)
class Evidence:
    """One chunk given to the answer layer.

    key: the chunk's id (opaque here; the app maps it back to its row).
    text: the display text (a table's: Markdown pipes with its caption).
    table: for table and table-row chunks, the whole table they belong to.
    similarity: cosine of the chunk to the question, when the vector search saw it.
    """

    key: int
    breadcrumb: str
    text: str
    kind: str = "text"  # text | list | table | table_row | code
    policy: str = ""  # policy key
    policy_title: str = ""
    version: int = 0
    effective_from: str = ""  # ISO date
    effective_to: str = ""  # ISO date or ""
    similarity: float | None = None
    rank: int = 0  # 1 = best; 0 = not ranked by the search (fetched by a rule)
    role: str = ROLE_HIT
    table: TableData | None = None
    section_key: int | None = None  # the key of the section chunk it belongs to, if known


@dataclass(frozen=True)
class Claim:
    """A sentence of an answer, the sources it cites and whether they support it."""

    text: str
    citations: tuple[int, ...]  # [n] numbers
    supported: bool
    reason: str = ""  # why not supported ("cites [7], which does not exist", "'45' is not in [2]")


@dataclass
class Answer:
    """What the answer layer returns.

    text: paragraphs separated by blank lines, each sentence group ending in [n] markers that
        number `cited` from 1.
    closest: sections offered to read when the question is not covered (never cited as an answer).
    missing: what the question asks that the sources do not mention ("paternity leave").
    claims: for answers written by a language model, each sentence checked against its sources.
    """

    text: str
    outcome: Outcome
    cited: list[Evidence] = field(default_factory=list)
    closest: list[Evidence] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    claims: list[Claim] | None = None
    notices: list[str] = field(default_factory=list)

    @property
    def covered(self) -> bool:
        return self.outcome != NOT_COVERED
