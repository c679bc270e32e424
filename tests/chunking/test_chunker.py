"""Behaviour of chunk_document on small hand-built documents."""
from __future__ import annotations

from tests.chunking.chunk_builders import DocBuilder, block_chunks, filler_paragraph, only_chunk_containing

from chunking.chunker import chunk_document
from chunking.config import ChunkConfig

CONFIG = ChunkConfig()


def small_policy():
    d = DocBuilder("Travel Policy")
    d.heading("1 Scope", 1)
    d.para("This policy covers business travel by all employees of the company.", page=1)
    d.heading("2 Hotels", 1, page=2)
    d.para("Hotel stays are booked through the travel desk at the negotiated rate.", page=2)
    d.list("Hotel bills must show:", ["the guest name", "the nightly rate", "the taxes paid"], page=2)
    return d.build()


def test_levels_parents_and_searchability(counter):
    chunks = chunk_document(small_policy(), config=CONFIG, counter=counter)
    by_id = {c.id: c for c in chunks}
    document, *rest = chunks
    assert document.level == "document" and document.parent_id is None and not document.searchable
    assert document.text == "Travel Policy\n1 Scope\n2 Hotels"
    sections = [c for c in chunks if c.level == "section"]
    assert [s.breadcrumb for s in sections] == [("Travel Policy", "1 Scope"), ("Travel Policy", "2 Hotels")]
    assert all(s.parent_id == document.id and not s.searchable for s in sections)
    blocks = [c for c in chunks if c.level == "block"]
    assert all(b.searchable and by_id[b.parent_id].level == "section" for b in blocks)
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    hotels = sections[1]
    assert "Hotel stays are booked" in hotels.text and "- the taxes paid" in hotels.text
    assert hotels.pages == (2,)


def test_embed_text_is_context_then_breadcrumb_then_clean_text(counter):
    config = ChunkConfig(context={"Document type": "Travel policy", "Effective from": "2024-04-01"})
    chunks = chunk_document(small_policy(), config=config, counter=counter)
    chunk = only_chunk_containing(chunks, "Hotel stays are booked")
    assert chunk.embed_text == (
        "Document type: Travel policy | Effective from: 2024-04-01\n"
        "Travel Policy > 2 Hotels\n" + chunk.text
    )
    assert not chunk.text.startswith("Travel Policy")
    assert chunk.token_count == counter.count(chunk.embed_text)


def test_ids_are_content_addressed_and_stable(counter):
    first = chunk_document(small_policy(), config=CONFIG, counter=counter)
    again = chunk_document(small_policy(), config=CONFIG, counter=counter)
    assert [c.id for c in first] == [c.id for c in again]
    d = DocBuilder("Travel Policy")
    d.heading("1 Scope", 1)
    d.para("This policy covers business travel by all employees of the group.", page=1)
    changed = chunk_document(d.build(), config=CONFIG, counter=counter)
    assert only_chunk_containing(changed, "business travel").id != only_chunk_containing(first, "business travel").id


def test_list_stays_with_its_introduction_paragraph_past_the_target(counter):
    d = DocBuilder("Expenses Handbook")
    d.heading("Receipts", 1)
    d.para(filler_paragraph(1))
    d.para(filler_paragraph(2))
    intro = d.para("A receipt is accepted only when it shows all of the following:")
    items = d.list("", [f"detail number {i} printed by the supplier on the receipt" for i in range(8)])
    chunks = chunk_document(d.build(), config=ChunkConfig(target_tokens=60), counter=counter)
    chunk = only_chunk_containing(chunks, "shows all of the following:")
    assert chunk.block_ids == (intro.id, items.id)
    assert chunk.kind == "list"
    assert chunk.token_count > 60


def test_long_list_is_split_by_items_with_its_intro_repeated(counter):
    d = DocBuilder("IT Policy")
    d.heading("Approved software", 1)
    d.list("The following software is approved for use on company laptops:",
           [f"Package {i} with the standard licence and automatic security updates enabled" for i in range(40)])
    pieces = block_chunks(chunk_document(d.build(), config=CONFIG, counter=counter))
    assert len(pieces) > 1
    for piece in pieces:
        assert piece.kind == "list"
        assert piece.text.startswith("The following software is approved for use on company laptops:\n- Package")
        assert piece.token_count <= counter.max_tokens
    joined = "\n".join(p.text for p in pieces)
    assert all(joined.count(f"- Package {i} with") == 1 for i in range(40))


def test_code_block_stays_whole_even_past_the_target(counter):
    d = DocBuilder("Developer Guide")
    d.heading("Tokens", 1)
    d.para("Create the API token like this:")
    code = "\n".join(f"export TOKEN_{i}=$(policypal token create --scope read --name svc{i})" for i in range(6))
    d.code(code)
    chunks = chunk_document(d.build(), config=ChunkConfig(target_tokens=40), counter=counter)
    chunk = only_chunk_containing(chunks, "export TOKEN_0")
    assert code in chunk.text and chunk.kind == "code"
    assert chunk.text.startswith("Create the API token like this:")


def test_code_block_over_the_hard_max_is_split_by_lines_and_flagged(counter):
    d = DocBuilder("Developer Guide")
    d.heading("Config", 1)
    d.code("\n".join(f"setting_{i} = compute_default_value(index={i}, scale=1.5)" for i in range(80)))
    pieces = block_chunks(chunk_document(d.build(), config=CONFIG, counter=counter))
    assert len(pieces) > 1
    for piece in pieces:
        assert piece.token_count <= counter.max_tokens
        assert "code block split: longer than the token limit" in piece.warnings


