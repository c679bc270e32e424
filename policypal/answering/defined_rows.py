"""A row named through a definition: the label holds a defined term ("Bereavement of a Close
Relative") and the definition lists what the asker names ("my grandad": "a Close Relative is a
spouse, ..., a grandparent, ..."). The question never writes the label's words, so the rows are
not named by them; the definition is what ties the asker's word to the row.

Plain data in, plain data out: the definitions come from the evidence (term -> its paragraph).
"""
from __future__ import annotations

import re

from .coverage import names_a_thing
from .definitions import mentions
from .evidence import TableData
from .rows import RowMatch, asked_columns, label_of
from .terms import equivalents, key_terms, polarity, stems_of

# "Funeral of a person who is not a Close Relative", "other than a Close Relative", "non-Close
# Relative": a label that mentions the term to exclude it
_NEGATED_BEFORE = re.compile(r"(?:\bnot(?:\s+an?|\s+the)?|\bother\s+than(?:\s+an?|\s+the)?|\bnon-?|\bexcept(?:\s+an?)?)\s*$",
                             re.IGNORECASE)


def row_by_definition(question: str, table: TableData, glossary: dict[str, str]) -> RowMatch | None:
    """The one row whose label uses a defined term whose definition holds a thing the question
    names and the table does not ("grandad" for "grandparent" in the definition of Close
    Relative); None when no definition ties the question to exactly one row."""
    table_stems = stems_of(" ".join([table.caption, *table.headers, *(" ".join(r.cells) for r in table.rows)]))
    # (what the asker says they are not, "not an ECR any more", is no thing to look up: the
    # definition that holds it describes someone else)
    denied, _ = polarity(question)
    lacking = [t for t in key_terms(question) if not t.generic and names_a_thing(t.word, question)
               and not equivalents(t.stem) & table_stems and t.stem not in denied]
    if not lacking:
        return None
    chosen = None
    for term, paragraph in glossary.items():
        held = stems_of(paragraph)
        if not any(equivalents(t.stem) & held for t in lacking):
            continue
        rows = [r for r in table.rows if _uses(label_of(table, r), term)]
        if len(rows) != 1:
            continue
        if chosen is not None and chosen is not rows[0]:
            return None  # two definitions, two rows: the question does not decide
        chosen = rows[0]
    if chosen is None:
        return None
    return RowMatch(table, (chosen,), asked_columns(question, table), how="label", named_words=1, by_definition=True)


def _uses(label: str, term: str) -> bool:
    """Whether the label uses the term for what it covers (not to exclude it)."""
    m = re.search(rf"\b{re.escape(term)}(?:s|es)?\b", label, re.IGNORECASE)
    return m is not None and mentions(label, term) and not _NEGATED_BEFORE.search(label[: m.start()])
