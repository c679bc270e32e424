"""A document's title without converting it: the bulk import names new policies with it.

Cheap on purpose (a bulk import reads hundreds of files before queuing any): the first level-1
heading of a Markdown file, the first <h1> (else <title>) of an HTML page, the first Title (else
Heading 1) paragraph of a DOCX, read from the start of the file only; any other file, or one
with none of these, is named after its file name. No Django import.
"""
from __future__ import annotations

import io
import re
import zipfile
import zlib
from html.parser import HTMLParser
from pathlib import PurePosixPath

# Only the start of a text file is searched for its title.
TEXT_PREFIX_BYTES = 256 * 1024
# A DOCX part is read at most this far (a title sits in the first paragraphs).
DOCX_PART_BYTES = 8 * 1024 * 1024
DOCX_PARAGRAPHS = 300

_ATX_H1 = re.compile(r"^ {0,3}#(?!#)[ \t]+(?P<text>.+?)(?:[ \t]+#+)?[ \t]*$")
_SETEXT_H1 = re.compile(r"^ {0,3}=+[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_FRONT_MATTER_TITLE = re.compile(r"^title:[ \t]*(?P<text>.+?)[ \t]*$")
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def document_title(*, name: str, content: bytes) -> str | None:
    """The title the document gives itself, whitespace collapsed, or None."""
    suffix = PurePosixPath(name).suffix.lower()
    try:
        if suffix in (".md", ".markdown"):
            title = _markdown_title(_text_prefix(content))
        elif suffix in (".html", ".htm", ".xhtml"):
            title = _html_title(_text_prefix(content))
        elif suffix == ".docx":
            title = _docx_title(content)
        else:
            title = None
    except (ValueError, KeyError, SyntaxError, zipfile.BadZipFile, zlib.error, RuntimeError, EOFError, OSError):
        # SyntaxError: ElementTree's ParseError (a cut or broken XML part); zlib.error: a broken
        # compressed part.
        title = None  # a broken file gets its name; conversion reports what is wrong with it
    title = _collapse(title or "")
    return title or None


def title_from_file_name(name: str) -> str:
    """'people/leave_policy-india.md' -> 'Leave policy india'."""
    stem = PurePosixPath(name).stem
    words = _collapse(re.sub(r"[_\-.]+", " ", stem))
    if not words:
        return "Untitled policy"
    return words[0].upper() + words[1:]


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _text_prefix(content: bytes) -> str:
    return content[:TEXT_PREFIX_BYTES].decode("utf-8-sig", errors="replace")


def _markdown_title(text: str) -> str | None:
    lines = text.splitlines()
    if lines and lines[0].strip() == "---":  # YAML front matter with a title: field
        for line in lines[1:50]:
            if line.strip() in ("---", "..."):
                break
            if match := _FRONT_MATTER_TITLE.match(line):
                return match["text"].strip("'\"")
    in_fence = False
    previous = ""
    for line in lines:
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            if match := _ATX_H1.match(line):
                return match["text"]
            if _SETEXT_H1.match(line) and previous.strip():
                return previous
        previous = "" if in_fence else line
    return None


class _HeadingParser(HTMLParser):
    """Collects the text of the first <h1> and of <title>; stops caring once an <h1> closed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.h1: list[str] | None = None
        self.title: list[str] | None = None
        self._inside: str | None = None
        self.done = False

    def handle_starttag(self, tag, attrs):
        if self.done:
            return
        if tag == "h1" and self.h1 is None:
            self.h1, self._inside = [], "h1"
        elif tag == "title" and self.title is None:
            self.title, self._inside = [], "title"

    def handle_endtag(self, tag):
        if tag == self._inside:
            self._inside = None
            if tag == "h1":
                self.done = True

    def handle_data(self, data):
        if self._inside == "h1" and self.h1 is not None:
            self.h1.append(data)
        elif self._inside == "title" and self.title is not None:
            self.title.append(data)


def _html_title(text: str) -> str | None:
    parser = _HeadingParser()
    parser.feed(text)
    for found in (parser.h1, parser.title):
        if found and _collapse("".join(found)):
            return "".join(found)
    return None


def _docx_title(content: bytes) -> str | None:
    from defusedxml.ElementTree import iterparse

    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        names = set(archive.namelist())
        style_names = _docx_style_names(archive) if "word/styles.xml" in names else {}
        first_heading = None
        paragraphs = 0
        with archive.open("word/document.xml") as part:
            for _event, element in iterparse(_Capped(part, DOCX_PART_BYTES), events=("end",)):
                if element.tag != f"{_W}p":
                    continue
                paragraphs += 1
                style = element.find(f"{_W}pPr/{_W}pStyle")
                style_id = style.get(f"{_W}val", "") if style is not None else ""
                kind = style_names.get(style_id, style_id.lower())
                text = "".join(t.text or "" for t in element.iter(f"{_W}t"))
                element.clear()
                if text.strip() and kind == "title":
                    return text
                if text.strip() and kind in ("heading 1", "heading1") and first_heading is None:
                    first_heading = text
                if paragraphs >= DOCX_PARAGRAPHS:
                    break
        return first_heading


def _docx_style_names(archive: zipfile.ZipFile) -> dict[str, str]:
    """Style id -> lower-case style name ('Heading1' -> 'heading 1'); built-in names are English
    whatever the document's language, while ids are translated."""
    from defusedxml.ElementTree import fromstring

    with archive.open("word/styles.xml") as part:
        root = fromstring(part.read(DOCX_PART_BYTES + 1)[:DOCX_PART_BYTES])
    names = {}
    for style in root.iter(f"{_W}style"):
        name = style.find(f"{_W}name")
        if name is not None:
            names[style.get(f"{_W}styleId", "")] = (name.get(f"{_W}val") or "").lower()
    return names


class _Capped(io.RawIOBase):
    """A read-only stream that ends after `limit` bytes of the one it wraps."""

    def __init__(self, stream, limit: int) -> None:
        self._stream, self._left = stream, limit

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self._left <= 0:
            return b""
        size = self._left if size is None or size < 0 else min(size, self._left)
        data = self._stream.read(size)
        self._left -= len(data)
        return data