def test_a_sentence_longer_than_the_model_reads_is_kept_whole_and_flagged(counter):
    d = DocBuilder("Leave Policy")
    d.heading("Definitions", 1)
    giant = "An eligible dependant means " + ", ".join(f"relative category {i}" for i in range(120)) + "."
    d.para(f"Dependants are defined below. {giant} Proof of relationship is required.")
    pieces = block_chunks(chunk_document(d.build(), config=CONFIG, counter=counter))
    [big] = [p for p in pieces if giant in p.text]
    assert big.text == giant
    assert big.token_count > counter.max_tokens
    assert any(w.startswith("oversized: a single sentence") for w in big.warnings)
    assert all(p.token_count <= counter.max_tokens for p in pieces if p is not big)


def test_qualifier_that_cannot_fit_with_its_rule_is_split_and_flagged(counter):
    d = DocBuilder("Leave Policy")
    d.heading("Carry forward", 1)
    rule = "Unused leave lapses at year end for " + ", ".join(f"leave type {i}" for i in range(45)) + "."
    qualifier = "This does not apply where " + ", ".join(f"exception case {i}" for i in range(40)) + "."
    d.para(rule)
    d.para(qualifier)
    pieces = block_chunks(chunk_document(d.build(), config=CONFIG, counter=counter))
    assert [p.text for p in pieces] == [rule, qualifier]
    assert "rule separated from its qualifier" in pieces[1].warnings
    assert "rule separated from its qualifier" not in pieces[0].warnings


def test_overlap_repeats_the_last_block_of_the_previous_piece(counter):
    d = DocBuilder("Travel Policy")
    d.heading("Booking", 1)
    paragraphs = [d.para(filler_paragraph(i)) for i in range(6)]
    plain = block_chunks(chunk_document(d.build(), config=ChunkConfig(target_tokens=120), counter=counter))
    overlapped = block_chunks(
        chunk_document(d.build(), config=ChunkConfig(target_tokens=120, overlap_blocks=1), counter=counter)
    )
    assert len(plain) > 1 and len(overlapped) == len(plain)
    for previous, piece in zip(overlapped, overlapped[1:]):
        assert piece.block_ids[0] == previous.block_ids[-1]
        assert piece.token_count <= counter.max_tokens
    assert {b for c in plain for b in c.block_ids} == {p.id for p in paragraphs}
    assert sum(len(c.block_ids) for c in plain) == len(paragraphs)  # no overlap by default


def test_long_section_splits_only_at_block_boundaries(counter):
    d = DocBuilder("Travel Policy")
    d.heading("Booking", 1)
    texts = [filler_paragraph(i) for i in range(10)]
    for text in texts:
        d.para(text)
    pieces = block_chunks(chunk_document(d.build(), config=CONFIG, counter=counter))
    assert len(pieces) > 1
    for piece in pieces:
        assert all(part in texts for part in piece.text.split("\n\n"))
        assert piece.token_count <= CONFIG.target_tokens


def test_empty_document_gives_only_the_document_chunk(counter):
    chunks = chunk_document(DocBuilder("Empty").build(), config=CONFIG, counter=counter)
    assert [c.level for c in chunks] == ["document"]
    assert chunks[0].text == "Empty"


def test_document_without_headings_summarises_its_opening(counter):
    d = DocBuilder("Memo")
    d.para("Office closes at noon on Friday. Staff may leave early. Security stays until six.")
    chunks = chunk_document(d.build(), config=CONFIG, counter=counter)
    assert chunks[0].text == "Memo\nOffice closes at noon on Friday. Staff may leave early."
    assert chunks[-1].breadcrumb == ("Memo",)


def test_short_introduction_joins_the_table_but_long_text_does_not(counter):
    d = DocBuilder("Travel Policy")
    d.heading("4.2 Nightly hotel caps", 1)
    intro = d.para("The maximum room rate per night, excluding taxes and breakfast, depends on grade and city.")
    table = d.table([["Grade", "Metro city"]], [["L1", "3,200"], ["L4", "6,500"]], caption="Table 1: Hotel caps")
    chunks = chunk_document(d.build(), config=CONFIG, counter=counter)
    [table_chunk] = [c for c in chunks if c.kind == "table"]
    assert table_chunk.block_ids == (intro.id, table.id)
    assert table_chunk.text.startswith("The maximum room rate per night, excluding taxes")

    d = DocBuilder("Travel Policy")
    d.heading("4.2 Nightly hotel caps", 1)
    long_text = d.para(filler_paragraph(1) + " " + filler_paragraph(2))
    table = d.table([["Grade", "Metro city"]], [["L1", "3,200"], ["L4", "6,500"]], caption="Table 1: Hotel caps")
    chunks = chunk_document(d.build(), config=CONFIG, counter=counter)
    [table_chunk] = [c for c in chunks if c.kind == "table"]
    assert table_chunk.block_ids == (table.id,)
    assert only_chunk_containing(chunks, "Booking note 1.").block_ids == (long_text.id,)


def test_markdown_emphasis_around_header_cells_is_dropped(counter):
    d = DocBuilder("Travel Policy")
    d.heading("5.1 Daily meal allowance", 1)
    d.table([["**Grade**", "**Metro city**"]], [["L4", "1,800"]])
    chunks = chunk_document(d.build(), config=CONFIG, counter=counter)
    [row] = [c for c in chunks if c.kind == "table_row"]
    assert row.text == "Grade L4, Metro city: 1,800"
