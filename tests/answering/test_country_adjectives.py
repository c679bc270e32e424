"""A country's adjective before an employer's part or its people ("the Polish entity", "our German
office", "a French national") names the country, for place look-ups and for tables whose rows are
countries; the adjective elsewhere ("please polish", "I speak German") names nothing."""
import pytest

from policypal.answering.places import destinations, places_in

from .row_helpers import named, table

ENTITIES = table(["Country", "Cost Tier", "Setup Allowance (local currency)"],
                 [["United Kingdom", "CT2", "£640"], ["Poland", "CT4", "zł 2,450"], ["Spain", "CT3", "€585"]],
                 caption="Table 1: Cost Tiers and Setup Allowance by country")


@pytest.mark.parametrize("text, countries", [
    ("I work for the Polish entity and I'm fully remote.", ["Poland"]),
    ("our German office and the Dutch team", ["Germany", "Netherlands"]),
    ("Is a French national covered when flying from Madrid?", ["France", "Spain"]),
    ("please polish the entity names", []),
    ("I speak German fluently", []),
])
def test_an_adjective_before_a_part_of_the_employer_names_the_country(text, countries):
    assert [p.country for p in places_in(text)] == countries


def test_the_entity_an_asker_works_for_is_where_they_are_based():
    (place,) = places_in("I work for the Polish entity")
    assert place.home and destinations("I work for the Polish entity") == [place]


@pytest.mark.parametrize("question, row, column", [
    ("I work for the Polish entity and I'm fully remote. How big is my one-off setup allowance?", "Poland",
     "Setup Allowance (local currency)"),
    ("What cost tier is the Spanish office in?", "Spain", "Cost Tier"),
])
def test_the_adjective_names_the_countrys_row(question, row, column):
    how, rows, _, columns = named(question, ENTITIES)
    assert (how, rows) == ("label", [row]) and column in columns
