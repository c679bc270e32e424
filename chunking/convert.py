"""The conversion entry point: a file on disk -> a cleaned ``Document``.

    from chunking.convert import convert_file
    doc = convert_file("uploads/leave-policy.pdf")

The format is detected from the content (``filetype`` plus a look inside ZIP
containers); the extension only decides between the text formats (Markdown,
HTML, CSV), which have no signature. Every failure is a ``ConversionError``
whose message can be shown to the policy admin as is.

Input limits (``InputLimits``, checked by ``chunking.limits``) come before the
expensive parts: a DOCX, XLSX or PPTX is inflated and counted before Docling
opens it, a text file's size and a PDF's page count are checked before it is
read; the converted document is then checked (characters, table cells and
columns) and its over-long paragraphs split.
"""
from __future__ import annotations

import io
import zipfile
from dataclasses import replace
from pathlib import Path

import filetype

from chunking import errors, limits as input_limits
from chunking.cleanup import clean_document, number_blocks
from chunking.config import InputLimits
from chunking.errors import ConversionError
from chunking.model import Document
from chunking.pdf_config import PdfLayoutConfig

__all__ = ["convert_file", "ConversionError"]

_OFFICE_PARTS = {"word/document.xml": "docx", "xl/workbook.xml": "xlsx", "ppt/presentation.xml": "pptx"}
_BINARY_FORMATS = {"pdf", "docx", "xlsx", "pptx"}
_ARCHIVE_FORMATS = {"docx", "xlsx", "pptx"}
_TEXT_EXTENSIONS = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".xhtml": "html", ".csv": "csv"}
_EXTENSION_FORMATS = {**_TEXT_EXTENSIONS, ".pdf": "pdf", ".docx": "docx", ".xlsx": "xlsx", ".pptx": "pptx"}
_LEGACY = {"doc": "legacy Word .doc", "xls": "legacy Excel .xls", "ppt": "legacy PowerPoint .ppt"}


def convert_file(
    path: str | Path,
    *,
    pdf_artifacts_path: str | Path | None = None,
    limits: InputLimits | None = None,
    display_name: str | None = None,
    pdf_layout: PdfLayoutConfig | None = None,
) -> Document:
    """Convert one uploaded policy file into the canonical document tree.

    ``pdf_artifacts_path``: a directory holding Docling's layout models; when
    given, PDFs go through Docling's standard PDF pipeline, otherwise through
    the model-free PDF path. ``limits``: the input limits (default
    ``InputLimits()``). ``display_name``: the name the user uploaded, shown in
    messages and used for a missing title; without it, messages about limits
    name no file (the stored name has a random suffix) and the others use the
    path's name. ``pdf_layout``: the model-free PDF path's thresholds (default
    ``PdfLayoutConfig()``). Raises ``ConversionError`` (never returns an empty document).
    """
    path = Path(path)
    name = path.name if display_name is None else display_name
    limit_name = display_name or ""
    limits = InputLimits() if limits is None else limits
    if pdf_artifacts_path is not None and not Path(pdf_artifacts_path).is_dir():
        raise ValueError(f"pdf_artifacts_path {pdf_artifacts_path} is not a directory")
    data = path.read_bytes()
    if not data.strip():
        raise errors.empty(name)
    fmt = detect_format(data, name)
    _check_before_reading(data, fmt, name, limits, limit_name)
    raw = _convert(data, name, fmt, pdf_artifacts_path, pdf_layout)
    title_path = Path(display_name) if display_name else path
    if fmt in ("xlsx", "csv") and not raw.title:  # a sheet name is a section, not the title
        raw = replace(raw, title=_stem_title(title_path))
    doc = clean_document(raw, fallback_title=_stem_title(title_path))
    bounded = input_limits.bound_document(doc, limits, name=limit_name)
    if bounded is not doc:  # paragraphs were split: number the blocks again
        doc = replace(bounded, blocks=number_blocks(bounded.blocks))
    if not any(b.kind != "heading" for b in doc.blocks):
        raise errors.no_text(name)
    return doc


