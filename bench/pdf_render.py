"""Render the benchmark generator's Markdown to a PDF with reportlab.

    from pdf_render import markdown_to_pdf
    pages = markdown_to_pdf(markdown, Path("var/bench/policy.pdf"))

The same Markdown subset as ``gen_corpus.markdown_to_docx``: "# " title, "##" to
"####" numbered headings (bold, larger the higher the level), paragraphs,
"Table n.m: ..." captions, ruled tables with a bold shaded header row
(repeated when a table runs over a page), "- " and "1. " lists, and fenced code
blocks in Courier. Every page gets a running header and the footer
"Confidential. Page N of M", which the converter must drop.
"""
from __future__ import annotations

import re
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import (
    ListFlowable,
    ListItem,
    Paragraph,
    Preformatted,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

MARGIN = 72
BODY = ParagraphStyle("body", fontName="Helvetica", fontSize=10, leading=13, spaceAfter=6)
CELL = ParagraphStyle("cell", parent=BODY, fontSize=9, leading=11, spaceAfter=0)
HEADER_CELL = ParagraphStyle("header-cell", parent=CELL, fontName="Helvetica-Bold")
CAPTION = ParagraphStyle("caption", parent=BODY, fontName="Helvetica-Oblique", fontSize=9, spaceAfter=3)
CODE = ParagraphStyle("code", fontName="Courier", fontSize=8.5, leading=10.5, leftIndent=18, spaceAfter=8)
TITLE = ParagraphStyle("title", parent=BODY, fontName="Helvetica-Bold", fontSize=20, leading=24,
                       alignment=TA_CENTER, spaceAfter=14)
HEADINGS = {  # Markdown level -> style; "##" is a level-1 section
    2: ParagraphStyle("h1", parent=BODY, fontName="Helvetica-Bold", fontSize=15, leading=19, spaceBefore=12, spaceAfter=6),
    3: ParagraphStyle("h2", parent=BODY, fontName="Helvetica-Bold", fontSize=12.5, leading=16, spaceBefore=9, spaceAfter=4),
    4: ParagraphStyle("h3", parent=BODY, fontName="Helvetica-Bold", fontSize=11, leading=14, spaceBefore=7, spaceAfter=3),
}
RUNNING_HEADER = "Harbourline Group"
FOOTER = "Confidential. Page {page} of {pages}"


def markdown_to_pdf(markdown: str, path: Path) -> int:
    """Write the PDF; return its page count."""
    lines = markdown.splitlines()
    title = lines[0].lstrip("# ").strip()
    story = _story(lines)
    template = SimpleDocTemplate(
        str(path), pagesize=A4, title=title, leftMargin=MARGIN, rightMargin=MARGIN,
        topMargin=MARGIN, bottomMargin=MARGIN,
    )
    template.build(story, canvasmaker=_NumberedCanvas)
    return _NumberedCanvas.last_page_count


def _story(lines: list[str]) -> list:
    frame_width = A4[0] - 2 * MARGIN
    story: list = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("```"):
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            story.append(Preformatted("\n".join(lines[i + 1 : end]), CODE))
            i = end + 1
        elif m := re.match(r"^(#{1,4}) (.*)$", line):
            level = len(m.group(1))
            story.append(Paragraph(escape(m.group(2)), TITLE if level == 1 else HEADINGS[level]))
            i += 1
        elif line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                if not re.match(r"^\|(---\|)+$", lines[i]):
                    rows.append([c.strip() for c in lines[i].strip("|").split("|")])
                i += 1
            story.append(_table(rows, frame_width))
            story.append(Spacer(1, 8))
        elif re.match(r"^(- |\d+\. )", line):
            items, numbered = [], line[0].isdigit()
            while i < len(lines) and (m := re.match(r"^(- |\d+\. )(.*)$", lines[i])):
                items.append(ListItem(Paragraph(escape(m.group(2)), BODY), leftIndent=18))
                i += 1
            if numbered:  # "1." as Word prints it, not reportlab's bare "1"
                story.append(ListFlowable(items, bulletType="1", bulletFormat="%s.", leftIndent=18))
            else:
                story.append(ListFlowable(items, bulletType="bullet", start="\u2022", leftIndent=18))
        elif re.match(r"^Table \d+(?:\.\d+)*:", line):
            story.append(Paragraph(escape(line), CAPTION))
            i += 1
        else:
            story.append(Paragraph(escape(line), BODY))
            i += 1
    return story


def _table(rows: list[list[str]], frame_width: float) -> Table:
    width = len(rows[0])
    cells = [[Paragraph(escape(v), HEADER_CELL if r == 0 else CELL) for v in row] for r, row in enumerate(rows)]
    first = frame_width * 0.22
    widths = [first] + [(frame_width - first) / (width - 1)] * (width - 1) if width > 1 else [frame_width]
    style = TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#d9e2f3")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ])
    return Table(cells, colWidths=widths, style=style, repeatRows=1)


class _NumberedCanvas(rl_canvas.Canvas):
    """Draws the running header and "Page N of M" once the page count is known."""

    last_page_count = 0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._pages: list[dict] = []

    def showPage(self):  # noqa: N802 (reportlab's name)
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self):
        total = len(self._pages)
        for state in self._pages:
            self.__dict__.update(state)
            self.setFont("Helvetica", 8)
            self.drawString(MARGIN, A4[1] - 40, RUNNING_HEADER)
            self.drawRightString(A4[0] - MARGIN, 36, FOOTER.format(page=self._pageNumber, pages=total))
            super().showPage()
        _NumberedCanvas.last_page_count = total
        super().save()
