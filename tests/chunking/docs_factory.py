"""Real documents for conversion tests: PDFs drawn with reportlab, DOCX, XLSX.

``PdfFlow`` lays text out on a reportlab canvas line by line, so a test
decides exactly where a line ends (a word hyphenated at a line end) and where a
page breaks (a paragraph that runs onto the next page). Every page gets the
running header and footer given, e.g. "Confidential. Page 3 of 4".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas
from reportlab.platypus import Table, TableStyle

BODY_FONT, BOLD_FONT = "Helvetica", "Helvetica-Bold"
BODY_SIZE = 10
LEADING = 14
MARGIN = 72


@dataclass
class _Page:
    ops: list = field(default_factory=list)  # (callable, args) drawn when the page is emitted


class PdfFlow:
    """A tiny top-to-bottom layout engine over a reportlab canvas."""

    def __init__(self, *, footer: str = "", header: str = "", pagesize=A4) -> None:
        self.width, self.height = pagesize
        self.footer, self.header = footer, header
        self.pages: list[_Page] = [_Page()]
        self.y = self.height - MARGIN

    # --- layout primitives -------------------------------------------------
    @property
    def bottom(self) -> float:
        return MARGIN

    @property
    def text_width(self) -> float:
        return self.width - 2 * MARGIN

    def new_page(self) -> None:
        self.pages.append(_Page())
        self.y = self.height - MARGIN

    def space(self, points: float) -> None:
        self.y -= points

    def fill_page(self, *, leave_lines: int) -> None:
        """Skip down so only ``leave_lines`` body lines fit on this page."""
        self.y = self.bottom + leave_lines * LEADING + 2

    def _line(self, text: str, *, font: str, size: float, x: float = MARGIN) -> None:
        if self.y - size < self.bottom:
            self.new_page()
        self.y -= size
        self.pages[-1].ops.append(("text", x, self.y, text, font, size))
        self.y -= LEADING - size + 2 if size <= BODY_SIZE else size * 0.4

    # --- content -----------------------------------------------------------
    def title(self, text: str) -> None:
        self._line(text, font=BOLD_FONT, size=20)
        self.space(10)

    def heading(self, text: str, *, size: float = 13, bold: bool = True) -> None:
        self.space(8)
        self._line(text, font=BOLD_FONT if bold else BODY_FONT, size=size)
        self.space(4)

    def lines(self, lines: list[str], *, font: str = BODY_FONT, x: float = MARGIN) -> None:
        """Draw pre-broken lines (exact control over line ends)."""
        for text in lines:
            self._line(text, font=font, size=BODY_SIZE, x=x)
        self.space(6)

    def paragraph(self, text: str, *, font: str = BODY_FONT) -> None:
        self.lines(wrap(text, self.text_width, font=font))

    def bullets(self, items: list[str], *, marker: str = "\u2022") -> None:
        for item in items:
            for i, line in enumerate(wrap(item, self.text_width - 18)):
                self._line(line, font=BODY_FONT, size=BODY_SIZE, x=MARGIN + 18)
                if i == 0:  # the marker sits on the first line of its item
                    _, _, y, *_ = self.pages[-1].ops[-1]
                    self.pages[-1].ops.append(("text", MARGIN + 4, y, marker, BODY_FONT, BODY_SIZE))
        self.space(6)

    def table(self, rows: list[list[str]], *, header_rows: int = 1, col_widths=None) -> None:
        """A ruled table (grid lines) with bold, shaded header rows."""
        style = [
            ("GRID", (0, 0), (-1, -1), 0.6, colors.black),
            ("FONT", (0, 0), (-1, -1), BODY_FONT, BODY_SIZE),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]
        if header_rows:
            style += [
                ("FONT", (0, 0), (-1, header_rows - 1), BOLD_FONT, BODY_SIZE),
                ("BACKGROUND", (0, 0), (-1, header_rows - 1), colors.lightgrey),
            ]
        table = Table(rows, colWidths=col_widths, style=TableStyle(style))
        _, height = table.wrap(self.text_width, self.height)
        self.space(4)
        if self.y - height < self.bottom:
            self.new_page()
        self.y -= height
        self.pages[-1].ops.append(("flowable", MARGIN, self.y, table))
        self.space(10)

    # --- output -----------------------------------------------------------
    def save(self, path: Path, *, encrypt=None) -> Path:
        c = canvas.Canvas(str(path), pagesize=(self.width, self.height), encrypt=encrypt)
        total = len(self.pages)
        for number, page in enumerate(self.pages, start=1):
            if self.header:
                c.setFont(BODY_FONT, 8)
                c.drawString(MARGIN, self.height - 40, self.header.format(page=number, pages=total))
            for op in page.ops:
                if op[0] == "text":
                    _, x, y, text, font, size = op
                    c.setFont(font, size)
                    c.drawString(x, y, text)
                else:
                    _, x, y, flowable = op
                    flowable.wrapOn(c, self.text_width, self.height)
                    flowable.drawOn(c, x, y)
            if self.footer:
                c.setFont(BODY_FONT, 8)
                c.drawString(MARGIN, 36, self.footer.format(page=number, pages=total))
            c.showPage()
        c.save()
        return path


def wrap(text: str, width: float, *, font: str = BODY_FONT, size: float = BODY_SIZE) -> list[str]:
    """Greedy word wrap by real glyph widths."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if current and stringWidth(candidate, font, size) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


