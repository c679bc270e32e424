"""Small helpers to build Documents directly from the dataclasses in tests."""
from __future__ import annotations

import itertools

from chunking.model import Block, ChunkRecord, Document, Table


class DocBuilder:
    """Builds a Document block by block with generated ids: b0001, b0002, ..."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.blocks: list[Block] = []
        self._ids = itertools.count(1)

    def _add(self, **kwargs) -> Block:
        block = Block(id=f"b{next(self._ids):04d}", **kwargs)
        self.blocks.append(block)
        return block

    def heading(self, text: str, level: int = 1, page: int = 1) -> Block:
        return self._add(kind="heading", text=text, level=level, pages=(page,))

    def para(self, text: str, page: int = 1) -> Block:
        return self._add(kind="paragraph", text=text, pages=(page,))

    def list(self, intro: str, items, page: int = 1) -> Block:
        return self._add(kind="list", text=intro, items=tuple(items), pages=(page,))

    def code(self, text: str, page: int = 1) -> Block:
        return self._add(kind="code", text=text, pages=(page,))

    def table(self, header_rows, rows, caption: str = "", row_header_columns: int = 0, page: int = 1) -> Block:
        table = Table(
            header_rows=tuple(tuple(r) for r in header_rows),
            rows=tuple(tuple(r) for r in rows),
            caption=caption,
            row_header_columns=row_header_columns,
        )
        return self._add(kind="table", table=table, pages=(page,))

    def build(self) -> Document:
        return Document(title=self.title, blocks=tuple(self.blocks), source_name="test")


def searchable(chunks: list[ChunkRecord]) -> list[ChunkRecord]:
    return [c for c in chunks if c.searchable]


def block_chunks(chunks: list[ChunkRecord]) -> list[ChunkRecord]:
    """Searchable chunks that carry document text (not the row sentences)."""
    return [c for c in chunks if c.level == "block" and c.kind != "table_row"]


def chunks_containing(chunks: list[ChunkRecord], needle: str) -> list[ChunkRecord]:
    return [c for c in block_chunks(chunks) if needle in c.text]


def only_chunk_containing(chunks: list[ChunkRecord], needle: str) -> ChunkRecord:
    found = chunks_containing(chunks, needle)
    assert len(found) == 1, f"expected one block chunk containing {needle!r}, got {len(found)}"
    return found[0]


FILLER = (
    "Employees should book travel through the approved travel desk portal. "
    "The portal records each booking against the cost centre of the employee. "
    "Managers review the monthly travel report for their team. "
    "Bookings made outside the portal are reviewed by the finance team."
)


def filler_paragraph(n: int) -> str:
    """A distinct paragraph of ordinary policy prose (about 50 tokens)."""
    return f"Booking note {n}. " + FILLER
