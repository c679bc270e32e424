"""Ruled tables of a PDF page, header rows included.

The grid comes from pdfplumber's lattice functions fed with the page's ruling
edges (``pdf_rulings``); the cell text and fonts come from PDFium characters
(``pdf_text``). A merged cell is repeated in every row and column it spans.
Header rows are the leading rows set in bold or on a shaded background; with
neither signal, a first row without numbers is taken as the header.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pdfplumber.table import cells_to_tables, edges_to_intersections, intersections_to_cells, merge_edges
from pdfplumber.utils import filter_edges

from chunking.model import Table
from chunking.pdf_rulings import BBox, Rulings
from chunking.pdf_text import Char, PageText, lines

_TOLERANCE = 3
_NUMERIC = re.compile(r"^[\s$€£₹%()+\-.,/:\d]*\d[\s$€£₹%()+\-.,/:\d]*$")
_MAX_HEADER_ROWS = 3


@dataclass(frozen=True)
class PageTable:
    page: int  # 1-based
    bbox: BBox
    table: Table


def find_tables(page: PageText, rulings: Rulings) -> list[PageTable]:
    """The ruled tables of one page, top to bottom."""
    if not rulings.can_hold_table:
        return []
    edges = merge_edges(rulings.edges, _TOLERANCE, _TOLERANCE, _TOLERANCE, _TOLERANCE)
    edges = filter_edges(edges, min_length=_TOLERANCE)
    cells = intersections_to_cells(edges_to_intersections(edges, _TOLERANCE, _TOLERANCE))
    found = []
    for group in cells_to_tables(cells):
        bbox = (min(c[0] for c in group), min(c[1] for c in group), max(c[2] for c in group), max(c[3] for c in group))
        table = _build(_within(page, bbox), group, rulings.fills)
        if table is not None:
            found.append(PageTable(page.number, bbox, table))
    return sorted(found, key=lambda t: t.bbox[1])


def _build(page: PageText, cells: list[BBox], fills: list[BBox]) -> Table | None:
    xs = _cluster(sorted({c[0] for c in cells}))
    tops = _cluster(sorted({c[1] for c in cells}))
    if len(xs) < 2 or len(tops) < 2:
        return None  # a framed paragraph, not a table: its text stays in the flow
    chars = [c for c in page.stream if isinstance(c, Char)]
    texts = [[""] * len(xs) for _ in tops]
    boxes: list[list[BBox | None]] = [[None] * len(xs) for _ in tops]
    for cell in cells:
        r0, c0 = _index(tops, cell[1]), _index(xs, cell[0])
        r1 = max(r0 + 1, bisect.bisect_left(tops, cell[3] - _TOLERANCE))
        c1 = max(c0 + 1, bisect.bisect_left(xs, cell[2] - _TOLERANCE))
        text = _cell_text(page, cell)
        for r in range(r0, min(r1, len(tops))):
            for c in range(c0, min(c1, len(xs))):
                texts[r][c], boxes[r][c] = text, cell
    keep_cols = [c for c in range(len(xs)) if any(texts[r][c] for r in range(len(tops)))]
    keep_rows = [r for r in range(len(tops)) if any(texts[r][c] for c in keep_cols)]
    if len(keep_rows) < 2 or len(keep_cols) < 2:
        return None
    texts = [[texts[r][c] for c in keep_cols] for r in keep_rows]
    boxes = [[boxes[r][c] for c in keep_cols] for r in keep_rows]
    header = _header_row_count(chars, fills, texts, boxes)
    return Table(
        header_rows=tuple(tuple(row) for row in texts[:header]),
        rows=tuple(tuple(row) for row in texts[header:]),
        row_header_columns=_row_header_columns(chars, boxes[header:]),
    )


def _within(page: PageText, box: BBox) -> PageText:
    """The page reduced to the characters inside ``box`` (break marks kept)."""
    x0, top, x1, bottom = box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2
    stream = tuple(
        item
        for item in page.stream
        if not isinstance(item, Char) or (x0 <= item.x0 and item.x1 <= x1 and top <= item.top and item.bottom <= bottom)
    )
    return PageText(page.number, page.width, page.height, stream)


def _cluster(values: list[float]) -> list[float]:
    """Positions closer than the snapping tolerance are one grid line."""
    out: list[float] = []
    for value in values:
        if not out or value - out[-1] > _TOLERANCE:
            out.append(value)
    return out


def _index(grid: list[float], value: float) -> int:
    i = bisect.bisect_left(grid, value - _TOLERANCE)
    return min(i, len(grid) - 1)


def _cell_text(page: PageText, cell: BBox) -> str:
    return "\n".join(line.text for line in lines(page, include=cell))


def _header_row_count(chars: list[Char], fills: list[BBox], texts: list[list[str]], boxes: list[list[BBox | None]]) -> int:
    bold = [_row_is(row, lambda box: _all_bold(chars, box)) for row in boxes]
    shaded = [_row_is(row, lambda box: _shaded(fills, box)) for row in boxes]
    use_bold, use_shade = not all(bold), not all(shaded)  # a signal every row has tells nothing
    count = 0
    limit = min(_MAX_HEADER_ROWS, len(texts) - 1)
    while count < limit and ((use_bold and bold[count]) or (use_shade and shaded[count])):
        count += 1
    if count == 0 and not any(_NUMERIC.match(t) for t in texts[0] if t):
        count = 1  # ruled policy tables almost always open with a header row
    return count


def _row_is(row: Sequence[BBox | None], test) -> bool:
    cells = [b for b in dict.fromkeys(row) if b is not None]
    return bool(cells) and all(test(box) for box in cells)


def _row_header_columns(chars: list[Char], body: list[list[BBox | None]]) -> int:
    """1 when the first column is bold in every body row and the other columns are not."""
    if not body or len(body[0]) < 2:
        return 0
    first = [row[0] for row in body if row[0] is not None]
    others = [b for row in body for b in row[1:] if b is not None]
    if first and all(_all_bold(chars, b) for b in first) and not all(_all_bold(chars, b) for b in others):
        return 1
    return 0


def _chars_in(chars: list[Char], box: BBox) -> list[Char]:
    x0, top, x1, bottom = box
    return [c for c in chars if x0 <= (c.x0 + c.x1) / 2 <= x1 and top <= (c.top + c.bottom) / 2 <= bottom]


def _all_bold(chars: list[Char], box: BBox) -> bool:
    inside = _chars_in(chars, box)
    return bool(inside) and all(c.font.bold for c in inside)


def _shaded(fills: list[BBox], box: BBox) -> bool:
    """A filled, non-white box behind the whole cell (a header band counts)."""
    return any(
        f[0] <= box[0] + 2 and f[2] >= box[2] - 2 and f[1] <= box[1] + 2 and f[3] >= box[3] - 2 for f in fills
    )
