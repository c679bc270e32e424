"""The model-free PDF path: PDFium text and rulings -> tables, headings, paragraphs.

Used when no Docling layout-model artifacts are configured. Steps, each in its
own module: ``pdf_text`` (characters, fonts, lines), ``pdf_rulings`` (ruling
edges), ``pdf_tables`` (ruled tables with header rows, and
tables whose columns line up without vertical rules), ``pdf_headings`` and
``pdf_layout`` (furniture, title, headings with levels, paragraphs, lists).
"""
from __future__ import annotations

from contextlib import contextmanager

import pypdfium2 as pdfium

from chunking import errors
from chunking.model import Document
from chunking.pdf_layout import PdfPage, layout_blocks
from chunking.pdf_rulings import read_rulings
from chunking.pdf_tables import find_aligned_tables, find_tables
from chunking.pdf_text import lines, open_pdf, read_page, text_layer_state


def check_pdf(data: bytes, name: str) -> int:
    """Raise ``ConversionError`` for encrypted, damaged or text-less PDFs; else the page count."""
    document = open_pdf(data, name)
    try:
        with _pages_read(name):
            _require_text(document, name)
        return len(document)
    finally:
        document.close()


def page_count(data: bytes, name: str) -> int:
    """The number of pages, without reading any (``ConversionError`` if the PDF cannot be opened)."""
    document = open_pdf(data, name)
    try:
        return len(document)
    finally:
        document.close()


def convert_pdf(data: bytes, *, name: str) -> Document:
    """Convert a PDF without layout models (blocks get their ids in clean-up)."""
    document = open_pdf(data, name)
    try:
        with _pages_read(name):
            _require_text(document, name)
            pages = [_read(document, index) for index in range(len(document))]
        title, blocks = layout_blocks(pages)
        return Document(title=title, blocks=tuple(blocks), source_name=name, page_count=len(document))
    finally:
        document.close()


@contextmanager
def _pages_read(name: str):
    """A page PDFium cannot load (a damaged page object) makes the file damaged, not a crash."""
    try:
        yield
    except pdfium.PdfiumError as exc:
        raise errors.corrupt(name, "pdf", "a page could not be read") from exc


def _require_text(document, name: str) -> None:
    state = text_layer_state(document)
    if state == "images":
        raise errors.no_text_layer(name)
    if state == "blank":
        raise errors.no_text(name)


def _read(document, index: int) -> PdfPage:
    page = document[index]
    try:
        text = read_page(page, index + 1)
        tables = find_tables(text, read_rulings(page))
        aligned, body = find_aligned_tables(lines(text, exclude=[t.bbox for t in tables]), index + 1)
        return PdfPage(index + 1, text.width, text.height, tuple(body), tuple(tables + aligned))
    finally:
        page.close()
