"""Docling in, ``Document`` out. The only module in chunking/ that imports Docling.

``convert_with_docling`` runs Docling's ``DocumentConverter`` (DOCX, HTML,
Markdown, XLSX, CSV, PPTX; PDF only with layout-model artifacts) and
``document_from_docling`` walks the resulting DoclingDocument body into blocks.
Docling is imported lazily: importing it costs seconds (it pulls in torch), so
``import chunking`` stays cheap and only the first conversion pays.
"""
from __future__ import annotations

import functools
import io
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chunking import errors
from chunking.model import Block, Document, Table

if TYPE_CHECKING:  # pragma: no cover
    from docling_core.types.doc import DoclingDocument

log = logging.getLogger(__name__)

DOCLING_FORMATS = ("docx", "html", "md", "xlsx", "csv", "pptx", "pdf")
_SKIPPED_TEXT_LABELS = {"page_header", "page_footer", "empty_value"}
_OUT_OF_MEMORY = re.compile(r"MemoryError|out of memory|cannot allocate memory|unable to allocate|bad_alloc", re.IGNORECASE)


def convert_with_docling(
    data: bytes, *, name: str, fmt: str, pdf_artifacts_path: str | Path | None = None
) -> Document:
    """Convert file bytes of a known format with Docling; raise ``ConversionError`` on failure."""
    if fmt not in DOCLING_FORMATS:
        raise ValueError(f"Docling path does not handle {fmt!r}")
    from docling.datamodel.base_models import ConversionStatus, DocumentStream

    converter = _converter(str(pdf_artifacts_path) if pdf_artifacts_path else None)
    stem = Path(name).stem or "document"
    source = DocumentStream(name=f"{stem}.{fmt}", stream=io.BytesIO(data))
    try:
        result = converter.convert(source, raises_on_error=False)
    except (ImportError, FileNotFoundError, MemoryError) as exc:
        check = "the Docling install and pdf_artifacts_path" if fmt == "pdf" else "the Docling install"
        raise RuntimeError(f"Docling could not run on {name} (check {check}): {exc}") from exc  # setup, not file
    except Exception as exc:  # Docling raises many types for bad input
        if fmt == "pdf":  # the PDF already opened cleanly with PDFium: the pipeline is at fault
            raise RuntimeError(f"Docling's PDF pipeline failed on {name} (check pdf_artifacts_path): {exc}") from exc
        log.info("docling failed on %s: %r", name, exc)
        raise errors.corrupt(name, fmt) from exc
    if result.status not in (ConversionStatus.SUCCESS, ConversionStatus.PARTIAL_SUCCESS):
        detail = "; ".join(e.error_message for e in result.errors)[:300]
        if _OUT_OF_MEMORY.search(detail):  # Docling caught the allocation failure and kept its words only
            raise MemoryError(f"Docling ran out of memory on {name}: {detail}")
        if fmt == "pdf":
            raise RuntimeError(f"Docling's PDF pipeline failed on {name} (check pdf_artifacts_path): {detail}")
        log.info("docling status %s on %s: %s", result.status, name, detail)
        raise errors.corrupt(name, fmt)
    return document_from_docling(result.document, source_name=name)


@functools.lru_cache(maxsize=4)
def _converter(pdf_artifacts_path: str | None) -> Any:
    """One converter per configuration: building one loads backends (and, for PDF, models)."""
    from docling.datamodel.base_models import InputFormat
    from docling.document_converter import DocumentConverter, PdfFormatOption

    formats = [InputFormat.DOCX, InputFormat.HTML, InputFormat.MD, InputFormat.XLSX, InputFormat.CSV, InputFormat.PPTX]
    options: dict[Any, Any] = {}
    if pdf_artifacts_path:
        from docling.datamodel.pipeline_options import PdfPipelineOptions

        pipeline = PdfPipelineOptions(artifacts_path=pdf_artifacts_path, do_ocr=False, do_table_structure=True)
        options[InputFormat.PDF] = PdfFormatOption(pipeline_options=pipeline)
        formats.append(InputFormat.PDF)
    return DocumentConverter(allowed_formats=formats, format_options=options)


# --- walking the DoclingDocument -----------------------------------------------


@dataclass
class _Heading:
    is_title: bool
    level: int


