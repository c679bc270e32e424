"""Rows labelled by a pair of numbers ("14/14", "14/21", "4/3": rotations of days on and off,
ratios) are named by the pair the question writes, and a pair the table lacks is an absent row
(before, none of them named a row: the answer came from whatever the search ranked)."""
from tests.answering.row_helpers import named, table

ROTATIONS = table(
    ["Rotation", "Offshore period", "Home period", "Where it is used"],
    [["14/14", "14 days", "14 days", "SOV campaigns from Hull"],
     ["14/21", "14 days", "21 days", "SOV campaigns from Aberdeen"],
     ["21/21", "21 days", "21 days", "Jack-up campaigns"],
     ["4/3", "4 days", "3 days", "Winter day visits by CTV"]],
    caption="Table 2: Approved rotation patterns")


def test_the_pair_written_names_its_row_and_column():
    assert named("Where is the 14/21 rotation used?", ROTATIONS) == ("label", ["14/21"], "", ["Where it is used"])
    assert named("how long is the home period on 4 / 3?", ROTATIONS)[1] == ["4/3"]


def test_a_pair_the_table_lacks_is_an_absent_row():
    found = named("How long is the home period on a 28/28 rotation?", ROTATIONS)
    assert found is not None and found[0] == "absent" and found[2] == "28/28"


def test_no_pair_written_is_no_absent_row():
    found = named("What rotation do winter CTV crews work?", ROTATIONS)
    assert found is None or found[0] != "absent"
