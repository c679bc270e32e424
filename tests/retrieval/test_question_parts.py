"""A long question split into its ask and its situation (pure, no model)."""
from retrieval.question_parts import MIN_WORDS_TO_SPLIT, question_parts

SCENARIO = (
    "I joined the Hyderabad office about two months ago and just found out I'm pregnant, with the baby due "
    "next spring. Since I'm so new, do I still get the full maternity leave, and will all of it be on full pay?"
)


def test_a_situation_and_an_ask_are_searched_apart_and_whole():
    parts = question_parts(SCENARIO)
    assert parts.split
    assert parts.ask == "Since I'm so new, do I still get the full maternity leave, and will all of it be on full pay?"
    assert parts.situation.startswith("I joined the Hyderabad office") and parts.situation.endswith("next spring.")
    assert parts.texts == [SCENARIO, parts.ask, parts.situation]


def test_every_question_sentence_is_ask_and_the_rest_is_situation():
    question = ("I'm an L5 manager planning raises for the managers on my team. One of them is already paid above "
                "the midpoint - how much can I give her in the April review? And if I want to give another one an 8% "
                "raise off-cycle in June, who signs that off?")
    parts = question_parts(question)
    assert parts.situation == "I'm an L5 manager planning raises for the managers on my team."
    assert parts.ask.endswith("who signs that off?") and "April review?" in parts.ask


def test_a_question_mark_followed_by_lower_case_still_ends_an_ask():
    question = ("My uncle died in Kochi yesterday and I need to get there for the funeral today, which is a long way "
                "from Pune. does bereavement leave cover an uncle? if not what can I take at short notice?")
    parts = question_parts(question)
    assert parts.split
    assert parts.ask == "does bereavement leave cover an uncle? if not what can I take at short notice?"


def test_without_a_question_mark_the_last_sentence_asks():
    question = ("I work in the Gurugram office and drive my own petrol car to client sites in Noida every week. "
                "Tell me which distance I claim and at what rate per kilometre.")
    parts = question_parts(question)
    assert parts.ask.startswith("Tell me which distance")
    assert parts.situation.startswith("I work in the Gurugram office")


def test_short_or_single_sentence_questions_are_searched_whole_only():
    assert question_parts("What is the daily meal allowance in Mumbai for grade L4?").texts == [
        "What is the daily meal allowance in Mumbai for grade L4?"]
    assert not question_parts("I'm on the UK payroll. What is my hotel cap in Paris?").split  # short
    one_long_sentence = " ".join(["word"] * (MIN_WORDS_TO_SPLIT + 5)) + "?"
    assert not question_parts(one_long_sentence).split
    only_asks = ("Can I carry forward earned leave into the next year if I could not take it? "
                 "And is any of it paid out when I leave the company for another job?")
    assert not question_parts(only_asks).split  # no situation: nothing to split from
