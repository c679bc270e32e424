from tests.chunking.chunk_builders import DocBuilder

from chunking.config import ChunkConfig
from chunking.chunker import chunk_document, document_sections
from chunking.sections import build_sections


def test_heading_stack_drops_deeper_levels_when_a_higher_heading_arrives():
    d = DocBuilder("Expenses Handbook")
    d.heading("Travel", 1)
    d.heading("Class of travel", 2)
    d.heading("Rail", 3)
    d.para("Rail text.")
    d.heading("Hotels", 2)
    d.para("Hotel text.")
    d.heading("Leave", 1)
    d.para("Leave text.")
    trails = [s.breadcrumb for s in build_sections(d.build())]
    assert trails == [
        ("Expenses Handbook", "Travel"),
        ("Expenses Handbook", "Travel", "Class of travel"),
        ("Expenses Handbook", "Travel", "Class of travel", "Rail"),
        ("Expenses Handbook", "Travel", "Hotels"),
        ("Expenses Handbook", "Leave"),
    ]


def test_skipped_levels_and_a_title_heading_are_not_repeated():
    d = DocBuilder("Leave Policy")
    d.heading("Leave Policy", 1)
    d.para("Intro.")
    d.heading("4.2 Carry forward", 3)
    d.para("Body.")
    sections = build_sections(d.build())
    assert sections[0].breadcrumb == ("Leave Policy",)
    assert sections[1].breadcrumb == ("Leave Policy", "4.2 Carry forward")


def test_preamble_before_the_first_heading_is_its_own_section():
    d = DocBuilder("Policy")
    d.para("Version 3, issued by HR.")
    d.heading("1 Scope", 1)
    d.para("Everyone.")
    sections = build_sections(d.build())
    assert sections[0].heading is None and sections[0].breadcrumb == ("Policy",)


def test_heading_without_body_leaves_no_heading_only_chunk(counter):
    d = DocBuilder("Travel Policy")
    d.heading("6 Meals", 1)
    d.heading("6.1 Meal allowance", 2)
    d.para("The daily meal allowance is paid for each full day away from the base location.")
    chunks = chunk_document(d.build(), config=ChunkConfig(), counter=counter)
    blocks = [c for c in chunks if c.level == "block"]
    assert len(blocks) == 1
    assert blocks[0].breadcrumb == ("Travel Policy", "6 Meals", "6.1 Meal allowance")
    assert "6 Meals" not in blocks[0].text  # named by the breadcrumb, not repeated as text
    assert all(c.text.strip() not in {"6 Meals", "6.1 Meal allowance"} for c in chunks)


def test_tiny_section_merges_forward_carrying_its_heading(counter):
    d = DocBuilder("Travel Policy")
    d.heading("6 Meals", 1)
    d.heading("6.2 Alcohol", 2)
    alcohol = d.para("Not reimbursable.")
    d.heading("6.3 Tips", 2)
    tips = d.para("Tips are reimbursable up to ten percent of the bill when a receipt shows them.")
    doc = d.build()
    sections = document_sections(doc, config=ChunkConfig(), counter=counter)
    assert [s.breadcrumb[-1] for s in sections] == ["6.3 Tips"]
    chunks = chunk_document(doc, config=ChunkConfig(), counter=counter)
    [block] = [c for c in chunks if c.level == "block"]
    assert block.text.startswith("6.2 Alcohol\n\nNot reimbursable.")
    assert alcohol.id in block.block_ids and tips.id in block.block_ids
    assert not block.warnings


def test_tiny_section_does_not_merge_into_another_chapter(counter):
    d = DocBuilder("Handbook")
    d.heading("Travel", 1)
    d.heading("Alcohol", 2)
    d.para("Not reimbursable.")
    d.heading("Leave", 1)
    d.para("Leave is granted by the manager after a request in the HR portal.")
    sections = document_sections(d.build(), config=ChunkConfig(), counter=counter)
    assert [s.breadcrumb for s in sections] == [
        ("Handbook", "Travel", "Alcohol"),
        ("Handbook", "Leave"),
    ]


def test_a_chunk_never_spans_two_sections(counter):
    d = DocBuilder("Handbook")
    d.heading("Travel", 1)
    travel = d.para("Book travel through the portal at least seven days ahead.")
    d.heading("Hotels", 1)
    hotel = d.para("Hotel stays are capped at the city rate for the grade of the employee.")
    chunks = chunk_document(d.build(), config=ChunkConfig(), counter=counter)
    for chunk in chunks:
        if chunk.level == "block":
            assert not (travel.id in chunk.block_ids and hotel.id in chunk.block_ids)
