from __future__ import annotations

import json

import pytest
from tests.chunking.chunk_builders import DocBuilder

from chunking.baseline import chunk_fixed_size
from chunking.chunker import chunk_document
from chunking.config import ChunkConfig
from chunking.lint import lint_chunk, lint_chunks
from chunking.model import ChunkRecord
from chunking.preview import preview_rows


def record(text, *, kind="text", breadcrumb=("Policy", "1 Scope"), parent="s1", tokens=10, block_ids=("b1",)):
    return ChunkRecord(
        id="x" + str(abs(hash(text)))[:8], level="block", kind=kind, parent_id=parent, ordinal=0,
        breadcrumb=breadcrumb, text=text, embed_text=text, token_count=tokens, block_ids=block_ids,
    )


@pytest.mark.parametrize(
    "text, expected",
    [
        ("unless approved by a director.", "dangling start: starts with a dangling connective: 'unless'"),
        ("where the journey exceeds four hours.", "dangling start: starts with a dangling connective: 'where'"),
        ("And the receipt must be attached.", "dangling start: starts with a dangling connective: 'And'"),
        ("the employee has approval.", "dangling start: starts with a lowercase fragment: 'the employee has approval.'"),
    ],
)
def test_dangling_starts_are_flagged(text, expected):
    assert expected in lint_chunk(record(text))


def test_clean_chunk_has_no_warnings():
    assert lint_chunk(record("Receipts are required for any single item over 75 pounds.")) == ()


def test_table_piece_without_header_is_flagged():
    headless = record("| L4 | 1,800 |\n| L5 | 2,000 |", kind="table")
    with_header = record("| Grade | Metro |\n| --- | --- |\n| L4 | 1,800 |", kind="table")
    assert "table piece without header" in lint_chunk(headless)
    assert lint_chunk(with_header) == ()


def test_heading_only_and_oversized_are_flagged():
    assert "heading only" in lint_chunk(record("1 Scope"))
    assert "heading only" in lint_chunk(record("4.2 Carry forward of earned leave"))
    assert "heading only" not in lint_chunk(record("Not reimbursable."))
    assert "oversized: 300 tokens exceeds the 254-token limit" in lint_chunk(record("Fine text.", tokens=300), max_tokens=254)


def test_separated_qualifier_is_flagged_against_the_previous_chunk_of_the_same_section():
    rule = record("Unused earned leave lapses on 31 March.", block_ids=("b1",))
    exception = record("This does not apply where the CHRO approves an extension.", block_ids=("b2",))
    other_section = record("This does not apply to interns.", parent="s2", block_ids=("b3",))
    linted = lint_chunks([rule, exception, other_section])
    assert "rule separated from its qualifier" in linted[1].warnings
    assert "rule separated from its qualifier" not in linted[2].warnings


def test_lint_does_not_duplicate_a_category_the_chunker_already_set():
    chunk = record("Text.", tokens=300)
    chunk = ChunkRecord(**{**chunk.__dict__, "warnings": ("oversized: a single sentence of 300 tokens",)})
    [linted] = lint_chunks([chunk], max_tokens=254)
    assert linted.warnings == ("oversized: a single sentence of 300 tokens",)


def test_preview_rows_are_json_ready_with_first_and_last_sentences(counter):
    d = DocBuilder("Travel Policy")
    d.heading("5 Rail", 1)
    d.para("Standard class is the default. First class needs approval from a director. Keep receipts.", page=3)
    rows = preview_rows(chunk_document(d.build(), config=ChunkConfig(), counter=counter))
    json.dumps(rows)
    block = rows[-1]
    assert set(block) >= {
        "id", "level", "kind", "parent_id", "breadcrumb", "text", "embed_text", "token_count",
        "pages", "warnings", "first_sentence", "last_sentence",
    }
    assert block["breadcrumb"] == "Travel Policy > 5 Rail"
    assert block["first_sentence"] == "Standard class is the default."
    assert block["last_sentence"] == "Keep receipts."
    assert block["pages"] == [3] and block["warnings"] == []


def test_baseline_windows_ignore_structure_but_keep_lineage(counter):
    d = DocBuilder("Travel Policy")
    d.heading("5 Rail", 1)
    first = d.para("A" * 150, page=1)
    second = d.para("B" * 150, page=2)
    chunks = chunk_fixed_size(d.build(), counter=counter, size=100, overlap=20)
    assert all(c.level == "block" and c.kind == "text" and c.breadcrumb == ("Travel Policy",) for c in chunks)
    assert all(len(c.text) <= 100 for c in chunks)
    assert chunks[0].text[-20:] == chunks[1].text[:20]
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    assert any(set(c.block_ids) == {first.id, second.id} and c.pages == (1, 2) for c in chunks)
    assert chunks[0].embed_text == chunks[0].text
    titled = chunk_fixed_size(d.build(), counter=counter, size=100, overlap=20, prefix_title=True)
    assert titled[0].embed_text == "Travel Policy\n" + titled[0].text
    assert len({c.id for c in chunks}) == len(chunks)


@pytest.mark.parametrize("size, overlap", [(0, 0), (100, 100), (100, -1), (-5, 0)])
def test_baseline_rejects_bad_window_settings(counter, size, overlap):
    with pytest.raises(ValueError):
        chunk_fixed_size(DocBuilder("T").build(), counter=counter, size=size, overlap=overlap)
