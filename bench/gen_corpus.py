"""Generate large, policy-like documents for benchmarks.

    python bench/gen_corpus.py --pages 50 --out var/bench/ [--seed 7]

writes ``policy_<pages>p_seed<seed>.md`` and ``.docx`` to the output folder.

The text is synthetic but shaped like a real policy handbook: numbered headings
three levels deep ("12 Fleet vehicles", "12.3 Fuel cards", "12.3.1 ..."),
paragraphs that state rules with amounts, deadlines and approvers, exception
paragraphs that qualify the rule before them ("This does not apply where...",
"provided that..."), lists with an introductory sentence, tables with a caption
and a header row, the odd code block, and the abbreviations and decimals
("e.g.", "No. 4", "Sec. 3.2", "approx.", "12.50") that trip sentence splitters.
Vocabulary is drawn per section from large pools, so chunks differ from one
another and retrieval is not trivially confused by near-duplicates.

Output is deterministic: the same seed gives the same text, and section ``k``
depends only on the seed and ``k``, so a shorter document is a prefix of a
longer one with the same seed.
"""
from __future__ import annotations

import argparse
import io
import random
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

WORDS_PER_PAGE = 500

# --- vocabulary pools --------------------------------------------------------

TOPICS = {
    "Procurement": ["purchase order", "supplier", "quotation", "framework agreement", "tender"],
    "Fleet vehicles": ["pool car", "fuel card", "vehicle logbook", "service interval", "tyre change"],
    "Visitor access": ["visitor badge", "escort", "reception desk", "site induction", "guest wifi"],
    "Records retention": ["retention schedule", "archive box", "disposal certificate", "legal hold", "records register"],
    "Overtime": ["overtime request", "time sheet", "rest break", "night shift", "compensatory day off"],
    "Learning and development": ["course booking", "study leave", "exam fee", "certification", "learning budget"],
    "Relocation": ["relocation allowance", "temporary housing", "removal company", "school search", "home-finding trip"],
    "Gifts and hospitality": ["gift register", "client dinner", "event ticket", "hospitality log", "conflict declaration"],
    "Health and safety": ["risk assessment", "first aider", "fire drill", "incident report", "safety inspection"],
    "Office facilities": ["meeting room", "hot desk", "locker", "printing quota", "parking permit"],
    "Remote working": ["home office stipend", "ergonomic chair", "internet reimbursement", "core hours", "co-working pass"],
    "Contract management": ["contract owner", "renewal notice", "termination clause", "service credit", "contract register"],
    "Asset management": ["asset tag", "asset register", "disposal request", "loan form", "annual stock-take"],
    "Whistleblowing": ["speak-up line", "protected disclosure", "investigation officer", "case reference", "retaliation report"],
    "Recruitment": ["job requisition", "interview panel", "offer letter", "reference check", "referral bonus"],
    "Performance reviews": ["mid-year check-in", "self-assessment", "calibration meeting", "development plan", "rating appeal"],
    "Company events": ["offsite", "team lunch", "event budget", "venue booking", "dietary request"],
    "Mobile phones": ["handset", "roaming pack", "SIM card", "data allowance", "phone upgrade"],
    "Payroll": ["payslip", "salary advance", "tax declaration", "payroll cut-off", "bank detail change"],
    "Insurance": ["medical cover", "top-up plan", "claim form", "dependant enrolment", "cashless hospital"],
    "Data protection": ["personal data request", "privacy notice", "breach log", "consent record", "data processor"],
    "Environmental practice": ["waste stream", "recycling bin", "energy audit", "carbon report", "water meter"],
    "Security badges": ["photo badge", "access zone", "tailgating report", "lost badge", "badge audit"],
    "Conflicts of interest": ["outside appointment", "family relationship", "shareholding", "declaration form", "recusal"],
    "Training budgets": ["conference pass", "online subscription", "mentoring programme", "language class", "book allowance"],
    "Shift scheduling": ["rota", "shift swap", "standby duty", "call-out", "handover note"],
    "Customer complaints": ["complaint ticket", "escalation", "goodwill gesture", "response letter", "root cause review"],
    "Document control": ["document owner", "review date", "version history", "template library", "approval stamp"],
    "Supplier onboarding": ["vendor form", "bank verification", "due diligence", "sanctions screening", "supplier portal"],
    "Business continuity": ["continuity plan", "recovery site", "call tree", "crisis team", "annual exercise"],
    "Software licences": ["licence request", "seat count", "true-up", "open-source review", "licence owner"],
    "Petty cash": ["cash float", "cash voucher", "cash count", "top-up request", "cash box"],
    "Interns and apprentices": ["stipend", "placement plan", "mentor", "college agreement", "completion letter"],
    "Secondments": ["host team", "secondment letter", "return date", "home manager", "secondment allowance"],
    "Home country leave": ["home leave ticket", "travel window", "family fare", "leave balance", "expatriate contract"],
    "Parking and commuting": ["car park space", "cycle scheme", "shuttle bus", "commuter loan", "electric charging bay"],
}
QUALIFIERS = [
    "general rules", "approvals", "limits", "exceptions", "records", "responsibilities",
    "for regional offices", "for new joiners", "during audits", "in emergencies",
    "for contractors", "for senior staff", "reporting", "timelines", "costs and charges",
    "monitoring", "for part-time staff", "outside India", "for field teams", "review and renewal",
]
ROLES = [
    "line manager", "department head", "Finance Controller", "Procurement lead", "Facilities manager",
    "CHRO", "Chief Information Security Officer", "site supervisor", "HR business partner",
    "Legal counsel", "regional director", "Chief Financial Officer", "People Operations team",
    "Internal Audit lead", "budget holder", "Data Protection Officer", "company secretary",
]
SYSTEMS = [
    "PeopleHub", "ExpenseHub", "TravelDesk", "the service portal", "the contracts register",
    "the asset register", "the learning platform", "the facilities helpdesk", "the finance inbox",
    "the risk register", "the intranet form library",
]
GROUPS = [
    "employees in grades L1 and L2", "employees in grades L3 and L4", "employees in grades L5 and L6",
    "interns", "contractors", "part-time employees", "employees on probation", "field engineers",
    "sales staff", "employees based outside India", "shift workers", "people managers",
]
EVENTS = [
    "the end of the month", "the date of the request", "the incident", "the purchase",
    "the last working day", "the start of the quarter", "receiving the invoice",
    "the meeting", "the renewal date", "the employee's return", "the audit notice",
]
UNITS = ["working days", "calendar days", "hours", "weeks"]
CONDITIONS = [
    "the request is urgent and a written reason is attached",
    "the {role} has approved it in writing beforehand",
    "the cost is recovered from a client under a signed contract",
    "the employee is on an approved secondment",
    "a safety risk has been recorded in the risk register",
    "the item was bought under a national framework agreement",
    "local law requires a different treatment",
    "the amount is below {cur} {small}",
    "the employee has a documented accessibility need",
    "the business unit has no remaining budget for the quarter",
]
CLOSERS = [
    "Questions about this section go to the {role}.",
    "Breaches are reviewed by the {role} and may lead to disciplinary action.",
    "The {role} reviews these arrangements every {n} months.",
    "Records are kept in {system} for {n} years.",
    "Forms are available in {system}.",
    "Any change to these limits is announced at least {n} days in advance.",
]
ABBREVIATED = [
    "e.g. a {noun} raised at short notice",
    "i.e. the {role} of the cost centre",
    "see Sec. {sec} for the approval route",
    "using Form No. {n}",
    "approx. {n} times a year",
    "at a rate of {cur} {dec} per unit",
    "within {dec} km of the site",
]
CURRENCIES = ["INR", "USD", "EUR", "GBP"]


