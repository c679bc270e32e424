"""Build the binary sample policies (DOCX) for PolicyPal.

Run from the repository root:

    python samples/build_samples.py

It writes ``samples/policies/expenses_travel.docx`` (version 3.0, in force from
2026-01-01) and ``samples/policies/expenses_travel_v2.docx`` (version 4.0, in
force from 2027-04-01). The Markdown and HTML sample policies are plain text
files kept in the same folder and edited by hand; ``samples/manifest.json``
lists all of them.

The output is byte-for-byte reproducible: document properties and the zip
entry timestamps are fixed, so re-running the script does not change a
committed file unless the policy text changed.

Harbourline and everything in these policies is fictional.
"""
from __future__ import annotations

import argparse
import datetime as dt
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

import docx
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

HERE = Path(__file__).resolve().parent
POLICIES = HERE / "policies"
FIXED_ZIP_TIME = (2026, 1, 1, 0, 0, 0)


# ---------------------------------------------------------------------------
# A tiny block model, so the policy text reads top to bottom like a document.
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Heading:
    level: int  # 0 = document title, 1..3 = numbered headings
    text: str


@dataclass(frozen=True)
class Para:
    text: str


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


# ---------------------------------------------------------------------------
# Travel and Expenses Policy: one text, two versions.
# ---------------------------------------------------------------------------

MEAL_HEADER = (
    "Grade",
    "Metro city (includes Mumbai, Delhi, Bengaluru)",
    "Tier 2 city",
    "Tier 3 city",
)

HOTEL_TABLE = Table(
    caption="Table 1: Maximum nightly hotel rate by grade (INR unless stated, excluding taxes)",
    header=("Grade", "Metro city", "Tier 2 and Tier 3 cities", "International (USD per night)"),
    rows=(
        ("L1", "3,200", "2,400", "110"),
        ("L2", "3,800", "2,750", "130"),
        ("L3", "4,600", "3,300", "155"),
        ("L4", "6,500", "4,700", "190"),
        ("L5", "8,800", "6,200", "245"),
        ("L6", "12,500", "8,500", "320"),
    ),
)

VERSIONS = {
    "v1": {
        "filename": "expenses_travel.docx",
        "version": "3.0",
        "effective": "1 January 2026",
        "replaces": "2.4",
        "first_class_hours": "four",
        "mileage": {"car": "12.50", "motorcycle": "6.75", "electric": "9.80"},
        "meals": (
            ("L1", "950", "780", "620"),
            ("L2", "1,150", "920", "740"),
            ("L3", "1,450", "1,160", "890"),
            ("L4", "1,800", "1,420", "1,090"),
            ("L5", "2,350", "1,860", "1,380"),
            ("L6", "2,900", "2,240", "1,670"),
        ),
        "changes": None,
    },
    "v2": {
        "filename": "expenses_travel_v2.docx",
        "version": "4.0",
        "effective": "1 April 2027",
        "replaces": "3.0",
        "first_class_hours": "three",
        "mileage": {"car": "13.75", "motorcycle": "7.40", "electric": "10.90"},
        "meals": (
            ("L1", "1,050", "860", "680"),
            ("L2", "1,270", "1,010", "810"),
            ("L3", "1,600", "1,280", "980"),
            ("L4", "2,000", "1,560", "1,200"),
            ("L5", "2,580", "2,050", "1,520"),
            ("L6", "3,190", "2,460", "1,840"),
        ),
        "changes": (
            "The daily meal allowances in Table 2 have been revised for every grade and city tier.",
            "The journey length that qualifies for first-class rail travel has been shortened (Sec. 3.1.2).",
            "The mileage rates for personal vehicles have been increased (Sec. 3.3).",
            "Everything else in the policy is unchanged from version 3.0.",
        ),
    },
}


