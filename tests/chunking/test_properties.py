"""Invariants over generated documents (hypothesis), with the real tokenizer."""
from __future__ import annotations

import itertools
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunking import tables
from chunking.chunker import chunk_document, document_sections
from chunking.config import ChunkConfig
from chunking.model import Block, Document, Table
from chunking.sentences import split_sentences

WORDS = (
    "employee claim receipt manager travel hotel allowance approval grade city director finance "
    "booking policy limit days leave month reimbursable metro e.g. i.e. No. 4 75.00 Sec. 3.2 approx. "
    "etc. written within before after"
).split()
OPENERS = ["The", "Each", "Every", "A", "Unless", "However,", "This limit", "Only where", "Except", "and", "which"]

sentence_specs = st.tuples(
    st.sampled_from(OPENERS),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=30),
    st.sampled_from([False] * 25 + [True]),  # rarely: one sentence longer than the model reads
    st.sampled_from([".", ".", ".", "?", ":"]),
)
block_specs = st.one_of(
    st.tuples(st.just("heading"), st.integers(1, 4)),
    st.tuples(st.just("para"), st.lists(sentence_specs, min_size=1, max_size=12)),
    st.tuples(st.just("para"), st.lists(sentence_specs, min_size=1, max_size=3)),
    st.tuples(st.just("list"), st.booleans(), st.lists(sentence_specs, min_size=1, max_size=15)),
    st.tuples(
        st.just("table"), st.integers(0, 2), st.integers(1, 5), st.integers(1, 40),
        st.booleans(), st.integers(0, 2),
    ),
    st.tuples(st.just("code"), st.integers(1, 60)),
)
documents_specs = st.lists(block_specs, min_size=1, max_size=25)
configs = st.builds(
    ChunkConfig,
    target_tokens=st.sampled_from([40, 100, 180]),
    max_tokens=st.sampled_from([None, None, 200]),
    row_sentences=st.booleans(),
    context=st.sampled_from([{}, {"Document type": "Policy", "Effective from": "2024-04-01"}]),
)


class _Serials:
    def __init__(self) -> None:
        self._next = itertools.count(1)

    def __call__(self, prefix: str) -> str:
        return f"{prefix}{next(self._next):04d}"


def _sentence(spec, serial) -> str:
    opener, words, huge, end = spec
    body = words * 40 if huge else words
    return f"{opener} {serial('R')} {' '.join(body)}{end}"


