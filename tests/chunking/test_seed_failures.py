"""Regression tests for the failures described in the seed documents, built as Documents."""
from __future__ import annotations

import pytest
from tests.chunking.chunk_builders import DocBuilder, block_chunks, filler_paragraph, only_chunk_containing

from chunking.baseline import chunk_fixed_size
from chunking.chunker import chunk_document
from chunking.config import ChunkConfig

CONFIG = ChunkConfig()


def rule_then_qualifier_docs(title, headings, rule, qualifier, pads=range(0, 30)):
    """The same section with a growing paragraph before the rule, so that the rule lands
    at every position relative to the size target (in steps of a few tokens)."""
    for n in pads:
        d = DocBuilder(title)
        for level, heading in enumerate(headings, start=1):
            d.heading(heading, level)
        d.para(filler_paragraph(0))
        if n:
            d.para(" ".join(f"Travel note {j} is filed." for j in range(n)))
        d.para(rule)
        d.para(qualifier)
        d.para("Questions about this section go to the policy owner named on the cover page.")
        yield n, d.build()


def assert_rule_kept_with_qualifier(counter, title, headings, rule, qualifier):
    glue_was_needed = False
    for n, doc in rule_then_qualifier_docs(title, headings, rule, qualifier):
        chunks = block_chunks(chunk_document(doc, config=CONFIG, counter=counter))
        chunk = only_chunk_containing(chunks, rule)
        assert qualifier in chunk.text, f"with pad {n} the qualifier left the rule"
        assert chunk.token_count <= counter.max_tokens
        assert "rule separated from its qualifier" not in " ".join(chunk.warnings)
        glue_was_needed |= naive_packing_would_split(counter, chunks, chunk, rule)
    assert glue_was_needed, "no case put the rule at the size boundary; the test proves nothing"


def naive_packing_would_split(counter, chunks, rule_chunk, rule) -> bool:
    """A packer without glue would have put the rule at the end of the previous chunk
    (it fits under the target there) and started the next chunk with the qualifier."""
    position = chunks.index(rule_chunk)
    if position == 0 or not rule_chunk.text.startswith(rule):
        return False
    previous = chunks[position - 1]
    return counter.count(f"{previous.embed_text}\n\n{rule}") <= CONFIG.target_tokens


def test_first_class_rail_rule_keeps_both_conditions_when_a_long_paragraph_is_split(counter):
    rail = (
        "Standard-class rail travel is reimbursable when the ticket is booked seven or more days "
        "before travel. First-class travel is reimbursable only where the journey exceeds four hours "
        "and the employee has written approval from a director. Receipts are required for any single "
        "item over 75 pounds."
    )
    padding = " ".join(f"Rail note {i} says that season tickets are handled by the local office." for i in range(14))
    d = DocBuilder("Expenses Handbook")
    d.heading("Travel", 1)
    d.heading("Rail and air", 2)
    d.heading("Class of travel", 3)
    d.para(f"{padding} {rail} {padding}")
    doc = d.build()
    chunks = chunk_document(doc, config=CONFIG, counter=counter)
    pieces = block_chunks(chunks)
    assert len(pieces) > 1, "the paragraph must be too long for one chunk for this test to matter"
    chunk = only_chunk_containing(chunks, "First-class travel is reimbursable only")
    assert (
        "First-class travel is reimbursable only where the journey exceeds four hours and the "
        "employee has written approval from a director." in chunk.text
    )
    assert chunk.breadcrumb == ("Expenses Handbook", "Travel", "Rail and air", "Class of travel")
    assert chunk.embed_text.splitlines()[0] == "Expenses Handbook > Travel > Rail and air > Class of travel"
    for piece in pieces:  # never mid-sentence
        assert piece.text.rstrip().endswith(".")
        assert piece.text[0].isupper()
        assert piece.token_count <= counter.max_tokens
    # the structure-blind baseline does cut this sentence, which is why it is not the default
    baseline = chunk_fixed_size(doc, counter=counter, size=240, overlap=0)
    assert not any(
        "First-class travel is reimbursable only where" in c.text and "approval from a director" in c.text
        for c in baseline
    )


def test_first_class_conditions_in_their_own_paragraph_stay_with_the_rule(counter):
    assert_rule_kept_with_qualifier(
        counter,
        "Expenses Handbook",
        ["Travel", "Class of travel"],
        "First-class rail travel is reimbursable for long journeys.",
        "This applies only where the journey exceeds four hours and the employee has written "
        "approval from a director.",
    )


def test_earned_leave_lapse_rule_keeps_its_chro_exception(counter):
    assert_rule_kept_with_qualifier(
        counter,
        "Leave Policy (India)",
        ["4 Earned leave", "4.2 Carry forward of earned leave"],
        "Unused earned leave above 30 days lapses on 31 March each year.",
        "This does not apply where the CHRO approves an extension in writing; the extended leave "
        "must then be used by 30 June.",
    )


def test_earned_leave_unless_clause_in_the_same_sentence_is_never_cut(counter):
    d = DocBuilder("Leave Policy (India)")
    d.heading("4.2 Carry forward of earned leave", 1)
    for i in range(6):
        d.para(filler_paragraph(i))
    rule = ("Unused earned leave above 30 days lapses on 31 March, unless an extension is approved "
            "by the CHRO in writing.")
    d.para(rule)
    chunks = chunk_document(d.build(), config=CONFIG, counter=counter)
    assert rule in only_chunk_containing(chunks, "lapses on 31 March").text


def test_refund_rule_keeps_its_enterprise_finance_approval_exception(counter):
    assert_rule_kept_with_qualifier(
        counter,
        "Billing",
        ["Refunds"],
        "Standard plans can be refunded within 30 days of purchase.",
        "Enterprise contracts are an exception: a refund after 30 days requires approval from the "
        "finance team.",
    )


