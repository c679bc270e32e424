"""The model-free PDF path on real PDFs drawn with reportlab."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer
from reportlab.platypus import Table as RLTable
from reportlab.platypus import TableStyle

from chunking.convert import convert_file
from chunking.model import Document
from tests.chunking.docs_factory import CROSSING_END, CROSSING_START, MEAL_TABLE, PdfFlow, policy_pdf


@pytest.fixture(scope="module")
def policy(tmp_path_factory) -> Document:
    return convert_file(policy_pdf(tmp_path_factory.mktemp("pdf") / "leave-travel.pdf"))


def all_text(doc: Document) -> str:
    parts = [doc.title]
    for b in doc.blocks:
        parts += [b.text, *b.items]
        if b.table:
            parts += [c for row in (*b.table.header_rows, *b.table.rows) for c in row]
    return "\n".join(parts)


def test_title_and_heading_levels(policy: Document):
    assert policy.title == "Leave and Travel Policy"
    assert [(b.level, b.text) for b in policy.blocks if b.kind == "heading"] == [
        (1, "1 Purpose"),
        (2, "1.1 Scope"),
        (1, "4 Earned leave"),
        (2, "4.2 Carry forward of earned leave"),
        (1, "6 Travel"),
        (2, "6.1 Meal allowance"),
        (1, "7 Contacts"),
    ]
    assert policy.page_count == 3


def test_ruled_table_with_header_row(policy: Document):
    (table_block,) = [b for b in policy.blocks if b.kind == "table"]
    assert table_block.table.header_rows == (tuple(MEAL_TABLE[0]),)
    assert table_block.table.rows == tuple(tuple(r) for r in MEAL_TABLE[1:])
    assert table_block.pages == (2,)
    # table text is not repeated in the text flow
    assert not any("1,800" in b.text for b in policy.blocks if b.kind == "paragraph")
    heading_index = next(i for i, b in enumerate(policy.blocks) if b.text == "6.1 Meal allowance")
    assert policy.blocks.index(table_block) == heading_index + 2


def test_paragraph_across_page_break_is_one_block(policy: Document):
    (block,) = [b for b in policy.blocks if CROSSING_START in b.text]
    assert block.kind == "paragraph"
    assert block.pages == (1, 2)
    assert block.text.startswith(CROSSING_START) and block.text.endswith(CROSSING_END)
    assert "\n" not in block.text


def test_running_header_and_footer_are_gone(policy: Document):
    text = all_text(policy)
    assert "Confidential" not in text
    assert "Page 2 of 3" not in text
    assert "Harbourline Group" not in text
    assert "Harbourline earn" in text  # the word itself survives in body text


def test_hyphenated_word_rejoined(policy: Document):
    text = all_text(policy)
    assert "settles reimbursement claims within 30 days" in text
    assert "reimburse-" not in text


def test_bullet_list_with_intro(policy: Document):
    (lst,) = [b for b in policy.blocks if b.kind == "list"]
    assert lst.text == "To carry leave forward, an employee must:"
    assert lst.items == (
        "apply through the HR portal before 1 March;",
        "get written approval from their reporting manager;",
        "keep at least five days of leave for the next year.",
    )


def test_blocks_numbered_in_reading_order(policy: Document):
    assert [b.id for b in policy.blocks] == [f"b{i:04d}" for i in range(1, len(policy.blocks) + 1)]
    pages = [b.pages[0] for b in policy.blocks]
    assert pages == sorted(pages)


def test_style_only_headings_rank_by_size(tmp_path: Path):
    flow = PdfFlow()
    flow.title("Remote Work Guide")
    flow.heading("Eligibility", size=15)
    flow.paragraph("Employees who have completed probation may work remotely two days a week.")
    flow.heading("Equipment", size=12)
    flow.paragraph("The company provides a laptop and a headset.")
    flow.heading("Internet costs", size=10, bold=True)
    flow.paragraph("Internet costs are reimbursed up to 1,000 per month.")
    flow.heading("Security", size=15)
    flow.paragraph("Use the VPN on every connection.")
    doc = convert_file(flow.save(tmp_path / "remote.pdf"))
    assert doc.title == "Remote Work Guide"
    assert [(b.level, b.text) for b in doc.blocks if b.kind == "heading"] == [
        (1, "Eligibility"),
        (2, "Equipment"),
        (3, "Internet costs"),
        (1, "Security"),
    ]


def test_unnumbered_part_headings_sit_above_numbered_ones(tmp_path: Path):
    flow = PdfFlow()
    flow.heading("Part A: Leave", size=16)
    flow.heading("1 Annual leave", size=13)
    flow.paragraph("Employees earn 24 days a year.")
    flow.heading("1.1 Accrual", size=11)
    flow.paragraph("Leave accrues monthly.")
    flow.heading("Part B: Travel", size=16)
    flow.heading("2 Booking", size=13)
    flow.paragraph("Book through the travel desk.")
    doc = convert_file(flow.save(tmp_path / "handbook.pdf"))
    assert [(b.level, b.text) for b in doc.blocks if b.kind == "heading"] == [
        (1, "Part A: Leave"),
        (2, "1 Annual leave"),
        (3, "1.1 Accrual"),
        (1, "Part B: Travel"),
        (2, "2 Booking"),
    ]


def test_numbered_list_items_are_not_headings(tmp_path: Path):
    flow = PdfFlow()
    flow.heading("3 Claims", size=13)
    flow.paragraph("Submit a claim as follows:")
    flow.lines(["1. Fill in the claim form with every receipt attached.", "2. Send it to your manager for approval."])
    doc = convert_file(flow.save(tmp_path / "claims.pdf"))
    assert [b.text for b in doc.blocks if b.kind == "heading"] == ["3 Claims"]
    (lst,) = [b for b in doc.blocks if b.kind == "list"]
    assert lst.text == "Submit a claim as follows:"
    assert lst.items == (
        "1. Fill in the claim form with every receipt attached.",
        "2. Send it to your manager for approval.",
    )


def _platypus_pdf(path: Path, *, rows: int) -> Path:
    styles = getSampleStyleSheet()
    data = [["City", "Hotel cap", "Meal cap"]] + [[f"City {i}", f"{5000 + i * 10:,}", f"{900 + i:,}"] for i in range(rows)]
    table = RLTable(data, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
                ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                ("BACKGROUND", (0, 0), (-1, 0), colors.lightblue),
            ]
        )
    )
    story = [
        Paragraph("Hotel Policy", styles["Title"]),
        Paragraph("2 Hotel rates", styles["Heading1"]),
        Paragraph("Caps apply per night, taxes included.", styles["BodyText"]),
        Spacer(1, 6),
        table,
        Paragraph("3 Exceptions", styles["Heading1"]),
        Paragraph("A director may approve a higher rate in writing.", styles["BodyText"]),
    ]
    SimpleDocTemplate(str(path), pagesize=A4).build(story)
    return path


def test_table_split_over_pages_is_one_table_with_its_header(tmp_path: Path):
    doc = convert_file(_platypus_pdf(tmp_path / "hotels.pdf", rows=70))
    assert doc.title == "Hotel Policy"
    (table_block,) = [b for b in doc.blocks if b.kind == "table"]
    assert table_block.table.header_rows == (("City", "Hotel cap", "Meal cap"),)
    assert len(table_block.table.rows) == 70
    assert table_block.table.rows[-1] == ("City 69", "5,690", "969")
    assert table_block.pages[0] < table_block.pages[-1]
    assert [b.text for b in doc.blocks if b.kind == "heading"] == ["2 Hotel rates", "3 Exceptions"]


def test_fifty_pages_convert_in_seconds(tmp_path: Path):
    flow = PdfFlow(footer="Confidential. Page {page} of {pages}")
    flow.title("Long Handbook")
    for section in range(1, 66):
        flow.heading(f"{section} Section {section}", size=14)
        for sub in range(1, 4):
            flow.heading(f"{section}.{sub} Topic {sub}", size=12)
            flow.paragraph("Employees must follow this rule unless their manager approves otherwise. " * 8)
        flow.table([["Grade", "Limit"], ["L1", "100"], ["L2", "200"]])
    path = flow.save(tmp_path / "long.pdf")
    started = time.perf_counter()
    doc = convert_file(path)
    elapsed = time.perf_counter() - started
    assert doc.page_count >= 50
    assert sum(1 for b in doc.blocks if b.kind == "heading") == 65 * 4
    assert sum(1 for b in doc.blocks if b.kind == "table") == 65
    assert elapsed < 30, f"{doc.page_count} pages took {elapsed:.1f}s"
