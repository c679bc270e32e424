"""PDF extraction for the model-free path: characters with fonts (PDFium), ruling lines and
shading (docling-parse), cell grids (pdfplumber's table finder), and the layout config."""
from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas
from reportlab.platypus import Table, TableStyle

from chunking.convert import convert_file
from chunking.pdf_config import PdfLayoutConfig
from chunking.pdf_rulings import open_paths
from chunking.pdf_tables import GridFinder, find_tables, open_grids
from chunking.pdf_text import Char, lines, read_page
from tests.chunking.docs_factory import MEAL_TABLE, policy_pdf

WIDTH, HEIGHT = A4
CONFIG = PdfLayoutConfig()


def _pdf(path: Path, draw) -> Path:
    c = canvas.Canvas(str(path), pagesize=A4)
    draw(c)
    c.showPage()
    c.save()
    return path


def _page_text(path: Path, number: int = 1):
    document = pdfium.PdfDocument(str(path))
    try:
        return read_page(document[number - 1], number, CONFIG)
    finally:
        document.close()


def _rulings(path: Path, number: int = 1):
    with open_paths(path.read_bytes()) as paths:
        return paths.rulings(number, CONFIG)


# --- characters -------------------------------------------------------------------------


def test_characters_carry_size_weight_monospace_and_top_left_boxes(tmp_path: Path):
    def draw(c):
        c.setFont("Helvetica", 10)
        c.drawString(72, 700, "Body")
        c.setFont("Helvetica-Bold", 14)
        c.drawString(72, 650, "Heading")
        c.setFont("Courier", 9)
        c.drawString(72, 600, "code()")

    page = _page_text(_pdf(tmp_path / "fonts.pdf", draw))
    chars = [c for c in page.stream if isinstance(c, Char)]
    assert "".join(c.text for c in chars) == "BodyHeadingcode()"
    fonts = {c.text: c.font for c in chars}
    assert (fonts["B"].size, fonts["B"].bold, fonts["B"].mono) == (10.0, False, False)
    assert (fonts["H"].size, fonts["H"].bold, fonts["H"].mono) == (14.0, True, False)
    assert (fonts["c"].size, fonts["c"].bold, fonts["c"].mono) == (9.0, False, True)
    first = chars[0]
    assert first.x0 == pytest.approx(72, abs=1.5)
    assert first.bottom == pytest.approx(HEIGHT - 700, abs=1.5)  # the baseline, from the page's top
    assert first.top == pytest.approx(HEIGHT - 700 - 7.2, abs=1.5)  # a capital B is about 0.72 em tall
    assert (page.width, page.height) == pytest.approx((WIDTH, HEIGHT))


def test_lines_split_into_segments_at_wide_gaps(tmp_path: Path):
    def draw(c):
        c.setFont("Helvetica", 10)
        c.drawString(72, 700, "Grade L4")
        c.drawString(300, 700, "1,800 per day")
        c.drawString(72, 686, "Next line")

    page = _page_text(_pdf(tmp_path / "gaps.pdf", draw))
    first, second = lines(page, CONFIG)
    assert first.text == "Grade L4 1,800 per day"
    assert [s[2] for s in first.segments] == ["Grade L4", "1,800 per day"]
    assert first.segments[1][0] == pytest.approx(300, abs=1.5)
    assert second.text == "Next line" and second.baseline - first.baseline == pytest.approx(14, abs=0.5)
    one = lines(page, PdfLayoutConfig(column_gap=100))[0]
    assert [s[2] for s in one.segments] == ["Grade L4 1,800 per day"]  # the threshold comes from the config
    (inside,) = lines(page, CONFIG, include=(290, 0, WIDTH, HEIGHT - 694))
    assert inside.text == "1,800 per day"


# --- ruling lines and shading ---------------------------------------------------------


def _edges(rulings, orientation: str) -> list[tuple[float, ...]]:
    keys = ("top", "x0", "x1") if orientation == "h" else ("x0", "top", "bottom")
    return sorted(tuple(round(e[k], 1) for k in keys) for e in rulings.edges if e["orientation"] == orientation)


def test_rulings_from_a_drawn_grid_and_a_shaded_band(tmp_path: Path):
    def draw(c):
        c.setFillColor(colors.HexColor("#d9e2f3"))
        c.rect(100, 680, 200, 20, stroke=0, fill=1)  # a shaded header band
        c.setFillColor(colors.white)
        c.rect(100, 500, 200, 40, stroke=0, fill=1)  # a white box is no shading
        c.setStrokeColor(colors.black)
        c.grid([100, 200, 300], [640, 660, 680, 700])

    rulings = _rulings(_pdf(tmp_path / "grid.pdf", draw))
    top = HEIGHT
    # the grid's lines, plus the sides of both filled boxes (word processors draw borders as thin boxes)
    assert {e[0] for e in _edges(rulings, "h") if e[1:] == (100.0, 300.0)} == {round(top - y, 1) for y in (700, 680, 660, 640, 540, 500)}
    assert [e for e in _edges(rulings, "v") if e[2] - e[1] == 60] == [
        (x, round(top - 700, 1), round(top - 640, 1)) for x in (100.0, 200.0, 300.0)
    ]
    assert [tuple(round(v, 1) for v in f) for f in rulings.fills] == [(100.0, round(top - 700, 1), 300.0, round(top - 680, 1))]
    assert rulings.can_hold_table


