"""The chunking rules on documents converted by the real pipeline, DOCX and PDF.

One policy is written twice from the same script: as a DOCX with python-docx
(Word styles: Title, Heading 1/2, List Bullet, Table Grid, a Courier code run,
a page footer) and as a PDF drawn with reportlab (numbered headings in larger
bold fonts, a running footer "Confidential. Page N of M", a paragraph that runs
over a page break, a word hyphenated at a line end, ruled tables with a bold
header row, a bulleted list with its intro, a code block in Courier). Each file
goes through ``convert_file`` and ``chunk_document`` with the embedding model's
tokenizer and the default ``ChunkConfig``; every test then checks one rule of
the chunking contract on both results. The seed failures (first-class rail
conditions, the L4 metro meal allowance, the CHRO exception, the enterprise
refund exception, "This limit applies to all grades except L1", footer noise)
are all in the script.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.chunking.docs_factory import PdfFlow

from chunking import tables
from chunking.chunker import chunk_document
from chunking.config import ChunkConfig
from chunking.convert import convert_file
from chunking.model import ChunkRecord, Document
from chunking.sentences import split_sentences

TITLE = "Harbourline Travel and Leave Policy"
FOOTER = "Confidential. Page {page} of {pages}"
DOCX_FOOTER = "Confidential. Harbourline internal document"

FILLER = [
    "Employees book journeys through the TravelDesk portal, which records every booking "
    "against the cost centre of the traveller and sends the itinerary to the line manager.",
    "Managers review the monthly travel report for their team and raise any booking that "
    "looks unusual with the finance business partner before the month is closed.",
    "Leave requests are raised in PeopleHub, where the reporting manager approves or "
    "declines them and the balance is updated on the same working day.",
    "Customer accounts are reviewed by the billing team every month, and any disputed "
    "invoice is put on hold until the account manager has spoken to the customer.",
]
# Sentences that pad a section so that a rule lands right at the chunk size target
# (long ones first, short ones to finish); none of them qualifies what precedes it.
PADDING = {
    "hotel": [
        "Travellers stay in the hotels listed on TravelDesk, which have agreed corporate rates "
        "with the company for every office city.",
        "A hotel outside the list may be booked when the listed hotels are full on the dates "
        "of travel, and the booking note says so.",
        "Bills are settled by the traveller at check-out and claimed with the itemised invoice.",
        "Stays of more than fourteen nights in one city are booked as serviced apartments "
        "through the office administration team.",
        "Breakfast is included in the cap.", "Laundry is covered after five nights.",
        "Minibar items are not covered.", "Wi-Fi charges are covered.", "Tips are not covered.",
        "Keep every receipt.", "Book early.",
    ],
    "leave": [
        "Leave balances are shown on the PeopleHub home page and on every monthly payslip.",
        "Public holidays do not count against the balance.",
        "Managers see the balances of their team.", "Balances are updated daily.",
        "Leave is booked in days.", "Half days are allowed.", "Plan ahead.",
    ],
    "refunds": [
        "Refund requests are raised by the account manager in the billing system, with the "
        "invoice number and the reason given by the customer.",
        "The billing team answers every request within five working days and copies the account "
        "manager on the reply.",
        "Refunds are paid to the card or bank account that paid the invoice.",
        "Each refund is recorded against the customer account so that repeated requests from "
        "the same customer can be seen at a glance by the account team.",
        "The billing team reports the number and value of refunds to the finance director at the "
        "end of every quarter.",
        "Credit notes are sent by email.", "Partial refunds are possible.",
        "Taxes are refunded in full.", "Keep the request on file.", "Reply promptly.",
    ],
}

RAIL_RULE = (
    "Employees may book first-class rail tickets only where the journey is longer than four "
    "hours and a director has approved the booking in writing."
)
RAIL_PARAGRAPH = " ".join([
    "Standard-class rail travel is the default for every business journey in India.",
    "Tickets are booked through TravelDesk at least seven days before the journey where the "
    "plans allow it, so that the lowest fare can be used.",
    "Season tickets for regular journeys between two offices are bought by the local office "
    "and lent to travellers for the day.",
    "Sleeper berths may be booked for overnight journeys of more than eight hours.",
    RAIL_RULE,
    "The booking is then made through TravelDesk like any other ticket, and the approval is "
    "attached to the booking.",
    "Travellers who upgrade at their own cost on the train pay the difference themselves and "
    "cannot claim it later.",
    "Rail passes for foreign travel are bought only when they cost less than the single "
    "tickets for the planned journeys.",
    "Lost tickets are replaced at the traveller's cost unless the loss was reported to the "
    "police and a copy of the report is attached to the claim.",
    "Refunds for cancelled journeys are claimed by TravelDesk from the rail operator and "
    "credited to the cost centre that paid for the ticket.",
    "Travellers who miss a booked train because a meeting ran late may buy a new ticket for "
    "the next train and claim it with a short explanation from the host.",
])
MEAL_HEADER = ["Grade", "Metro", "Tier 2", "Tier 3"]
MEAL_ROWS = [
    ["L1", "1,000", "800", "600"],
    ["L2", "1,200", "950", "700"],
    ["L3", "1,500", "1,100", "850"],
    ["L4", "1,800", "1,400", "1,100"],
    ["L5", "2,200", "1,700", "1,300"],
    ["L6", "2,600", "2,000", "1,500"],
]
MEAL_INTRO = "The daily meal allowance depends on the grade and the city tier, in rupees per day:"
HOTEL_HEADER = ["Office", "City tier", "Nightly cap (INR)", "Booked by"]
_CITIES = ["Mumbai", "Delhi", "Bengaluru", "Pune", "Chennai", "Hyderabad", "Kolkata"]
HOTEL_ROWS = [
    [f"{_CITIES[i % 7]} office {i // 7 + 1}", "Metro" if i % 7 < 3 else "Tier 2",
     f"{6000 + 250 * (i % 9):,}", "TravelDesk" if i % 2 else "Office admin"]
    for i in range(28)
]
HOTEL_LIMIT = "The nightly hotel limit is INR 6,500 in metro cities and INR 4,000 in all other cities."
LIMIT_QUALIFIER = "This limit applies to all grades except L1."
LIST_INTRO = "To carry leave forward, an employee must:"
LIST_ITEMS = [
    "apply through PeopleHub before 1 March;",
    "get written approval from their reporting manager;",
    "keep at least five days of leave for the next year.",
]
LAPSE_RULE = (
    "Unused earned leave above 30 days lapses on 31 March of each year. Lapsed leave is not "
    "paid out in cash, and it cannot be transferred to another employee or to a later year "
    "under any other scheme run by the company."
)
CHRO_EXCEPTION = (
    "This does not apply where the CHRO approves an extension in writing; the extended leave "
    "must then be taken by 30 June."
)
REFUND_RULE = "Customers on standard plans can get a full refund within 30 days of purchase."
REFUND_EXCEPTION = (
    "Enterprise contracts are an exception: a refund after 30 days needs written approval "
    "from the finance team."
)
HYPHEN_LINES = [
    "Claims are paid in the monthly payroll run. The finance team settles reimburse-",
    "ment claims within 30 days of submission.",
]
ABBREVIATED = [
    "Receipts are needed for any single item over 75.00 rupees, e.g. a taxi fare or a hotel bill.",
    "Claims are filed on Form No. 4 and approved by the cost centre owner, i.e. the budget holder.",
    "The approval route for claims above the limit is set out in Sec. 3.2 of the finance manual.",
    "A return trip from Mumbai to Pune by road takes approx. 3 hours in normal traffic.",
]
CLAIMS_PROSE = [
    "Every claim is submitted in ExpenseHub with the original receipts attached.",
    "The line manager checks that the costs were needed for the business purpose stated.",
    "Claims that are incomplete are returned to the employee with a short note.",
    "The finance team checks the amounts against the limits in this policy.",
    "Costs that exceed a limit are paid only up to the limit unless an approval is attached.",
    "Foreign currency costs are converted at the rate on the day the card was charged.",
    "Claims older than 90 days are not paid except in the case of long assignments abroad.",
    "Mileage is paid at the rate published by the finance team at the start of each year.",
]
# One sentence far longer than the model reads: it must be kept whole and flagged.
RUN_ON = "An allowance covers " + ", ".join(
    f"the {thing} of an employee travelling to the {place} office"
    for thing in ("meals", "laundry", "local transport", "phone calls", "internet access", "visas")
    for place in ("Mumbai", "Delhi", "Pune", "Chennai")
) + "."
CODE_LINES = ["[expense_export]", "format = csv", "currency = INR", "approval_threshold = 75.00"]


def _claims_paragraph() -> str:
    """A paragraph too long for one chunk, abbreviations spread through it."""
    mixed = []
    for i, sentence in enumerate(CLAIMS_PROSE):
        mixed.append(sentence)
        if i % 2 == 1:
            mixed.append(ABBREVIATED[i // 2])
    return " ".join(mixed + FILLER[:2])


# --- the script: one list of elements, rendered to DOCX and to PDF --------------------


def script_template() -> list[tuple]:
    """The policy as elements; ("pad", pool, rule, exception) is sized by ``sized_script``."""
    return [
        ("title", TITLE),
        ("h", 1, "1 Claims"),
        ("h", 2, "1.1 Submitting a claim"),
        ("p", _claims_paragraph()),
        ("lines", HYPHEN_LINES),
        ("h", 1, "2 Travel"),
        ("h", 2, "2.1 Class of travel"),
        ("p", RAIL_PARAGRAPH),
        ("h", 2, "2.2 Meal allowance"),
        ("p", MEAL_INTRO),
        ("table", [MEAL_HEADER] + MEAL_ROWS),
        ("p", "Meal allowances are paid with the monthly salary after the claim is approved."),
        ("h", 2, "2.3 Hotel stays"),
        ("p", FILLER[1]),
        ("pad", "hotel", HOTEL_LIMIT, LIMIT_QUALIFIER),
        ("p", HOTEL_LIMIT),
        ("p", LIMIT_QUALIFIER),
        ("p", "The nightly caps for each office are listed below."),
        ("table", [HOTEL_HEADER] + HOTEL_ROWS),
        ("h", 1, "3 Leave"),
        ("h", 2, "3.1 Carry forward of earned leave"),
        ("p", FILLER[2]),
        ("bullets", LIST_INTRO, LIST_ITEMS),
        ("pad", "leave", LAPSE_RULE, CHRO_EXCEPTION),
        ("fill_page", 2),
        ("p", LAPSE_RULE),
        ("p", CHRO_EXCEPTION),
        ("h", 1, "4 Customer refunds"),
        ("p", FILLER[3]),
        ("pad", "refunds", REFUND_RULE, REFUND_EXCEPTION),
        ("p", REFUND_RULE),
        ("p", REFUND_EXCEPTION),
        ("h", 1, "5 Expense export"),
        ("p", "The nightly export to the ledger uses these settings:"),
        ("code", CODE_LINES),
        ("p", "Changes to the export settings are approved by the Finance Controller."),
        ("h", 1, "6 Allowances in full"),
        ("p", RUN_ON),
    ]


def sized_script(counter, config: ChunkConfig) -> list[tuple]:
    """The script with each "pad" replaced by a paragraph sized with the real tokenizer, so
    that section text + pad + rule fits the size target and + exception does not: a
    packer without rule/exception glue would end a chunk between the rule and its exception."""
    out: list[tuple] = []
    trail: list[tuple[int, str]] = []
    body: list[str] = []
    for element in script_template():
        if element[0] == "h":
            trail = [(lvl, text) for lvl, text in trail if lvl < element[1]] + [(element[1], element[2])]
            body = []
        elif element[0] == "pad":
            _, pool, rule, exception = element
            prefix = " > ".join([TITLE] + [text for _, text in trail])

            def tokens(*parts: str) -> int:
                return counter.count(prefix + "\n" + "\n\n".join(body + [p for p in parts if p]))

            pad: list[str] = []
            for sentence in PADDING[pool]:
                if tokens(" ".join(pad + [sentence]), rule) < config.target_tokens:
                    pad.append(sentence)
            text = " ".join(pad)
            assert pad and tokens(text, rule, exception) > config.target_tokens, f"padding {pool} missed"
            element = ("p", text)
        if element[0] == "p":
            body.append(element[1])
        elif element[0] == "bullets":
            body.append("\n".join([element[1]] + [f"- {item}" for item in element[2]]))
        out.append(element)
    return out


def write_docx(path: Path, elements: list[tuple]) -> Path:
    import docx
    from docx.shared import Pt

    document = docx.Document()
    document.sections[0].footer.paragraphs[0].text = DOCX_FOOTER
    for element in elements:
        kind = element[0]
        if kind == "title":
            document.add_heading(element[1], 0)
        elif kind == "h":
            document.add_heading(element[2], element[1])
        elif kind == "p":
            document.add_paragraph(element[1])
        elif kind == "lines":  # Word lays out lines itself: the hyphen is the PDF's
            document.add_paragraph(_joined_lines(element[1]))
        elif kind == "bullets":
            document.add_paragraph(element[1])
            for item in element[2]:
                document.add_paragraph(item, style="List Bullet")
        elif kind == "table":
            rows = element[1]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            table.style = "Table Grid"
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    table.cell(r, c).paragraphs[0].add_run(value).bold = r == 0
        elif kind == "code":
            run = document.add_paragraph().add_run("\n".join(element[1]))
            run.font.name = "Courier New"
            run.font.size = Pt(9)
        elif kind != "fill_page":  # pragma: no cover
            raise ValueError(kind)
    document.save(str(path))
    return path


def write_pdf(path: Path, elements: list[tuple]) -> Path:
    flow = PdfFlow(footer=FOOTER)
    for element in elements:
        kind = element[0]
        if kind == "title":
            flow.title(element[1])
        elif kind == "h":
            flow.heading(element[2], size=15 if element[1] == 1 else 12.5)
        elif kind == "p":
            flow.paragraph(element[1])
        elif kind == "lines":
            flow.lines(element[1])
        elif kind == "bullets":
            flow.paragraph(element[1])
            flow.bullets(element[2])
        elif kind == "table":
            flow.table(element[1])
        elif kind == "code":
            flow.lines(element[1], font="Courier", x=90)
        elif kind == "fill_page":  # the next paragraph starts near the page end and runs over
            flow.fill_page(leave_lines=element[1])
        else:  # pragma: no cover
            raise ValueError(kind)
    return flow.save(path)


def _joined_lines(lines: list[str]) -> str:
    text = ""
    for line in lines:
        if text.endswith("-"):
            text = text[:-1] + line
        else:
            text = f"{text} {line}".strip()
    return text


# --- converted and chunked once per format ----------------------------------------------


@dataclass(frozen=True)
class Converted:
    fmt: str
    doc: Document
    chunks: list[ChunkRecord]

    @property
    def blocks(self) -> list[ChunkRecord]:
        """Block chunks that carry document text (not row sentences)."""
        return [c for c in self.chunks if c.level == "block" and c.kind != "table_row"]

    def only(self, needle: str) -> ChunkRecord:
        found = [c for c in self.blocks if needle in c.text]
        assert len(found) == 1, f"{self.fmt}: {len(found)} block chunks contain {needle!r}"
        return found[0]


@pytest.fixture(scope="module", params=["docx", "pdf"])
def converted(request, tmp_path_factory, counter) -> Converted:
    folder = tmp_path_factory.mktemp(f"rules-{request.param}")
    writer = write_docx if request.param == "docx" else write_pdf
    config = ChunkConfig()
    elements = sized_script(counter, config)
    doc = convert_file(writer(folder / f"travel-and-leave.{request.param}", elements))
    chunks = chunk_document(doc, config=config, counter=counter)
    return Converted(request.param, doc, chunks)


def crumb(*parts: str) -> tuple[str, ...]:
    return (TITLE, *parts)


def raw_section_of_blocks(doc: Document) -> dict[str, tuple[str, ...]]:
    """Block id -> heading trail, from a heading stack walked here (not the chunker's)."""
    stack: list[tuple[int, str]] = []
    out = {}
    for block in doc.blocks:
        if block.kind == "heading":
            stack = [(lvl, text) for lvl, text in stack if lvl < block.level] + [(block.level, block.text)]
        else:
            out[block.id] = (doc.title, *(text for _, text in stack))
    return out


# --- the converted tree is what the script wrote (else the rules prove nothing) --------


def test_conversion_recovers_the_structure(converted: Converted):
    doc = converted.doc
    assert doc.title == TITLE
    headings = [(b.level, b.text) for b in doc.blocks if b.kind == "heading"]
    assert headings == [(e[1], e[2]) for e in script_template() if e[0] == "h"]
    found_tables = [b.table for b in doc.blocks if b.kind == "table"]
    assert [(t.header_rows, t.rows) for t in found_tables] == [
        ((tuple(MEAL_HEADER),), tuple(map(tuple, MEAL_ROWS))),
        ((tuple(HOTEL_HEADER),), tuple(map(tuple, HOTEL_ROWS))),
    ]
    (code,) = [b for b in doc.blocks if b.kind == "code"]
    assert code.text.split("\n") == CODE_LINES
    if converted.fmt == "pdf":
        assert doc.page_count >= 3


# --- sections first ------------------------------------------------------------------------


def test_no_chunk_spans_two_sections(converted: Converted):
    trail_of = raw_section_of_blocks(converted.doc)
    heading_ids = {b.id for b in converted.doc.blocks if b.kind == "heading"}
    for chunk in converted.chunks:
        if chunk.level != "block":
            continue
        trails = {trail_of[b] for b in chunk.block_ids if b not in heading_ids}
        assert trails == {chunk.breadcrumb}, (converted.fmt, chunk.text[:80], trails)
        assert chunk.embed_text.startswith(" > ".join(chunk.breadcrumb) + "\n")
        assert not chunk.text.startswith(" > ".join(chunk.breadcrumb))  # display text stays clean
    sections = {c.breadcrumb for c in converted.chunks if c.level == "section"}
    assert crumb("2 Travel", "2.2 Meal allowance") in sections
    assert crumb("3 Leave", "3.1 Carry forward of earned leave") in sections
    assert crumb("2 Travel") not in sections  # a heading with no body of its own is no section


def test_long_paragraph_splits_between_sentences_not_inside_abbreviations(converted: Converted):
    pieces = [c for c in converted.blocks if c.breadcrumb == crumb("1 Claims", "1.1 Submitting a claim")]
    assert len(pieces) >= 2, "the claims paragraph must be split for this test to matter"
    for piece in pieces:
        assert piece.text[0].isupper(), piece.text[:40]
        assert piece.text.rstrip()[-1] in ".:", piece.text[-40:]
    for sentence in ABBREVIATED:
        assert sum(sentence in piece.text for piece in pieces) == 1, sentence
    (paragraph,) = [b for b in converted.doc.blocks if b.text.startswith("Every claim is submitted")]
    sentences = split_sentences(paragraph.text)
    for sentence in ABBREVIATED:
        assert sentence in sentences
    for sentence in sentences:
        assert not sentence.endswith(("e.g.", "i.e.", "No.", "Sec.", "approx.", "75."))


# --- rule and exception ---------------------------------------------------------------------


def test_first_class_rule_keeps_both_conditions(converted: Converted):
    pieces = [c for c in converted.blocks if c.breadcrumb == crumb("2 Travel", "2.1 Class of travel")]
    assert len(pieces) >= 2, "the rail paragraph must be split for this test to matter"
    assert sum(RAIL_RULE in piece.text for piece in pieces) == 1
    for piece in pieces:  # split between sentences only
        assert piece.text[0].isupper() and piece.text.rstrip().endswith(".")
    assert "four hours and a director has approved" in converted.only("first-class rail tickets").text


@pytest.mark.parametrize(
    ("rule", "exception", "trail"),
    [
        (LAPSE_RULE, CHRO_EXCEPTION, ("3 Leave", "3.1 Carry forward of earned leave")),
        (REFUND_RULE, REFUND_EXCEPTION, ("4 Customer refunds",)),
        (HOTEL_LIMIT, LIMIT_QUALIFIER, ("2 Travel", "2.3 Hotel stays")),
    ],
    ids=["earned-leave-chro", "refund-enterprise", "limit-except-l1"],
)
def test_rule_and_its_exception_share_a_chunk(converted: Converted, counter, rule, exception, trail):
    chunk = converted.only(rule)
    assert exception in chunk.text
    assert chunk.text.index(rule) < chunk.text.index(exception)
    assert chunk.breadcrumb == crumb(*trail)
    assert not any(w.startswith("rule separated") for w in chunk.warnings)
    # the glue mattered: the rule alone would still have fitted the chunk before it
    previous = converted.blocks[converted.blocks.index(chunk) - 1]
    assert previous.breadcrumb == chunk.breadcrumb and chunk.text.startswith(rule)
    assert counter.count(f"{previous.embed_text}\n\n{rule}") <= ChunkConfig().target_tokens


def test_this_limit_knows_which_limit(converted: Converted):
    chunk = converted.only(LIMIT_QUALIFIER)
    assert "nightly hotel limit is INR 6,500" in chunk.text
    assert "Hotel stays" in chunk.embed_text.splitlines()[0]


# --- tables -----------------------------------------------------------------------------------


def test_l4_metro_row_sentence(converted: Converted, counter):
    rows = [c for c in converted.chunks if c.kind == "table_row" and "L4" in c.text and "Metro" in c.text]
    (l4,) = [r for r in rows if "1,800" in r.text]
    assert "Grade L4, Metro: 1,800" in l4.text
    assert l4.breadcrumb == crumb("2 Travel", "2.2 Meal allowance")
    assert l4.embed_text.startswith(f"{TITLE} > 2 Travel > 2.2 Meal allowance\n")
    assert l4.searchable and l4.token_count <= counter.max_tokens


def test_every_table_piece_has_its_header(converted: Converted, counter):
    pieces_per_table = {}
    for block in converted.doc.blocks:
        if block.kind != "table":
            continue
        header = tables.render_header(tables.normalised(block.table))
        pieces = [c for c in converted.blocks if c.kind == "table" and block.id in c.block_ids]
        assert pieces, f"{converted.fmt}: table {block.id} is in no chunk"
        for piece in pieces:
            assert header in piece.text, piece.text[:200]
            assert piece.token_count <= counter.max_tokens
        pieces_per_table[block.table.header_rows[0][0]] = len(pieces)
        body = "\n".join(p.text for p in pieces)
        for row in block.table.rows:  # every row exactly once across the pieces
            assert body.count(tables.render_row(tables.normalised(block.table), row)) == 1
    assert pieces_per_table["Grade"] == 1
    assert pieces_per_table["Office"] >= 2, "the hotel table must be split for this test to matter"
    meal = converted.only("| L4 | 1,800 | 1,400 | 1,100 |")
    assert meal.text.startswith(MEAL_INTRO)


def test_row_sentences_link_to_their_table(converted: Converted):
    by_id = {c.id: c for c in converted.chunks}
    rows = [c for c in converted.chunks if c.kind == "table_row"]
    assert len(rows) == len(MEAL_ROWS) + len(HOTEL_ROWS)
    for row in rows:
        parent = by_id[row.parent_id]
        assert parent.kind == "table" and row.block_ids[0] in parent.block_ids
        assert row.breadcrumb == parent.breadcrumb


# --- lists, code, clean-up ---------------------------------------------------------------------


def test_list_stays_with_its_intro(converted: Converted):
    chunk = converted.only(LIST_ITEMS[0])
    assert chunk.kind in ("list", "text")
    assert LIST_INTRO in chunk.text
    positions = [chunk.text.index(item) for item in LIST_ITEMS]
    assert chunk.text.index(LIST_INTRO) < positions[0] and positions == sorted(positions)


def test_code_block_stays_whole(converted: Converted):
    chunk = converted.only(CODE_LINES[0])
    assert "\n".join(CODE_LINES) in chunk.text
    assert chunk.breadcrumb == crumb("5 Expense export")


def test_no_chunk_contains_page_furniture(converted: Converted):
    for chunk in converted.chunks:
        for text in (chunk.text, chunk.embed_text):
            assert "Confidential" not in text and "Harbourline internal" not in text
            assert not re.search(r"Page \d+ of \d+", text)


def test_hyphenated_word_rejoined(converted: Converted):
    chunk = converted.only("settles reimbursement claims within 30 days")
    assert "reimburse-" not in chunk.text and "reimburse ment" not in chunk.text
    assert not any("reimburse-" in c.text for c in converted.chunks)


def test_paragraph_across_the_page_break_is_one_chunk(converted: Converted):
    chunk = converted.only(LAPSE_RULE)
    if converted.fmt == "pdf":
        (block,) = [b for b in converted.doc.blocks if b.text == LAPSE_RULE]
        assert len(block.pages) == 2 and block.pages[1] == block.pages[0] + 1
        assert set(block.pages) <= set(chunk.pages)


# --- token limit and lineage ---------------------------------------------------------------------


def test_token_limit_or_oversized_warning(converted: Converted, counter):
    for chunk in converted.chunks:
        assert chunk.token_count == counter.count(chunk.embed_text)
        if chunk.searchable and chunk.token_count > counter.max_tokens:
            assert any(w.startswith("oversized") for w in chunk.warnings), chunk.text[:80]
    (run_on,) = [c for c in converted.blocks if RUN_ON in c.text]
    assert run_on.token_count > counter.max_tokens  # one sentence longer than the model reads
    assert any(w.startswith("oversized: a single") for w in run_on.warnings), run_on.warnings
    assert RUN_ON in run_on.text  # kept whole, never cut mid-sentence
    flagged = [c for c in converted.chunks if c.searchable and c.token_count > counter.max_tokens]
    assert flagged == [run_on]


def test_parent_links(converted: Converted):
    chunks = converted.chunks
    by_id = {c.id: c for c in chunks}
    assert len(by_id) == len(chunks)
    (document,) = [c for c in chunks if c.level == "document"]
    assert document.parent_id is None and not document.searchable and chunks[0] is document
    for chunk in chunks:
        if chunk.level == "section":
            assert chunk.parent_id == document.id and not chunk.searchable
        elif chunk.kind == "table_row":
            assert by_id[chunk.parent_id].kind == "table"
        elif chunk.level == "block":
            parent = by_id[chunk.parent_id]
            assert parent.level == "section" and parent.breadcrumb == chunk.breadcrumb
            assert set(chunk.block_ids) <= set(parent.block_ids)
            assert chunk.searchable
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    all_blocks = {b.id for b in converted.doc.blocks if b.kind != "heading"}
    assert all_blocks == {b for c in converted.blocks for b in c.block_ids if b in all_blocks}
