"""Rows for `manage.py chunk_preview --json` and the admin chunk preview page."""
from __future__ import annotations

from collections.abc import Sequence

from .model import ChunkRecord
from .sentences import split_sentences

BREADCRUMB_SEPARATOR = " > "


def preview_rows(chunks: Sequence[ChunkRecord]) -> list[dict]:
    """One JSON-ready dict per chunk, in the given order."""
    return [preview_row(chunk) for chunk in chunks]


def preview_row(chunk: ChunkRecord) -> dict:
    first, last = first_and_last_sentence(chunk)
    return {
        "id": chunk.id,
        "level": chunk.level,
        "kind": chunk.kind,
        "parent_id": chunk.parent_id,
        "ordinal": chunk.ordinal,
        "searchable": chunk.searchable,
        "breadcrumb": BREADCRUMB_SEPARATOR.join(chunk.breadcrumb),
        "text": chunk.text,
        "embed_text": chunk.embed_text,
        "token_count": chunk.token_count,
        "pages": list(chunk.pages),
        "block_ids": list(chunk.block_ids),
        "warnings": list(chunk.warnings),
        "first_sentence": first,
        "last_sentence": last,
    }


def first_and_last_sentence(chunk: ChunkRecord) -> tuple[str, str]:
    """Sentences for prose; lines for tables, lists and code (sentences mean little there)."""
    if chunk.kind in ("table", "list", "code"):
        parts = [line.strip() for line in chunk.text.splitlines() if line.strip()]
    else:
        parts = split_sentences(chunk.text)
    if not parts:
        return "", ""
    return parts[0], parts[-1]
