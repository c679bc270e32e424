"""PDF lines and tables -> blocks: furniture out, title, headings, paragraphs, lists, code.

Works on the whole document: page headers and footers are found by repetition
across pages, the body font size and line spacing are measured over all pages,
and a paragraph cut by a page break is left for ``cleanup.join_across_pages``.
"""
from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from chunking.cleanup import furniture_key, is_page_number_line, repeated_furniture
from chunking.model import Block
from chunking.pdf_config import PdfLayoutConfig
from chunking.pdf_headings import HeadingStyle, bullet_text, enumerated, heading_levels, is_heading, number_depth
from chunking.pdf_tables import PageTable, continue_table
from chunking.pdf_text import Line

_SENTENCE_END = (".", "!", "?", ":", ";")
_TIGHT_NUMBER = re.compile(r"^(\d{1,3}[.)])(?=[A-Za-z])")  # "10.any" -> "10. any"
_CONTENTS_LINE = re.compile(r"(?:\.\s?){4,}\s*(?:\d{1,4}|[ivxlc]{1,6})?\s*$|^\s*(?:\.\s?){4,}")  # "4.2 Carry forward .... 7"


@dataclass(frozen=True)
class PdfPage:
    number: int
    width: float
    height: float
    lines: tuple[Line, ...]  # outside tables, content order
    tables: tuple[PageTable, ...]


@dataclass
class _Metrics:
    body_size: float
    leading: float
    left: float
    right_edge: float
    text_width: float


def layout_blocks(pages: Sequence[PdfPage], config: PdfLayoutConfig) -> tuple[str, list[Block]]:
    """The document title (may be empty) and its blocks, ids not yet assigned."""
    pages = drop_furniture(pages, config)
    metrics = _measure(pages, config)
    title, pages = _take_title(pages, metrics, config)
    builder = _Builder(metrics, config)
    for page in pages:
        builder.side_by_side = _side_by_side(page.lines)
        for element in _reading_order(page):
            builder.add(element)
        builder.end_page()
    return title, _apply_levels(builder.finish(), config)


# --- furniture ---------------------------------------------------------------


def drop_furniture(pages: Sequence[PdfPage], config: PdfLayoutConfig) -> list[PdfPage]:
    """Remove running headers, footers and page numbers near the page edges, and contents lines."""
    edge_lines = [_edge_lines(page, config) for page in pages]
    repeated = repeated_furniture([[line.text for line in lines] for lines in edge_lines])
    out = []
    for page, candidates in zip(pages, edge_lines):
        drop = {id(line) for line in candidates if furniture_key(line.text) in repeated or is_page_number_line(line.text)}
        drop |= {id(line) for line in page.lines if _CONTENTS_LINE.search(line.text)}
        out.append(PdfPage(page.number, page.width, page.height, tuple(l for l in page.lines if id(l) not in drop), page.tables))
    return out


def _edge_lines(page: PdfPage, config: PdfLayoutConfig) -> list[Line]:
    ordered = sorted(page.lines, key=lambda line: line.top)
    count, zone = config.edge_lines, config.edge_zone
    head = [l for l in ordered[:count] if l.bottom <= page.height * zone]
    tail = [l for l in ordered[-count:] if l.top >= page.height * (1 - zone)]
    return head + [l for l in tail if l not in head]


# --- measurements --------------------------------------------------------------


def _measure(pages: Sequence[PdfPage], config: PdfLayoutConfig) -> _Metrics:
    sizes: Counter[float] = Counter()
    for page in pages:
        for line in page.lines:
            if not line.mono:
                sizes[line.size] += len(line.text)
    body = sizes.most_common(1)[0][0] if sizes else config.default_body_size
    steps, lefts, rights = [], [], []
    for page in pages:
        body_lines = [l for l in page.lines if abs(l.size - body) < config.body_size_tolerance and not l.mono]
        lefts += [l.x0 for l in body_lines]
        rights += [l.x1 for l in body_lines]
        for prev, line in zip(body_lines, body_lines[1:]):
            step = line.baseline - prev.baseline
            if config.min_leading * body < step < config.max_leading * body:
                steps.append(step)
    leading = statistics.median(steps) if steps else body * config.default_leading
    left = _percentile(lefts, config.text_edge_share) if lefts else config.default_left
    right = _percentile(rights, 1 - config.text_edge_share) if rights else left + config.default_text_width
    return _Metrics(body, leading, left, right, max(right - left, 1.0))


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


# --- title ----------------------------------------------------------------------


