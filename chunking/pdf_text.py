"""PDF characters and text lines with font size and weight, read with PDFium (no models).

``open_pdf`` classifies unreadable files (encrypted, damaged); ``text_layer_state``
tells a scan from a text PDF; ``read_page`` takes every character of a page
once, with its box and font; ``lines`` groups characters into visual lines, in
content order, optionally only inside or outside some boxes (table areas).
Boxes are in points from the top-left corner of the page's crop box, the frame
``pdf_rulings`` reads vector paths in.

Why PDFium's C API (through ``pypdfium2.raw``, with ctypes out-parameters) and
not a library that hands out characters with fonts: timed by
``python bench/pdf_recovery.py --extraction`` on the 92 pages of its LibreOffice
set (best of 3, 2 shared cores under load), reading every character with its
font takes 0.46 s here, and the whole conversion of those PDFs 0.66 s, while

- pdfplumber 0.11.10 (``page.chars``, font names and sizes exact) takes 4.9 s,
  eleven times longer, seven times the whole conversion (the budget was twice);
- docling-parse 7.23.1 takes 8.9 s for characters, 1.2 s for text lines, and
  carries no font size (cell boxes follow the glyphs: one 11 pt font gives
  heights from 5.9 to 16.0); its font name is the resource name ("/F1")
  whenever the font dictionary has a /Name entry, as reportlab writes it, so
  bold could not be told on any PDF of the tests. Headings by size and weight,
  bold table headers and row-header columns all depend on both.

pypdfium2's own helpers (``PdfTextPage.get_charbox``, ``get_textobj().get_font()``)
cover the same calls one Python object per character, which is the cost this
module avoids: the character codes come in one call, boxes through reused
out-parameters, and fonts once per text object.
"""
from __future__ import annotations

import ctypes
import math
import re
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from chunking import errors
from chunking.pdf_config import PdfLayoutConfig

BBox = tuple[float, float, float, float]  # x0, top, x1, bottom; from the crop box's top-left corner

_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|,b\b|-b\b|\bbd\b", re.IGNORECASE)  # "Arial,Bold", "Foo-B"
_MONO_NAME = re.compile(r"courier|mono|consol|menlo|code", re.IGNORECASE)
_FORCE_BOLD_FLAG = 1 << 18  # PDF font descriptor flags (PDF 32000-1, table 123)
_FIXED_PITCH_FLAG = 1
LINE_BREAK, HYPHEN_BREAK, SPACE = 0, 1, 2  # markers between characters


@dataclass(frozen=True)
class Font:
    size: float  # effective size in points (font size times text scale)
    bold: bool
    mono: bool


class Char(NamedTuple):  # a tuple: pages have thousands, a frozen dataclass is slow to build
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    font: Font


@dataclass(frozen=True)
class PageText:
    number: int  # 1-based
    width: float
    height: float
    stream: tuple[Char | int, ...]  # characters and break markers in content order


@dataclass(frozen=True)
class Line:
    """One visual line of text on a page."""

    text: str
    page: int  # 1-based
    x0: float
    x1: float
    top: float  # distance from the top of the page
    bottom: float
    baseline: float  # most characters sit on it
    size: float  # dominant font size, in points
    bold: bool  # (nearly) every character is bold
    mono: bool  # (nearly) every character is monospaced
    segments: tuple[tuple[float, float, str], ...] = ()  # runs split by wide gaps: (x0, x1, text)


_NO_FONT = Font(0.0, False, False)


def open_pdf(data: bytes, name: str) -> pdfium.PdfDocument:
    """Open a PDF or raise the ``ConversionError`` an admin can act on."""
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise errors.encrypted(name) from exc
        raise errors.corrupt(name, "pdf") from exc
    if len(document) == 0:
        document.close()
        raise errors.corrupt(name, "pdf", "it has no pages")
    return document


def text_layer_state(document: pdfium.PdfDocument) -> str:
    """"text" when any page has text, else "images" (a scan) or "blank"."""
    has_images = False
    for index in range(len(document)):
        page = document[index]
        textpage = page.get_textpage()
        try:
            if textpage.get_text_range().strip():
                return "text"
        finally:
            textpage.close()
        if not has_images:
            has_images = any(True for _ in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=2))
    return "images" if has_images else "blank"


def read_page(page: pdfium.PdfPage, number: int, config: PdfLayoutConfig) -> PageText:
    """Every character of a page with its box and font, plus PDFium's line-break marks."""
    width, height = page.get_size()
    left, _, _, top = page.get_cropbox()
    textpage = page.get_textpage()
    try:
        stream = _read_stream(textpage.raw, left, top, config.bold_weight)
    finally:
        textpage.close()
    return PageText(number, width, height, tuple(stream))


