""""How many Privileged Accounts can one person hold?" asks for a count of those things: a number
elsewhere in the sentence (a review every 90 days) or "a separate account" gives none."""
import pytest

from policypal.answering.coverage import missing_value

ASK = "How many Privileged Accounts can one person hold?"


@pytest.mark.parametrize("sentence", [
    "A person may hold no more than two Privileged Accounts.",
    "Each person holds a single Privileged Account.",
    "Staff may hold up to three privileged accounts.",
    "An engineer may have 2 privileged accounts.",
])
def test_a_count_of_the_things_answers(sentence):
    assert missing_value(ASK, sentence) == ""


@pytest.mark.parametrize("sentence", [
    "A Privileged Account is always a separate account from the person's everyday account.",
    "Every Privileged Account is reviewed by its Information Owner every 90 days.",
])
def test_another_number_or_an_article_does_not(sentence):
    assert missing_value(ASK, sentence) == "how many privileged accounts"


def test_counts_of_time_and_of_things_not_written_as_plurals_keep_their_readings():
    assert missing_value("How many days of leave do I get?", "You get 25 days of annual leave.") == ""
    assert missing_value("How many people can attend the course?", "Up to 10 people may attend.") == ""
    assert missing_value("How many PhD students can I supervise?", "Six doctoral students at most.") == ""


def test_a_count_of_time_units_is_not_read_as_a_count_of_the_words_after_it():
    assert missing_value("How many days do trainees have to be in the office per 4 week block?",
                         "Trainees: 12 days per 4-week block.") == ""
