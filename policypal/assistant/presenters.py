"""Plain-data views of answers and citations, for JSON (command line and HTTP) and templates."""
from __future__ import annotations

from dataclasses import replace

from django.urls import reverse

from chunking.pipe_tables import PipeTable, read_table
from retrieval import lookup
from retrieval.models import Chunk

from .answering import ComposedAnswer


def whole_table(chunk: Chunk) -> PipeTable | None:
    """A cited table chunk's table with the rows of every piece it was split into (a 20-row
    table indexed in pieces of five is shown whole: "it has no row for B25" cites all of it)."""
    table = read_table(chunk.text)
    if table is None:
        return None
    for pieces, _ in lookup.table_parts([chunk]).values():
        if len(pieces) < 2 or all(p.pk != chunk.pk for p in pieces):
            continue
        parts = [table if piece.pk == chunk.pk else read_table(piece.text) for piece in pieces]
        if any(part is None or part.header != table.header for part in parts):
            return table  # pieces that do not read as one table: the cited piece alone
        return replace(table, rows=tuple(row for part in parts for row in part.rows),
                       caption=parts[0].caption or table.caption, intro=parts[0].intro)
    return table


def citation_dict(n: int, chunk: Chunk) -> dict:
    version = chunk.version
    source = chunk.source
    return {
        "n": n,
        "chunk_id": chunk.pk,
        "breadcrumb": chunk.breadcrumb,
        "text": chunk.text,
        "policy": version.policy.key,
        "policy_title": version.policy.title,
        "version": version.number,
        "effective_from": version.effective_from.isoformat(),
        "effective_to": version.effective_to.isoformat() if version.effective_to else None,
        "source": source.original_name if source else "",
        "pages": list(chunk.pages),
        "url": reverse("assistant:chunk", args=[chunk.pk]),
    }


def answer_dict(composed: ComposedAnswer) -> dict:
    return {
        "question": composed.question,
        "as_of": composed.as_of.isoformat(),
        "answer": composed.text,
        "covered": composed.covered,
        "outcome": composed.outcome,
        "missing": composed.missing,
        "closest": [closest_dict(c) for c in composed.closest],
        "notices": composed.notices,
        "citations": [citation_dict(n, c) for n, c in enumerate(composed.citations, start=1)],
        "answered_by": composed.answered_by,
        "claims": [claim_dict(claim) for claim in composed.claims] if composed.claims is not None else None,
    }


def claim_dict(claim) -> dict:
    """One sentence of an LLM answer: its citations and whether the cited sources support it."""
    return {"text": claim.text, "citations": list(claim.citations), "supported": claim.supported, "reason": claim.reason}


def closest_dict(chunk: Chunk) -> dict:
    """A section offered to read when the question is not covered (never an answer)."""
    return {
        "chunk_id": chunk.pk,
        "breadcrumb": chunk.breadcrumb,
        "breadcrumb_parts": chunk.breadcrumb_parts,
        "policy": chunk.version.policy.key,
        "policy_title": chunk.version.policy.title,
        "url": reverse("assistant:chunk", args=[chunk.pk]),
    }
