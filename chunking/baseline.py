"""Baseline chunkers, for evaluation only: never the default.

- ``chunk_fixed_size``: character windows. The whole document as plain text, cut every
  ``size`` characters with ``overlap`` characters repeated, ignoring headings, sentences and
  tables.
- ``chunk_fixed_tokens``: the same in embedding-model tokens (windows of 256 word pieces with 32
  repeated, the common fixed-size set-up), cut between words.
- ``chunk_by_headings``: a heading-aware splitter as the usual RAG tutorials build it: split at
  every heading (each piece carries its heading trail, embedded with it), then cut each
  section to a token limit recursively, at paragraph breaks, then line breaks, then sentence
  ends, then spaces. No structure rules: a table is cut between rows without its header, a
  rule may lose its exception, a list its introduction, a tiny section stays tiny.

All return ChunkRecords (level "block", kind "text", no parent) with block lineage, so the same
indexing and evaluation code runs over them and the structure-aware chunks alike.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from .model import Block, ChunkRecord, Document
from .packing import whole_block_item
from .sections import build_sections
from .tokens import TokenCounterLike

BLOCK_SEPARATOR = "\n\n"
TOKEN_WINDOW = 256
TOKEN_OVERLAP = 32
# Where the heading-aware splitter cuts a section that is too long, first choice first.
SPLIT_SEPARATORS = ("\n\n", "\n", ". ", " ")
_WORD = re.compile(r"\S+")


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


def chunk_fixed_tokens(
    document: Document, *, counter: TokenCounterLike, size: int = TOKEN_WINDOW, overlap: int = TOKEN_OVERLAP,
) -> list[ChunkRecord]:
    """Windows of at most ``size`` tokens of the document's plain text, cut between words, the
    last words of about ``overlap`` tokens repeated at the start of the next window."""
    _validate(size, overlap)
    text, spans = _plain_text(document.blocks)
    title = " ".join(document.title.split()) or "Untitled document"
    words = list(_WORD.finditer(text))
    counts = _counts(counter, [w.group() for w in words])
    records: list[ChunkRecord] = []
    start = 0
    while start < len(words):
        end, tokens = start, 0
        while end < len(words) and (end == start or tokens + counts[end] <= size):
            tokens += counts[end]
            end += 1
        window = text[words[start].start() : words[end - 1].end()]
        blocks = _blocks_in(spans, words[start].start(), words[end - 1].end())
        records.append(_plain_record(title, window, window, blocks, counter, ordinal=len(records),
                                     key=str(words[start].start())))
        if end >= len(words):
            break
        back, repeated = end, 0
        while back - 1 > start and repeated + counts[back - 1] <= overlap:
            back -= 1
            repeated += counts[back]
        start = back
    return records


def chunk_by_headings(
    document: Document, *, counter: TokenCounterLike, size: int = TOKEN_WINDOW,
) -> list[ChunkRecord]:
    """One piece per heading's section, cut to at most ``size`` tokens (heading trail
    included) at the first of SPLIT_SEPARATORS that makes the pieces fit."""
    if isinstance(size, bool) or not isinstance(size, int) or size <= 16:
        raise ValueError(f"size must be an int above 16, got {size!r}")
    records: list[ChunkRecord] = []
    for section in build_sections(document):
        items = [(item.text, block) for block in section.content_blocks if (item := whole_block_item(block))]
        if not items:
            continue
        trail = " > ".join(section.breadcrumb)
        limit = max(8, size - counter.count(trail))
        text = BLOCK_SEPARATOR.join(t for t, _ in items)
        for piece in _split_to_fit(text, limit, counter, SPLIT_SEPARATORS):
            blocks = [b for t, b in items if piece in t or t in piece] or [b for _, b in items]
            records.append(_plain_record(section.breadcrumb, piece, f"{trail}\n{piece}", blocks, counter,
                                         ordinal=len(records), key=str(section.index)))
    return records


def _split_to_fit(text: str, limit: int, counter: TokenCounterLike, separators: Sequence[str]) -> list[str]:
    """Pieces of at most `limit` tokens: split at the first separator, merge neighbours while
    they fit, split what is still too long at the next separator (a recursive character
    splitter, counted in tokens)."""
    text = text.strip()
    if not text:
        return []
    if counter.count(text) <= limit or not separators:
        return [text]
    separator, rest = separators[0], separators[1:]
    parts = [p for p in text.split(separator) if p.strip()]
    if len(parts) == 1:
        return _split_to_fit(text, limit, counter, rest)
    pieces: list[str] = []
    current = ""
    for part in parts:
        candidate = f"{current}{separator}{part}" if current else part
        if counter.count(candidate.strip()) <= limit:
            current = candidate
            continue
        if current:
            pieces.append(current.strip())
        if counter.count(part.strip()) <= limit:
            current = part
        else:
            pieces.extend(_split_to_fit(part, limit, counter, rest))
            current = ""
    if current.strip():
        pieces.append(current.strip())
    return pieces


def _counts(counter: TokenCounterLike, texts: list[str]) -> list[int]:
    count_many = getattr(counter, "count_many", None)
    return list(count_many(texts)) if count_many else [counter.count(t) for t in texts]


def _plain_record(breadcrumb, text: str, embed_text: str, blocks: Sequence[Block], counter: TokenCounterLike, *,
                  ordinal: int, key: str) -> ChunkRecord:
    breadcrumb = (breadcrumb,) if isinstance(breadcrumb, str) else tuple(breadcrumb)
    tokens = counter.count(embed_text)
    warnings = ()
    if tokens > counter.max_tokens:
        warnings = (f"oversized: {tokens} tokens exceeds the {counter.max_tokens}-token limit",)
    return ChunkRecord(
        id=_window_id(" > ".join(breadcrumb), text, blocks, key),
        level="block", kind="text", parent_id=None, ordinal=ordinal, breadcrumb=breadcrumb, text=text,
        embed_text=embed_text, token_count=tokens, pages=tuple(sorted({p for b in blocks for p in b.pages})),
        block_ids=tuple(b.id for b in blocks), searchable=True, warnings=warnings,
    )


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


def _window_id(title: str, window: str, blocks: Sequence[Block], start: int | str) -> str:
    base = "\x1f".join(("block", title, window, ",".join(b.id for b in blocks), str(start)))
    return hashlib.sha256(base.encode("utf-8")).hexdigest()[:16]
