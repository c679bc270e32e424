"""What an announced version (published, not yet in force) changes in the cited rule."""
from __future__ import annotations

from .compose import _Candidate, _candidates, _join_sentences, _keep_context, _row_evidence, _score
from .evidence import Evidence
from .rows import match_table, row_sentence_text


def upcoming_change(question: str, current: list[Evidence], announced: list[Evidence]) -> tuple[str, Evidence] | None:
    """The announced version's best sentence that the current version does not say, with the
    conditions and exceptions that go with it, taken from the sections the answer cites when the
    new version has them. None when those sections do not change. An answer from a table row
    hears only about that row in the new version's table (never another row); an answer that
    the table has no such row hears only of that row being added (never of another row)."""
    if any(e.table is not None and _named_rows(question, e) for e in current):
        return _row_change(question, current, announced)
    if any(e.table is not None and _absent_row(question, e) for e in current):
        return _row_change(question, [], announced)
    candidates: list[_Candidate] = [c for i, e in enumerate(announced) for c in _candidates(i, e, set())]
    if not candidates:
        return None
    _score(question, candidates, [0.0] * len(announced))
    said_now = {" ".join(c.text.split()) for i, e in enumerate(current) for c in _candidates(i, e, set())}
    cited_sections = {e.breadcrumb for e in current}
    same_sections = [c for c in candidates if announced[c.unit].breadcrumb in cited_sections]
    changed = [c for c in same_sections or candidates if " ".join(c.text.split()) not in said_now]
    if not changed:
        return None
    best = max(changed, key=lambda c: c.score)
    keep = {id(best)}
    _keep_context([c for c in candidates if c.unit == best.unit], best, keep)
    return _join_sentences([c.text for c in candidates if id(c) in keep]), announced[best.unit]


def _named_rows(question: str, e: Evidence):
    match = match_table(question, e.table, notes=e.table.notes)
    return match.rows if match is not None else ()


def _absent_row(question: str, e: Evidence) -> bool:
    match = match_table(question, e.table, notes=e.table.notes)
    return match is not None and match.how == "absent"


def _row_change(question: str, current: list[Evidence], announced: list[Evidence]) -> tuple[str, Evidence] | None:
    """The rows the question names in the announced version's table, when they differ from the
    rows it names now; None when they do not, or the new table does not name them."""
    said_now = set()
    for e in current:
        match = match_table(question, e.table, notes=e.table.notes) if e.table is not None else None
        if match is not None:
            said_now |= {" ".join(row_sentence_text(match, r).split()) for r in match.rows}
    for e in announced:
        if e.table is None:
            continue
        match = match_table(question, e.table, notes=e.table.notes)
        if match is None or not match.rows:
            continue
        texts = [row_sentence_text(match, r) for r in match.rows]
        if all(" ".join(t.split()) in said_now for t in texts):
            return None
        # cited by the row's own chunk when there is one (the table piece the search found may be
        # another row's: the citation would show that row)
        return "; ".join(texts), _row_evidence(e, match.rows[0]) if len(match.rows) == 1 else e
    return None
