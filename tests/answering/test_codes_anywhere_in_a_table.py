"""Codes a table writes outside a leading label: in a label's bracket, as a span of codes, in a
column of short code cells, or as its column headers. A code of such a family that the table
lacks is absent (never the nearest code's row); a code it has names its row or column."""
from policypal.answering.table_codes import asked_codes, coded_columns, coded_rows, table_codes

from .row_helpers import named, table

ABSENCE_CODES = table(
    ["Kind of absence (payroll code)", "Allowance"],
    [["Jury service (JS1)", "Full pay for up to 10 days"],
     ["Witness at court (JS2)", "Full pay for the day of the hearing"],
     ["Blood donation (BD)", "Up to 2 hours"],
     ["Fostering assessment (FA)", "3 days unpaid"]],
    caption="Table 6: Time off for public duties",
)

HOUSING = table(
    ["Position", "City centre", "Suburb", "Rural"],
    [["Site chief (MG4)", "€2,100", "€1,700", "€1,050"],
     ["Engineers (MG1 to MG3)", "€1,600", "€1,250", "€880"],
     ["Technicians (TC1 to TC4)", "€1,150", "€940", "€610"]],
    caption="Table 3: Monthly housing limit by position and location",
)

HAZARD = table(
    ["Grade", "Zone B", "Zone C", "Zone D"],
    [["TC1", "£90", "£140", "£215"], ["TC2", "£105", "£160", "£240"], ["MG1", "£150", "£230", "£330"]],
    caption="Table 1: Monthly hazard pay by grade and zone",
)

ESCALATION = table(
    ["Customers affected", "Priority", "Who is told"],
    [["1 to 49", "Tier 1", "Team lead, next working day"],
     ["50 to 499", "Tier 2", "Service manager within 4 hours"],
     ["500 or more", "Tier 3", "Director on call immediately"]],
    caption="Table 2: Outage escalation",
)

SITES = table(
    ["Site class", "Inspection interval", "First aiders"],
    [["Class A (offices and shops)", "12 months", "1 per 100 staff"],
     ["Class B (warehouses, e.g. cold stores)", "6 months", "1 per 50 staff"],
     ["Class C (plant rooms and roofs)", "3 months", "1 per 25 staff"]],
    caption="Table 5: Site classes",
)


def test_the_codes_of_a_table_are_read_from_brackets_spans_code_columns_and_headers():
    assert {f: sorted(v) for f, v in table_codes(ABSENCE_CODES).rows.items()} == {"js": ["1", "2"]}
    assert sorted(table_codes(HOUSING).rows["tc"]) == ["1", "2", "3", "4"]
    assert sorted(table_codes(HOUSING).rows["mg"]) == ["1", "2", "3", "4"]
    assert sorted(table_codes(ESCALATION).rows["tier"]) == ["1", "2", "3"]
    assert sorted(table_codes(HAZARD).columns["zone"]) == ["B", "C", "D"]
    assert sorted(table_codes(SITES).rows["class"]) == ["A", "B", "C"]


def test_a_bracket_code_the_table_lacks_is_absent_not_the_nearest_code():
    assert named("How much time off do I get under code JS3?", ABSENCE_CODES) == ("absent", [], "JS3", [])
    assert named("How much time off do I get under code JS2?", ABSENCE_CODES)[1] == ["Witness at court (JS2)"]


def test_a_code_inside_a_bracketed_span_names_its_row_and_one_past_the_span_is_absent():
    assert named("what's the housing limit for a TC3 in the suburbs?", HOUSING)[:2] == ("label", ["Technicians (TC1 to TC4)"])
    assert named("what's the housing limit for a mg2 in a city centre flat?", HOUSING)[:2] == ("label", ["Engineers (MG1 to MG3)"])
    assert named("what's the housing limit for a TC5 in the suburbs?", HOUSING) == ("absent", [], "TC5", [])


def test_a_column_of_code_cells_names_its_row_and_a_code_beyond_it_is_absent():
    assert named("Who is told about a tier 2 outage?", ESCALATION)[:2] == ("label", ["50 to 499"])
    assert named("Who is told about a Tier 4 outage?", ESCALATION) == ("absent", [], "Tier 4", [])


