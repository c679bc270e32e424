"""Rows that are kinds of destination, which a note of the policy defines by the places they hold
("Global Financial Centre — New York, Hong Kong, ... Dubai"): a place the question names is sent
to the row the note defines (seen in the blind run of holdout11, where every such look-up missed)."""
from policypal.answering.rows import match_table
from tests.answering.row_helpers import table

SUBSISTENCE = table(
    ["Destination Type", "Day trip, 5 to 10 hours", "Day trip, more than 10 hours", "Overnight, per 24 hours"],
    [["UK Regional", "£11", "£26", "£47"], ["London", "£14", "£31", "£58"], ["Europe", "£17", "£36", "£64"],
     ["Global Financial Centre", "£23", "£44", "£89"], ["Rest of World", "£19", "£39", "£72"]],
    caption="Table 2: Daily subsistence caps by Destination Type (GBP per person)")
NOTES = (
    "- **UK Regional** — any location in the United Kingdom outside Greater London;",
    "- **London** — any location within the M25;",
    "- **Europe** — any country of the European Economic Area, Switzerland, the Channel Islands and the Isle of Man;",
    "- **Global Financial Centre** — New York, Hong Kong, Singapore, Tokyo, Dubai and San Francisco;",
    "- **Rest of World** — any location not listed above.",
)


def rows(question, notes=NOTES):
    match = match_table(question, SUBSISTENCE, notes)
    return None if match is None else [r.cells[0] for r in match.rows]


def test_a_note_listing_the_place_sends_it_to_its_row():
    assert rows("overnight in dubai - what's the daily food allowance?") == ["Global Financial Centre"]
    assert rows("overnight in Tokyo?") == ["Global Financial Centre"]
    assert rows("overnight in dubai - what's the daily food allowance?", notes=()) is None  # the note decides


def test_the_note_on_the_places_country_beats_its_region_and_the_label_it_starts_with_is_the_row():
    # "UK Regional — any location in the United Kingdom outside Greater London" defines UK Regional
    # (not London, which it also names); Birmingham's region, Europe, is another row
    assert rows("How much can I claim for food on a day trip to Birmingham?") == ["UK Regional"]


def test_a_place_written_as_a_label_is_that_row_only():
    assert rows("meal cap for an overnight in London?") == ["London"]  # not also Europe, London's region
    assert rows("overnight in Paris?") == ["Europe"]


def test_a_place_no_note_names_is_the_row_for_everywhere_else():
    assert rows("overnight in Nairobi subsistence?") == ["Rest of World"]
    assert rows("overnight in Nairobi subsistence?", notes=()) is None  # without the notes, no claim


def test_a_statement_after_the_question_sets_its_scene():
    from policypal.answering.coverage import asks_with_context

    # the trailing statement chose the column (5 to 10 hours); it is not a second ask to carry
    assert asks_with_context("How much can I claim for food on a day trip to Birmingham? I'll be out about 7 hours.") == [
        ("I'll be out about 7 hours.", "How much can I claim for food on a day trip to Birmingham")]
    # a last sentence that asks is still an ask, with or without its question mark
    assert [a for _, a in asks_with_context("What is the hotel cap in Paris? what about Rome")] == [
        "What is the hotel cap in Paris", "what about Rome"]
    assert asks_with_context("I am based in London. What is my rate") == [("I am based in London.", "What is my rate")]


COUNTRIES = table(
    ["Country", "Capital city", "Other cities"],
    [["United Kingdom", "185", "118"], ["Ireland", "174", "126"], ["France", "193", "137"]],
    caption="Table 2: Hotel nightly caps by country (GBP per night)")


def test_a_row_reached_through_the_places_country_is_its_own_whatever_the_notes_say():
    notes = ("The UK and Ireland caps are reviewed each April; London and Dublin are capital cities.",)
    assert [r.cells[0] for r in match_table("What's the London hotel limit per night?", COUNTRIES, notes).rows] == ["United Kingdom"]


ROOMS = table(
    ["Room Type", "The Harbourmaster Hotel", "Larkspur House"],
    [["Standard Single", "£68.40", "£61.25"], ["En-suite Single", "£79.60", "£72.15"], ["Studio Flat", "£96.50", "£88.20"]],
    caption="Table 2: Weekly accommodation charges by room type and property")


def test_a_word_the_table_hyphenates_is_read_joined_too():
    match = match_table("how much is an ensuite single room at larkspur house per week", ROOMS)
    assert match.how == "label" and [r.cells[0] for r in match.rows] == ["En-suite Single"]
    assert [ROOMS.headers[i] for i in match.columns] == ["Larkspur House"]
