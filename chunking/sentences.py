"""Sentence splitting that survives policy-document abbreviations and decimals.

pysbd does the splitting; a small fix-up then rejoins pieces that pysbd cut after
an abbreviation it does not know ("approx. 5 km", "Rs. 500"). Sentences are
sliced from the original text, so joining them with single spaces gives the
text back up to whitespace.

Time is linear in the length of the text. pysbd is not: its abbreviation pass runs one
regular-expression substitution over the whole text per abbreviation it meets, so a
paragraph without line breaks cost 0.8 s at 25,000 characters and 7.8 s at 100,000.
A text longer than ``_LONG_TEXT`` characters is therefore handed to pysbd in windows of
about ``_WINDOW`` characters, cut at a *safe* sentence end: a plain word of two or more
letters that no abbreviation list knows, then ".", "!" or "?", a space and a capital,
outside brackets and quotes (pysbd splits there). Where a window holds no safe end (a
run of text without sentence ends) it is cut after a space instead, and the two pieces
on either side of that cut are joined again, so a forced cut never ends a sentence.
A shorter text is one pysbd call, as before. On ordinary text the windows give
pysbd's own result (tests/chunking/test_scaling.py); where quotes or brackets are left
open, pysbd pairs them over any distance, and a window may pair them differently than one
call over the whole paragraph (no text is ever lost or altered either way).
"""
from __future__ import annotations

import re
from functools import lru_cache

# Never end a sentence: what follows them belongs to the same sentence.
ALWAYS_JOINED = frozenset(
    {
        "e.g.", "i.e.", "viz.", "cf.", "vs.", "approx.", "incl.", "excl.", "esp.",
        "no.", "nos.", "sec.", "secs.", "art.", "cl.", "para.", "paras.", "fig.",
        "ref.", "ch.", "vol.", "p.", "pp.", "rs.", "dr.", "mr.", "mrs.", "ms.",
        "prof.", "hon.", "dept.", "govt.",
    }
)
# May end a sentence: joined only when the next piece starts in lower case or a digit.
SOMETIMES_JOINED = frozenset({"etc.", "ltd.", "inc.", "co.", "corp.", "hrs.", "yrs.", "mins.", "max.", "min.", "est."})

# A possible sentence end with more text after it; without one, the text is one sentence.
_INNER_END = re.compile(r"[.!?\u2026][\"'\u2019\u201d)\]]*\s+\S")


def split_sentences(text: str) -> list[str]:
    """Split text into sentences; each returned sentence is stripped and non-empty."""
    if not text or not text.strip():
        return []
    if not _INNER_END.search(text.strip()):  # one sentence: pysbd (about 1 ms) is not needed
        return [text.strip()]
    return _rejoin_abbreviations(_pysbd_pieces(text))


# A sentence end: terminal punctuation (and closing quotes or brackets), space, then a capital,
# a digit or an opening quote or bracket. What follows an abbreviation is rejoined afterwards.
_QUICK_BOUNDARY = re.compile(r"[.!?\u2026][\"'\u2019\u201d)\]]*(\s+)(?=[\"'\u2018\u201c(\[]?[A-Z0-9])")


def split_sentences_quick(text: str) -> list[str]:
    """A cheaper split for text already chunked (the answerer's sentence choice): punctuation
    followed by a capital or digit, then the same abbreviation fix-up as split_sentences.
    About 50 times faster than pysbd; the chunker itself always uses split_sentences."""
    if not text or not text.strip():
        return []
    text = text.strip()
    pieces, start = [], 0
    for match in _QUICK_BOUNDARY.finditer(text):
        pieces.append(text[start : match.start(1)])
        start = match.end(1)
    pieces.append(text[start:])
    return _rejoin_abbreviations([p.strip() for p in pieces if p.strip()])


# pysbd's cost grows with the square of the text it is given; these bound what it gets.
_WINDOW = 2_000  # a window ends at the first safe sentence end after this many characters
_LONG_TEXT = 2 * _WINDOW  # longer texts are windowed; a window is at most this long

# A safe end: a plain word (two letters or more, no dot inside), terminal punctuation,
# closing quotes or brackets, spaces, then a capital letter.
_SAFE_END = re.compile(r"(?<![\w.])([A-Za-z]{2,})[.!?][\"'\u2019\u201d)\]]*\s+(?=[A-Z])")


