"""Fixed-size character windows: the structure-blind baseline for evaluation only.

Never the default chunker. It renders the whole document as plain text and cuts
it every ``size`` characters with ``overlap`` characters repeated, ignoring
headings, sentences and tables, but still returns ChunkRecords (level "block",
kind "text", breadcrumb = (title,)) with block lineage, so the same indexing and
evaluation code can run over both.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence

from .model import Block, ChunkRecord, Document
from .packing import whole_block_item
from .tokens import TokenCounterLike

BLOCK_SEPARATOR = "\n\n"


def chunk_fixed_size(
    document: Document,
    *,
    counter: TokenCounterLike,
    size: int = 1000,
    overlap: int = 200,
    prefix_title: bool = False,
) -> list[ChunkRecord]:
    """Character windows of ``size`` with ``overlap``; embed_text is the window
    (preceded by the title line when ``prefix_title``)."""
    _validate(size, overlap)
    text, spans = _plain_text(document.blocks)
    title = " ".join(document.title.split()) or "Untitled document"
    records: list[ChunkRecord] = []
    for start in _window_starts(len(text), size, overlap):
        window = text[start : start + size]
        if not window.strip():
            continue
        blocks = _blocks_in(spans, start, start + len(window))
        embed_text = f"{title}\n{window}" if prefix_title else window
        tokens = counter.count(embed_text)
        warnings = ()
        if tokens > counter.max_tokens:
            warnings = (f"oversized: {tokens} tokens exceeds the {counter.max_tokens}-token limit",)
        records.append(
            ChunkRecord(
                id=_window_id(title, window, blocks, start),
                level="block",
                kind="text",
                parent_id=None,
                ordinal=len(records),
                breadcrumb=(title,),
                text=window,
                embed_text=embed_text,
                token_count=tokens,
                pages=tuple(sorted({p for b in blocks for p in b.pages})),
                block_ids=tuple(b.id for b in blocks),
                searchable=True,
                warnings=warnings,
            )
        )
    return records


def _validate(size: int, overlap: int) -> None:
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
        raise ValueError(f"size must be a positive int, got {size!r}")
    if isinstance(overlap, bool) or not isinstance(overlap, int) or not 0 <= overlap < size:
        raise ValueError(f"overlap must be an int with 0 <= overlap < size, got {overlap!r}")


def _plain_text(blocks: Sequence[Block]) -> tuple[str, list[tuple[int, int, Block]]]:
    parts: list[str] = []
    spans: list[tuple[int, int, Block]] = []
    cursor = 0
    for block in blocks:
        item = whole_block_item(block)
        if item is None:
            continue
        if parts:
            parts.append(BLOCK_SEPARATOR)
            cursor += len(BLOCK_SEPARATOR)
        parts.append(item.text)
        spans.append((cursor, cursor + len(item.text), block))
        cursor += len(item.text)
    return "".join(parts), spans


def _window_starts(length: int, size: int, overlap: int) -> range:
    step = size - overlap
    last = max(length - overlap, 1) if length > size else 1
    return range(0, last, step)


def _blocks_in(spans: list[tuple[int, int, Block]], start: int, end: int) -> list[Block]:
    return [block for a, b, block in spans if a < end and b > start]


def _window_id(title: str, window: str, blocks: Sequence[Block], start: int) -> str:
    base = "\x1f".join(("block", title, window, ",".join(b.id for b in blocks), str(start)))
    return hashlib.sha256(base.encode("utf-8")).hexdigest()[:16]
