"""A code family written out in the words whose initials it is ("spinal column point 24" for the
rows "SCP 1" ... "SCP 28") names the row "SCP 24", or says the table has no "SCP 31": never a row
of another table that reads alike (the grade whose span "SCP 20-22" a search ranked high), and
the table's range reads "SCPs SCP 1 to SCP 28" (seen in the blind run of holdout22)."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import NOT_COVERED, TableData, TableRow

from .row_helpers import named, ranked_tables, table

SPINE = table(["SCP", "Annual salary", "Hourly rate"],
              [[f"SCP {i}", f"£{23000 + 400 * i:,}", f"£{11 + 0.25 * i:.2f}"] for i in range(1, 29)],
              caption="Table 2: Pay spine from 1 April 2025")
GRADES = TableData("Table 1: Grade structure", ("Grade", "Spinal column points", "Maximum market supplement (per year)"),
                   tuple(TableRow(cells, chunk_id=950 + i) for i, cells in enumerate([
                       ("SO1", "SCP 17-20", "£1,385"), ("SO2", "SCP 20-22", "£1,560"), ("PO1", "SCP 22-25", "£1,820"),
                   ])))


def test_the_spelt_out_family_names_the_code():
    assert named("annual salary at spinal column point 12", SPINE) == ("label", ["SCP 12"], "", ["Annual salary"])
    assert named("What's the annual salary at spinal column point 31?", SPINE)[:3] == ("absent", [], "SCP 31")


def _evidence():
    return ranked_tables(("Pay > 2 Grades", GRADES), ("Pay > 3 Pay spine", SPINE), similarities=(0.6, 0.5))


def test_a_point_beyond_the_spine_is_absent_from_the_spine_not_answered_by_a_grade():
    answer = compose_answer("What's the annual salary at spinal column point 31?", _evidence(), corpus_mentions={})
    assert answer.outcome == NOT_COVERED and "no row for SCP 31" in answer.text and "SCPs SCP 1 to SCP 28" in answer.text
    assert "£1,560" not in answer.text


def test_a_point_on_the_spine_is_answered_from_it():
    answer = compose_answer("What's the annual salary at spinal column point 24?", _evidence(), corpus_mentions={})
    assert "£32,600" in answer.text and "£1,560" not in answer.text


TEACHERS_PAY = table(
    ["Spine Point", "Annual salary", "Monthly gross salary"],
    [["M1", "£32,916", "£2,743.00"], ["M2", "£34,823", "£2,901.92"], ["M5", "£42,057", "£3,504.75"],
     ["U1", "£47,472", "£3,956.00"], ["U2", "£49,232", "£4,102.67"], ["U3", "£51,048", "£4,254.00"]],
    caption="Table 1: Main Pay Range and Upper Pay Range by Spine Point, from 1 September 2025")


def test_one_letter_code_families_named_by_the_captions_phrases():
    assert named("What's the yearly pay at upper pay range point 2?", TEACHERS_PAY) == ("label", ["U2"], "", ["Annual salary"])
    assert named("How much will I get paid once I move up to main scale 5?", TEACHERS_PAY)[:2] == ("label", ["M5"])
    # a point the range does not have is absent, never another range's point of that number
    assert named("upper pay range point 5 salary?", TEACHERS_PAY)[:3] == ("absent", [], "U5")
    assert named("main office opening hours", TEACHERS_PAY) is None


def test_a_number_spelt_after_a_family_of_the_value_headers_names_its_column():
    # "band three sites" against columns "Band 1" ... "Band 4" (holdout29)
    from .row_helpers import named, table

    premiums = table(["Shift type", "Band 1", "Band 2", "Band 3", "Band 4"],
                     [["Early shift", "£1.85", "£1.61", "£1.42", "£1.27"], ["Peak season supplement", "£1.15", "£1.05", "£0.96", "£0.88"]])
    assert named("What's the peak season supplement for band three sites?", premiums)[1:] == (["Peak season supplement"], "", ["Band 3"])
    assert named("early shift in band four?", premiums)[3] == ["Band 4"]