def _read_stream(raw, left: float, top: float, bold_weight: int) -> list[Char | int]:
    """Characters in content order; PDFium's boxes (PDF user space) moved to the crop box's top-left frame."""
    count = pdfium_c.FPDFText_CountChars(raw)
    codes = _char_codes(raw, count)
    x0, x1, y0, y1 = (ctypes.c_double() for _ in range(4))
    get_box, get_object = pdfium_c.FPDFText_GetCharBox, _GET_TEXT_OBJECT
    fonts: dict[int, Font] = {}
    stream: list[Char | int] = []
    for i in range(count):
        code = codes[i]
        if code == 0x0A or code == 0x0D:
            if not stream or stream[-1] != LINE_BREAK:
                stream.append(LINE_BREAK)
            continue
        if code == 0x02 or code == 0xFFFE:  # PDFium's mark for a hyphen it took out at a line end
            stream.append(HYPHEN_BREAK)
            continue
        char = chr(code)
        if char.isspace() or code < 0x20:
            stream.append(SPACE)
            continue
        get_box(raw, i, x0, x1, y0, y1)
        key = get_object(raw, i) or 0
        font = fonts.get(key)
        if font is None:
            font = fonts[key] = _describe_font(pdfium_c.FPDFText_GetTextObject(raw, i), bold_weight) if key else _NO_FONT
        stream.append(Char(char, x0.value - left, top - y1.value, x1.value - left, top - y0.value, font))
    return stream


def lines(page: PageText, config: PdfLayoutConfig, *, exclude: Sequence[BBox] = (), include: BBox | None = None) -> list[Line]:
    """Group characters into lines: PDFium's line breaks, checked by geometry."""
    out: list[Line] = []
    chars: list[Char] = []
    text: list[str] = []  # characters and PDFium's spaces; chars[i] is text[where[i]]
    where: list[int] = []
    line_top = line_bottom = last_x0 = 0.0
    slack, backstep, margin = config.line_band_slack, config.line_backstep, config.box_margin
    outside_include = _not_in(include, margin) if include is not None else None
    in_exclude = _in_any(exclude, margin) if exclude else None

    def flush(hyphen: bool = False) -> None:
        if chars:
            out.append(_make_line(chars, text, where, page.number, hyphen, config))
        chars.clear()
        text.clear()
        where.clear()

    for item in page.stream:
        if isinstance(item, int):
            if item == LINE_BREAK:
                flush()
            elif item == HYPHEN_BREAK:
                flush(hyphen=True)
            elif chars and text[-1] != " ":
                text.append(" ")
            continue
        if outside_include is not None and outside_include(item):
            continue
        if in_exclude is not None and in_exclude(item):
            continue
        mid = (item.top + item.bottom) / 2
        if chars and (
            mid < line_top - slack or mid > line_bottom + slack or item.x0 < last_x0 - backstep * max(line_bottom - line_top, 1.0)
        ):
            flush()
        if chars:
            line_top, line_bottom = min(line_top, item.top), max(line_bottom, item.bottom)
        else:
            line_top, line_bottom = item.top, item.bottom
        last_x0 = item.x0
        chars.append(item)
        where.append(len(text))
        text.append(item.text)
    flush()
    return _join_same_baseline(out, config)


def _join_same_baseline(found: list[Line], config: PdfLayoutConfig) -> list[Line]:
    """PDFium ends a line between text objects far apart on one baseline (table cells): rejoin them."""
    out: list[Line] = []
    for line in found:
        prev = out[-1] if out else None
        if (
            prev is None
            or abs(line.baseline - prev.baseline) > config.baseline_tolerance
            or line.x0 < prev.x1 - config.run_overlap
            or prev.text.endswith("-")
        ):
            out.append(line)
            continue
        gap = line.x0 - prev.x1
        if gap > max(prev.size, line.size) * config.column_gap:
            segments = prev.segments + line.segments
        else:
            (x0, _, head), (_, x1, tail) = prev.segments[-1], line.segments[0]
            segments = prev.segments[:-1] + ((x0, x1, f"{head} {tail}"),) + line.segments[1:]
        out[-1] = Line(
            text=f"{prev.text} {line.text}",
            page=prev.page,
            x0=prev.x0,
            x1=line.x1,
            top=min(prev.top, line.top),
            bottom=max(prev.bottom, line.bottom),
            baseline=prev.baseline,
            size=prev.size if len(prev.text) >= len(line.text) else line.size,
            bold=prev.bold and line.bold,
            mono=prev.mono and line.mono,
            segments=segments,
        )
    return out