# --- the reference policy PDF used by several tests ------------------------------

MEAL_TABLE = [
    ["Grade", "Metro city", "Tier 2 city", "Other"],
    ["L1-L3", "1,200", "900", "700"],
    ["L4", "1,800", "1,400", "1,100"],
    ["L5 and above", "2,500", "2,000", "1,600"],
]
CROSSING_START = "Unused earned leave above 30 days lapses on 31 March"
CROSSING_END = "the CHRO in writing before 15 March of that year."
FILLER = (
    "Employees should plan their leave with their manager early in the year so that "
    "team coverage can be arranged and no request needs to be refused at short notice. "
)


def policy_pdf(path: Path, *, encrypt=None) -> Path:
    """A three-page leave and travel policy with every feature the PDF path must recover."""
    flow = PdfFlow(footer="Confidential. Page {page} of {pages}", header="Harbourline Group")
    flow.title("Leave and Travel Policy")
    flow.heading("1 Purpose", size=14)
    flow.paragraph(
        "This policy sets out how employees of Harbourline earn, carry forward and take leave, "
        "and how business travel is booked and reimbursed."
    )
    flow.heading("1.1 Scope", size=12)
    flow.lines(
        [
            "It applies to all permanent employees in India. Travel costs are reimbursed",
            "only against receipts; the finance team settles reimburse-",
            "ment claims within 30 days of submission.",
        ]
    )
    flow.heading("4 Earned leave", size=14)
    flow.heading("4.2 Carry forward of earned leave", size=12)
    flow.paragraph(FILLER * 3)
    flow.paragraph("To carry leave forward, an employee must:")
    flow.bullets(
        [
            "apply through the HR portal before 1 March;",
            "get written approval from their reporting manager;",
            "keep at least five days of leave for the next year.",
        ]
    )
    flow.fill_page(leave_lines=2)
    flow.paragraph(
        f"{CROSSING_START}, unless an extension is approved by the CHRO in writing. "
        "An employee who expects to exceed the limit because of a project deadline may ask "
        "for an extension of up to 15 days; the request must be made to "
        f"{CROSSING_END}"
    )
    flow.heading("6 Travel", size=14)
    flow.heading("6.1 Meal allowance", size=12)
    flow.paragraph("The daily meal allowance depends on grade and city class, in rupees per day.")
    flow.table(MEAL_TABLE)
    flow.paragraph("Meal allowances are paid with the monthly salary after the claim is approved.")
    flow.new_page()
    flow.heading("7 Contacts", size=14)
    flow.paragraph("Questions about this policy go to the HR helpdesk at extension 4410.")
    return flow.save(path, encrypt=encrypt)


def image_only_pdf(path: Path) -> Path:
    """A "scanned" PDF: a page that is one raster image and no text layer."""
    from PIL import Image, ImageDraw

    image_path = path.with_suffix(".png")
    image = Image.new("RGB", (800, 1000), "white")
    draw = ImageDraw.Draw(image)
    for i in range(20):
        draw.rectangle([60, 60 + i * 40, 700, 80 + i * 40], fill="black")
    image.save(image_path)
    c = canvas.Canvas(str(path), pagesize=A4)
    c.drawImage(str(image_path), 40, 40, width=500, height=700)
    c.showPage()
    c.save()
    return path


def policy_docx(path: Path) -> Path:
    """A DOCX with a title, nested headings, a list with intro and a table with a header row."""
    import docx

    document = docx.Document()
    document.add_heading("Expenses Handbook", 0)
    document.add_paragraph("This handbook covers travel and meals.")
    document.add_heading("6 Travel", 1)
    document.add_heading("6.1 Meal allowance", 2)
    document.add_paragraph("Claims need:")
    document.add_paragraph("an itemised receipt", style="List Bullet")
    document.add_paragraph("the manager's approval", style="List Bullet")
    table = document.add_table(rows=len(MEAL_TABLE), cols=len(MEAL_TABLE[0]))
    table.style = "Table Grid"
    for r, row in enumerate(MEAL_TABLE):
        for c, value in enumerate(row):
            run = table.cell(r, c).paragraphs[0].add_run(value)
            run.bold = r == 0  # bold header cells, as Word users set them
    document.add_heading("6.2 Class of travel", 2)
    document.add_paragraph("First-class travel is reimbursable only where the journey exceeds four hours.")
    document.save(str(path))
    return path


def rates_xlsx(path: Path) -> Path:
    import openpyxl

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Meal rates"
    for row in MEAL_TABLE:
        sheet.append(row)
    workbook.create_sheet("Hotels").append(["City", "Nightly cap"])
    workbook["Hotels"].append(["Mumbai", 9000])
    workbook.save(str(path))
    return path
