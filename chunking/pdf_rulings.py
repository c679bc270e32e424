"""Ruling lines and shaded boxes of PDF pages, read from docling-parse's vector shapes.

docling-parse hands out every stroked or filled path of a page (forms included,
clipping paths left out) as a ``PdfShape``: a polyline in page coordinates with
its stroke and fill colours. Straight, axis-parallel segments become ruling
edges, as pdfplumber-style dicts (x0, x1, top, bottom, width, height,
orientation, object_type) that ``pdf_tables`` hands to pdfplumber's table
finder; a shape with a non-white fill colour spanning more than a hairline
both ways is a shaded box (a header band, a shaded cell). Curves come flattened
into short segments, which are neither horizontal nor vertical, or too short.

docling-parse does not say whether a path was filled or only stroked, so a
stroked rectangle counts as shading when the fill colour in force is not white.
A frame around a whole table is harmless (a signal every row has tells
nothing about header rows); a frame around a single row would read as shading.

A page whose content stream docling-parse gives up on (a damaged file PDFium
still reads) has no rulings: its text converts, its tables only as borderless
ones. Over 2,000 bit-flipped and truncated PDFs this changed the tables of 30
of the 825 that still convert, better (more rows) about a third of the time.

Coordinates: docling-parse measures from the crop box's bottom-left corner;
edges here are measured from its top-left corner, the frame ``pdf_text`` reads
characters in.

Cost (``python bench/pdf_recovery.py --extraction``): reading the shapes takes
about as long as PDFium takes to read every character (0.45 s against 0.46 s
for the 92 pages of the LibreOffice set), ten times what the PDFium path-object
walk it replaced took (through ctypes, with hand-composed form matrices): the
whole conversion of the test and benchmark PDFs takes 1.37 times the CPU time
it took before (1.85 s to 2.53 s for 224 pages; the same blocks out).
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from io import BytesIO

from docling_core.types.doc.page import PdfShape, SegmentedPdfPage
from docling_parse.pdf_parser import ContentConfig, ContentLevel, DoclingPdfParser, PdfDocument

from chunking.pdf_config import PdfLayoutConfig

BBox = tuple[float, float, float, float]  # x0, top, x1, bottom; from the crop box's top-left corner

_SHAPES_ONLY = ContentConfig(
    char_cells_content_level=ContentLevel.SKIP,
    word_cells_content_level=ContentLevel.SKIP,
    line_cells_content_level=ContentLevel.SKIP,
    shapes_content_level=ContentLevel.COMPUTE_AND_MATERIALIZE,
    bitmaps_content_level=ContentLevel.SKIP,
    include_bitmap_bytes=False,
)


@dataclass
class Rulings:
    edges: list[dict] = field(default_factory=list)
    fills: list[BBox] = field(default_factory=list)  # non-white filled boxes (shaded cells)

    @property
    def can_hold_table(self) -> bool:
        horizontal = sum(1 for e in self.edges if e["orientation"] == "h")
        return horizontal >= 2 and len(self.edges) - horizontal >= 2


class PathReader:
    """The vector paths of one PDF, a page at a time (pages are 1-based)."""

    def __init__(self, document: PdfDocument | None) -> None:
        self._document = document

    def rulings(self, number: int, config: PdfLayoutConfig) -> Rulings:
        """Ruling edges and shaded boxes of one page; none when docling-parse cannot decode it."""
        if self._document is None:
            return Rulings()
        try:
            page = self._document.get_page(number, content_config=_SHAPES_ONLY)
        except (ValueError, RuntimeError):  # a damaged page: its text still converts, without ruled tables
            return Rulings()
        try:
            return rulings_of(page, config)
        finally:
            self._document.unload_pages((number, number + 1))


@contextmanager
def open_paths(data: bytes) -> Iterator[PathReader]:
    """Open the PDF with docling-parse for its vector paths (a file PDFium opened but docling-parse
    cannot is read without ruled tables: its text still converts)."""
    try:
        document = DoclingPdfParser().load(BytesIO(data), content_config=_SHAPES_ONLY)
    except RuntimeError:
        document = None
    try:
        yield PathReader(document)
    finally:
        if document is not None:
            document.unload()


def rulings_of(page: SegmentedPdfPage, config: PdfLayoutConfig) -> Rulings:
    """Straight edges and shaded boxes among a page's shapes."""
    height = page.dimension.height
    rulings = Rulings()
    for shape in page.shapes:
        shape.to_top_left_origin(height)
        for start, end in shape.iterate_segments():
            _add_edge(rulings, start.x, start.y, end.x, end.y, config)
        box = _shading(shape, config)
        if box is not None:
            rulings.fills.append(box)
    return rulings


def _shading(shape: PdfShape, config: PdfLayoutConfig) -> BBox | None:
    fill = shape.rgb_filling
    if len(shape.points) < 3 or fill.a < config.min_fill_alpha or min(fill.r, fill.g, fill.b) >= config.white_level:
        return None
    xs = [p.x for p in shape.points]
    ys = [p.y for p in shape.points]
    box = (min(xs), min(ys), max(xs), max(ys))
    if box[2] - box[0] > config.min_edge and box[3] - box[1] > config.min_edge:
        return box
    return None


def _add_edge(rulings: Rulings, x0: float, y0: float, x1: float, y1: float, config: PdfLayoutConfig) -> None:
    if abs(y1 - y0) <= config.axis_tolerance and abs(x1 - x0) >= config.min_edge:
        left, right = sorted((x0, x1))
        top = (y0 + y1) / 2
        rulings.edges.append(
            {"x0": left, "x1": right, "top": top, "bottom": top, "width": right - left, "height": 0.0,
             "orientation": "h", "object_type": "line"}
        )
    elif abs(x1 - x0) <= config.axis_tolerance and abs(y1 - y0) >= config.min_edge:
        top, bottom = sorted((y0, y1))
        left = (x0 + x1) / 2
        rulings.edges.append(
            {"x0": left, "x1": left, "top": top, "bottom": bottom, "width": 0.0, "height": bottom - top,
             "orientation": "v", "object_type": "line"}
        )