def _a(noun: str) -> str:
    """The noun with its indefinite article."""
    return f"{'an' if noun[0].lower() in 'aeiou' else 'a'} {noun}"


class _Writer:
    """Random text for one section, drawn from the pools with its own RNG."""

    def __init__(self, rng: random.Random, topic: str, nouns: list[str], number: int):
        self.rng = rng
        self.topic = topic
        self.nouns = nouns
        self.number = number
        self.cur = rng.choice(CURRENCIES)
        self.table_count = 0

    # small helpers
    def amount(self, lo: int = 200, hi: int = 90000) -> str:
        value = self.rng.randrange(lo, hi) // 10 * 10
        return f"{value:,}"

    def decimal(self) -> str:
        return f"{self.rng.randrange(100, 9999) / 100:.2f}"

    def fill(self, template: str) -> str:
        r = self.rng
        return template.format(
            role=r.choice(ROLES), system=r.choice(SYSTEMS), noun=r.choice(self.nouns),
            n=r.randrange(2, 15), cur=self.cur, small=self.amount(50, 900),
            dec=self.decimal(), sec=f"{r.randrange(1, self.number + 1)}.{r.randrange(1, 5)}",
        )

    # blocks
    def rule(self) -> str:
        r = self.rng
        noun = r.choice(self.nouns)
        role = r.choice(ROLES)
        groups = r.sample(GROUPS, 2)
        kinds = [
            f"Every {noun} must be recorded in {r.choice(SYSTEMS)} within {r.randrange(1, 30)} "
            f"{r.choice(UNITS)} of {r.choice(EVENTS)}, and the {role} confirms it before it is closed.",
            f"The maximum spend on a single {noun} is {self.cur} {self.amount()} for "
            f"{groups[0]}, and {self.cur} {self.amount()} for {groups[1]}.",
            f"{_a(noun).capitalize()} needs approval from the {role} when its value exceeds "
            f"{self.cur} {self.amount()} ({self.fill(r.choice(ABBREVIATED))}).",
            f"{r.choice(GROUPS).capitalize()} may request {_a(noun)} once every "
            f"{r.randrange(2, 37)} months; a second request in the same period is refused.",
            f"The {role} owns the {noun} process for {self.topic.lower()} and publishes the "
            f"current limits in {r.choice(SYSTEMS)} each {r.choice(['January', 'April', 'July', 'October'])}.",
        ]
        text = r.choice(kinds)
        if r.random() < 0.5:
            text += " " + self.fill(r.choice(CLOSERS))
        return text

    def exception(self) -> str:
        r = self.rng
        condition = self.fill(r.choice(CONDITIONS))
        kinds = [
            f"This does not apply to {_a(r.choice(self.nouns))} where {condition}.",
            f"This limit applies to all grades except {r.choice(['L1', 'L2', 'L5', 'L6'])}, "
            f"for whom the {r.choice(ROLES)} sets the {r.choice(self.nouns)} limit case by case.",
            f"The rule above is relaxed provided that {condition}; the reason must be recorded "
            f"in {r.choice(SYSTEMS)}.",
            f"Unless {condition}, no {r.choice(self.nouns)} is accepted after the deadline.",
            f"Only where {condition} may the {r.choice(ROLES)} waive this requirement.",
        ]
        return r.choice(kinds)

    def list_block(self) -> str:
        r = self.rng
        intro = r.choice([
            f"The following items under {self.topic.lower()} need approval from the {r.choice(ROLES)}:",
            f"Before {_a(r.choice(self.nouns))} is accepted, check each of the following:",
            f"These {self.topic.lower()} costs are not reimbursed:",
            f"For {self.topic.lower()}, the {r.choice(ROLES)} is responsible for the following:",
        ])
        items = []
        for _ in range(r.randrange(3, 7)):
            noun = r.choice(self.nouns)
            items.append(r.choice([
                f"any {noun} above {self.cur} {self.amount()}",
                f"{_a(noun)} for {r.choice(GROUPS)}",
                f"changes to {_a(noun)} after {r.choice(EVENTS)}",
                f"{_a(noun)} raised outside {r.choice(SYSTEMS)}, {self.fill(r.choice(ABBREVIATED))}",
                f"repeat requests for the same {noun} within {r.randrange(2, 12)} months",
            ]))
        numbered = r.random() < 0.3
        lines = [f"{i}. {t}" if numbered else f"- {t}" for i, t in enumerate(items, 1)]
        return intro + "\n\n" + "\n".join(lines)

    def table_block(self) -> str:
        r = self.rng
        self.table_count += 1
        noun = r.choice(self.nouns)
        dims = r.choice([
            ("Grade", [f"L{i}" for i in range(1, 7)]),
            ("Region", ["North", "South", "East", "West", "Central", "International"]),
            ("Category", ["Standard", "Priority", "Critical", "Low value", "Recurring"]),
        ])
        columns = r.sample(["Limit", "Approver", "Deadline", "Review cycle", "Annual cap", "Notice"], 3)
        money = any(c in ("Limit", "Annual cap") for c in columns)
        caption = (
            f"Table {self.number}.{self.table_count}: {noun.capitalize()} "
            f"{columns[0].lower()} by {dims[0].lower()}" + (f" ({self.cur})" if money else "")
        )
        rows = []
        for label in dims[1][: r.randrange(3, len(dims[1]) + 1)]:
            cells = []
            for col in columns:
                if col in ("Limit", "Annual cap"):
                    cells.append(self.amount())
                elif col == "Approver":
                    cells.append(r.choice(ROLES))
                elif col in ("Deadline", "Notice"):
                    cells.append(f"{r.randrange(1, 45)} {r.choice(UNITS)}")
                else:
                    cells.append(f"Every {r.randrange(3, 25)} months")
            rows.append([label] + cells)
        header = [dims[0]] + columns
        md = [caption, "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        md += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(md)

    def code_block(self) -> str:
        r = self.rng
        key = re.sub(r"[^a-z]+", "_", self.topic.lower()).strip("_")
        lines = [
            f"[{key}]",
            f"owner = \"{r.choice(ROLES)}\"",
            f"approval_threshold = {self.decimal()}",
            f"currency = \"{self.cur}\"",
            f"review_days = {r.randrange(5, 90)}",
            f"notify = \"{key}-team@harbourline.example\"",
        ]
        intro = f"The {r.choice(SYSTEMS)} settings for {self.topic.lower()} are kept in this form:"
        return intro + "\n\n```ini\n" + "\n".join(lines) + "\n```"

    def subsection_blocks(self) -> list[str]:
        r = self.rng
        blocks = [self.rule()]
        if r.random() < 0.45:
            blocks.append(self.exception())
        for _ in range(r.randrange(0, 3)):
            roll = r.random()
            if roll < 0.25:
                blocks.append(self.list_block())
            elif roll < 0.42:
                blocks.append(self.table_block())
            elif roll < 0.47:
                blocks.append(self.code_block())
            else:
                blocks.append(self.rule())
                if r.random() < 0.3:
                    blocks.append(self.exception())
        return blocks


def _section_markdown(seed: int, number: int) -> str:
    rng = random.Random(f"policypal-bench:{seed}:{number}")
    topic = rng.choice(sorted(TOPICS))
    nouns = TOPICS[topic]
    writer = _Writer(rng, topic, nouns, number)
    qualifier = rng.choice(QUALIFIERS)
    title = f"{topic} {qualifier}" if qualifier.startswith(("for", "in", "during", "outside")) else f"{topic}: {qualifier}"
    out = [f"## {number} {title}", ""]
    out += [
        f"This section covers {topic.lower()}: {qualifier}. It applies to "
        f"{rng.choice(GROUPS)} and to anyone who handles {_a(rng.choice(nouns))} on their behalf.",
        "",
    ]
    for sub in range(1, rng.randrange(2, 5) + 1):
        noun = rng.choice(nouns)
        out += [f"### {number}.{sub} {noun.capitalize()} {rng.choice(['rules', 'approval', 'limits', 'records', 'requests', 'deadlines'])}", ""]
        for block in writer.subsection_blocks():
            out += [block, ""]
        if rng.random() < 0.25:
            for k in range(1, rng.randrange(2, 4)):
                out += [f"#### {number}.{sub}.{k} {rng.choice(nouns).capitalize()} "
                        f"{rng.choice(['exceptions', 'evidence', 'timing', 'escalation'])}", ""]
                for block in writer.subsection_blocks():
                    out += [block, ""]
    return "\n".join(out)


def iter_sections(seed: int) -> Iterator[str]:
    """Top-level sections 1, 2, 3, ... as Markdown, without end."""
    number = 1
    while True:
        yield _section_markdown(seed, number)
        number += 1


def generate_policy_markdown(n_sections: int, seed: int) -> str:
    """A policy handbook in Markdown with ``n_sections`` numbered top-level sections."""
    if n_sections < 1:
        raise ValueError("n_sections must be at least 1")
    sections = iter_sections(seed)
    parts = [
        f"# Harbourline Operations Handbook (benchmark edition {seed})",
        "",
        "Policy owner: Operations. Synthetic text generated for benchmarking; it describes "
        "no real company.",
        "",
    ]
    parts += [next(sections) for _ in range(n_sections)]
    return "\n".join(parts).rstrip() + "\n"


def markdown_for_pages(pages: int, seed: int) -> tuple[str, int]:
    """The smallest document of whole sections that reaches ``pages`` pages of words."""
    target = pages * WORDS_PER_PAGE
    words, n = 0, 0
    for section in iter_sections(seed):
        n += 1
        words += len(section.split())
        if words >= target:
            break
    return generate_policy_markdown(n, seed), n


# --- DOCX -------------------------------------------------------------------


def markdown_to_docx(markdown: str, path: Path) -> None:
    """Write the generator's Markdown subset as a DOCX with real headings, lists and tables."""
    import datetime as dt

    import docx
    from docx.shared import Pt

    document = docx.Document()
    props = document.core_properties
    props.title = markdown.splitlines()[0].lstrip("# ")
    props.author = "PolicyPal benchmark generator"
    props.created = props.modified = dt.datetime(2026, 1, 1)
    props.revision = 1

    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("```"):
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            para = document.add_paragraph()
            run = para.add_run("\n".join(lines[i + 1 : j]))
            run.font.name = "Courier New"
            run.font.size = Pt(9)
            i = j + 1
        elif m := re.match(r"^(#{1,4}) (.*)$", line):
            document.add_heading(m.group(2), level=len(m.group(1)) - 1)
            i += 1
        elif line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                if not re.match(r"^\|(---\|)+$", lines[i]):
                    rows.append([c.strip() for c in lines[i].strip("|").split("|")])
                i += 1
            table = document.add_table(rows=0, cols=len(rows[0]))
            table.style = "Table Grid"
            for r, values in enumerate(rows):
                cells = table.add_row().cells
                for cell, value in zip(cells, values):
                    cell.text = ""
                    cell.paragraphs[0].add_run(value).bold = r == 0
        elif m := re.match(r"^(- |\d+\. )(.*)$", line):
            style = "List Bullet" if m.group(1) == "- " else "List Number"
            document.add_paragraph(m.group(2), style=style)
            i += 1
        elif line.startswith("Table ") and ":" in line:
            document.add_paragraph(line, style="Caption")
            i += 1
        else:
            document.add_paragraph(line)
            i += 1

    buffer = io.BytesIO()
    document.save(buffer)
    out = io.BytesIO()
    with zipfile.ZipFile(buffer) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2026, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o644 << 16
            dst.writestr(fixed, src.read(info.filename))
    path.write_bytes(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description="Generate a large policy-like document for benchmarks.")
    parser.add_argument("--pages", type=int, default=50, help=f"target length at {WORDS_PER_PAGE} words a page")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=Path("var/bench"))
    parser.add_argument("--no-docx", action="store_true", help="write Markdown only")
    args = parser.parse_args()
    if args.pages < 1:
        parser.error("--pages must be at least 1")

    markdown, n = markdown_for_pages(args.pages, args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    stem = args.out / f"policy_{args.pages}p_seed{args.seed}"
    md_path = stem.with_suffix(".md")
    md_path.write_text(markdown, encoding="utf-8")
    print(f"wrote {md_path} ({n} sections, {len(markdown.split())} words)")
    if not args.no_docx:
        docx_path = stem.with_suffix(".docx")
        markdown_to_docx(markdown, docx_path)
        print(f"wrote {docx_path}")


if __name__ == "__main__":
    main()
