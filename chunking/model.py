"""Dataclasses that flow through chunking: a document tree in, chunk records out.

Nothing here imports Django, Celery or Docling.
"""
from __future__ import annotations

from dataclasses import dataclass, field

BLOCK_KINDS = ("heading", "paragraph", "list", "table", "code")
CHUNK_LEVELS = ("document", "section", "block")
CHUNK_KINDS = ("text", "list", "table", "table_row", "code")


@dataclass(frozen=True)
class Table:
    """A table with its header rows kept apart from its body rows."""

    header_rows: tuple[tuple[str, ...], ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""
    row_header_columns: int = 0  # leading columns that label each row


@dataclass(frozen=True)
class Block:
    """One structural unit of a converted document."""

    id: str  # stable within the document, e.g. "b0007"
    kind: str  # one of BLOCK_KINDS
    text: str = ""  # heading text, paragraph text, list intro, code text
    level: int = 0  # heading level (1 = top section); 0 for other blocks
    items: tuple[str, ...] = ()  # list items (kind == "list")
    table: Table | None = None  # kind == "table"
    pages: tuple[int, ...] = ()  # 1-based source pages, empty when unknown


@dataclass(frozen=True)
class Document:
    """The canonical tree: a title and its blocks in reading order."""

    title: str
    blocks: tuple[Block, ...]
    source_name: str = ""
    page_count: int = 0


@dataclass(frozen=True)
class ChunkRecord:
    """A unit that is embedded, ranked and cited."""

    id: str  # content-addressed: hash of text and lineage
    level: str  # one of CHUNK_LEVELS
    kind: str  # one of CHUNK_KINDS
    parent_id: str | None
    ordinal: int  # position in document order among all chunks
    breadcrumb: tuple[str, ...]  # ("Travel Policy", "6 Meals", "6.1 Meal allowance")
    text: str  # clean display text (no breadcrumb)
    embed_text: str  # context prefix + breadcrumb + text: what is embedded and full-text indexed
    token_count: int  # of embed_text, with the embedding model's tokenizer
    pages: tuple[int, ...] = ()
    block_ids: tuple[str, ...] = ()
    searchable: bool = True  # block and table_row chunks; document/section chunks are parents
    warnings: tuple[str, ...] = field(default=())
