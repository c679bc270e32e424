"""The model-free PDF path: characters and vector paths -> tables, headings, paragraphs.

Used when no Docling layout-model artifacts are configured. Steps, each in its
own module: ``pdf_text`` (characters, fonts, lines: PDFium), ``pdf_rulings``
(ruling edges and shading: docling-parse's vector shapes), ``pdf_tables``
(ruled tables with header rows, their grid by pdfplumber's table finder, and
tables whose columns line up without vertical rules), ``pdf_headings`` and
``pdf_layout`` (furniture, title, headings with levels, paragraphs, lists).
Every threshold is a field of ``PdfLayoutConfig`` (``pdf_config``).
"""
from __future__ import annotations

from contextlib import contextmanager

import pypdfium2 as pdfium

from chunking import errors
from chunking.model import Document
from chunking.pdf_config import PdfLayoutConfig
from chunking.pdf_layout import PdfPage, layout_blocks
from chunking.pdf_rulings import PathReader, open_paths
from chunking.pdf_tables import GridFinder, find_aligned_tables, find_tables, open_grids
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


def convert_pdf(data: bytes, *, name: str, config: PdfLayoutConfig | None = None) -> Document:
    """Convert a PDF without layout models (blocks get their ids in clean-up).

    ``config``: the layout thresholds (default ``PdfLayoutConfig()``).
    """
    config = PdfLayoutConfig() if config is None else config
    document = open_pdf(data, name)
    try:
        with _pages_read(name):
            _require_text(document, name)
            with open_paths(data) as paths, open_grids(data) as grids:
                pages = [_read(document, index, paths, grids, config) for index in range(len(document))]
        title, blocks = layout_blocks(pages, config)
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


def _read(document, index: int, paths: PathReader, grids: GridFinder, config: PdfLayoutConfig) -> PdfPage:
    number = index + 1
    page = document[index]
    try:
        text = read_page(page, number, config)
    finally:
        page.close()
    tables = find_tables(text, paths.rulings(number, config), grids, config)
    aligned, body = find_aligned_tables(lines(text, config, exclude=[t.bbox for t in tables]), number, config)
    return PdfPage(number, text.width, text.height, tuple(body), tuple(tables + aligned))
