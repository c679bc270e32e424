"""Ruling lines and shaded boxes of a PDF page, read from PDFium path objects.

Edges come out as pdfplumber-style dicts (x0, x1, top, bottom, width, height,
orientation), so pdfplumber's lattice functions can turn them into table
cells without pdfplumber parsing the page (which is many times slower).
Curves are ignored; straight segments of strokes and of filled thin boxes
(how word processors draw borders) both count.
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

BBox = tuple[float, float, float, float]  # x0, top, x1, bottom; from the page's top-left

_AXIS_TOLERANCE = 1.0  # a segment this close to horizontal/vertical is a ruling
_MIN_EDGE = 3.0
_MAX_DEPTH = 4


@dataclass
class Rulings:
    edges: list[dict] = field(default_factory=list)
    fills: list[BBox] = field(default_factory=list)  # non-white filled boxes (shaded cells)

    @property
    def can_hold_table(self) -> bool:
        horizontal = sum(1 for e in self.edges if e["orientation"] == "h")
        return horizontal >= 2 and len(self.edges) - horizontal >= 2


Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def read_rulings(page: pdfium.PdfPage) -> Rulings:
    """Straight edges and shaded boxes drawn on the page (forms included)."""
    _, height = page.get_size()
    rulings = Rulings()
    raw = page.raw
    for i in range(pdfium_c.FPDFPage_CountObjects(raw)):
        _visit(pdfium_c.FPDFPage_GetObject(raw, i), _IDENTITY, height, rulings, 0)
    return rulings


def _visit(obj, parent: Matrix, page_height: float, rulings: Rulings, depth: int) -> None:
    kind = pdfium_c.FPDFPageObj_GetType(obj)
    if kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < _MAX_DEPTH:
        matrix = _compose(_matrix(obj), parent)
        for i in range(pdfium_c.FPDFFormObj_CountObjects(obj)):
            _visit(pdfium_c.FPDFFormObj_GetObject(obj, i), matrix, page_height, rulings, depth + 1)
    elif kind == pdfium_c.FPDF_PAGEOBJ_PATH:
        _read_path(obj, _compose(_matrix(obj), parent), page_height, rulings)


def _read_path(obj, matrix: Matrix, page_height: float, rulings: Rulings) -> None:
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
    pdfium_c.FPDFPath_GetDrawMode(obj, fill_mode, stroke)
    filled = fill_mode.value != pdfium_c.FPDF_FILLMODE_NONE
    if not filled and not stroke.value:
        return  # a clipping path or an invisible shape
    points = _segments(obj, matrix, page_height)
    for (x0, y0), (x1, y1) in points:
        _add_edge(rulings, x0, y0, x1, y1)
    if filled and points and not _white_fill(obj):
        xs = [p[0] for seg in points for p in seg]
        ys = [p[1] for seg in points for p in seg]
        box = (min(xs), min(ys), max(xs), max(ys))
        if box[2] - box[0] > _MIN_EDGE and box[3] - box[1] > _MIN_EDGE:
            rulings.fills.append(box)


def _segments(obj, matrix: Matrix, page_height: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Straight segments of a path in page coordinates (top-down)."""
    x, y = ctypes.c_float(), ctypes.c_float()
    segments = []
    start = current = None
    for i in range(pdfium_c.FPDFPath_CountSegments(obj)):
        segment = pdfium_c.FPDFPath_GetPathSegment(obj, i)
        pdfium_c.FPDFPathSegment_GetPoint(segment, x, y)
        point = _apply(matrix, x.value, y.value, page_height)
        kind = pdfium_c.FPDFPathSegment_GetType(segment)
        if kind == pdfium_c.FPDF_SEGMENT_MOVETO:
            start = current = point
            continue
        if kind == pdfium_c.FPDF_SEGMENT_LINETO and current is not None:
            segments.append((current, point))
        current = point
        if pdfium_c.FPDFPathSegment_GetClose(segment) and start is not None and start != point:
            segments.append((point, start))
            current = start
    return segments


def _add_edge(rulings: Rulings, x0: float, y0: float, x1: float, y1: float) -> None:
    if abs(y1 - y0) <= _AXIS_TOLERANCE and abs(x1 - x0) >= _MIN_EDGE:
        left, right = sorted((x0, x1))
        top = (y0 + y1) / 2
        rulings.edges.append(
            {"x0": left, "x1": right, "top": top, "bottom": top, "width": right - left, "height": 0.0,
             "orientation": "h", "object_type": "line"}
        )
    elif abs(x1 - x0) <= _AXIS_TOLERANCE and abs(y1 - y0) >= _MIN_EDGE:
        top, bottom = sorted((y0, y1))
        left = (x0 + x1) / 2
        rulings.edges.append(
            {"x0": left, "x1": left, "top": top, "bottom": bottom, "width": 0.0, "height": bottom - top,
             "orientation": "v", "object_type": "line"}
        )


def _white_fill(obj) -> bool:
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    if not pdfium_c.FPDFPageObj_GetFillColor(obj, r, g, b, a):
        return True
    return a.value < 20 or min(r.value, g.value, b.value) >= 250


def _matrix(obj) -> Matrix:
    m = pdfium_c.FS_MATRIX()
    if not pdfium_c.FPDFPageObj_GetMatrix(obj, m):
        return _IDENTITY
    return (m.a, m.b, m.c, m.d, m.e, m.f)


def _compose(inner: Matrix, outer: Matrix) -> Matrix:
    """The matrix that applies ``inner`` first, then ``outer``."""
    a1, b1, c1, d1, e1, f1 = inner
    a2, b2, c2, d2, e2, f2 = outer
    return (
        a1 * a2 + b1 * c2,
        a1 * b2 + b1 * d2,
        c1 * a2 + d1 * c2,
        c1 * b2 + d1 * d2,
        e1 * a2 + f1 * c2 + e2,
        e1 * b2 + f1 * d2 + f2,
    )


def _apply(m: Matrix, x: float, y: float, page_height: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, page_height - (b * x + d * y + f))
