"""Rate tables group places as askers do not write them: "Sub-Saharan Africa", "Nordic countries",
"Gulf states", a comma list of cities, a country with the cities it excepts. A city the
question names finds its group's row, its own row before its country's, and never the row
that excepts it."""
from policypal.answering.places import places_in

from .row_helpers import named, table

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
