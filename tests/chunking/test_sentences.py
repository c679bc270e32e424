import pytest

from chunking.sentences import split_sentences, split_sentences_quick

# The chunker's splitter (pysbd + fix-up) and the answerer's cheap one must agree on these.
SPLITTERS = pytest.mark.parametrize("split", [split_sentences, split_sentences_quick], ids=["pysbd", "quick"])


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "Taxis are allowed, e.g. for late meetings. Buses are preferred.",
            ["Taxis are allowed, e.g. for late meetings.", "Buses are preferred."],
        ),
        (
            "Local travel, i.e. within the city, is paid monthly. Submit receipts.",
            ["Local travel, i.e. within the city, is paid monthly.", "Submit receipts."],
        ),
        ("See Form No. 4 for claims. It is online.", ["See Form No. 4 for claims.", "It is online."]),
        ("The cap is 75.00 pounds per day. Hotels differ.", ["The cap is 75.00 pounds per day.", "Hotels differ."]),
        ("Read Sec. 3.2 before booking. Then book.", ["Read Sec. 3.2 before booking.", "Then book."]),
        ("The office is approx. 5 km away. Parking is free.", ["The office is approx. 5 km away.", "Parking is free."]),
        (
            "Stationery, printing, etc. are covered. Furniture is not.",
            ["Stationery, printing, etc. are covered.", "Furniture is not."],
        ),
        ("Pay Rs. 500 to Dr. Rao today. Keep the slip.", ["Pay Rs. 500 to Dr. Rao today.", "Keep the slip."]),
    ],
)
@SPLITTERS
def test_abbreviations_and_decimals_stay_inside_their_sentence(split, text, expected):
    assert split(text) == expected


@SPLITTERS
def test_etc_at_sentence_end_still_ends_the_sentence(split):
    assert split("Bring pens, paper etc. Receipts are required.") == [
        "Bring pens, paper etc.",
        "Receipts are required.",
    ]


@SPLITTERS
def test_question_and_exclamation_marks_split(split):
    assert split("Is it covered? Yes! It is.") == ["Is it covered?", "Yes!", "It is."]


@SPLITTERS
def test_empty_and_single_sentence(split):
    assert split("") == []
    assert split("   ") == []
    assert split("No full stop here") == ["No full stop here"]


@SPLITTERS
def test_sentences_rejoin_to_the_original_text(split):
    text = "First rule applies. Second rule, e.g. taxis, costs 12.50 each.  Third one (Sec. 4) too."
    assert " ".join(split(text)).split() == text.split()


@SPLITTERS
def test_line_breaks_inside_a_paragraph_do_not_end_a_sentence(split):
    text = "Claims must be filed\nwithin 30 days. Late claims\nare rejected."
    assert split(text) == ["Claims must be filed\nwithin 30 days.", "Late claims\nare rejected."]