@dataclass
class _Walk:
    doc: Any
    blocks: list[Block] = field(default_factory=list)
    headings: dict[int, _Heading] = field(default_factory=dict)  # index in blocks -> kind
    consumed: set[str] = field(default_factory=set)  # crefs already used as table captions

    def add(self, block: Block) -> None:
        self.blocks.append(block)


def document_from_docling(doc: DoclingDocument, *, source_name: str = "", title: str = "") -> Document:
    """Turn a DoclingDocument into our ``Document`` (block ids are assigned by clean-up)."""
    walk = _Walk(doc)
    for table in doc.tables:
        walk.consumed.update(ref.cref for ref in table.captions)
    _visit_children(walk, doc.body)
    doc_title, blocks = _settle_titles(walk, title)
    page_count = len(doc.pages) if doc.pages else 0
    if not page_count:
        page_count = max((p for b in blocks for p in b.pages), default=0)
    return Document(title=doc_title, blocks=tuple(blocks), source_name=source_name, page_count=page_count)


def _visit_children(walk: _Walk, node: Any) -> None:
    for ref in node.children:
        _visit(walk, ref.resolve(walk.doc))


def _visit(walk: _Walk, item: Any) -> None:
    from docling_core.types.doc import (
        CodeItem,
        GroupItem,
        ListItem,
        PictureItem,
        SectionHeaderItem,
        TableItem,
        TextItem,
        TitleItem,
    )

    layer = getattr(item, "content_layer", None)
    if layer is not None and getattr(layer, "value", layer) != "body":  # page headers, footers, notes
        return
    if isinstance(item, TableItem):
        walk.add(Block(id="", kind="table", table=_table(item, walk.doc), pages=_pages(item)))
    elif isinstance(item, PictureItem):
        caption = item.caption_text(walk.doc)
        if caption.strip():
            walk.add(Block(id="", kind="paragraph", text=caption, pages=_pages(item)))
    elif isinstance(item, GroupItem):
        _visit_group(walk, item)
    elif isinstance(item, TitleItem):
        walk.headings[len(walk.blocks)] = _Heading(is_title=True, level=1)
        walk.add(Block(id="", kind="heading", text=item.text, level=1, pages=_pages(item)))
        _visit_children(walk, item)
    elif isinstance(item, SectionHeaderItem):
        walk.headings[len(walk.blocks)] = _Heading(is_title=False, level=item.level)
        walk.add(Block(id="", kind="heading", text=item.text, level=item.level, pages=_pages(item)))
        _visit_children(walk, item)
    elif isinstance(item, CodeItem):
        walk.add(Block(id="", kind="code", text=item.text, pages=_pages(item)))
    elif isinstance(item, ListItem):  # a list item outside a list group
        walk.add(Block(id="", kind="list", items=(_item_text(item),), pages=_pages(item)))
        _visit_children(walk, item)
    elif isinstance(item, TextItem):
        if str(item.label) not in _SKIPPED_TEXT_LABELS and item.self_ref not in walk.consumed:
            walk.add(Block(id="", kind="paragraph", text=item.text, pages=_pages(item)))
        _visit_children(walk, item)
    else:  # key-value and form items, formulas without text: nothing to index
        _visit_children(walk, item)


def _visit_group(walk: _Walk, group: Any) -> None:
    label = str(group.label)
    if label in ("list", "ordered_list"):
        _visit_list(walk, group)
    elif label == "inline":
        text = " ".join(t for t in (_inline_text(walk.doc, c.resolve(walk.doc)) for c in group.children) if t)
        pages = tuple(sorted({p for c in group.children for p in _pages(c.resolve(walk.doc))}))
        walk.add(Block(id="", kind="paragraph", text=text, pages=pages))
    else:
        if label == "sheet" and group.name:
            walk.headings[len(walk.blocks)] = _Heading(is_title=False, level=1)
            walk.add(Block(id="", kind="heading", text=group.name, level=1))
        _visit_children(walk, group)