def test_a_lettered_class_with_a_bracket_names_its_row_and_a_letter_beyond_it_is_absent():
    assert named("How often is a Class B site inspected?", SITES)[:2] == ("label", ["Class B (warehouses, e.g. cold stores)"])
    assert named("How often is a class E site inspected?", SITES) == ("absent", [], "Class E", [])


def test_a_header_code_the_table_lacks_is_an_absent_column_even_when_the_row_exists():
    m = named("hazard pay for a TC2 in Zone C?", HAZARD)
    assert m == ("label", ["TC2"], "", ["Zone C"])
    assert coded_columns("hazard pay for a TC2 in Zone F?", HAZARD) == ((), "Zone F")
    from policypal.answering.rows import match_table

    absent = match_table("hazard pay for a TC2 in Zone F?", HAZARD)
    assert absent.how == "absent" and absent.column_absent and absent.asked == "Zone F"


def test_words_and_quantities_are_not_codes():
    # "Up to 2 hours", "3 days" are quantities; "a class" is an article, "is 1" no code
    assert "up" not in table_codes(ABSENCE_CODES).rows
    assert asked_codes("is there a class a room", {"class"}) == []
    assert asked_codes("what is 1 day of leave", {"is"}) == []
    assert coded_rows("How long is blood donation leave?", ABSENCE_CODES) == (set(), "", 0)


def test_the_words_outside_a_bracket_of_codes_name_the_row_the_codes_do_not_dilute_them():
    assert named("what's the housing limit for technicians in the suburbs?", HOUSING)[:2] == ("label", ["Technicians (TC1 to TC4)"])


def test_of_two_tables_naming_the_code_the_one_where_the_question_also_names_a_column_answers():
    from policypal.answering.compose import compose_answer
    from policypal.answering.evidence import Evidence

    evidence = [
        Evidence(key=1, breadcrumb="Field pay > 5 Hazard pay", text="Table 1", kind="table", rank=1, similarity=0.5, table=HAZARD),
        Evidence(key=2, breadcrumb="Field pay > 8 Housing", text="Table 3", kind="table", rank=2, similarity=0.5, table=HOUSING),
    ]
    answer = compose_answer("I'm a TC2 renting a flat in the city centre. What's the most the monthly limit allows?", evidence,
                            corpus_mentions={})
    assert "€1,150" in answer.text
    assert "£105" not in answer.text and "€1,600" not in answer.text


def test_a_kind_of_row_one_table_lacks_is_not_absent_when_another_named_table_is_about_it():
    from policypal.answering.compose import compose_answer
    from policypal.answering.evidence import NOT_COVERED, Evidence, TableData, TableRow

    holiday = TableData("Table 1: Annual leave entitlement by length of service", ("Service", "Annual leave days"), tuple(
        TableRow(cells, chunk_id=810 + i) for i, cells in enumerate([
            ("Less than 3 years", "24 days"), ("3 years to less than 7 years", "26 days"), ("7 years or more", "28 days")])))
    other = TableData("Table 2: Other paid and unpaid leave", ("Type of leave (HR code)", "Allowance"), tuple(
        TableRow(cells, chunk_id=820 + i) for i, cells in enumerate([
            ("Bereavement leave (BL1)", "5 days"), ("Moving house leave (MH)", "1 day"), ("Wedding leave (WL)", "2 days"),
            ("Carer's leave (CAR)", "3 days")])))
    evidence = [
        Evidence(key=1, breadcrumb="Leave > 2 Other leave", text="Table 2", kind="table", rank=1, similarity=0.5, table=other),
        Evidence(key=2, breadcrumb="Leave > 1 Entitlement", text="Table 1", kind="table", rank=2, similarity=0.5, table=holiday),
    ]
    answer = compose_answer("I've been with Northwind for 4 years now - how many days annual leave do I get?", evidence, corpus_mentions={})
    assert answer.outcome != NOT_COVERED
    assert "26 days" in answer.text and "no row for" not in answer.text


def test_a_code_cell_may_say_what_it_stands_for():
    severity = table(["Records affected", "Severity", "Report within"],
                     [["None", "P4 (Low)", "24 hours"], ["1 to 99", "P3 (Medium)", "4 hours"],
                      ["100 or more", "P2 (High)", "1 hour"]])
    assert named("How fast must a P3 incident be reported?", severity)[:2] == ("label", ["1 to 99"])
    assert named("How fast must a P5 incident be reported?", severity) == ("absent", [], "P5", [])
