import pytest

from chunking.sentences import split_sentences


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
def test_abbreviations_and_decimals_stay_inside_their_sentence(text, expected):
    assert split_sentences(text) == expected


def test_etc_at_sentence_end_still_ends_the_sentence():
    assert split_sentences("Bring pens, paper etc. Receipts are required.") == [
        "Bring pens, paper etc.",
        "Receipts are required.",
    ]


def test_question_and_exclamation_marks_split():
    assert split_sentences("Is it covered? Yes! It is.") == ["Is it covered?", "Yes!", "It is."]


def test_empty_and_single_sentence():
    assert split_sentences("") == []
    assert split_sentences("   ") == []
    assert split_sentences("No full stop here") == ["No full stop here"]


def test_sentences_rejoin_to_the_original_text():
    text = "First rule applies. Second rule, e.g. taxis, costs 12.50 each.  Third one (Sec. 4) too."
    assert " ".join(split_sentences(text)).split() == text.split()


def test_line_breaks_inside_a_paragraph_do_not_end_a_sentence():
    text = "Claims must be filed\nwithin 30 days. Late claims\nare rejected."
    assert split_sentences(text) == ["Claims must be filed\nwithin 30 days.", "Late claims\nare rejected."]
