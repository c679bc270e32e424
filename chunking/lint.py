"""Warnings for chunks that would fail "could a colleague answer from this alone?".

Warnings are strings "category: detail" (or just "category"); a chunk never gets
two warnings of the same category.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from .model import ChunkRecord
from .pipe_tables import read_tables
from .rules import dangling_start, is_qualifier

WARN_DANGLING = "dangling start"
WARN_TABLE_HEADER = "table piece without header"
WARN_OVERSIZED = "oversized"
WARN_HEADING_ONLY = "heading only"
WARN_QUALIFIER = "rule separated from its qualifier"

_NUMBERED_HEADING = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[A-Z]\.|[IVX]+\.)\s+\S")
_SENTENCE_END = re.compile(r"[.!?:;)\]\"']$")


def lint_chunks(chunks: Sequence[ChunkRecord], *, max_tokens: int | None = None) -> list[ChunkRecord]:
    """The chunks with lint warnings added to what they already carry."""
    out: list[ChunkRecord] = []
    previous: ChunkRecord | None = None
    for chunk in chunks:
        found = lint_chunk(chunk, max_tokens=max_tokens, previous=previous)
        out.append(replace(chunk, warnings=merge_warnings(chunk.warnings, found)))
        if chunk.searchable and chunk.kind != "table_row":
            previous = chunk
    return out


def lint_chunk(
    chunk: ChunkRecord, *, max_tokens: int | None = None, previous: ChunkRecord | None = None
) -> tuple[str, ...]:
    """Warnings for one chunk; ``previous`` is the searchable block chunk before it, if any."""
    if not chunk.searchable:
        return ()
    checks = (
        _oversized(chunk, max_tokens),
        _table_without_header(chunk),
        _heading_only(chunk),
        _dangling(chunk),
        _separated_qualifier(chunk, previous),
    )
    return tuple(w for w in checks if w)


def merge_warnings(existing: Sequence[str], new: Sequence[str]) -> tuple[str, ...]:
    merged = list(existing)
    categories = {warning_category(w) for w in merged}
    for warning in new:
        if warning_category(warning) not in categories:
            merged.append(warning)
            categories.add(warning_category(warning))
    return tuple(merged)


def warning_category(warning: str) -> str:
    return warning.split(":", 1)[0].strip()


def _oversized(chunk: ChunkRecord, max_tokens: int | None) -> str | None:
    if max_tokens is not None and chunk.token_count > max_tokens:
        return f"{WARN_OVERSIZED}: {chunk.token_count} tokens exceeds the {max_tokens}-token limit"
    return None


def _table_without_header(chunk: ChunkRecord) -> str | None:
    """A table piece must show every table it holds (a column slice is one) under its header."""
    if chunk.kind != "table":
        return None
    found = read_tables(chunk.text)
    return WARN_TABLE_HEADER if not found or not all(table.header for table in found) else None


def _heading_only(chunk: ChunkRecord) -> str | None:
    text = chunk.text.strip()
    if chunk.kind not in ("text", "list") or "\n" in text or len(text.split()) > 10:
        return None
    if text.casefold() in {part.casefold() for part in chunk.breadcrumb}:
        return WARN_HEADING_ONLY
    if _NUMBERED_HEADING.match(text) and not _SENTENCE_END.search(text):
        return WARN_HEADING_ONLY
    return None


def _dangling(chunk: ChunkRecord) -> str | None:
    if chunk.kind in ("code", "table", "table_row"):
        return None
    found = dangling_start(chunk.text)
    return f"{WARN_DANGLING}: {found}" if found else None


def _separated_qualifier(chunk: ChunkRecord, previous: ChunkRecord | None) -> str | None:
    if chunk.kind in ("code", "table_row") or previous is None:
        return None
    overlapped = bool(chunk.block_ids) and chunk.block_ids[0] in previous.block_ids
    if previous.parent_id == chunk.parent_id and not overlapped and is_qualifier(chunk.text):
        return WARN_QUALIFIER
    return None
