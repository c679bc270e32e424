"""Whole-document clean-up: furniture, hyphenation, whitespace, page-break joins."""
from __future__ import annotations

from chunking.cleanup import (
    attach_list_intros,
    attach_table_captions,
    clean_document,
    drop_repeated_blocks,
    furniture_key,
    hyphenation_vocabulary,
    is_page_number_line,
    join_across_pages,
    normalise_whitespace,
    promote_title,
    rejoin_hyphenation,
    repeated_furniture,
)
from chunking.model import Block, Document, Table


def para(text: str, *pages: int) -> Block:
    return Block(id="", kind="paragraph", text=text, pages=pages)


def heading(text: str, level: int) -> Block:
    return Block(id="", kind="heading", text=text, level=level)


def test_rejoins_word_hyphenated_at_line_end():
    assert rejoin_hyphenation("the reimburse-\nment claims") == "the reimbursement claims"


def test_keeps_hyphen_of_real_compounds():
    words, hyphenated = hyphenation_vocabulary(["Use the self-service portal.", "non-\nbillable"])
    assert rejoin_hyphenation("the self-\nservice portal", words, hyphenated) == "the self-service portal"
    assert rejoin_hyphenation("COVID-\n19 leave", words, hyphenated) == "COVID-19 leave"


def test_joined_spelling_elsewhere_wins():
    words, hyphenated = hyphenation_vocabulary(["Submit the reimbursement form."])
    assert rejoin_hyphenation("reimburse-\nment", words, hyphenated) == "reimbursement"


def test_normalise_whitespace():
    assert normalise_whitespace("  Grade\u00a0L4 \n\t costs\u00ad  1,800 \u200b") == "Grade L4 costs 1,800"


def test_page_number_lines():
    for line in ("7", "- 7 -", "Page 7", "Page 7 of 22", "page 3/10", "iv"):
        assert is_page_number_line(line), line
    for line in ("Confidential. Page 7 of 22", "7 Contacts", "Section 4"):
        assert not is_page_number_line(line), line


def test_repeated_footer_found_modulo_page_numbers():
    pages = [[f"Confidential. Page {n} of 4", "Harbourline"] for n in range(1, 5)]
    pages[2].append("7 Contacts")
    keys = repeated_furniture(pages)
    assert furniture_key("Confidential. Page 9 of 12") in keys
    assert furniture_key("Harbourline") in keys
    assert furniture_key("7 Contacts") not in keys


def test_drop_repeated_blocks_only_with_pages():
    blocks = [para(f"Confidential. Page {n} of 3", n) for n in (1, 2, 3)] + [para("Real text.", 2)]
    assert [b.text for b in drop_repeated_blocks(blocks, 3)] == ["Real text."]
    assert len(drop_repeated_blocks(blocks, 0)) == 4


def test_paragraph_cut_by_page_break_is_joined():
    blocks = [para("Leave above 30 days lapses on 31 March, unless an", 1), para("extension is approved.", 2)]
    (joined,) = join_across_pages(blocks)
    assert joined.pages == (1, 2)
    assert normalise_whitespace(joined.text) == "Leave above 30 days lapses on 31 March, unless an extension is approved."


def test_complete_paragraphs_on_two_pages_stay_apart():
    blocks = [para("The first rule ends here.", 1), para("A new rule starts here.", 2)]
    assert len(join_across_pages(blocks)) == 2


def test_paragraph_ending_with_colon_becomes_list_intro():
    blocks = [para("Claims need:", 1), Block(id="", kind="list", items=("a receipt", "approval"), pages=(1,))]
    (lst,) = attach_list_intros(blocks)
    assert lst.kind == "list" and lst.text == "Claims need:" and lst.items == ("a receipt", "approval")


def test_table_caption_paragraph_attaches_to_table():
    table = Block(id="", kind="table", table=Table(header_rows=(("Grade", "Rate"),), rows=(("L4", "1,800"),)))
    (block,) = attach_table_captions([para("Table 3: Meal allowance", 2), table])
    assert block.table.caption == "Table 3: Meal allowance"


def test_promote_title_uses_unique_top_heading():
    blocks = [heading("Leave Policy", 1), heading("1 Purpose", 2), para("Text.")]
    title, rest = promote_title("", blocks, "leave")
    assert title == "Leave Policy" and [b.text for b in rest] == ["1 Purpose", "Text."]


def test_promote_title_keeps_first_of_several_top_headings():
    blocks = [heading("Purpose", 1), para("Text."), heading("Scope", 1)]
    title, rest = promote_title("", blocks, "leave")
    assert title == "Purpose" and len(rest) == 3
    assert promote_title("", [para("Only text.")], "leave-policy") == ("leave-policy", [para("Only text.")])


def test_clean_document_numbers_blocks_and_normalises_levels():
    doc = Document(
        title="",
        blocks=(heading("Travel", 2), para("  Rail  travel\n is reimbursed. "), Block(id="", kind="paragraph", text=" ")),
        source_name="travel.md",
    )
    cleaned = clean_document(doc, fallback_title="travel")
    assert cleaned.title == "Travel"
    assert [(b.id, b.kind, b.text) for b in cleaned.blocks] == [
        ("b0001", "heading", "Travel"),
        ("b0002", "paragraph", "Rail travel is reimbursed."),
    ]
    assert cleaned.blocks[0].level == 1
