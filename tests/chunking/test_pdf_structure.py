"""Model-free PDF details: borderless tables, rows cut by a page break, contents pages, tight numbering."""
from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

from chunking.convert import convert_file
from chunking.model import Table as ModelTable
from chunking.pdf_tables import PageTable, continue_table
from tests.chunking.docs_factory import PdfFlow, policy_pdf


def _build(path: Path, story) -> Path:
    SimpleDocTemplate(str(path), pagesize=A4).build(story)
    return path


def test_borderless_and_rule_only_tables(tmp_path: Path):
    styles = getSampleStyleSheet()
    bold_header = [("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 10)]
    rules = bold_header + [("LINEABOVE", (0, 0), (-1, 0), 1, colors.black), ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black)]
    story = [
        Paragraph("2 Rates", styles["Heading1"]),
        Paragraph("Daily rates by grade.", styles["BodyText"]),
        Table([["Grade", "Daily rate"], ["L1", "500"], ["L2", "650"]], style=TableStyle(bold_header)),
        Paragraph("Hotel caps by city.", styles["BodyText"]),
        Table([["City", "Hotel cap"], ["Mumbai", "9,000"], ["Pune", "6,500"]], style=TableStyle(rules)),
        Paragraph("Caps include taxes.", styles["BodyText"]),
    ]
    doc = convert_file(_build(tmp_path / "rates.pdf", story))
    tables = [b.table for b in doc.blocks if b.kind == "table"]
    assert [(t.header_rows, t.rows) for t in tables] == [
        ((("Grade", "Daily rate"),), (("L1", "500"), ("L2", "650"))),
        ((("City", "Hotel cap"),), (("Mumbai", "9,000"), ("Pune", "6,500"))),
    ]
    assert [b.text for b in doc.blocks if b.kind == "paragraph"] == [
        "Daily rates by grade.",
        "Hotel caps by city.",
        "Caps include taxes.",
    ]


def test_justified_prose_is_not_a_table(tmp_path: Path):
    styles = getSampleStyleSheet()
    body = styles["BodyText"].clone("justified", alignment=4)
    text = "Employees may claim the allowance once a day. " * 12
    doc = convert_file(_build(tmp_path / "prose.pdf", [Paragraph("Allowances", styles["Title"]), Paragraph(text, body)]))
    assert [b.kind for b in doc.blocks] == ["paragraph"]


def test_row_cut_by_page_break_is_rejoined():
    previous = ModelTable(header_rows=(("Case", "Approver"),), rows=(("Standard", "Chief Financial"),))
    following = PageTable(2, (0, 0, 1, 1), ModelTable(header_rows=(), rows=(("", "Officer"), ("Urgent", "CFO"))))
    joined = continue_table(previous, following)
    assert joined.rows == (("Standard", "Chief Financial Officer"), ("Urgent", "CFO"))


def test_continuation_with_a_guessed_header_is_body():
    previous = ModelTable(header_rows=(("Case", "Approver"),), rows=(("Standard", "Finance"),))
    guessed = PageTable(2, (0, 0, 1, 1), ModelTable(header_rows=(("Urgent", "CFO"),), rows=(("Low", "Manager"),)), header_guessed=True)
    assert continue_table(previous, guessed).rows == (("Standard", "Finance"), ("Urgent", "CFO"), ("Low", "Manager"))
    other = PageTable(2, (0, 0, 1, 1), ModelTable(header_rows=(("City", "Cap"),), rows=(("Pune", "6,500"),)))
    assert continue_table(previous, other) is None


def test_contents_lines_are_dropped(tmp_path: Path):
    flow = PdfFlow()
    flow.title("Travel Policy")
    flow.heading("Contents", size=14)
    flow.lines([f"{entry} {'.' * 60} {page}" for entry, page in (("1 Purpose", 1), ("1.1 Scope", 1), ("2 Rates", 2))])
    flow.heading("1 Purpose", size=14)
    flow.paragraph("This policy covers business travel.")
    flow.heading("1.1 Scope", size=12)
    flow.paragraph("It applies to all employees.")
    doc = convert_file(flow.save(tmp_path / "toc.pdf"))
    assert [(b.level, b.text) for b in doc.blocks if b.kind == "heading"] == [(1, "Contents"), (1, "1 Purpose"), (2, "1.1 Scope")]
    assert "...." not in " ".join(b.text for b in doc.blocks)


def test_tight_numbering_starts_list_items(tmp_path: Path):
    flow = PdfFlow()
    flow.heading("5 Exclusions", size=14)
    flow.paragraph("These costs are not reimbursed:")
    flow.lines(["9.fines and penalties of any kind", "10.minibar items and in-room films"], x=90)
    doc = convert_file(flow.save(tmp_path / "tight.pdf"))
    (lst,) = [b for b in doc.blocks if b.kind == "list"]
    assert lst.items == ("9. fines and penalties of any kind", "10. minibar items and in-room films")


def test_artifacts_path_must_be_a_directory(tmp_path: Path):
    with pytest.raises(ValueError):
        convert_file(policy_pdf(tmp_path / "p.pdf"), pdf_artifacts_path=tmp_path / "missing")


def test_pdf_checks_run_before_the_docling_pdf_pipeline(tmp_path: Path):
    from reportlab.lib.pdfencrypt import StandardEncryption

    from chunking.errors import ConversionError

    locked = policy_pdf(tmp_path / "locked.pdf", encrypt=StandardEncryption("pw", "owner"))
    with pytest.raises(ConversionError) as caught:
        convert_file(locked, pdf_artifacts_path=tmp_path)
    assert caught.value.reason == "encrypted"


def test_missing_layout_models_are_a_setup_error_not_a_damaged_file(tmp_path: Path):
    empty_artifacts = tmp_path / "models"
    empty_artifacts.mkdir()
    with pytest.raises(RuntimeError, match="pdf_artifacts_path"):
        convert_file(policy_pdf(tmp_path / "p.pdf"), pdf_artifacts_path=empty_artifacts)