def build_document(spec) -> Document:
    serial = _Serials()
    blocks = []
    for n, block in enumerate(spec):
        blocks.append(_build_block(f"b{n:03d}", block, serial, page=1 + n // 5))
    return Document(title="Generated Policy", blocks=tuple(blocks))


def _build_block(block_id: str, spec, serial, page: int) -> Block:
    kind = spec[0]
    if kind == "heading":
        return Block(block_id, "heading", f"{serial('S')} Heading", level=spec[1], pages=(page,))
    if kind == "para":
        return Block(block_id, "paragraph", " ".join(_sentence(s, serial) for s in spec[1]), pages=(page,))
    if kind == "list":
        intro = f"The {serial('L')} items are as follows:" if spec[1] else ""
        items = tuple(_sentence(s, serial).rstrip(":") for s in spec[2])
        return Block(block_id, "list", intro, items=items, pages=(page,))
    if kind == "table":
        return Block(block_id, "table", table=_table(spec, serial), pages=(page,))
    lines = "\n".join(f"step_{serial('C')} = run(x)" if i % 7 else "" for i in range(spec[1]))
    return Block(block_id, "code", f"# {serial('C')}\n{lines}", pages=(page,))


def _table(spec, serial) -> Table:
    _, header_count, columns, rows, captioned, row_headers = spec
    header_rows = tuple(
        tuple("" if (level == 0 and header_count == 2 and c % 2 == 0 and c > 0) else serial("H") for c in range(columns))
        for level in range(header_count)
    )
    body = tuple(tuple(serial("v") for _ in range(columns)) for _ in range(rows))
    caption = f"Table {serial('T')} of rates" if captioned else ""
    return Table(header_rows, body, caption=caption, row_header_columns=min(row_headers, columns))


# ---------------------------------------------------------------- invariants


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def block_level(chunks):
    return [c for c in chunks if c.level == "block" and c.kind != "table_row"]


def check_structure(doc, chunks, counter, config):
    sections = document_sections(doc, config=config, counter=counter)
    by_id = {c.id: c for c in chunks}
    assert len(by_id) == len(chunks), "ids are unique"
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    assert all(re.fullmatch(r"[0-9a-f]{16}", c.id) for c in chunks)
    [document_chunk] = [c for c in chunks if c.level == "document"]
    assert document_chunk.parent_id is None and not document_chunk.searchable

    section_of_block = {bid: s for s in sections for bid in s.block_ids}
    section_chunk_of = {}
    for chunk in chunks:
        if chunk.level == "section":
            assert chunk.parent_id == document_chunk.id and not chunk.searchable
            [index] = {section_of_block[b].index for b in chunk.block_ids}
            assert chunk.block_ids == sections[index].block_ids
            section_chunk_of[index] = chunk
    for chunk in chunks:
        if chunk.level != "block":
            continue
        assert chunk.searchable
        owners = {section_of_block[b].index for b in chunk.block_ids}
        assert len(owners) == 1, "a chunk never spans two sections"
        section = sections[owners.pop()]
        assert chunk.breadcrumb == section.breadcrumb
        parent = by_id[chunk.parent_id]
        if chunk.kind == "table_row":
            assert parent.kind == "table" and chunk.block_ids[0] in parent.block_ids
        else:
            assert parent is section_chunk_of[section.index]
        assert chunk.embed_text.endswith(chunk.text)
        assert " > ".join(chunk.breadcrumb) in chunk.embed_text.split("\n", 2)[:2] or "\u2026" in chunk.embed_text


def check_sizes(chunks, counter, config):
    limit = config.hard_max(counter.max_tokens)
    for chunk in chunks:
        assert chunk.token_count == counter.count(chunk.embed_text)
        if chunk.searchable and chunk.token_count > limit:
            flagged = [w for w in chunk.warnings if w.startswith("oversized") and "single" in w]
            assert flagged, f"over the limit without a single-unit flag: {chunk.token_count} {chunk.warnings}"


def check_tables(doc, chunks, config):
    table_blocks = [b for b in doc.blocks if b.kind == "table"]
    for block in table_blocks:
        table = tables.normalised(block.table)
        header = tables.render_header(table)
        pieces = [c for c in chunks if c.kind == "table" and block.id in c.block_ids]
        assert pieces, "every table lands in a table chunk"
        for piece in pieces:
            assert header in piece.text, "every table piece carries caption and header"
            if table.header_rows:
                assert not any(w.startswith("table piece without header") for w in piece.warnings)
        rows = [c for c in chunks if c.kind == "table_row" and c.block_ids == (block.id,)]
        expected = len(tables.row_sentences(table)) if config.row_sentences else 0
        assert len(rows) == expected
        assert {r.parent_id for r in rows} <= {pieces[0].id}


def check_nothing_lost_or_duplicated(doc, chunks):
    flat = squash(" ".join(c.text for c in block_level(chunks)))
    def once(text: str) -> None:
        assert flat.count(squash(text)) == 1, f"lost or duplicated: {text[:60]!r}"

    for block in doc.blocks:
        if block.kind == "paragraph":
            once(block.text)
        elif block.kind == "list":
            for item in block.items:
                once(f"- {item}")
        elif block.kind == "code":
            for line in block.text.splitlines():
                if line.strip():
                    once(line)
        elif block.kind == "table":
            table = tables.normalised(block.table)
            for row in table.rows:
                once(tables.render_row(table, row))
    content_ids = {b.id for b in doc.blocks if b.kind != "heading"}
    covered = {bid for c in block_level(chunks) for bid in c.block_ids}
    assert content_ids <= covered


SETTINGS = settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@SETTINGS
@given(spec=documents_specs, config=configs)
def test_chunking_invariants(counter, spec, config):
    doc = build_document(spec)
    chunks = chunk_document(doc, config=config, counter=counter)
    check_structure(doc, chunks, counter, config)
    check_sizes(chunks, counter, config)
    check_tables(doc, chunks, config)
    check_nothing_lost_or_duplicated(doc, chunks)


@SETTINGS
@given(spec=documents_specs)
def test_overlap_keeps_everything_and_stays_under_the_limit(counter, spec):
    config = ChunkConfig(target_tokens=60, overlap_blocks=1)
    doc = build_document(spec)
    chunks = chunk_document(doc, config=config, counter=counter)
    check_structure(doc, chunks, counter, config)
    check_sizes(chunks, counter, config)
    flat = squash(" ".join(c.text for c in block_level(chunks)))
    for block in doc.blocks:
        if block.kind == "paragraph":
            for sentence in split_sentences(block.text):
                assert squash(sentence) in flat


@SETTINGS
@given(spec=documents_specs)
def test_chunking_is_deterministic(counter, spec):
    doc = build_document(spec)
    first = chunk_document(doc, config=ChunkConfig(), counter=counter)
    second = chunk_document(doc, config=ChunkConfig(), counter=counter)
    assert first == second
