"""Which column of a named row a question asks for: not the one named only by the noun written
after the row's label ("RT-11 records" says what the row is, not that the record type is asked),
and, for "how is it done", the column that names a method."""
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
