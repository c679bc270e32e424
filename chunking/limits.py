"""Input limits: refuse a hostile or runaway file with a reason, bound what is kept.

The limits themselves (and their defaults) are ``chunking.config.InputLimits``. Every
refusal is a ``ConversionError`` with reason "too_large" whose message names the limit
and the value found, e.g. "The document has 1,204 columns in table 3; the limit is 200
columns.". ``name`` is the name the user uploaded, or "" (the stored file name carries a
random suffix and is never shown).

- ``check_archive``: before Docling opens a DOCX, XLSX or PPTX, inflate every member as a
  stream and count the bytes (a ZIP header's sizes are the attacker's to choose); refuse past
  the total or past the compression ratio of one member.
- ``check_text_size`` and ``check_pages``: a Markdown, HTML or CSV file's size, a PDF's pages.
- ``bound_document``: after conversion, refuse a document over the character, cell or column
  limits, and split paragraphs over the paragraph limit (``split_text``) instead of refusing.
  Blocks split here keep their id: ``convert_file`` numbers blocks again afterwards.
"""
from __future__ import annotations

import io
import math
import zipfile
import zlib
from dataclasses import replace

from . import errors
from .config import RATIO_CHECKED_FROM_BYTES, InputLimits
from .model import Block, Document, Table
from .sentences import split_sentences

_READ_BYTES = 1 << 16  # inflate in pieces of this size: memory stays small whatever the archive


# ---------------------------------------------------------------- before conversion


def check_archive(
    data: bytes, limits: InputLimits, *, name: str = "", fmt: str = "docx", damaged_name: str | None = None
) -> None:
    """Inflate every member of a ZIP-based file and count; refuse past a limit.

    Raises ``ConversionError``: "too_large" past ``max_unpacked_bytes`` (all members) or
    ``max_compression_ratio`` (one member), "corrupt" when a member cannot be inflated (named
    ``damaged_name``, as conversion names a damaged file; default ``name``).
    """
    total = 0
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for info in archive.infolist():
                if info.is_dir():
                    continue
                inflated = 0
                with archive.open(info) as member:
                    while block := member.read(_READ_BYTES):
                        inflated += len(block)
                        total += len(block)
                        if total > limits.max_unpacked_bytes:
                            raise errors.too_large(name, _unpacked_message(total, limits))
                        if inflated > RATIO_CHECKED_FROM_BYTES:
                            ratio = inflated / max(info.compress_size, 1)
                            if ratio > limits.max_compression_ratio:
                                raise errors.too_large(name, _ratio_message(info.filename, ratio, limits))
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, NotImplementedError, ValueError) as exc:
        # RuntimeError: an encrypted member; NotImplementedError: an unknown compression method
        raise errors.corrupt(name if damaged_name is None else damaged_name, fmt) from exc


def _unpacked_message(total: int, limits: InputLimits) -> str:
    return (
        f"The file unpacks to more than {size_text(limits.max_unpacked_bytes)} "
        f"({total:,} bytes when unpacking was stopped); the limit is {size_text(limits.max_unpacked_bytes)}."
    )


def _ratio_message(member: str, ratio: float, limits: InputLimits) -> str:
    return (
        f"A part of the file ({_printable(member)}) is compressed at least {math.ceil(ratio):,} to 1; "
        f"the limit is {limits.max_compression_ratio:,} to 1."
    )


def check_text_size(size: int, limits: InputLimits, *, name: str = "") -> None:
    """A Markdown, HTML or CSV file goes to the converter whole: its size is bounded too."""
    if size > limits.max_unpacked_bytes:
        raise errors.too_large(
            name, f"The file is {size_text(size)}; the limit is {size_text(limits.max_unpacked_bytes)}."
        )


def check_pages(pages: int, limits: InputLimits, *, name: str = "") -> None:
    if pages > limits.max_pdf_pages:
        raise errors.too_large(name, f"The PDF has {pages:,} pages; the limit is {limits.max_pdf_pages:,} pages.")


def size_text(size: int) -> str:
    """1,234,567 -> "1.23 MB", 200,000,000 -> "200 MB"; decimal units, as the settings give them."""
    for unit, scale in (("MB", 1_000_000), ("KB", 1_000)):
        if size >= scale:
            value = f"{size / scale:,.2f}".rstrip("0").rstrip(".")
            return f"{value} {unit}"
    return f"{size:,} bytes"


def _printable(text: str, limit: int = 60) -> str:
    """A member name from the archive, shown safely: printable characters, bounded length."""
    shown = "".join(c if c.isprintable() else "?" for c in text[: limit + 1])
    return shown if len(shown) <= limit else shown[: limit - 1] + "\u2026"


# ---------------------------------------------------------------- after conversion


def bound_document(document: Document, limits: InputLimits, *, name: str = "") -> Document:
    """The document, refused past a limit, with over-long paragraphs split into pieces."""
    check_tables(document, limits, name=name)
    found = document_chars(document)
    if found > limits.max_document_chars:
        raise errors.too_large(
            name,
            f"The document has {found:,} characters of text; the limit is {limits.max_document_chars:,} characters.",
        )
    return split_long_paragraphs(document, limits.max_paragraph_chars)