def _take_title(pages: list[PdfPage], metrics: _Metrics, config: PdfLayoutConfig) -> tuple[str, list[PdfPage]]:
    """The largest line(s) opening page 1 are the title, unless that style is a heading level.

    Other lines in the same size disqualify it only when they are unnumbered and
    not centred like the candidate: a title set in the same font as numbered
    chapter headings is still a title.
    """
    if not pages or not pages[0].lines:
        return "", pages
    first = pages[0]
    top_size = max(l.size for l in first.lines)
    if top_size < metrics.body_size * config.title_size_ratio:
        return "", pages
    same = config.size_match
    opening = list(first.lines[: config.title_search_lines])
    start = next((i for i, l in enumerate(opening) if abs(l.size - top_size) < same), None)
    if start is None or number_depth(opening[start].text) is not None:
        return "", pages
    centred = _centred(opening[start], first.width, config)
    title_lines = [opening[start]]
    for line in first.lines[start + 1 :]:
        if (
            abs(line.size - top_size) >= same
            or line.top - title_lines[-1].bottom > top_size * config.title_line_gap
            or number_depth(line.text) is not None
        ):
            break
        title_lines.append(line)
    rivals = [
        l
        for p in pages
        for l in p.lines
        if abs(l.size - top_size) < same
        and all(l is not t for t in title_lines)
        and number_depth(l.text) is None
        and not (centred and not _centred(l, p.width, config))
    ]
    if rivals:
        return "", pages  # that size is a heading level used again later
    rest = tuple(l for l in first.lines if all(l is not t for t in title_lines))
    title = " ".join(l.text for l in title_lines)
    return title, [PdfPage(first.number, first.width, first.height, rest, first.tables), *pages[1:]]


def _centred(line: Line, page_width: float, config: PdfLayoutConfig) -> bool:
    """Equal margins left and right, and clearly indented (a wide line tells nothing)."""
    right_margin = page_width - line.x1
    return abs(line.x0 - right_margin) < page_width * config.centre_tolerance and line.x0 > page_width * config.centre_min_indent


def _side_by_side(lines: Sequence[Line]) -> set[int]:
    """Lines with another line beside them (cells of a table row): never headings."""
    found: set[int] = set()
    ordered = sorted(lines, key=lambda l: l.top)
    for i, line in enumerate(ordered):
        for other in ordered[i + 1 :]:
            if other.top >= line.bottom:
                break
            if other.x0 >= line.x1 or line.x0 >= other.x1:
                found.update((id(line), id(other)))
    return found


# --- grouping lines into blocks ---------------------------------------------------


def _reading_order(page: PdfPage) -> list[Line | PageTable]:
    """Lines in content order with each table placed before the first line below its top."""
    out: list[Line | PageTable] = []
    tables = sorted(page.tables, key=lambda t: t.bbox[1])
    for line in page.lines:
        while tables and tables[0].bbox[1] <= line.top:
            out.append(tables.pop(0))
        out.append(line)
    out.extend(tables)
    return out


@dataclass
class _Open:
    kind: str  # "paragraph", "list", "code", "heading"
    lines: list[Line] = field(default_factory=list)
    items: list[list[Line]] = field(default_factory=list)  # for lists: lines per item
    item_x0: float = 0.0  # where list item text starts