def _char_codes(raw_textpage, count: int) -> list[int]:
    """All character codes of a page in one call (UTF-16 units, one per character)."""
    buffer = (ctypes.c_ushort * (count + 1))()
    written = pdfium_c.FPDFText_GetText(raw_textpage, 0, count, buffer)
    if written - 1 == count:
        return list(buffer)[:count]
    return [pdfium_c.FPDFText_GetUnicode(raw_textpage, i) for i in range(count)]


# FPDFText_GetTextObject returning a plain address, to key the font cache cheaply.
_GET_TEXT_OBJECT = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)(
    ctypes.cast(pdfium_c.FPDFText_GetTextObject, ctypes.c_void_p).value
)


def _in_any(boxes: Sequence[BBox], margin: float):
    """A test for characters whose centre lies in one of the boxes, or within ``margin`` points of it."""
    grown = [(b[0] - margin, b[1] - margin, b[2] + margin, b[3] + margin) for b in boxes]

    def test(char: Char) -> bool:
        cx, cy = (char.x0 + char.x1) / 2, (char.top + char.bottom) / 2
        return any(x0 <= cx <= x1 and top <= cy <= bottom for x0, top, x1, bottom in grown)

    return test


def _not_in(box: BBox, margin: float):
    """A test for characters whose centre is not in ``box`` (give or take ``margin``)."""
    x0, top, x1, bottom = box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin

    def test(char: Char) -> bool:
        cx, cy = (char.x0 + char.x1) / 2, (char.top + char.bottom) / 2
        return not (x0 <= cx <= x1 and top <= cy <= bottom)

    return test


def _describe_font(text_obj, bold_weight: int) -> Font:
    size = ctypes.c_float()
    pdfium_c.FPDFTextObj_GetFontSize(text_obj, size)
    matrix = pdfium_c.FS_MATRIX()
    scale = 1.0
    if pdfium_c.FPDFPageObj_GetMatrix(text_obj, matrix):
        scale = math.hypot(matrix.c, matrix.d) or 1.0
    font = pdfium_c.FPDFTextObj_GetFont(text_obj)
    name, weight, flags = "", -1, 0
    if font:
        buffer = ctypes.create_string_buffer(128)
        length = pdfium_c.FPDFFont_GetBaseFontName(font, buffer, len(buffer))
        name = buffer.raw[: max(length - 1, 0)].decode("latin-1", "replace")
        weight = pdfium_c.FPDFFont_GetWeight(font)
        flags = pdfium_c.FPDFFont_GetFlags(font)
    bold = bool(_BOLD_NAME.search(name)) or weight >= bold_weight or bool(flags & _FORCE_BOLD_FLAG)
    mono = bool(_MONO_NAME.search(name)) or bool(flags & _FIXED_PITCH_FLAG)
    return Font(round(size.value * scale, 1), bold, mono)


def _segments(
    chars: list[Char], text: list[str], where: list[int], size: float, config: PdfLayoutConfig
) -> tuple[tuple[float, float, str], ...]:
    """Split a line where the gap between characters is wider than about an em (table columns)."""
    limit = max(size, config.min_em) * config.column_gap
    out: list[tuple[float, float, str]] = []
    start = 0
    for i in range(1, len(chars) + 1):
        if i == len(chars) or chars[i].x0 - chars[i - 1].x1 > limit:
            words = "".join(text[where[start] : where[i - 1] + 1]).strip()
            out.append((chars[start].x0, chars[i - 1].x1, words))
            start = i
    return tuple(out)


def _make_line(chars: list[Char], text: list[str], where: list[int], page: int, hyphen: bool, config: PdfLayoutConfig) -> Line:
    sizes = Counter(c.font.size for c in chars)
    size = sizes.most_common(1)[0][0]
    styled = config.style_share * len(chars)
    return Line(
        text="".join(text).strip() + ("-" if hyphen else ""),
        page=page,
        x0=min(c.x0 for c in chars),
        x1=max(c.x1 for c in chars),
        top=min(c.top for c in chars),
        bottom=max(c.bottom for c in chars),
        baseline=statistics.median_high(c.bottom for c in chars),
        size=size,
        bold=sum(c.font.bold for c in chars) >= styled,
        mono=sum(c.font.mono for c in chars) >= styled,
        segments=_segments(chars, text, where, size, config),
    )
