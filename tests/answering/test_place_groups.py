"""Rate tables group places as askers do not write them: "Sub-Saharan Africa", "Nordic countries",
"Gulf states", a comma list of cities, a country with the cities it excepts. A city the
question names finds its group's row, its own row before its country's, and never the row
that excepts it."""
from policypal.answering.compose import compose_answer
from policypal.answering.places import places_in, wider_names

from .row_helpers import named, ranked_rows, table

DAILY = table(["Zone", "Places", "Daily rate", "Hotel per night"], [
    ["Z1", "Home country outside the capital", "€40", "€120"],
    ["Z2", "Benelux, Austria", "€55", "€150"],
    ["Z3", "Canada, USA (excluding Chicago and Boston)", "€62", "€180"],
    ["Z4", "Chicago, Boston", "€78", "€240"],
    ["Z5", "Gulf states", "€70", "€205"],
    ["Z6", "Sub-Saharan Africa", "€47", "€140"],
    ["Z7", "Germany, Poland, Nordic countries", "€58", "€165"],
])


def test_a_city_finds_the_group_its_country_belongs_to():
    assert named("hotel allowance for a night in Nairobi?", DAILY)[:2] == ("label", ["Z6"])
    assert named("daily rate for a week in Doha?", DAILY)[:2] == ("label", ["Z5"])
    assert named("hotel for a night in Stockholm?", DAILY)[:2] == ("label", ["Z7"])
    assert named("hotel for a night in Rotterdam?", DAILY)[:2] == ("label", ["Z2"])


def test_a_city_listed_with_others_names_its_row_and_not_the_row_that_excepts_it():
    assert named("hotel cap in Chicago?", DAILY)[:2] == ("label", ["Z4"])
    assert named("hotel cap in Seattle?", DAILY)[:2] == ("label", ["Z3"])


def test_a_short_name_of_a_city_is_the_city():
    table_of_cities = table(["Code", "Cities", "Hotel"], [["C1", "New York, Washington DC", "$300"],
                                                         ["C2", "USA (except New York and Washington DC)", "$190"]])
    assert named("max hotel per night in NYC?", table_of_cities)[:2] == ("label", ["C1"])
    assert "New York" in places_in("a shoot in NYC")[0].names


LODGING = table(
    ["Region", "Accommodation cap per night", "Evening meal allowance"],
    [["London", "GBP 145.00", "GBP 28.00"], ["Rest of England", "GBP 92.00", "GBP 22.00"],
     ["Edinburgh and Glasgow", "GBP 115.00", "GBP 25.50"], ["Rest of Scotland", "GBP 88.00", "GBP 21.00"]],
    caption="Table 3: Lodging allowances by region")


def test_a_city_of_one_uk_nation_is_not_carried_by_another_nations_row():
    # Cardiff is in Wales: "Rest of England" does not carry it, and the table names no row for it
    # (a table of places in one country, other nations' included: Cardiff is absent from it)
    assert named("What's the nightly accommodation cap for a job in Cardiff?", LODGING)[0::2] == ("absent", "Cardiff")
    names, _ = wider_names("Cardiff")
    assert "wales" in names and "england" not in names and "scotland" not in names
    row = ranked_rows("Expenses > 5 Lodging", LODGING, [LODGING.rows[1]])  # the "Rest of England" row
    answer = compose_answer("What's the nightly accommodation cap for a job in Cardiff?", row, corpus_mentions={})
    assert answer.outcome != "answered" and "cardiff" in [m.lower() for m in answer.missing]
    assert named("accommodation cap for a trip to Inverness", LODGING)[1] == ["Rest of Scotland"]
