"""How much structure the model-free PDF path recovers.

    python bench/pdf_recovery.py [--keep DIR] [--extraction]

Renders five policy-like documents with known structure to PDF with
reportlab's platypus (a different layout engine from the one the tests use),
converts each with ``chunking.convert.convert_file`` (no layout models) and
prints, per document and overall:

- title: the document title recovered exactly;
- headings: recall and precision of heading texts, and level accuracy over the
  headings found;
- tables: tables found with the right header rows, and tables whose body rows
  also match exactly;
- seconds per document;
- for the LibreOffice set below: paragraphs (and code blocks) and list items
  whose text comes out exactly as in the DOCX.

When LibreOffice is installed it also prints the sample DOCX policies and a
generated 50-page DOCX (``bench/gen_corpus.py``) to PDF and scores the PDF
conversion against Docling's reading of the DOCX: documents this path was not
tuned on.

The documents cover numbered headings three deep, unnumbered headings ranked
by size, "Section 2.1" headings in body-size bold, "Part" headings above
numbered ones, bold / shaded / plain table headers, a two-row merged header, a
table that runs over a page break with its header repeated, bullet lists,
a code block, running headers and footers.

``--extraction`` also times reading the characters (with fonts) and the vector
paths of every PDF of the run with each library that could do it: PDFium
through ``chunking.pdf_text`` (what the path uses), docling-parse (characters,
text lines, shapes) and pdfplumber (characters); best of 3, seconds for the set.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.platypus import ListFlowable, ListItem, Paragraph, Preformatted, SimpleDocTemplate, Spacer, Table, TableStyle

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from chunking.convert import convert_file  # noqa: E402
from chunking.model import Document  # noqa: E402

BASE = getSampleStyleSheet()
BODY = ParagraphStyle("body", parent=BASE["BodyText"], fontName="Helvetica", fontSize=10, leading=13, spaceAfter=6)
TITLE = ParagraphStyle("title", parent=BASE["Title"], fontName="Helvetica-Bold", fontSize=20, leading=24, alignment=TA_CENTER)


def style(name: str, size: float, *, bold: bool = True, before: float = 10) -> ParagraphStyle:
    font = "Helvetica-Bold" if bold else "Helvetica"
    return ParagraphStyle(name, parent=BODY, fontName=font, fontSize=size, leading=size * 1.25, spaceBefore=before, spaceAfter=4)


SENTENCES = [
    "Employees must obtain approval from their line manager before incurring the cost.",
    "Claims are submitted in ExpenseHub within 45 days, with an itemised receipt for any item over 75.00.",
    "This does not apply where the CHRO has approved an exception in writing.",
    "Managers review each request within five working days and record the decision.",
    "Where the rules in this section conflict with local law, local law prevails.",
    "Finance Operations audits a sample of approved claims every quarter.",
]


def prose(seed: int, sentences: int = 4) -> str:
    return " ".join(SENTENCES[(seed + i) % len(SENTENCES)] for i in range(sentences))


@dataclass
class Spec:
    """A document to render and what the converter should recover from it."""

    name: str
    title: str
    story: list = field(default_factory=list)
    headings: list[tuple[int, str]] = field(default_factory=list)
    tables: list[tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]] = field(default_factory=list)
    header: str = ""
    footer: str = ""
    paragraphs: list[str] = field(default_factory=list)  # expected paragraph and code texts, when known
    items: list[str] = field(default_factory=list)  # expected list items (numbering stripped), when known

    def heading(self, level: int, text: str, st: ParagraphStyle) -> None:
        self.story.append(Paragraph(text, st))
        self.headings.append((level, text))

    def para(self, seed: int, sentences: int = 4) -> None:
        self.story.append(Paragraph(prose(seed, sentences), BODY))

    def bullets(self, intro: str, items: list[str]) -> None:
        self.story.append(Paragraph(intro, BODY))
        self.story.append(ListFlowable([ListItem(Paragraph(i, BODY)) for i in items], bulletType="bullet", start="\u2022"))

    def table(self, header: list[list[str]], rows: list[list[str]], *, look: str = "bold", spans=(), repeat: bool = False) -> None:
        commands = [("GRID", (0, 0), (-1, -1), 0.5, colors.black), ("FONT", (0, 0), (-1, -1), "Helvetica", 9)]
        last = len(header) - 1
        if look in ("bold", "bold+shade"):
            commands.append(("FONT", (0, 0), (-1, last), "Helvetica-Bold", 9))
        if look in ("shade", "bold+shade"):
            commands.append(("BACKGROUND", (0, 0), (-1, last), colors.HexColor("#d9e2f3")))
        if look == "rowheader":
            commands += [("FONT", (0, 0), (-1, last), "Helvetica-Bold", 9), ("FONT", (0, len(header)), (0, -1), "Helvetica-Bold", 9)]
        commands += [("SPAN", a, b) for a, b in spans]
        self.story.append(Spacer(1, 4))
        self.story.append(Table(header + rows, style=TableStyle(commands), repeatRows=len(header) if repeat else 0))
        self.story.append(Spacer(1, 8))
        self.tables.append((tuple(tuple(r) for r in header), tuple(tuple(r) for r in rows)))

    def render(self, path: Path) -> Path:
        def furniture(canvas, doc) -> None:
            canvas.saveState()
            canvas.setFont("Helvetica", 8)
            if self.header:
                canvas.drawString(72, A4[1] - 40, self.header)
            if self.footer:
                canvas.drawRightString(A4[0] - 72, 30, self.footer.format(page=doc.page))
            canvas.restoreState()

        template = SimpleDocTemplate(str(path), pagesize=A4, title=self.title)
        template.build([Paragraph(self.title, TITLE), *self.story], onFirstPage=furniture, onLaterPages=furniture)
        return path


# --- the four documents ------------------------------------------------------------


def numbered_travel_policy() -> Spec:
    spec = Spec("travel", "Travel and Expenses Policy", header="Harbourline Group", footer="Confidential. Page {page}")
    h1, h2, h3 = style("h1", 14), style("h2", 12), style("h3", 10.5)
    spec.heading(1, "1 Purpose and scope", h1)
    spec.heading(2, "1.1 Purpose", h2)
    spec.para(0)
    spec.heading(2, "1.2 Who this policy applies to", h2)
    spec.para(1, 6)
    spec.heading(1, "2 Class of travel", h1)
    spec.heading(2, "2.1 Rail travel", h2)
    spec.heading(3, "2.1.1 Standard class", h3)
    spec.para(2)
    spec.heading(3, "2.1.2 First class", h3)
    spec.para(3, 5)
    spec.bullets("First class needs all of the following:", ["a journey over four hours;", "director approval;", "a booking through TravelDesk."])
    spec.heading(1, "3 Accommodation", h1)
    spec.heading(2, "3.1 Nightly hotel caps", h2)
    spec.para(4)
    spec.table(
        [["Grade", "Metro city", "Tier 2 city", "International (USD)"]],
        [["L1", "3,500", "2,800", "120"], ["L2", "4,500", "3,500", "150"], ["L3", "6,000", "4,500", "180"], ["L4", "7,500", "5,500", "220"]],
        look="bold+shade",
    )
    spec.heading(1, "4 Meals", h1)
    spec.heading(2, "4.1 Daily meal allowance", h2)
    spec.para(5, 6)
    spec.table(
        [["Grade", "City class", ""], ["Grade", "Metro", "Tier 2"]],
        [["L1-L3", "1,200", "900"], ["L4", "1,800", "1,400"], ["L5", "2,500", "2,000"]],
        look="bold",
        spans=[((0, 0), (0, 1)), ((1, 0), (2, 0))],
    )
    spec.tables[-1] = ((("Grade", "City class", "City class"), ("Grade", "Metro", "Tier 2")), spec.tables[-1][1])
    for n in range(5, 9):
        spec.heading(1, f"{n} Claims rule {n}", h1)
        spec.heading(2, f"{n}.1 Deadlines", h2)
        spec.para(n, 8)
        spec.heading(2, f"{n}.2 Approvals", h2)
        spec.para(n + 1, 7)
    return spec


def unnumbered_leave_handbook() -> Spec:
    spec = Spec("leave", "Leave Handbook", footer="Page {page}")
    h1, h2, h3 = style("h1", 16), style("h2", 13), style("h3", 11)
    spec.heading(1, "Annual leave", h1)
    spec.para(0)
    spec.heading(2, "Entitlement", h2)
    spec.para(1)
    spec.table(
        [["Years of service", "Days per year"]],
        [["Less than 2", "20"], ["2 to 5", "22"], ["More than 5", "25"]],
        look="plain",
    )
    spec.heading(2, "Carry forward", h2)
    spec.heading(3, "Limits", h3)
    spec.para(2, 6)
    spec.heading(3, "Extensions", h3)
    spec.para(3, 3)
    spec.heading(1, "Sick leave", h1)
    spec.heading(2, "Reporting an absence", h2)
    spec.para(4, 5)
    spec.heading(2, "Office holiday calendar", h2)
    spec.para(5, 2)
    cities = ["Mumbai", "Delhi", "Bengaluru", "Pune", "Chennai", "Hyderabad", "Kolkata", "Ahmedabad"]
    rows = [[f"{cities[i % 8]} office {i // 8 + 1}", f"{(i % 12) + 1} Jan", f"{10 + i % 5}"] for i in range(60)]
    spec.table([["Office", "First holiday", "Holidays"]], rows, look="bold", repeat=True)
    spec.heading(1, "Parental leave", h1)
    spec.para(0, 5)
    return spec


def section_style_it_standard() -> Spec:
    spec = Spec("it", "IT Security Standard", header="HL-IT-01 IT Security Standard", footer="Page {page} of 3")
    h1, h2 = style("h1", 12), style("h2", 10)
    spec.heading(1, "Section 1 Scope", h1)
    spec.para(0, 3)
    spec.heading(2, "Section 1.1 Systems covered", h2)
    spec.para(1, 3)
    spec.heading(1, "Section 2 Devices", h1)
    spec.heading(2, "Section 2.1 Laptops", h2)
    spec.para(2, 5)
    spec.table(
        [["Device", "Encryption", "Screen lock"]],
        [["Laptop", "BitLocker or FileVault", "5 minutes"], ["Phone", "Device default", "1 minute"], ["Tablet", "Device default", "2 minutes"]],
        look="rowheader",
    )
    spec.heading(2, "Section 2.2 VPN configuration", h2)
    spec.para(3, 2)
    spec.story.append(Preformatted("[Interface]\nAddress = 10.8.0.2/32\nDNS = 10.8.0.1\n\n[Peer]\nEndpoint = vpn.example.com:51820", BASE["Code"]))
    spec.heading(1, "Section 3 Passwords", h1)
    spec.para(4, 6)
    return spec


def parts_code_of_conduct() -> Spec:
    spec = Spec("conduct", "Code of Conduct", footer="Harbourline Code of Conduct - {page}")
    part, h1, h2 = style("part", 16), style("h1", 13), style("h2", 11)
    spec.heading(1, "Part A: People", part)
    spec.heading(2, "1 Respect at work", h1)
    spec.para(0)
    spec.heading(3, "1.1 Harassment", h2)
    spec.para(1, 5)
    spec.heading(2, "2 Conflicts of interest", h1)
    spec.para(2)
    spec.table(
        [["Gift value", "What to do"]],
        [["Up to 2,000", "Accept and record it"], ["2,000 to 10,000", "Ask your manager first"], ["Over 10,000", "Decline politely"]],
        look="shade",
    )
    spec.heading(1, "Part B: Business", part)
    spec.heading(2, "3 Anti-bribery", h1)
    spec.para(3, 6)
    spec.heading(3, "3.1 Facilitation payments", h2)
    spec.para(4)
    spec.heading(2, "4 Speaking up", h1)
    spec.para(5)
    return spec


def harder_allowance_rules() -> Spec:
    """Times fonts, a table of contents, a wrapped heading, a numbered list, and two
    tables the model-free path is not built for: one without any rules and one with
    horizontal rules only."""
    spec = Spec("harder", "Allowance Rules", footer="Page {page}")
    body = ParagraphStyle("tbody", parent=BODY, fontName="Times-Roman", fontSize=11, leading=14, alignment=4)
    h1 = ParagraphStyle("th1", parent=body, fontName="Times-Bold", fontSize=14, leading=17, spaceBefore=12, alignment=0)
    h2 = ParagraphStyle("th2", parent=body, fontName="Times-Bold", fontSize=11, leading=14, spaceBefore=8, alignment=0)
    spec.heading(1, "Contents", h1)
    for entry, page in (("1 Purpose", 1), ("2 Eligibility", 1), ("2.1 Grades", 1), ("3 Rates", 2)):
        spec.story.append(Paragraph(f"{entry} {'.' * 40} {page}", ParagraphStyle("toc", parent=body, alignment=0)))
    spec.heading(1, "1 Purpose", h1)
    spec.story.append(Paragraph(prose(0, 6), body))
    spec.heading(1, "2 Eligibility", h1)
    spec.heading(2, "2.1 Grades", h2)
    spec.story.append(Paragraph(prose(1, 5), body))
    spec.heading(2, "2.2 Eligibility of fixed-term employees, contractors, interns and apprentices engaged through approved agencies", h2)
    spec.story.append(Paragraph("To claim, follow these steps:", body))
    spec.story.append(
        ListFlowable(
            [ListItem(Paragraph(t, body)) for t in ("Fill in the claim form.", "Attach every receipt.", "Send it to your manager.")],
            bulletType="1",
        )
    )
    spec.heading(1, "3 Rates", h1)
    spec.story.append(Paragraph(prose(2, 3), body))
    spec.story.append(Table([["Grade", "Daily rate"], ["L1", "500"], ["L2", "650"]], style=TableStyle([("FONT", (0, 0), (-1, 0), "Times-Bold", 10)])))
    spec.tables.append(((("Grade", "Daily rate"),), (("L1", "500"), ("L2", "650"))))
    spec.story.append(Spacer(1, 10))
    rules = [("LINEABOVE", (0, 0), (-1, 0), 1, colors.black), ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
             ("LINEBELOW", (0, -1), (-1, -1), 1, colors.black), ("FONT", (0, 0), (-1, 0), "Times-Bold", 10)]
    spec.story.append(Table([["City", "Hotel cap"], ["Mumbai", "9,000"], ["Pune", "6,500"]], style=TableStyle(rules)))
    spec.tables.append(((("City", "Hotel cap"),), (("Mumbai", "9,000"), ("Pune", "6,500"))))
    spec.story.append(Paragraph(prose(3, 4), body))
    return spec


# --- scoring ---------------------------------------------------------------------------


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


@dataclass
class Score:
    title_ok: int = 0
    expected_headings: int = 0
    found_headings: int = 0
    matched_headings: int = 0
    level_ok: int = 0
    expected_tables: int = 0
    tables_with_header: int = 0
    tables_exact: int = 0
    expected_paragraphs: int = 0
    matched_paragraphs: int = 0
    expected_items: int = 0
    matched_items: int = 0
    seconds: float = 0.0
    pages: int = 0

    def add(self, other: Score) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


def score(spec: Spec, doc: Document, seconds: float) -> Score:
    found = [(b.level, _norm(b.text)) for b in doc.blocks if b.kind == "heading"]
    expected = [(level, _norm(text)) for level, text in spec.headings]
    found_levels = dict((text, level) for level, text in found)
    matched = [(level, text) for level, text in expected if text in found_levels]
    tables = [b.table for b in doc.blocks if b.kind == "table"]
    with_header = exact = 0
    for header, rows in spec.tables:
        hits = [t for t in tables if t.header_rows == header]
        with_header += bool(hits)
        exact += any(t.rows == rows for t in hits)
    paragraphs = {b.text for b in doc.blocks if b.kind in ("paragraph", "code")}
    items = {_unnumbered(i) for b in doc.blocks if b.kind == "list" for i in b.items}
    return Score(
        expected_paragraphs=len(spec.paragraphs),
        matched_paragraphs=sum(1 for p in spec.paragraphs if p in paragraphs),
        expected_items=len(spec.items),
        matched_items=sum(1 for i in spec.items if i in items),
        title_ok=int(_norm(doc.title) == _norm(spec.title)),
        expected_headings=len(expected),
        found_headings=len(found),
        matched_headings=len(matched),
        level_ok=sum(1 for level, text in matched if found_levels[text] == level),
        expected_tables=len(spec.tables),
        tables_with_header=with_header,
        tables_exact=exact,
        seconds=seconds,
        pages=doc.page_count,
    )


def _unnumbered(item: str) -> str:
    """List numbering differs between Word's model and the printed page; compare the text."""
    return re.sub(r"^\(?(?:\d{1,3}|[a-z])[.)]\s*", "", item)


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f} ({a}/{b})" if b else "n/a"


