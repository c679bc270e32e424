"""Citation markers: the "[n]" in an answer's text, cut out so that a template can link them.

The chat page and the review page both show an answer this way, and both render the segments
with `templates/assistant/_segments.html`: a text segment is escaped, a marker becomes the one
`<a class="cite-marker">` link, to wherever its citation's `marker_url` points (the chunk page
on the chat page, the citation card below the answer on the review page).
"""
from __future__ import annotations

import re
from collections.abc import Mapping

MARKER = re.compile(r"\[(\d{1,3})\]")
PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


def answer_paragraphs(text: str) -> list[str]:
    """An answer's paragraphs: the text between blank lines."""
    return [paragraph for paragraph in PARAGRAPH_BREAK.split(text) if paragraph.strip()]


def marker_segments(paragraph: str, citations: Mapping[int, dict]) -> list[dict]:
    """The paragraph as `{"text": ...}` and `{"citation": citations[n]}` segments, in order.
    A marker whose number is not among the citations stays text."""
    out: list[dict] = []
    position = 0
    for match in MARKER.finditer(paragraph):
        citation = citations.get(int(match.group(1)))
        if citation is None:
            continue
        if match.start() > position:
            out.append({"text": paragraph[position:match.start()]})
        out.append({"citation": citation})
        position = match.end()
    if position < len(paragraph):
        out.append({"text": paragraph[position:]})
    return out
