"""Documents to and from plain dicts (JSON), so a converted tree can be stored between steps."""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from .model import Block, Document, Table


def document_to_dict(document: Document) -> dict[str, Any]:
    return asdict(document)


def document_from_dict(data: dict[str, Any]) -> Document:
    return Document(
        title=data["title"],
        blocks=tuple(_block_from_dict(b) for b in data["blocks"]),
        source_name=data.get("source_name", ""),
        page_count=data.get("page_count", 0),
    )


def _block_from_dict(data: dict[str, Any]) -> Block:
    table = data.get("table")
    return Block(
        id=data["id"],
        kind=data["kind"],
        text=data.get("text", ""),
        level=data.get("level", 0),
        items=tuple(data.get("items", ())),
        table=_table_from_dict(table) if table else None,
        pages=tuple(data.get("pages", ())),
    )


def _table_from_dict(data: dict[str, Any]) -> Table:
    return Table(
        header_rows=tuple(tuple(r) for r in data["header_rows"]),
        rows=tuple(tuple(r) for r in data["rows"]),
        caption=data.get("caption", ""),
        row_header_columns=data.get("row_header_columns", 0),
    )