def travel_policy(v: dict) -> list:
    """The Travel and Expenses Policy as a list of blocks, for one version."""
    m = v["mileage"]
    blocks: list = [
        Heading(0, "Harbourline Travel and Expenses Policy"),
        Para(
            f"Policy owner: Finance Operations. Document reference: HL-FIN-07. "
            f"Version {v['version']}. Effective from {v['effective']}. This version replaces "
            f"version {v['replaces']} and all earlier travel guidance."
        ),
        Heading(1, "1 Purpose and scope"),
        Heading(2, "1.1 Purpose"),
        Para(
            "This policy explains which business travel costs Harbourline reimburses, what "
            "standard of transport and accommodation employees may book, and how to claim "
            "the money back. It aims to keep travellers safe and reasonably comfortable while "
            "spending the company's money as carefully as they would spend their own."
        ),
        Heading(2, "1.2 Who this policy applies to"),
        Para(
            "The policy applies to all permanent and fixed-term employees of Harbourline and "
            "its Indian subsidiaries, and to interns who travel at the company's request. "
            "Contractors are reimbursed under the terms of their own contracts and not under "
            "this policy, unless their contract expressly adopts it."
        ),
        Heading(2, "1.3 Definitions"),
        Para("The following terms have these meanings throughout the policy:"),
        Bullets(
            (
                "Grade: the salary grade recorded in PeopleHub, from L1 (associate) to L6 "
                "(executive leadership).",
                "Metro city: Mumbai, Delhi (including Gurugram and Noida), Bengaluru, Chennai, "
                "Hyderabad, Kolkata and Pune.",
                "Tier 2 city: a city listed as Tier 2 on the Finance intranet page, e.g. "
                "Ahmedabad, Jaipur, Kochi or Lucknow.",
                "Tier 3 city: any other location in India.",
                "TravelDesk: Harbourline's travel booking portal and the team that runs it.",
                "ExpenseHub: the system in which expense claims are submitted and approved.",
            )
        ),
    ]
    if v["changes"]:
        blocks += [
            Heading(2, "1.4 Summary of changes in this version"),
            Para(
                f"Version {v['version']} takes effect on {v['effective']}. Compared with "
                f"version {v['replaces']}, the main changes are:"
            ),
            Bullets(v["changes"]),
        ]
    blocks += [
        Heading(1, "2 Before you travel"),
        Heading(2, "2.1 Approval to travel"),
        Para(
            "Every business trip must be approved in TravelDesk by the traveller's line "
            "manager before any booking is made. International trips also need approval from "
            "the head of the business unit, e.g. the head of Sales for an account manager "
            "visiting a client in Singapore."
        ),
        Para(
            "Trips booked without prior approval are not reimbursed unless the line manager "
            "confirms in ExpenseHub that the travel was urgent and could not have been "
            "approved in advance."
        ),
        Heading(2, "2.2 Booking through TravelDesk"),
        Para(
            "Flights, trains and hotels must be booked through TravelDesk, so that Harbourline "
            "can locate travellers in an emergency and use its negotiated rates. A fare or room "
            "booked elsewhere is reimbursed only up to the price TravelDesk showed for the same "
            "journey or night at the time of booking."
        ),
        Heading(2, "2.3 Changes and cancellations"),
        Para(
            "Travellers should choose flexible fares only when plans are genuinely uncertain. "
            "Change and cancellation fees are reimbursed when the change was caused by business "
            "needs; they are not reimbursed when the trip changed for personal reasons."
        ),
        Heading(1, "3 Class of travel"),
        Heading(2, "3.1 Rail travel"),
        Heading(3, "3.1.1 Standard class"),
        Para(
            "Standard-class rail tickets are reimbursed in full when they are booked at least "
            "7 days before the date of travel. Tickets booked closer to the travel date are "
            "reimbursed only if the claim records the business reason for the late booking, "
            "such as a client meeting arranged at short notice."
        ),
        Heading(3, "3.1.2 First class"),
        Para(
            f"First-class rail travel is reimbursable only where the scheduled journey exceeds "
            f"{v['first_class_hours']} hours and a director has approved the upgrade in writing "
            f"before the ticket is bought. Approval by email is acceptable if it is attached to "
            f"the claim."
        ),
        Para(
            "This restriction does not apply to employees with an accessibility need recorded "
            "by HR, who may travel first class on any rail journey with their line manager's "
            "approval."
        ),
        Heading(2, "3.2 Air travel"),
        Para(
            "Economy class is the standard for all flights. Premium economy may be booked for "
            "flights with a scheduled duration of 6 hours or more by employees in grades L5 "
            "and L6."
        ),
        Para(
            "Business class is not reimbursable except on flights scheduled for more than "
            "9.5 hours, where employees in grade L6 may book it with the approval of the Chief "
            "Financial Officer."
        ),
        Para(
            "The cost of a missed flight is reimbursed only when the delay was outside the "
            "traveller's control, for example a late-running client meeting or a road closure."
        ),
        Heading(2, "3.3 Road travel and mileage"),
        Para(
            "Employees who use their own vehicle for a business journey are reimbursed per "
            "kilometre. The distance is measured from the office or from home, whichever is "
            "closer to the destination. Mileage is paid at these rates:"
        ),
        Bullets(
            (
                f"Car: INR {m['car']} per km, covering fuel, wear and insurance.",
                f"Motorcycle or scooter: INR {m['motorcycle']} per km.",
                f"Electric car: INR {m['electric']} per km; charging at Harbourline offices "
                f"is free.",
            )
        ),
        Para(
            "Journeys of less than 2.5 km between two Harbourline offices are not reimbursed. "
            "Employees should use the inter-office shuttle, which runs approx. every 20 minutes "
            "between 08:00 and 20:00."
        ),
        Para(
            "Taxis and ride-hailing services may be used when no shuttle or public transport is "
            "reasonably available, e.g. late at night or when carrying equipment. Airport "
            "transfers by taxi are always reimbursable."
        ),
        Heading(1, "4 Accommodation"),
        Heading(2, "4.1 Booking hotels"),
        Para(
            "Hotels must be booked through TravelDesk, which shows the properties that fall "
            "within the caps in Table 1. Where TravelDesk can offer no room within the cap, "
            "e.g. during a major trade fair, the traveller may book above the cap with line "
            "manager approval recorded in TravelDesk."
        ),
        Heading(2, "4.2 Nightly hotel caps"),
        Para(
            "The maximum room rate per night, excluding taxes and breakfast, depends on the "
            "traveller's grade and the location of the hotel."
        ),
        HOTEL_TABLE,
        Heading(2, "4.3 Extended stays"),
        Para(
            "For stays of more than 10 consecutive nights in the same city, the nightly cap in "
            "Table 1 is reduced by 25% and TravelDesk offers serviced apartments first."
        ),
        Para(
            "This limit applies to all grades except L1 and L2, who are accommodated in "
            "Harbourline guest houses arranged by Facilities for any stay longer than 10 nights."
        ),
        Heading(2, "4.4 Staying with friends or family"),
        Para(
            "Employees who stay with friends or family instead of in a hotel may claim a flat "
            "INR 1,000 per night towards a gift or a meal for their hosts, without receipts."
        ),
        Heading(1, "5 Meals and daily allowances"),
        Heading(2, "5.1 Daily meal allowance"),
        Para(
            "Employees travelling overnight on business receive a daily meal allowance in place "
            "of claiming individual meals. The rate depends on the traveller's grade and the "
            "tier of the city where they spend the night, as shown in Table 2."
        ),
        Table(
            caption="Table 2: Daily meal allowance by grade and city tier (INR per day)",
            header=MEAL_HEADER,
            rows=v["meals"],
        ),
        Para(
            "The allowance is paid for each night away and for the day of return. Day trips of "
            "more than 10 hours without an overnight stay receive half of the Tier 3 rate for "
            "the traveller's grade."
        ),
        Heading(2, "5.2 Meals provided by others"),
        Para(
            "Where a client, a hotel package or a conference provides a meal, the daily "
            "allowance is reduced for each meal provided, as follows:"
        ),
        Bullets(
            (
                "breakfast: reduced by 15%",
                "lunch: reduced by 35%",
                "dinner: reduced by 50%",
            )
        ),
        Heading(2, "5.3 Client entertainment"),
        Para(
            "Meals with clients are not covered by the daily allowance and are claimed "
            "separately, listing the names of all attendees and their companies. The cost per "
            "head may not exceed INR 3,500 including taxes and tips."
        ),
        Para(
            "Alcohol is reimbursable only as part of approved client entertainment, and never "
            "on its own."
        ),
        Heading(1, "6 Claiming expenses"),
        Heading(2, "6.1 Submission deadline"),
        Para(
            "Claims must be submitted in ExpenseHub within 45 days of the last day of the trip. "
            "Later claims are paid only with the approval of the Finance Controller and are "
            "reported to the employee's director."
        ),
        Heading(2, "6.2 Receipts"),
        Para(
            "An itemised receipt is required for any single item over USD 75.00, or the "
            "equivalent in local currency at the TravelDesk exchange rate on the date of "
            "purchase. A card statement or a payment-app screenshot is not a receipt."
        ),
        Para(
            "Items of USD 75.00 or less may be claimed with a signed self-declaration, up to a "
            "total of USD 300.00 per trip."
        ),
        Para(
            "If a receipt is lost, the traveller must complete the missing-receipt form (Form "
            "No. 4) and have it countersigned by their line manager. More than three "
            "missing-receipt forms in one financial year are reported to Internal Audit."
        ),
        Heading(2, "6.3 Items that are not reimbursed"),
        Para(
            "Harbourline does not reimburse the following, whatever the circumstances of the "
            "trip:"
        ),
        Bullets(
            (
                "fines and penalties, e.g. parking tickets, speeding fines or overstay charges",
                "minibar items, in-room films and hotel gym or spa charges",
                "personal travel insurance, because all business trips are covered by the "
                "group travel policy",
                "upgrades to a higher class of air travel than Sec. 3.2 allows",
                "loss or theft of personal belongings, which should be claimed from the "
                "traveller's own insurance",
                "childcare, pet care or house-sitting while the employee is away",
            )
        ),
        Heading(2, "6.4 Approval and audit"),
        Para(
            "Line managers approve claims in ExpenseHub within 5 working days. Finance "
            "Operations checks every claim against this policy and returns claims that lack "
            "receipts or approvals; approx. 1 in 20 claims is also picked at random for a "
            "detailed audit."
        ),
        Para(
            "Deliberately false claims are treated as gross misconduct under the Code of "
            "Conduct."
        ),
        Heading(1, "7 Corporate cards and advances"),
        Heading(2, "7.1 Corporate card"),
        Para(
            "Employees in grades L3 and above who travel at least four times a year may request "
            "a Harbourline corporate card. The card is for business expenses only, and every "
            "transaction must be reconciled in ExpenseHub within 15 days of the statement date."
        ),
        Heading(2, "7.2 Cash advances"),
        Para(
            "A cash advance of up to 80% of the estimated trip cost may be requested for travel "
            "to places where cards are not widely accepted. Any unspent advance must be returned "
            "within 7 days of the traveller's return."
        ),
    ]
    return blocks


