"""Hostile inputs for the chunker and the converters (hypothesis strategies) and what must hold.

Used by tests/chunking/test_fuzz.py (a short run in CI) and bench/fuzz_long.py (10,000+
cases). The contract checked: chunking either returns records that keep the chunker's
invariants or refuses with the documented ``ConversionError`` ("too_large"); conversion
either returns a document with text or raises a ``ConversionError`` with a documented reason.
Nothing else may escape: no IndexError from a ragged table, no zlib.error from a broken ZIP.
"""
from __future__ import annotations

import functools
import io
import tempfile
import zipfile
from pathlib import Path

from hypothesis import strategies as st

from chunking.chunker import chunk_document
from chunking.config import ChunkConfig, InputLimits
from chunking.convert import convert_file
from chunking.errors import REASONS, ConversionError
from chunking.model import Block, Document, Table
from chunking.packing import whole_block_item

# ---------------------------------------------------------------- text

POLICY_WORDS = (
    "employee claim receipt manager travel hotel allowance approval grade city director finance "
    "booking policy limit days leave month unless except however provided that this limit applies"
).split()
ODD = [
    "\u200b", "\u00ad", "\u202e", "\ufeff", "e\u0301", "\u00df", "\u0130", "\ufb01", "\u3000", "\u4e2d\u6587",
    "\U0001f600", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\u2028", "\u0085", "\x00", "|", "\\|", ".", "...",
    "e.g.", "No.", "Mr.", "Sec. 3.2", "75.00", ":", "-", "*", "#", "1.", "(a)", "\u2010", "\u2014", "\u2026",
    '"', "\u201c", "\u201d", "(", ")", "[", "]", "---", "| --- |",
]
_ANY_CHAR = st.characters(blacklist_categories=("Cs",))  # lone surrogates cannot come out of a file