def _visit_list(walk: _Walk, group: Any) -> None:
    """Consecutive list items become one list block; nested lists are flattened into it."""
    items: list[str] = []
    pages: set[int] = set()

    def flush() -> None:
        if items:
            walk.add(Block(id="", kind="list", items=tuple(items), pages=tuple(sorted(pages))))
            items.clear()
            pages.clear()

    def collect(list_group: Any) -> None:
        from docling_core.types.doc import ListItem

        for ref in list_group.children:
            child = ref.resolve(walk.doc)
            if isinstance(child, ListItem):
                items.append(_item_text(child))
                pages.update(_pages(child))
                for sub_ref in child.children:
                    sub = sub_ref.resolve(walk.doc)
                    if str(getattr(sub, "label", "")) in ("list", "ordered_list"):
                        collect(sub)
                    elif str(getattr(sub, "label", "")) == "inline" or hasattr(sub, "text"):
                        extra = _inline_text(walk.doc, sub)
                        if extra and items:
                            items[-1] = f"{items[-1]} {extra}"
                    else:
                        flush()
                        _visit(walk, sub)
            elif str(getattr(child, "label", "")) in ("list", "ordered_list"):
                collect(child)
            else:  # a table or paragraph that Docling hung under the list ends it
                flush()
                _visit(walk, child)

    collect(group)
    flush()


def _inline_text(doc: Any, item: Any) -> str:
    if hasattr(item, "text") and item.text:
        return item.text
    children = getattr(item, "children", [])
    return " ".join(t for t in (_inline_text(doc, c.resolve(doc)) for c in children) if t)


def _item_text(item: Any) -> str:
    marker = (getattr(item, "marker", "") or "").strip()
    if getattr(item, "enumerated", False) and marker and any(ch.isalnum() for ch in marker):
        return f"{marker} {item.text}"
    return item.text


def _pages(item: Any) -> tuple[int, ...]:
    return tuple(sorted({p.page_no for p in (getattr(item, "prov", None) or []) if p.page_no}))


def _settle_titles(walk: _Walk, title: str) -> tuple[str, list[Block]]:
    """A single title item becomes the document title; several become level-1 sections."""
    blocks = walk.blocks
    titles = [i for i, h in walk.headings.items() if h.is_title]
    if len(titles) == 1 and not title:
        index = titles[0]
        sections_before = any(not h.is_title and i < index for i, h in walk.headings.items())
        if not sections_before:
            return blocks[index].text, blocks[:index] + blocks[index + 1 :]
    if len(titles) > 1:
        shifted = []
        for i, block in enumerate(blocks):
            heading = walk.headings.get(i)
            if heading is not None and not heading.is_title:
                block = Block(id="", kind="heading", text=block.text, level=block.level + 1, pages=block.pages)
            shifted.append(block)
        return title or blocks[titles[0]].text, shifted
    return title, blocks


# --- tables --------------------------------------------------------------------


def _table(item: Any, doc: Any) -> Table:
    """Docling table cells -> header rows, body rows and row-header columns.

    A merged cell is repeated in every row and column it spans, so each row
    reads completely on its own.
    """
    data = item.data
    n_rows, n_cols = data.num_rows, data.num_cols
    grid = [[""] * n_cols for _ in range(n_rows)]
    col_header = [False] * n_rows
    row_header = [[False] * n_cols for _ in range(n_rows)]
    for cell in data.table_cells:
        text = _cell_text(cell, doc)
        for r in range(cell.start_row_offset_idx, min(cell.end_row_offset_idx, n_rows)):
            for c in range(cell.start_col_offset_idx, min(cell.end_col_offset_idx, n_cols)):
                grid[r][c] = text
                row_header[r][c] = bool(cell.row_header)
            if cell.column_header:
                col_header[r] = True
    keep_cols = [c for c in range(n_cols) if any(grid[r][c].strip() for r in range(n_rows))]
    keep_rows = [r for r in range(n_rows) if any(grid[r][c].strip() for c in keep_cols)]
    header_count = 0
    while header_count < len(keep_rows) and col_header[keep_rows[header_count]]:
        header_count += 1
    if header_count == len(keep_rows):  # every row flagged: only the first is a header
        header_count = 1 if len(keep_rows) > 1 else 0
    rows = [tuple(grid[r][c] for c in keep_cols) for r in keep_rows]
    body = keep_rows[header_count:]
    row_header_columns = 0
    for c in keep_cols:
        if body and all(row_header[r][c] for r in body):
            row_header_columns += 1
        else:
            break
    return Table(
        header_rows=tuple(rows[:header_count]),
        rows=tuple(rows[header_count:]),
        caption=item.caption_text(doc) or "",
        row_header_columns=row_header_columns,
    )


def _cell_text(cell: Any, doc: Any) -> str:
    """Plain cell text (a rich cell's ``_get_text`` would add Markdown such as "**Grade**")."""
    return cell.text or ""