class _Builder:
    def __init__(self, metrics: _Metrics, config: PdfLayoutConfig) -> None:
        self.m = metrics
        self.config = config
        self.blocks: list[Block] = []
        self.styles: dict[int, HeadingStyle] = {}  # block index -> heading style
        self.open: _Open | None = None
        self.side_by_side: set[int] = set()  # ids of lines that share their height with another line
        self.at_page_start = True

    # elements ---------------------------------------------------------------
    def add(self, element: Line | PageTable) -> None:
        at_page_start, self.at_page_start = self.at_page_start, False
        if isinstance(element, PageTable):
            self._close()
            self._table(element, at_page_start)
            return
        line = element
        if line.mono:
            self._continue_or_start("code", line, self._follows(line, self.config.code_gap, any_page=True))
        elif id(line) not in self.side_by_side and is_heading(
            line, self.m.body_size, self.m.right_edge, self.m.text_width, self.config
        ):
            self._heading(line)
        elif (item := bullet_text(line.text)) is not None or enumerated(line.text):
            self._list_item(line, item)
        else:
            self._text(line)

    def end_page(self) -> None:
        """Lists and code stay open over a page break. A paragraph closes: clean-up joins it to
        the next page's first paragraph when it stops mid-sentence (a paragraph that happens to
        end a sentence at the foot of a page cannot be told from one that ends there)."""
        self.at_page_start = True
        if self.open is not None and self.open.kind not in ("list", "code"):
            self._close()

    def finish(self) -> tuple[list[Block], dict[int, HeadingStyle]]:
        self._close()
        return self.blocks, self.styles

    # kinds ------------------------------------------------------------------
    def _table(self, element: PageTable, at_page_start: bool) -> None:
        prev = self.blocks[-1] if self.blocks else None
        if at_page_start and prev is not None and prev.kind == "table" and prev.pages[-1] == element.page - 1:
            joined = continue_table(prev.table, element)
            if joined is not None:
                self.blocks[-1] = Block(id="", kind="table", table=joined, pages=(*prev.pages, element.page))
                return
        self.blocks.append(Block(id="", kind="table", table=element.table, pages=(element.page,)))

    def _heading(self, line: Line) -> None:
        current = self.open
        if (
            current is not None
            and current.kind == "heading"
            and number_depth(line.text) is None
            and abs(current.lines[-1].size - line.size) < self.config.size_match
            and current.lines[-1].bold == line.bold
            and self._follows(line, self.config.heading_wrap_gap)
        ):
            current.lines.append(line)  # a heading that wraps onto a second line
            return
        self._close()
        self.open = _Open("heading", [line])

    def _list_item(self, line: Line, bullet: str | None) -> None:
        text = bullet if bullet is not None else _TIGHT_NUMBER.sub(r"\1 ", line.text)
        marker_width = (line.x1 - line.x0) * (1 - len(text) / max(len(line.text), 1))
        item_line = Line(text, line.page, line.x0, line.x1, line.top, line.bottom, line.baseline, line.size, line.bold, line.mono)
        current = self.open
        if current is not None and current.kind == "list" and self._follows(line, self.config.list_gap, any_page=True):
            current.items.append([item_line])
            current.lines.append(line)
            return
        self._close()
        self.open = _Open("list", [line], [[item_line]], item_x0=line.x0 + marker_width)

    def _text(self, line: Line) -> None:
        current = self.open
        if current is not None and current.kind == "list":
            if (
                line.page == current.lines[-1].page
                and line.x0 >= current.item_x0 - self.config.list_indent_slack
                and self._follows(line, self.config.paragraph_gap)
            ):
                current.items[-1].append(line)
                current.lines.append(line)
                return
            self._close()
            current = None
        if current is not None and current.kind == "paragraph" and self._continues_paragraph(current.lines[-1], line):
            current.lines.append(line)
            return
        self._close()
        self.open = _Open("paragraph", [line])

    def _continue_or_start(self, kind: str, line: Line, follows: bool) -> None:
        if self.open is not None and self.open.kind == kind and follows:
            self.open.lines.append(line)
            return
        self._close()
        self.open = _Open(kind, [line])

    # geometry ---------------------------------------------------------------
    def _follows(self, line: Line, factor: float, *, any_page: bool = False) -> bool:
        if self.open is None:
            return False
        prev = self.open.lines[-1]
        if prev.page != line.page:
            return any_page and line.page == prev.page + 1
        return self._follows_line(prev, line, factor)

    def _follows_line(self, prev: Line, line: Line, factor: float) -> bool:
        """``line`` sits below ``prev`` within ``factor`` leadings (scaled up for larger type)."""
        step = line.baseline - prev.baseline
        return 0 < step <= self.m.leading * factor * max(line.size / self.m.body_size, 1.0)

    def _continues_paragraph(self, prev: Line, line: Line) -> bool:
        config = self.config
        if prev.page != line.page or abs(prev.size - line.size) > config.body_size_tolerance or prev.bold != line.bold and line.bold:
            return False
        if not self._follows_line(prev, line, config.paragraph_gap):
            return False
        ended = prev.text.rstrip().endswith(_SENTENCE_END)
        short = prev.x1 < self.m.right_edge - config.short_line_share * self.m.text_width
        indent = config.paragraph_indent
        indented = line.x0 > prev.x0 + indent and line.x0 > self.m.left + indent
        return not (ended and (short or indented))

    # output -----------------------------------------------------------------
    def _close(self) -> None:
        current, self.open = self.open, None
        if current is None:
            return
        pages = tuple(sorted({l.page for l in current.lines}))
        if current.kind == "heading":
            first = current.lines[0]
            self.styles[len(self.blocks)] = HeadingStyle(first.size, first.bold, number_depth(first.text))
            text = " ".join(l.text for l in current.lines)
            self.blocks.append(Block(id="", kind="heading", text=text, level=1, pages=pages))
        elif current.kind == "list":
            items = tuple("\n".join(l.text for l in item) for item in current.items)
            self.blocks.append(Block(id="", kind="list", items=items, pages=pages))
        elif current.kind == "code":
            self.blocks.append(Block(id="", kind="code", text=_code_text(current.lines, self.config.mono_advance), pages=pages))
        else:
            self.blocks.append(Block(id="", kind="paragraph", text="\n".join(l.text for l in current.lines), pages=pages))


def _code_text(lines: list[Line], advance: float) -> str:
    left = min(l.x0 for l in lines)
    out = []
    for line in lines:
        width = max(line.size * advance, 1.0)
        out.append(" " * round((line.x0 - left) / width) + line.text)
    return "\n".join(out)


def _apply_levels(built: tuple[list[Block], dict[int, HeadingStyle]], config: PdfLayoutConfig) -> list[Block]:
    blocks, styles = built
    indexes = sorted(styles)
    levels = heading_levels([styles[i] for i in indexes], config)
    out = list(blocks)
    for index, level in zip(indexes, levels):
        block = out[index]
        out[index] = Block(id="", kind="heading", text=block.text, level=level, pages=block.pages)
    return out