words = st.one_of(
    st.sampled_from(POLICY_WORDS),
    st.sampled_from(POLICY_WORDS),
    st.sampled_from(ODD),
    st.text(_ANY_CHAR, max_size=12),
    st.integers(100, 3_000).map(lambda n: "w" * n),  # a very long word
)
short_text = st.lists(words, max_size=20).map(" ".join)
sentence = st.lists(words, min_size=1, max_size=15).map(lambda ws: " ".join(ws) + ".")
plain_sentence = st.lists(st.sampled_from(POLICY_WORDS + ["e.g.", "No. 4", "75.00"]), min_size=3, max_size=20).map(
    lambda ws: " ".join(ws) + "."
)
long_text = st.tuples(plain_sentence, st.integers(30, 250)).map(lambda s: (s[0] + " ") * s[1])  # about 3k-30k chars
text = st.one_of(*[short_text] * 6, *[st.lists(sentence, max_size=6).map(" ".join)] * 3, long_text)
cell = st.one_of(*[st.just("")] * 3, *[st.sampled_from(POLICY_WORDS)] * 3, st.text(_ANY_CHAR, max_size=8),
                 st.lists(words, max_size=6).map(" ".join), st.integers(500, 3_000).map(lambda n: "c " * (n // 2)))


# ---------------------------------------------------------------- documents


@st.composite
def tables(draw) -> Table:
    columns = draw(st.one_of(st.integers(1, 6), st.integers(1, 6), st.integers(100, 260)))
    rows = draw(st.integers(0, 2 if columns > 50 else 8))

    def row():
        width = draw(st.sampled_from([columns, columns, max(columns - 2, 0), columns + 1]))  # ragged rows too
        if columns > 50:  # wide: one short value repeated, so the example stays small
            value = draw(st.sampled_from(["", "", "x", "rate", "1,800", "\u4e2d"]))
            return tuple(f"{value}{c}" for c in range(width))
        return tuple(draw(cell) for _ in range(width))

    header_rows = tuple(row() for _ in range(draw(st.integers(0, 2))))
    body = tuple(row() for _ in range(rows))
    return Table(header_rows, body, caption=draw(st.one_of(st.just(""), short_text)),
                 row_header_columns=draw(st.integers(0, 5)))


@st.composite
def blocks(draw, block_id: str) -> Block:
    kind = draw(st.sampled_from(["heading", "paragraph", "paragraph", "paragraph", "list", "table", "code"]))
    pages = draw(st.sampled_from([(), (1,), (2, 3)]))
    if kind == "heading":
        heading = draw(st.one_of(*[short_text] * 4, sentence, st.integers(300, 12_000).map(lambda n: "Heading " * (n // 8))))
        return Block(block_id, "heading", heading, level=draw(st.integers(1, 9)), pages=pages)
    if kind == "list":
        items = tuple(draw(st.lists(st.one_of(short_text, sentence), max_size=10)))
        return Block(block_id, "list", draw(st.one_of(st.just(""), short_text)), items=items, pages=pages)
    if kind == "table":
        return Block(block_id, "table", table=draw(tables()), pages=pages)
    if kind == "code":
        lines = draw(st.lists(st.one_of(st.just(""), short_text), max_size=20))
        return Block(block_id, "code", "\n".join(lines), pages=pages)
    return Block(block_id, "paragraph", draw(text), pages=pages)


@st.composite
def documents(draw) -> Document:
    count = draw(st.integers(0, 10))
    return Document(draw(short_text), tuple(draw(blocks(f"b{i:04d}")) for i in range(1, count + 1)))


configs = st.builds(
    ChunkConfig,
    target_tokens=st.sampled_from([40, 180]),
    overlap_blocks=st.sampled_from([0, 0, 1]),
    row_sentences=st.booleans(),
    context=st.sampled_from([{}, {"Document type": "Policy"}]),
    limits=st.sampled_from([
        InputLimits(),
        InputLimits(max_document_chars=5_000, max_paragraph_chars=500, max_cell_chars=300, max_table_columns=20),
    ]),
)


def check_chunking(document: Document, config: ChunkConfig, counter) -> None:
    """Chunk; only a "too_large" refusal may escape, and the records keep the invariants."""
    try:
        chunks = chunk_document(document, config=config, counter=counter)
    except ConversionError as exc:
        assert exc.reason == "too_large", exc
        return
    limit = config.hard_max(counter.max_tokens)
    assert len({c.id for c in chunks}) == len(chunks), "ids are unique"
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    assert sum(c.level == "document" for c in chunks) == 1
    by_id = {c.id: c for c in chunks}
    for chunk in chunks:
        assert chunk.parent_id is None or chunk.parent_id in by_id
        if chunk.searchable and chunk.token_count > limit:
            assert any(w.startswith("oversized: a single") for w in chunk.warnings), (chunk.token_count, chunk.warnings)
    covered = {b for c in chunks if c.level == "block" for b in c.block_ids}
    content = {b.id for b in document.blocks if b.kind != "heading" and whole_block_item(b) is not None}
    assert content <= covered, f"blocks lost: {sorted(content - covered)[:5]}"


# ---------------------------------------------------------------- broken files

NAMES = ["policy.docx", "policy.pdf", "policy.html", "policy.md", "policy.csv", "policy.xlsx", "policy.pptx",
         "policy.txt", "policy"]


@functools.cache
def sample_files() -> dict[str, bytes]:
    """Small valid DOCX, XLSX and PDF files to damage."""
    from tests.chunking.docs_factory import policy_docx, policy_pdf, rates_xlsx

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        return {
            "docx": policy_docx(root / "p.docx").read_bytes(),
            "xlsx": rates_xlsx(root / "r.xlsx").read_bytes(),
            "pdf": policy_pdf(root / "p.pdf").read_bytes(),
        }


def _rezip(data: bytes, replace_member: str, payload: bytes) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for info in source.infolist():
            archive.writestr(info.filename, payload if info.filename == replace_member else source.read(info))
    return out.getvalue()


_MAIN_PART = {"docx": "word/document.xml", "xlsx": "xl/worksheets/sheet1.xml"}
xml_payloads = st.one_of(
    st.binary(max_size=400),
    st.text(_ANY_CHAR, max_size=400).map(lambda t: t.encode("utf-8")),
    st.lists(st.sampled_from(["<w:p>", "</w:p>", "<w:t>", "</w:t>", "<w:tbl>", "<w:tr>", "<w:tc>", "&amp;", "&#0;",
                              "&undefined;", "<![CDATA[", "x" * 50, '<w:document xmlns:w="urn:x">', "</w:document>"]),
             max_size=60).map(lambda parts: "".join(parts).encode("utf-8")),
)


@st.composite
def broken_files(draw) -> tuple[str, bytes]:
    """(file name, content): random bytes, damaged archives and PDFs, malformed XML, odd text."""
    how = draw(st.sampled_from(["bytes", "magic", "truncated", "flipped", "bad part", "text"]))
    if how == "bytes":
        return draw(st.sampled_from(NAMES)), draw(st.binary(max_size=3_000))
    if how == "magic":
        magic = draw(st.sampled_from([b"PK\x03\x04", b"%PDF-1.4\n", b"\xd0\xcf\x11\xe0", b"<html><body>", b"\xff\xfe"]))
        return draw(st.sampled_from(NAMES)), magic + draw(st.binary(max_size=2_000))
    fmt = draw(st.sampled_from(["docx", "xlsx", "pdf"]))
    data = sample_files()[fmt]
    if how == "truncated":
        return f"policy.{fmt}", data[: draw(st.integers(1, len(data) - 1))]
    if how == "flipped":
        damaged = bytearray(data)
        for position in draw(st.lists(st.integers(0, len(data) - 1), min_size=1, max_size=8)):
            damaged[position] ^= draw(st.integers(1, 255))
        return f"policy.{fmt}", bytes(damaged)
    if how == "bad part" and fmt in _MAIN_PART:
        return f"policy.{fmt}", _rezip(data, _MAIN_PART[fmt], draw(xml_payloads))
    name = draw(st.sampled_from(["policy.md", "policy.html", "policy.csv"]))
    encoding = draw(st.sampled_from(["utf-8", "utf-16", "cp1252"]))
    return name, draw(st.one_of(short_text, text)).encode(encoding, errors="replace")


def check_conversion(name: str, data: bytes) -> None:
    """Convert; a document with text comes back, or a ConversionError with a documented reason."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        try:
            document = convert_file(path)
        except ConversionError as exc:
            assert exc.reason in REASONS, exc
            assert str(exc), "a message for the admin"
            return
    assert any(block.kind != "heading" for block in document.blocks)
    assert all("\x00" not in block.text for block in document.blocks), "NUL cannot be stored in the tree"