def test_refund_rule_keeps_a_however_exception(counter):
    assert_rule_kept_with_qualifier(
        counter,
        "Billing",
        ["Refunds"],
        "Standard plans can be refunded within 30 days of purchase.",
        "However, enterprise contracts require finance approval for any refund.",
    )


def test_this_limit_applies_names_which_limit(counter):
    limit_rule = "The daily meal limit is INR 1,800 in metro cities and INR 1,200 elsewhere."
    qualifier = "This limit applies to all grades except L1."
    assert_rule_kept_with_qualifier(
        counter, "Travel Policy (India)", ["6 Meals", "6.1 Meal allowance"], limit_rule, qualifier
    )
    for _, doc in rule_then_qualifier_docs(
        "Travel Policy (India)", ["6 Meals", "6.1 Meal allowance"], limit_rule, qualifier
    ):
        chunk = only_chunk_containing(chunk_document(doc, config=CONFIG, counter=counter), qualifier)
        assert "daily meal limit" in chunk.text
        assert "Meal allowance" in chunk.embed_text.splitlines()[0]


def test_this_limit_after_a_table_stays_with_the_table(counter):
    d = DocBuilder("Travel Policy (India)")
    d.heading("6.1 Meal allowance", 1)
    table = d.table(
        [["Grade", "Metro city (includes Mumbai)", "Tier 2"]],
        [["L2", "1,500", "1,100"], ["L3", "1,600", "1,200"], ["L4", "1,800", "1,400"]],
        caption="Daily meal limit (INR)",
    )
    note = d.para("This limit applies to all grades except L1.")
    chunks = chunk_document(d.build(), config=CONFIG, counter=counter)
    [table_chunk] = [c for c in chunks if c.kind == "table"]
    assert table_chunk.block_ids == (table.id, note.id)
    assert table_chunk.text.endswith("This limit applies to all grades except L1.")
    assert "Daily meal limit (INR)" in table_chunk.text


def meal_allowance_doc(rows):
    d = DocBuilder("Travel Policy (India)")
    d.heading("6 Meals", 1)
    d.heading("6.1 Meal allowance", 2)
    d.para("The daily meal allowance depends on the grade and the city of stay:")
    table = d.table(
        [["Grade", "Metro city (includes Mumbai)", "Tier 2", "Tier 3"]],
        rows,
        caption="Daily meal allowance (INR per day)",
        row_header_columns=1,
        page=7,
    )
    return d.build(), table


MEAL_ROWS = [
    ["L1", "1,200", "1,000", "800"],
    ["L2", "1,400", "1,100", "900"],
    ["L3", "1,600", "1,250", "1,000"],
    ["L4", "1,800", "1,400", "1,100"],
    ["L5", "2,200", "1,700", "1,300"],
]
HEADER_LINE = "| Grade | Metro city (includes Mumbai) | Tier 2 | Tier 3 |"


def test_meal_allowance_l4_metro_row_sentence_and_table_with_header(counter):
    doc, table = meal_allowance_doc(MEAL_ROWS)
    chunks = chunk_document(doc, config=CONFIG, counter=counter)
    [table_chunk] = [c for c in chunks if c.kind == "table"]
    assert HEADER_LINE in table_chunk.text
    assert "| L4 | 1,800 | 1,400 | 1,100 |" in table_chunk.text
    assert table_chunk.text.startswith("The daily meal allowance depends on the grade and the city of stay:")
    assert table_chunk.pages == (1, 7)

    rows = [c for c in chunks if c.kind == "table_row"]
    assert len(rows) == len(MEAL_ROWS)
    [l4] = [r for r in rows if "L4" in r.text]
    assert "Metro" in l4.text and "1,800" in l4.text
    assert "Grade L4, Metro city (includes Mumbai): 1,800" in l4.text
    assert l4.parent_id == table_chunk.id
    assert l4.searchable and l4.block_ids == (table.id,) and l4.pages == (7,)
    assert l4.embed_text.startswith("Travel Policy (India) > 6 Meals > 6.1 Meal allowance\n")


def test_large_table_splits_by_rows_repeating_caption_and_header(counter):
    rows = [[f"Band {i}", f"{1000 + 10 * i:,}", f"{800 + 10 * i}", f"{600 + 10 * i}"] for i in range(80)]
    doc, table = meal_allowance_doc(rows)
    chunks = chunk_document(doc, config=CONFIG, counter=counter)
    pieces = [c for c in chunks if c.kind == "table"]
    assert len(pieces) > 2
    for piece in pieces:
        assert HEADER_LINE in piece.text
        assert "Daily meal allowance (INR per day)" in piece.text
        assert piece.token_count <= counter.max_tokens
        assert not piece.warnings
    all_rows = "\n".join(p.text for p in pieces)
    for row in rows:
        assert all_rows.count(f"| {row[0]} | {row[1]} |") == 1
    row_chunks = [c for c in chunks if c.kind == "table_row"]
    assert len(row_chunks) == 80
    assert {r.parent_id for r in row_chunks} == {pieces[0].id}


@pytest.mark.parametrize("target", [60, 120, 180])
def test_no_chunk_starts_with_a_dangling_where(counter, target):
    config = ChunkConfig(target_tokens=target)
    d = DocBuilder("Expenses Handbook")
    d.heading("Class of travel", 1)
    for i in range(5):
        d.para(filler_paragraph(i))
        d.para("First-class travel is reimbursable only where the journey exceeds four hours "
               f"and the employee has written approval from director {i}.")
    for chunk in block_chunks(chunk_document(d.build(), config=config, counter=counter)):
        assert not chunk.text.lower().startswith("where")
        assert not any(w.startswith("dangling start") for w in chunk.warnings)