def test_rulings_inside_a_form_xobject_land_where_the_form_is_drawn(tmp_path: Path):
    def draw(c):
        c.beginForm("box")
        c.grid([0, 50, 100], [0, 30, 60])
        c.endForm()
        c.saveState()
        c.translate(200, 400)
        c.doForm("box")
        c.restoreState()

    rulings = _rulings(_pdf(tmp_path / "form.pdf", draw))
    assert [x for x, _, _ in _edges(rulings, "v")] == [200.0, 250.0, 300.0]
    assert [t for t, _, _ in _edges(rulings, "h")] == [round(HEIGHT - y, 1) for y in (460, 430, 400)]


def test_paths_of_an_unreadable_file_are_none_not_an_error():
    with open_paths(b"%PDF-1.4 not really") as paths:
        assert paths.rulings(1, CONFIG).edges == []
    assert GridFinder(b"%PDF-1.4 not really").cell_groups(1, _fake_rulings(), CONFIG) == []


def _fake_rulings():
    from chunking.pdf_rulings import Rulings

    edge = {"x0": 0.0, "x1": 10.0, "top": 0.0, "bottom": 0.0, "width": 10.0, "height": 0.0, "orientation": "h", "object_type": "line"}
    return Rulings(edges=[edge, {**edge, "top": 10.0, "bottom": 10.0}])


# --- cell grids ------------------------------------------------------------------------


def test_grid_with_a_merged_header_cell_repeats_it(tmp_path: Path):
    data = [["Grade", "City class", ""], ["", "Metro", "Tier 2"], ["L4", "1,800", "1,400"], ["L5", "2,500", "2,000"]]
    style = TableStyle(
        [
            ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
            ("FONT", (0, 0), (-1, 1), "Helvetica-Bold", 9),
            ("FONT", (0, 2), (-1, -1), "Helvetica", 9),
            ("SPAN", (0, 0), (0, 1)),
            ("SPAN", (1, 0), (2, 0)),
        ]
    )

    def draw(c):
        table = Table(data, style=style)
        table.wrapOn(c, 400, 400)
        table.drawOn(c, 100, 600)

    path = _pdf(tmp_path / "merged.pdf", draw)
    page = _page_text(path)
    with open_grids(path.read_bytes()) as grids:
        (found,) = find_tables(page, _rulings(path), grids, CONFIG)
    assert found.table.header_rows == (("Grade", "City class", "City class"), ("Grade", "Metro", "Tier 2"))
    assert found.table.rows == (("L4", "1,800", "1,400"), ("L5", "2,500", "2,000"))
    assert found.bbox[0] == pytest.approx(100, abs=1)


def test_a_crop_box_away_from_the_origin_keeps_text_and_rulings_aligned(tmp_path: Path):
    source = pdfium.PdfDocument(str(policy_pdf(tmp_path / "policy.pdf")))
    for index in range(len(source)):
        source[index].set_mediabox(-20, -10, 600, 830)
        source[index].set_cropbox(30, 40, 560, 800)
    buffer = io.BytesIO()
    source.save(buffer)
    source.close()
    cropped = tmp_path / "cropped.pdf"
    cropped.write_bytes(buffer.getvalue())
    doc = convert_file(cropped)
    (table,) = [b.table for b in doc.blocks if b.kind == "table"]
    assert table.header_rows == (tuple(MEAL_TABLE[0]),)
    assert table.rows == tuple(tuple(r) for r in MEAL_TABLE[1:])


# --- configuration --------------------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        {"column_gap": 0},
        {"edge_zone": -0.1},
        {"style_share": 1.5},
        {"white_level": 300},
        {"max_header_rows": 2.5},
        {"grid_tolerance": True},
        {"min_leading": 3.0},
    ],
)
def test_config_refuses_impossible_values(change):
    with pytest.raises(ValueError, match=next(iter(change))):
        PdfLayoutConfig(**change)


def test_config_is_frozen_and_every_field_is_documented():
    with pytest.raises(dataclasses.FrozenInstanceError):
        CONFIG.column_gap = 2  # type: ignore[misc]
    source = Path(__file__).resolve().parents[2].joinpath("chunking", "pdf_config.py").read_text()
    for item in dataclasses.fields(PdfLayoutConfig):
        (line,) = [l for l in source.splitlines() if l.strip().startswith(f"{item.name}:")]
        assert "  # " in line, f"{item.name} has no comment saying what it measures"


def test_the_config_given_to_convert_file_reaches_the_layout(tmp_path: Path):
    path = policy_pdf(tmp_path / "policy.pdf")
    headings = [b.text for b in convert_file(path).blocks if b.kind == "heading"]
    assert "4.2 Carry forward of earned leave" in headings
    strict = convert_file(path, pdf_layout=PdfLayoutConfig(max_heading_words=3))
    assert "4.2 Carry forward of earned leave" not in [b.text for b in strict.blocks if b.kind == "heading"]
    assert "1 Purpose" in [b.text for b in strict.blocks if b.kind == "heading"]
