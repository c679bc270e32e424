"""Real conversions of DOCX, Markdown, HTML, XLSX, CSV and PPTX through Docling."""
from __future__ import annotations

from pathlib import Path

import pytest
from tests.chunking.docs_factory import MEAL_TABLE, policy_docx, rates_xlsx

from chunking.convert import convert_file
from chunking.model import Document


def headings(doc: Document) -> list[tuple[int, str]]:
    return [(b.level, b.text) for b in doc.blocks if b.kind == "heading"]


def only(doc: Document, kind: str):
    found = [b for b in doc.blocks if b.kind == kind]
    assert len(found) == 1, found
    return found[0]


def assert_numbered(doc: Document) -> None:
    assert [b.id for b in doc.blocks] == [f"b{i:04d}" for i in range(1, len(doc.blocks) + 1)]


MARKDOWN = """\
# Leave Policy

This policy covers earned leave.

## 4 Earned leave

### 4.2 Carry forward of earned leave

Unused earned leave above 30 days lapses on 31 March, unless an extension is approved
by the CHRO in writing.

To carry leave forward, an employee must:

- apply through the **HR portal** before 1 March;
- get written approval.

| Grade | Days |
|---|---|
| L1-L3 | 30 |
| L4 | 35 |

```
leave_balance = min(balance, 30)
```
"""


def test_markdown(tmp_path: Path):
    path = tmp_path / "leave-policy.md"
    path.write_text(MARKDOWN)
    doc = convert_file(path)
    assert doc.title == "Leave Policy"
    assert headings(doc) == [(1, "4 Earned leave"), (2, "4.2 Carry forward of earned leave")]
    paragraphs = [b.text for b in doc.blocks if b.kind == "paragraph"]
    assert (
        "Unused earned leave above 30 days lapses on 31 March, unless an extension is approved by the CHRO in writing."
        in paragraphs
    )
    lst = only(doc, "list")
    assert lst.text == "To carry leave forward, an employee must:"
    assert lst.items == ("apply through the HR portal before 1 March;", "get written approval.")
    table = only(doc, "table").table
    assert table.header_rows == (("Grade", "Days"),)
    assert table.rows == (("L1-L3", "30"), ("L4", "35"))
    assert only(doc, "code").text == "leave_balance = min(balance, 30)"
    assert doc.source_name == "leave-policy.md"
    assert_numbered(doc)


HTML = """\
<!DOCTYPE html>
<html><head><title>ignored</title></head><body>
<h1>Travel Policy</h1>
<p>Applies to all staff.</p>
<h2>6 Meals</h2>
<h3>6.1 Meal allowance</h3>
<table>
  <caption>Table 1: Daily meal allowance</caption>
  <thead>
    <tr><th rowspan="2">Grade</th><th colspan="2">City class</th></tr>
    <tr><th>Metro</th><th>Tier 2</th></tr>
  </thead>
  <tbody>
    <tr><th>L4</th><td>1,800</td><td>1,400</td></tr>
    <tr><th>L5</th><td>2,500</td><td>2,000</td></tr>
  </tbody>
</table>
<h2>7 Hotels</h2>
<p>Book through the travel desk.</p>
</body></html>
"""


def test_html_with_merged_header_cells(tmp_path: Path):
    path = tmp_path / "travel.html"
    path.write_text(HTML)
    doc = convert_file(path)
    assert doc.title == "Travel Policy"
    assert headings(doc) == [(1, "6 Meals"), (2, "6.1 Meal allowance"), (1, "7 Hotels")]
    table = only(doc, "table").table
    assert table.caption == "Table 1: Daily meal allowance"
    assert table.header_rows == (("Grade", "City class", "City class"), ("Grade", "Metro", "Tier 2"))
    assert table.rows == (("L4", "1,800", "1,400"), ("L5", "2,500", "2,000"))
    assert table.row_header_columns == 1
    assert not any("Table 1" in b.text for b in doc.blocks if b.kind == "paragraph")


def test_docx(tmp_path: Path):
    doc = convert_file(policy_docx(tmp_path / "expenses.docx"))
    assert doc.title == "Expenses Handbook"
    assert headings(doc) == [(1, "6 Travel"), (2, "6.1 Meal allowance"), (2, "6.2 Class of travel")]
    lst = only(doc, "list")
    assert lst.text == "Claims need:" and lst.items == ("an itemised receipt", "the manager's approval")
    table = only(doc, "table").table
    assert table.header_rows == (tuple(MEAL_TABLE[0]),)
    assert table.rows == tuple(tuple(r) for r in MEAL_TABLE[1:])
    texts = [b.text if b.kind != "table" else "<table>" for b in doc.blocks]
    assert texts.index("6.1 Meal allowance") < texts.index("<table>") < texts.index("6.2 Class of travel")
    assert_numbered(doc)


def test_docx_detected_by_content_not_extension(tmp_path: Path):
    source = policy_docx(tmp_path / "expenses.docx")
    renamed = tmp_path / "upload.bin"
    renamed.write_bytes(source.read_bytes())
    assert convert_file(renamed).title == "Expenses Handbook"


def test_xlsx_sheets_become_sections(tmp_path: Path):
    doc = convert_file(rates_xlsx(tmp_path / "travel_rates.xlsx"))
    assert doc.title == "travel rates"
    assert headings(doc) == [(1, "Meal rates"), (1, "Hotels")]
    tables = [b.table for b in doc.blocks if b.kind == "table"]
    assert tables[0].header_rows == (tuple(MEAL_TABLE[0]),)
    assert tables[0].rows[1] == ("L4", "1,800", "1,400", "1,100")
    assert tables[1].header_rows == (("City", "Nightly cap"),) and tables[1].rows == (("Mumbai", "9000"),)


def test_csv(tmp_path: Path):
    path = tmp_path / "meal-rates.csv"
    path.write_text("Grade,Metro city,Tier 2 city\nL4,\"1,800\",\"1,400\"\n")
    doc = convert_file(path)
    assert doc.title == "meal-rates"
    table = only(doc, "table").table
    assert table.header_rows == (("Grade", "Metro city", "Tier 2 city"),)
    assert table.rows == (("L4", "1,800", "1,400"),)


def test_pptx(tmp_path: Path):
    from pptx import Presentation

    deck = Presentation()
    for title, body in (("Travel basics", "Book early\nUse the travel desk"), ("Meals", "Keep receipts")):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = body
    path = tmp_path / "travel.pptx"
    deck.save(str(path))
    doc = convert_file(path)
    assert doc.title == "Travel basics"
    assert [t for _, t in headings(doc)] == ["Travel basics", "Meals"]
    items = [i for b in doc.blocks if b.kind == "list" for i in b.items]
    assert items == ["Book early", "Use the travel desk", "Keep receipts"]
    assert doc.blocks[-1].pages == (2,)


@pytest.mark.parametrize("encoding", ["utf-8", "cp1252"])
def test_markdown_encodings(tmp_path: Path, encoding: str):
    path = tmp_path / "allowance.md"
    path.write_bytes("# Allowances\n\nThe café allowance is €12 per day.\n".encode(encoding))
    doc = convert_file(path)
    assert doc.blocks[0].text == "The café allowance is €12 per day."