def report(name: str, s: Score, docs: int = 1) -> str:
    return (
        f"{name:<16} pages={s.pages:<3} title={s.title_ok}/{docs} "
        f"heading recall={_ratio(s.matched_headings, s.expected_headings)} "
        f"precision={_ratio(s.matched_headings, s.found_headings)} "
        f"levels={_ratio(s.level_ok, s.matched_headings)} "
        f"tables with header={_ratio(s.tables_with_header, s.expected_tables)} "
        f"exact={_ratio(s.tables_exact, s.expected_tables)} "
        + (
            f"paragraphs exact={_ratio(s.matched_paragraphs, s.expected_paragraphs)} "
            f"list items exact={_ratio(s.matched_items, s.expected_items)} "
            if s.expected_paragraphs
            else ""
        )
        + f"time={s.seconds:.2f}s"
    )


# --- Word documents printed to PDF by LibreOffice -----------------------------------


def office_specs(folder: Path) -> list[tuple[Spec, Path]]:
    """The sample DOCX policies and a generated 50-page DOCX, printed to PDF by LibreOffice.

    The expected structure is what Docling reads from the DOCX itself, so these
    documents were not written for this benchmark. Skipped without ``soffice``.
    """
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        print("(LibreOffice not found: Word-to-PDF documents skipped)")
        return []
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from gen_corpus import markdown_for_pages, markdown_to_docx

    sources = sorted((Path(__file__).resolve().parents[1] / "samples" / "policies").glob("*.docx"))
    generated = folder / "generated_50p.docx"
    markdown_to_docx(markdown_for_pages(50, 7)[0], generated)
    sources.append(generated)
    subprocess.run(
        [soffice, "--headless", "--norestore", f"-env:UserInstallation=file://{folder / 'lo-profile'}",
         "--convert-to", "pdf", "--outdir", str(folder), *map(str, sources)],
        check=True, capture_output=True, timeout=600,
    )
    out = []
    for source in sources:
        truth = convert_file(source)
        spec = Spec(source.stem[:16], truth.title)
        spec.headings = [(b.level, b.text) for b in truth.blocks if b.kind == "heading"]
        spec.tables = [(b.table.header_rows, b.table.rows) for b in truth.blocks if b.kind == "table"]
        spec.paragraphs = [b.text for b in truth.blocks if b.kind in ("paragraph", "code")]
        spec.items = [_unnumbered(i) for b in truth.blocks if b.kind == "list" for i in b.items]
        out.append((spec, folder / f"{source.stem}.pdf"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="write the PDFs here instead of a temporary folder")
    parser.add_argument("--verbose", action="store_true", help="print missed and extra headings")
    parser.add_argument("--no-office", action="store_true", help="skip the Word documents printed by LibreOffice")
    parser.add_argument("--extraction", action="store_true", help="time the PDF libraries' extraction on the same PDFs")
    args = parser.parse_args()
    specs = [
        numbered_travel_policy(),
        unnumbered_leave_handbook(),
        section_style_it_standard(),
        parts_code_of_conduct(),
        harder_allowance_rules(),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print("reportlab documents (structure known by construction):")
        drawn = [(spec, spec.render(folder / f"{spec.name}.pdf")) for spec in specs]
        run_set(drawn, args.verbose)
        office = [] if args.no_office else office_specs(folder)
        if office:
            print("Word documents printed to PDF by LibreOffice (truth: Docling on the DOCX):")
            run_set(office, args.verbose)
        if args.extraction:
            for label, items in (("reportlab documents", drawn), ("LibreOffice documents", office)):
                if items:
                    extraction_report(label, [path for _, path in items])


def extraction_report(label: str, paths: list[Path]) -> None:
    """Seconds to read characters with fonts, and vector paths, from ``paths`` with each library."""
    from io import BytesIO

    import pdfplumber
    import pypdfium2 as pdfium
    from docling_parse.pdf_parser import ContentConfig, ContentLevel, DoclingPdfParser

    from chunking.pdf_config import PdfLayoutConfig
    from chunking.pdf_rulings import open_paths
    from chunking.pdf_text import read_page

    config = PdfLayoutConfig()
    blobs = [path.read_bytes() for path in paths]
    skip, compute, out = ContentLevel.SKIP, ContentLevel.COMPUTE, ContentLevel.COMPUTE_AND_MATERIALIZE

    def pdfium_chars(data: bytes) -> None:
        document = pdfium.PdfDocument(data)
        for index in range(len(document)):
            read_page(document[index], index + 1, config)
        document.close()

    def docling_parse(data: bytes, **levels) -> None:
        chosen = {f"{k}_content_level": v for k, v in levels.items()}
        every = {f"{k}_content_level": skip for k in ("char_cells", "word_cells", "line_cells", "shapes", "bitmaps")}
        document = DoclingPdfParser().load(BytesIO(data), content_config=ContentConfig(**{**every, **chosen}))
        for number in range(1, document.number_of_pages() + 1):
            document.get_page(number)
        document.unload()

    def shapes(data: bytes) -> None:
        with open_paths(data) as paths:
            for number in range(1, len(pdfium.PdfDocument(data)) + 1):
                paths.rulings(number, config)

    def plumber_chars(data: bytes) -> None:
        with pdfplumber.open(BytesIO(data)) as pdf:
            for page in pdf.pages:
                page.chars  # noqa: B018
                page.close()

    readers = {
        "PDFium characters with fonts (pdf_text, used)": pdfium_chars,
        "docling-parse shapes -> rulings (pdf_rulings, used)": shapes,
        "docling-parse characters": lambda d: docling_parse(d, char_cells=out),
        "docling-parse text lines": lambda d: docling_parse(d, char_cells=compute, line_cells=out),
        "pdfplumber characters": plumber_chars,
    }
    pages = sum(len(pdfium.PdfDocument(data)) for data in blobs)
    print(f"extraction, {label} ({pages} pages), best of 3:")
    for name, read in readers.items():
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            for data in blobs:
                read(data)
            best = min(best, time.perf_counter() - started)
        print(f"  {name:<52} {best:7.3f} s  {best / pages * 1000:6.1f} ms/page")


def run_set(items: list[tuple[Spec, Path]], verbose: bool) -> None:
    total = Score()
    for spec, path in items:
        started = time.perf_counter()
        doc = convert_file(path)
        result = score(spec, doc, time.perf_counter() - started)
        total.add(result)
        print(report(spec.name, result))
        if verbose:
            found = [(b.level, b.text) for b in doc.blocks if b.kind == "heading"]
            print("   missed:", [h for h in spec.headings if _norm(h[1]) not in {_norm(t) for _, t in found}])
            print("   extra: ", [h for h in found if _norm(h[1]) not in {_norm(t) for _, t in spec.headings}])
            print("   levels:", [(h, lvl) for h in spec.headings for lvl, t in found if _norm(t) == _norm(h[1]) and lvl != h[0]])
            print("   title: ", repr(doc.title), "expected", repr(spec.title))
    print(report("overall", total, docs=len(items)))


if __name__ == "__main__":
    main()