def document_chars(document: Document) -> int:
    total = len(document.title)
    for block in document.blocks:
        total += len(block.text) + sum(map(len, block.items))
        if block.table is not None:
            total += len(block.table.caption) + sum(len(c) for row in _all_rows(block.table) for c in row)
    return total


def check_tables(document: Document, limits: InputLimits, *, name: str = "") -> None:
    number = 0
    for block in document.blocks:
        if block.kind != "table" or block.table is None:
            continue
        number += 1
        table = block.table
        columns = max((len(row) for row in _all_rows(table)), default=0)
        if columns > limits.max_table_columns:
            raise errors.too_large(
                name,
                f"The document has {columns:,} columns in table {number}; "
                f"the limit is {limits.max_table_columns:,} columns.",
            )
        if len(table.caption) > limits.max_cell_chars:
            raise errors.too_large(
                name,
                f"The caption of table {number} has {len(table.caption):,} characters; "
                f"the limit is {limits.max_cell_chars:,} characters per cell.",
            )
        for row_number, row in enumerate(_all_rows(table), start=1):
            for column_number, cell in enumerate(row, start=1):
                if len(cell) > limits.max_cell_chars:
                    raise errors.too_large(
                        name,
                        f"The document has a cell of {len(cell):,} characters in table {number} "
                        f"(row {row_number}, column {column_number}); "
                        f"the limit is {limits.max_cell_chars:,} characters per cell.",
                    )


def _all_rows(table: Table) -> tuple[tuple[str, ...], ...]:
    return table.header_rows + table.rows


def split_long_paragraphs(document: Document, max_chars: int) -> Document:
    """Paragraphs, list items and headings over ``max_chars`` split into bounded pieces.

    A paragraph becomes consecutive paragraph blocks (same id, same pages); a list item
    becomes consecutive items; a heading that long is no heading and becomes paragraphs.
    """
    if not _has_long_text(document, max_chars):
        return document
    blocks: list[Block] = []
    for block in document.blocks:
        if block.kind in ("paragraph", "heading") and len(block.text) > max_chars:
            blocks.extend(
                replace(block, kind="paragraph", level=0, text=piece) for piece in split_text(block.text, max_chars)
            )
        elif block.kind == "list" and _list_too_long(block, max_chars):
            intro = (split_text(block.text, max_chars) if block.text else []) or [""]  # (a lead-in of white space only splits into no piece)
            blocks.extend(Block(block.id, "paragraph", piece, pages=block.pages) for piece in intro[:-1])
            items = tuple(piece for item in block.items for piece in split_text(item, max_chars))
            blocks.append(replace(block, text=intro[-1], items=items))
        else:
            blocks.append(block)
    return replace(document, blocks=tuple(blocks))


def _has_long_text(document: Document, max_chars: int) -> bool:
    return any(
        (block.kind in ("paragraph", "heading") and len(block.text) > max_chars) or _list_too_long(block, max_chars)
        for block in document.blocks
    )


def _list_too_long(block: Block, max_chars: int) -> bool:
    return block.kind == "list" and (len(block.text) > max_chars or any(len(i) > max_chars for i in block.items))


def split_text(text: str, max_chars: int) -> list[str]:
    """``text`` in pieces of at most ``max_chars`` characters, cut at sentence ends where
    possible, else between words, else anywhere; the pieces joined by single spaces give the
    text back up to whitespace. Linear in the length of the text."""
    text = text.strip()
    if len(text) <= max_chars:
        return [text] if text else []
    pieces: list[str] = []
    start = 0  # the current piece is text[start:end]; sentences are consumed in order
    end = 0
    for sentence_start, sentence_end in _sentence_spans(text):
        if sentence_end - start <= max_chars:
            end = sentence_end
            continue
        if end > start:
            pieces.append(text[start:end].strip())
        start = sentence_start
        if sentence_end - start > max_chars:  # one sentence alone is too long: cut between words
            words = _word_pieces(text, start, sentence_end, max_chars)
            pieces.extend(words[:-1])
            start = sentence_end - len(words[-1])
        end = sentence_end
    if end > start:
        pieces.append(text[start:end].strip())
    return [p for p in pieces if p]


def _sentence_spans(text: str):
    """(start, end) of each sentence in ``text``, in order; from a sentence that cannot be
    found where expected (the splitter joins pieces with single spaces), the rest as one span."""
    cursor = 0
    spans = []
    for sentence in split_sentences(text):
        found = text.find(sentence, cursor, cursor + len(sentence) + 64)  # next to the last one
        if found < 0:  # the rest as one span, cut between words
            rest = len(text) - len(text[cursor:].lstrip())
            return spans + [(rest, len(text))]
        spans.append((found, found + len(sentence)))
        cursor = found + len(sentence)
    return spans


def _word_pieces(text: str, start: int, end: int, max_chars: int) -> list[str]:
    """text[start:end] cut after spaces into pieces of at most max_chars (anywhere if no space);
    the last piece is exactly the end of the span (it may still grow with following sentences)."""
    pieces = []
    while end - start > max_chars:
        cut = text.rfind(" ", start + 1, start + max_chars + 1)
        cut = cut if cut > start else start + max_chars
        pieces.append(text[start:cut].strip())
        start = cut
        while start < end and text[start] == " ":
            start += 1
    pieces.append(text[start:end])
    return pieces
