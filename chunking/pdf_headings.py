"""What a PDF line is (heading, list item, code, text) and what level a heading has.

Headings are recognised by number ("4.2 Carry forward of earned leave") and by
style (a larger or bold short line). Levels: numbered headings take the depth
of their number; unnumbered headings rank by font size; unnumbered headings
larger than every numbered one sit above them and push the numbers down.
"""
from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from chunking.pdf_config import PdfLayoutConfig
from chunking.pdf_text import Line

_NUMBERED = re.compile(r"^(?:(?:section|clause|article)\s+)?(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+(\S.*)$", re.IGNORECASE)
_BULLET = re.compile(
    r"^(?:[\u2022\u2023\u2043\u2219\u00b7\u25aa\u25ab\u25a0\u25a1\u25cf\u25cb\u25e6\u27a2\u2794\u2192\u2013\u2014*\-]"
    r"|[\ue000-\uf8ff]|o(?=\s)|\(cid:\d+\))\s*(?P<text>.+)$"
)
_ENUMERATED = re.compile(
    r"^(?:\(?(?:\d{1,2}|[a-zA-Z]|[ivxIVX]{1,5})[.)]\s+|\d{1,3}[.)](?=[A-Za-z]))(?P<text>\S.*)$"  # "10.any" too: tight numbering
)
_NO_HEADING_END = (".", ",", ";", ":")  # a line ending so is a sentence or an introduction, not a heading


@dataclass(frozen=True)
class HeadingStyle:
    size: float
    bold: bool
    depth: int | None  # depth of its number: "4" -> 1, "4.2" -> 2; None when unnumbered


def number_depth(text: str) -> int | None:
    match = _NUMBERED.match(text)
    if match is None or not match.group(2)[0].isalpha():
        return None
    return match.group(1).count(".") + 1


def bullet_text(text: str) -> str | None:
    """The item text of a bulleted line, or None."""
    match = _BULLET.match(text)
    if match is None or text[:2] in ("--", "**"):
        return None
    return match.group("text").strip()


def enumerated(text: str) -> bool:
    return _ENUMERATED.match(text) is not None


def is_heading(line: Line, body_size: float, right_edge: float, text_width: float, config: PdfLayoutConfig) -> bool:
    """A short line in a larger or bold font, or a short numbered line that is not a sentence."""
    text = line.text
    words = len(text.split())
    if line.mono or words > config.max_heading_words or len(text) > config.max_heading_chars or not any(ch.isalpha() for ch in text):
        return False
    depth = number_depth(text)
    if line.size >= body_size * config.heading_size_ratio:
        return depth is not None or not text.endswith((",", ";"))
    if line.bold and line.size >= body_size * config.bold_heading_ratio:
        return not text.endswith(_NO_HEADING_END) or depth is not None and not text.endswith((",", ";"))
    if depth is None or text.endswith(_NO_HEADING_END):
        return False
    rest = _NUMBERED.match(text).group(2)
    short_line = line.x1 < right_edge - config.numbered_heading_short * text_width
    most_words = config.numbered_subheading_words if depth > 1 else config.numbered_heading_words
    return rest[0].isupper() and short_line and words <= most_words


def heading_levels(styles: Sequence[HeadingStyle], config: PdfLayoutConfig) -> list[int]:
    """A level (1 = top) for each heading, given the styles of all headings in the document."""
    step = config.level_size_step
    numbered = [s for s in styles if s.depth is not None]
    if not numbered:
        return _levels_by_size(styles, config)
    anchors = _anchor_sizes(numbered)
    top_size = max(anchors.values())
    above = sorted({_round(s.size, step) for s in styles if s.depth is None and s.size > top_size + step}, reverse=True)
    offset = len(above)
    levels = []
    for style in styles:
        if style.depth is not None:
            levels.append(style.depth + offset)
        elif style.size > top_size + step:
            levels.append(above.index(_round(style.size, step)) + 1)
        else:
            levels.append(offset + _depth_for_size(anchors, style.size, step))
    return levels


def _levels_by_size(styles: Sequence[HeadingStyle], config: PdfLayoutConfig) -> list[int]:
    step = config.level_size_step
    ranked = sorted({(_round(s.size, step), s.bold) for s in styles}, key=lambda k: (-k[0], not k[1]))
    return [min(ranked.index((_round(s.size, step), s.bold)) + 1, config.max_heading_level) for s in styles]


def _anchor_sizes(numbered: Sequence[HeadingStyle]) -> dict[int, float]:
    by_depth: dict[int, list[float]] = {}
    for style in numbered:
        by_depth.setdefault(style.depth, []).append(style.size)
    return {depth: statistics.median(sizes) for depth, sizes in sorted(by_depth.items())}


def _depth_for_size(anchors: dict[int, float], size: float, step: float) -> int:
    """The depth whose numbered headings share this size; else the first depth set smaller."""
    for depth, anchor in anchors.items():
        if abs(anchor - size) <= step:
            return depth
    for depth, anchor in anchors.items():
        if anchor < size:
            return depth
    return max(anchors) + 1


def _round(size: float, step: float) -> float:
    return round(size / step) * step