def _check_before_reading(data: bytes, fmt: str, name: str, limits: InputLimits, limit_name: str) -> None:
    """The limits that can be checked before the converter reads the file."""
    if fmt in _ARCHIVE_FORMATS:
        input_limits.check_archive(data, limits, name=limit_name, fmt=fmt, damaged_name=name)
    elif fmt == "pdf":
        from chunking import pdf_plain

        input_limits.check_pages(pdf_plain.page_count(data, name), limits, name=limit_name)
    else:
        input_limits.check_text_size(len(data), limits, name=limit_name)


def detect_format(data: bytes, name: str) -> str:
    """One of "pdf", "docx", "xlsx", "pptx", "md", "html", "csv"; else ``ConversionError``."""
    claimed = _EXTENSION_FORMATS.get(Path(name).suffix.lower(), "")
    if b"%PDF-" in data[:1024]:
        return "pdf"
    kind = filetype.guess(data[:8192])
    if kind is not None:
        if kind.extension in ("docx", "xlsx", "pptx"):
            return kind.extension
        if kind.extension == "zip":
            return _office_format(data, name, claimed)
        if claimed in _BINARY_FORMATS:
            raise errors.corrupt(name, claimed)
        raise errors.unsupported(name, _LEGACY.get(kind.extension, kind.mime))
    if data[:4] == b"PK\x03\x04":
        return _office_format(data, name, claimed)
    if claimed in _BINARY_FORMATS:
        raise errors.corrupt(name, claimed)
    if b"\x00" in data[:8192] and data[:2] not in (b"\xff\xfe", b"\xfe\xff"):
        raise errors.unsupported(name)
    if claimed:
        return claimed
    head = data[:2048].lstrip().lower()
    if head.startswith((b"<!doctype html", b"<html")) or b"<body" in head:
        return "html"
    raise errors.unsupported(name)


def _office_format(data: bytes, name: str, claimed: str) -> str:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, OSError, EOFError):
        if claimed in _BINARY_FORMATS:
            raise errors.corrupt(name, claimed) from None
        raise errors.unsupported(name, "a damaged ZIP archive") from None
    for part, fmt in _OFFICE_PARTS.items():
        if part in names:
            return fmt
    if claimed in _BINARY_FORMATS:
        raise errors.corrupt(name, claimed)
    raise errors.unsupported(name, "a ZIP archive")


def _convert(
    data: bytes, name: str, fmt: str, pdf_artifacts_path: str | Path | None, pdf_layout: PdfLayoutConfig | None
) -> Document:
    if fmt == "pdf":
        from chunking import pdf_plain

        if pdf_artifacts_path is None:
            return pdf_plain.convert_pdf(data, name=name, config=pdf_layout)
        page_count = pdf_plain.check_pdf(data, name)
        from chunking.docling_adapter import convert_with_docling

        doc = convert_with_docling(data, name=name, fmt=fmt, pdf_artifacts_path=pdf_artifacts_path)
        return doc if doc.page_count else Document(doc.title, doc.blocks, doc.source_name, page_count)
    from chunking.docling_adapter import convert_with_docling

    if fmt in _TEXT_EXTENSIONS.values():
        data = _as_utf8(data)
    if fmt == "html":  # a saved web page: keep its main content, not the site around it
        from chunking.html_main import main_content_html

        data = main_content_html(data)
    return convert_with_docling(data, name=name, fmt=fmt)


def _as_utf8(data: bytes) -> bytes:
    """Text formats reach Docling as UTF-8, whatever the upload's encoding."""
    for encoding in ("utf-8-sig", "utf-16") if data[:2] in (b"\xff\xfe", b"\xfe\xff") else ("utf-8-sig",):
        try:
            return data.decode(encoding).encode("utf-8")
        except UnicodeDecodeError:
            continue
    return data.decode("cp1252", errors="replace").encode("utf-8")


def _stem_title(path: Path) -> str:
    return path.stem.replace("_", " ").strip() or path.name
