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


def test_a_value_of_the_named_row_is_the_label_of_the_asked_tables_row():
    evidence = ranked_tables(("Travel > 5 Hotels", CITIES), ("Travel > 6 Per diem", PER_DIEM))
    answer = compose_answer("I'm a G5 heading to Amsterdam for three nights. What's my daily per diem?", evidence,
                            corpus_mentions={})
    assert answer.outcome == "answered"
    assert "£73" in answer.text and "Tier B" in answer.text
    assert not any(v in answer.text for v in ("£61", "£86", "£78", "£215"))
    assert [e.breadcrumb for e in answer.cited] == ["Travel > 6 Per diem", "Travel > 5 Hotels"]


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
