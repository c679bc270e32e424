"""Ruled tables of a PDF page, header rows included.

The grid comes from pdfplumber's table finder (its public ``Page.find_tables``),
given the page's ruling edges (``pdf_rulings``) as explicit lines, so pdfplumber
never parses the page's content (its own reading costs 33-70 ms a page, more
than the whole conversion); the cell text and fonts come from PDFium characters
(``pdf_text``). A merged cell is repeated in every row and column it spans.
Header rows are the leading rows set in bold or on a shaded background; with
neither signal, a first row without numbers is taken as the header.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from io import BytesIO

import pdfplumber

from chunking.model import Table
from chunking.pdf_config import PdfLayoutConfig
from chunking.pdf_rulings import BBox, Rulings
from chunking.pdf_text import Char, Line, PageText, lines

_NUMERIC = re.compile(r"^[\s$€£₹%()+\-.,/:\d]*\d[\s$€£₹%()+\-.,/:\d]*$")  # "1,800", "₹ 2,500", "12%"
_MARKER = re.compile(  # a list marker alone in the first column: "1", "(a)", "ii.", a bullet
    r"^(?:\(?(?:\d{1,2}|[a-z]|[ivx]{1,4})[.)]?"
    r"|[\u2022\u2023\u2043\u2219\u00b7\u25aa\u25ab\u25a0\u25a1\u25cf\u25cb\u25e6\u27a2\u2013\u2014\-*o\ue000-\uf8ff])$"
)


@dataclass(frozen=True)
class PageTable:
    page: int  # 1-based
    bbox: BBox
    table: Table
    header_guessed: bool = False  # header row taken by the no-numbers rule, not seen in bold or shading


class GridFinder:
    """Cell grids from ruling edges, by pdfplumber's table finder (pages are 1-based).

    pdfplumber needs one of its page objects to run the finder on; with explicit
    lines it reads nothing from it. The PDF is opened for that the first time a
    page has rulings that can hold a table. A damaged file that PDFium reads but
    pdfminer cannot open gets no grids (41 of the 825 bit-flipped or truncated
    PDFs out of 2,000 that still convert): its tables come out as borderless ones
    or as text, nothing is lost.
    """

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._pdf: pdfplumber.PDF | None = None
        self._failed = False

    def cell_groups(self, number: int, rulings: Rulings, config: PdfLayoutConfig) -> list[list[BBox]]:
        """The cells of each table the rulings draw on page ``number``, top to bottom."""
        page = self._page(number)
        if page is None:
            return []
        v = [e for e in rulings.edges if e["orientation"] == "v"]
        h = [e for e in rulings.edges if e["orientation"] == "h"]
        tolerance = config.grid_tolerance
        settings = {
            "vertical_strategy": "explicit",
            "horizontal_strategy": "explicit",
            "explicit_vertical_lines": v,
            "explicit_horizontal_lines": h,
            "snap_tolerance": tolerance,
            "join_tolerance": tolerance,
            "edge_min_length": tolerance,
            "intersection_tolerance": tolerance,
        }
        return [table.cells for table in page.find_tables(settings)]

    def _page(self, number: int):
        if self._pdf is None and not self._failed:
            try:
                self._pdf = pdfplumber.open(BytesIO(self._data))
                self._pdf.pages  # noqa: B018  (builds the page objects now, where a damaged file fails)
            except Exception:  # noqa: BLE001
                # PDFium read (or repaired) a file pdfminer cannot: pdfminer's errors, pdfplumber's
                # MalformedPDFException, a TypeError on a mangled MediaBox. Its text still
                # converts, without ruled tables (borderless ones are still found).
                self._failed = True
                self._pdf = None  # nothing to close: pdfplumber does not own the in-memory stream
        if self._pdf is None or number > len(self._pdf.pages):
            return None
        return self._pdf.pages[number - 1]

    def close(self) -> None:
        if self._pdf is not None:
            self._pdf.close()
            self._pdf = None


@contextmanager
def open_grids(data: bytes) -> Iterator[GridFinder]:
    finder = GridFinder(data)
    try:
        yield finder
    finally:
        finder.close()


def find_tables(page: PageText, rulings: Rulings, grids: GridFinder, config: PdfLayoutConfig) -> list[PageTable]:
    """The ruled tables of one page, top to bottom."""
    if not rulings.can_hold_table:
        return []
    found = []
    for group in grids.cell_groups(page.number, rulings, config):
        bbox = (min(c[0] for c in group), min(c[1] for c in group), max(c[2] for c in group), max(c[3] for c in group))
        built = _build(_within(page, bbox, config.table_margin), group, rulings.fills, config)
        if built is not None:
            found.append(PageTable(page.number, bbox, *built))
    return sorted(found, key=lambda t: t.bbox[1])


def _build(page: PageText, cells: list[BBox], fills: list[BBox], config: PdfLayoutConfig) -> tuple[Table, bool] | None:
    tolerance = config.grid_tolerance
    xs = _cluster(sorted({c[0] for c in cells}), tolerance)
    tops = _cluster(sorted({c[1] for c in cells}), tolerance)
    if len(xs) < 2:
        return None  # a framed paragraph, not a table: its text stays in the flow
    chars = [c for c in page.stream if isinstance(c, Char)]
    texts = [[""] * len(xs) for _ in tops]
    boxes: list[list[BBox | None]] = [[None] * len(xs) for _ in tops]
    for cell in cells:
        r0, c0 = _index(tops, cell[1], tolerance), _index(xs, cell[0], tolerance)
        r1 = max(r0 + 1, bisect.bisect_left(tops, cell[3] - tolerance))
        c1 = max(c0 + 1, bisect.bisect_left(xs, cell[2] - tolerance))
        text = "\n".join(line.text for line in lines(page, config, include=cell))
        for r in range(r0, min(r1, len(tops))):
            for c in range(c0, min(c1, len(xs))):
                texts[r][c], boxes[r][c] = text, cell
    right = max(c[2] for c in cells)
    widths = [b - a for a, b in zip(xs, [*xs[1:], right])]
    keep_cols = [c for c in range(len(xs)) if widths[c] >= config.min_column_width or any(texts[r][c] for r in range(len(tops)))]
    keep_rows = [r for r in range(len(tops)) if any(texts[r][c] for c in keep_cols)]
    if not keep_rows or len(keep_cols) < 2:
        return None  # a single row is kept: it may be a header or a row cut off by a page break
    texts = [[texts[r][c] for c in keep_cols] for r in keep_rows]
    boxes = [[boxes[r][c] for c in keep_cols] for r in keep_rows]
    header, guessed = _header_row_count(chars, fills, texts, boxes, config)
    table = Table(
        header_rows=tuple(tuple(row) for row in texts[:header]),
        rows=tuple(tuple(row) for row in texts[header:]),
        row_header_columns=_row_header_columns(chars, boxes[header:]),
    )
    return table, guessed


def _within(page: PageText, box: BBox, margin: float) -> PageText:
    """The page reduced to the characters inside ``box`` (break marks kept)."""
    x0, top, x1, bottom = box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin
    stream = tuple(
        item
        for item in page.stream
        if not isinstance(item, Char) or (x0 <= item.x0 and item.x1 <= x1 and top <= item.top and item.bottom <= bottom)
    )
    return PageText(page.number, page.width, page.height, stream)


def _cluster(values: list[float], tolerance: float) -> list[float]:
    """Positions closer than the snapping tolerance are one grid line."""
    out: list[float] = []
    for value in values:
        if not out or value - out[-1] > tolerance:
            out.append(value)
    return out


def _index(grid: list[float], value: float, tolerance: float) -> int:
    i = bisect.bisect_left(grid, value - tolerance)
    return min(i, len(grid) - 1)


def _header_row_count(
    chars: list[Char], fills: list[BBox], texts: list[list[str]], boxes: list[list[BBox | None]], config: PdfLayoutConfig
) -> tuple[int, bool]:
    """How many leading rows are header rows, and whether that was guessed without a style signal."""
    margin = config.table_margin
    bold = [_row_is(row, lambda box: _all_bold(chars, box)) for row in boxes]
    shaded = [_row_is(row, lambda box: _shaded(fills, box, margin)) for row in boxes]
    use_bold, use_shade = not all(bold), not all(shaded)  # a signal every row has tells nothing
    count = 0
    limit = min(config.max_header_rows, len(texts) - 1)
    while count < limit and ((use_bold and bold[count]) or (use_shade and shaded[count])):
        count += 1
    if count == 0 and not any(_NUMERIC.match(t) for t in texts[0] if t):
        return 1, True  # ruled policy tables almost always open with a header row
    return count, False


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


def _shaded(fills: list[BBox], box: BBox, margin: float) -> bool:
    """A filled, non-white box behind the whole cell (a header band counts)."""
    return any(
        f[0] <= box[0] + margin and f[2] >= box[2] - margin and f[1] <= box[1] + margin and f[3] >= box[3] - margin
        for f in fills
    )


# --- tables without vertical rules: columns from aligned gaps in the text ------------


def find_aligned_tables(page_lines: Sequence[Line], page: int, config: PdfLayoutConfig) -> tuple[list[PageTable], list[Line]]:
    """Runs of lines split into the same columns by wide gaps are tables.

    Catches borderless tables and tables ruled only horizontally, which the
    lattice cannot see. A run needs two or more columns and ``aligned_min_rows``
    or more rows (two when the first row is bold); a line that does not fit the
    columns of the first row ends the run. Cells that wrap onto a second line
    are not supported: the run ends there and the rest stays text.
    """
    tables: list[PageTable] = []
    rest: list[Line] = []
    i = 0
    while i < len(page_lines):
        run = _aligned_run(page_lines, i, config)
        if len(run) >= 2 and all(_MARKER.match(line.segments[0][2]) for line in run):
            rest.extend(_as_list_line(line) for line in run)  # "1   Fill in the form": a list, not a table
            i += len(run)
        elif len(run) >= config.aligned_min_rows or (len(run) == 2 and run[0].bold and not run[1].bold):
            tables.append(_aligned_table(run, page, config))
            i += len(run)
        else:
            rest.append(page_lines[i])
            i += 1
    return tables, rest


def _as_list_line(line: Line) -> Line:
    marker, text = line.segments[0][2], " ".join(seg[2] for seg in line.segments[1:])
    if marker[-1].isalnum():
        marker += "."
    return replace(line, text=f"{marker} {text}", segments=())


def _aligned_run(page_lines: Sequence[Line], start: int, config: PdfLayoutConfig) -> list[Line]:
    first = page_lines[start]
    if len(first.segments) < 2 or first.mono:
        return []
    run = [first]
    for line in page_lines[start + 1 :]:
        gap = line.top - run[-1].bottom
        if line.mono or len(line.segments) < 2 or not 0 <= gap <= config.aligned_row_gap * line.size:
            break
        if _columns_of(line, first.segments, config) is None:
            break
        run.append(line)
    return run


def _columns_of(line: Line, columns: Sequence[tuple[float, float, str]], config: PdfLayoutConfig) -> list[int] | None:
    """The column index of each segment, increasing; None when a segment fits no column."""
    slack, margin = config.aligned_edge_slack, config.box_margin
    found: list[int] = []
    for x0, x1, _ in line.segments:
        centre = (x0 + x1) / 2
        match = next(
            (
                c
                for c, (cx0, cx1, _) in enumerate(columns)
                if abs(x0 - cx0) <= slack or abs(x1 - cx1) <= slack or cx0 - margin <= centre <= cx1 + margin
            ),
            None,
        )
        if match is None or (found and match <= found[-1]):
            return None
        found.append(match)
    return found


def _aligned_table(run: list[Line], page: int, config: PdfLayoutConfig) -> PageTable:
    columns = run[0].segments
    grid: list[tuple[str, ...]] = []
    for line in run:
        row = [""] * len(columns)
        for (_, _, text), column in zip(line.segments, _columns_of(line, columns, config) or range(len(columns))):
            row[column] = text
        grid.append(tuple(row))
    header = 1 if run[0].bold or not any(_NUMERIC.match(t) for t in grid[0] if t) else 0
    bbox = (min(l.x0 for l in run), run[0].top, max(l.x1 for l in run), run[-1].bottom)
    table = Table(header_rows=tuple(grid[:header]), rows=tuple(grid[header:]))
    return PageTable(page, bbox, table, header_guessed=not run[0].bold)


# --- tables that run over a page break ---------------------------------------------------


def continue_table(previous: Table, following: PageTable) -> Table | None:
    """``previous`` extended by the part of it on the next page, or None when it is another table.

    The continuation has the same number of columns; its header is either the
    repeated header or no header at all (a guessed header is just its first
    row). A first row with empty cells whose text completes the last row's
    cells is a row that the page break cut in two.
    """
    part = following.table
    width = len((previous.header_rows or previous.rows or ((),))[0])
    if width < 2 or len((part.header_rows or part.rows or ((),))[0]) != width or part.caption:
        return None
    if part.header_rows and not following.header_guessed and part.header_rows != previous.header_rows:
        return None
    rows = list(part.rows)
    if part.header_rows and part.header_rows != previous.header_rows:
        rows = list(part.header_rows) + rows
    body = list(previous.rows)
    if body and rows and _completes(body[-1], rows[0]):
        body[-1] = tuple(f"{a} {b}".strip() for a, b in zip(body[-1], rows[0]))
        rows = rows[1:]
    return replace(previous, rows=tuple(body + rows))


def _completes(last: tuple[str, ...], first: tuple[str, ...]) -> bool:
    filled = [bool(c.strip()) for c in first]
    return 0 < sum(filled) < len(first) and all(last[i].strip() for i, f in enumerate(filled) if f)