def _pysbd_pieces(text: str) -> list[str]:
    # pysbd ends a sentence at every line break; a converted paragraph keeps the line
    # breaks of its source, so segment a copy with them as spaces (same offsets).
    flat = text.replace("\r", " ").replace("\n", " ")
    if len(flat) <= _LONG_TEXT:
        starts = _starts(flat, offset=0)
        if starts is None:  # pysbd changed the text: fall back to its own pieces
            return _segments(flat)
        return _cut_at(text, starts)
    starts = []
    for start, end, joined in _windows(flat):
        found = _starts(flat[start:end], offset=start) or [start]
        starts.extend(found[1:] if joined else found)
    return _cut_at(text, starts)


def _starts(text: str, *, offset: int) -> list[int] | None:
    """Where pysbd's sentences start. Its sentences are looked up in the text here: pysbd's own
    look-up (``segment``) compiles a regular expression per sentence and costs half its time.
    Only if that fails is ``segment`` asked, which drops what it cannot find."""
    found = _segment_starts(text, _processed(text), offset=offset)
    return found if found is not None else _segment_starts(text, _segments(text), offset=offset)


def _processed(text: str) -> list[str]:
    return [s.strip() for s in _segmenter().processor(text).process() if s and s.strip()]


def _segments(text: str) -> list[str]:
    return [s.strip() for s in _segmenter().segment(text) if s and s.strip()]


@lru_cache(maxsize=1)
def _segmenter():
    import pysbd

    return pysbd.Segmenter(language="en", clean=False)


def _segment_starts(text: str, segments: list[str], *, offset: int) -> list[int] | None:
    """Where each segment starts in ``text`` (plus ``offset``); the first start is ``offset``.
    None when a segment is not found (pysbd changed the text)."""
    starts, cursor = [], 0
    for segment in segments:
        found = text.find(segment, cursor)
        if found < 0:
            return None
        starts.append(offset + found)
        cursor = found + len(segment)
    if starts:
        starts[0] = offset
    return starts


def _cut_at(original: str, starts: list[int]) -> list[str]:
    """Re-cut the original text at the segment starts, so nothing is altered or lost."""
    if not starts:
        return [original.strip()]
    starts[0] = 0
    bounds = starts + [len(original)]
    pieces = [original[a:b].strip() for a, b in zip(bounds, bounds[1:])]
    return [p for p in pieces if p]


def _windows(flat: str):
    """(start, end, joined) windows covering ``flat``; ``joined``: the window starts at a
    forced cut, so its first piece continues the previous window's last one."""
    start, joined = 0, False
    while len(flat) - start > _LONG_TEXT:
        end, safe = _window_end(flat, start)
        yield start, end, joined
        start, joined = end, not safe
    yield start, len(flat), joined


def _window_end(flat: str, start: int) -> tuple[int, bool]:
    """(end, safe): the first safe sentence end after ``_WINDOW`` characters, else a space."""
    never_ends = _abbreviations()
    low, high = start + _WINDOW, start + _LONG_TEXT
    for match in _SAFE_END.finditer(flat, low, high):
        end = match.end()
        if match.group(1).lower() not in never_ends and _balanced(flat, start, end):
            return end, True
    space = flat.rfind(" ", low, high)
    return (space + 1 if space >= 0 else high), False


def _balanced(text: str, start: int, end: int) -> bool:
    """Outside brackets and quotes, counting from the window start (pysbd does not split inside)."""
    return (
        text.count("(", start, end) == text.count(")", start, end)
        and text.count("[", start, end) == text.count("]", start, end)
        and text.count('"', start, end) % 2 == 0
        and text.count("\u201c", start, end) == text.count("\u201d", start, end)
    )


@lru_cache(maxsize=1)
def _abbreviations() -> frozenset[str]:
    from pysbd.lang.english import English

    known = English.Abbreviation
    ours = {word.rstrip(".") for word in ALWAYS_JOINED | SOMETIMES_JOINED}
    return frozenset(
        word.lower()
        for word in (*known.ABBREVIATIONS, *known.PREPOSITIVE_ABBREVIATIONS, *known.NUMBER_ABBREVIATIONS, *ours)
    )


def _rejoin_abbreviations(pieces: list[str]) -> list[str]:
    groups: list[list[str]] = []  # joined at the end: growing one string would be quadratic
    for piece in pieces:
        if groups and _ends_with_joining_abbreviation(groups[-1][-1], piece):
            groups[-1].append(piece)
        else:
            groups.append([piece])
    return [" ".join(group) for group in groups]


def _ends_with_joining_abbreviation(previous: str, following: str) -> bool:
    parts = previous.rsplit(None, 1)  # scans the last word only (a regex anchored at $ scans all)
    if not parts:
        return False
    word = parts[-1].lower().lstrip("([\"'")
    if word in ALWAYS_JOINED:
        return True
    if word in SOMETIMES_JOINED:
        first = following.lstrip("([\"'")[:1]
        return bool(first) and (first.islower() or first.isdigit())
    return False