# ---------------------------------------------------------------------------
# DOCX writer
# ---------------------------------------------------------------------------


def _mark_header_row(row) -> None:
    """Flag a table row as a header row that repeats on every page."""
    tr_pr = row._tr.get_or_add_trPr()
    el = OxmlElement("w:tblHeader")
    el.set(qn("w:val"), "true")
    tr_pr.append(el)


def _add_table(document, table: Table) -> None:
    caption = document.add_paragraph(table.caption, style="Caption")
    caption.paragraph_format.keep_with_next = True
    t = document.add_table(rows=1, cols=len(table.header))
    t.style = "Table Grid"
    for cell, text in zip(t.rows[0].cells, table.header):
        cell.text = ""
        run = cell.paragraphs[0].add_run(text)
        run.bold = True
    _mark_header_row(t.rows[0])
    for values in table.rows:
        cells = t.add_row().cells
        for i, (cell, text) in enumerate(zip(cells, values)):
            cell.text = text
            if i > 0:
                cell.paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.RIGHT


def write_docx(blocks: list, path: Path, *, title: str, effective: dt.datetime) -> None:
    document = docx.Document()
    props = document.core_properties
    props.title = title
    props.author = "Harbourline Finance Operations"
    props.last_modified_by = "Harbourline Finance Operations"
    props.created = effective
    props.modified = effective
    props.revision = 1
    props.comments = "Fictional sample policy for PolicyPal."

    for block in blocks:
        if isinstance(block, Heading):
            document.add_heading(block.text, level=block.level)
        elif isinstance(block, Para):
            document.add_paragraph(block.text)
        elif isinstance(block, Bullets):
            for item in block.items:
                document.add_paragraph(item, style="List Bullet")
        elif isinstance(block, Table):
            _add_table(document, block)
        else:  # pragma: no cover - programming error
            raise TypeError(f"unknown block {block!r}")

    buffer = io.BytesIO()
    document.save(buffer)
    path.write_bytes(_normalise_zip(buffer.getvalue()))


def _normalise_zip(data: bytes) -> bytes:
    """Rewrite a zip with fixed timestamps so identical content gives identical bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=FIXED_ZIP_TIME)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o644 << 16
            dst.writestr(fixed, src.read(info.filename))
    return out.getvalue()


def build(out_dir: Path = POLICIES) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for key, v in VERSIONS.items():
        effective = dt.datetime.strptime(v["effective"], "%d %B %Y")
        path = out_dir / v["filename"]
        write_docx(
            travel_policy(v),
            path,
            title=f"Harbourline Travel and Expenses Policy (version {v['version']})",
            effective=effective,
        )
        written.append(path)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=POLICIES, help="output folder")
    args = parser.parse_args()
    for path in build(args.out):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
