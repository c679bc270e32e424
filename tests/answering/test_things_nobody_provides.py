"""Seen in the blind run of holdout44: "I'll be away from base about 12 hours ..., no meals
provided. What day subsistence can I claim?" lost the subsistence table, because the question
was read as doing without meals and the table's caption is about meals. A thing nobody provides
is what the asker must pay for: the allowance for it is asked."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED

from .row_helpers import ranked_tables, table

SUBSISTENCE = table(
    ["Time away from normal workplace", "Day subsistence allowance", "Receipt required?"],
    [["Less than 5 hours", "Nil", "Not applicable"], ["5-9 hours", "£7.50", "Yes"], ["10-14 hours", "£16.00", "Yes"],
     ["15+ hours, not staying overnight", "£24.50", "Yes, for each meal"]],
    caption="Employees away from their normal workplace for the period shown may claim day subsistence to cover the "
            "extra cost of meals.",
)

HOTELS = table(
    ["City", "Hotel cap per night", "Staying with friends or relatives"],
    [["London", "£150", "£25"], ["Manchester", "£110", "£25"]],
    caption="Hotel accommodation caps per night",
)


def _answer(question):
    return compose_answer(question, ranked_tables(("Travel > 6.2 Day subsistence", SUBSISTENCE)), corpus_mentions={})


def test_meals_nobody_provides_ask_for_the_meal_allowance():
    answer = _answer("I'll be away from base about 12 hours on Thursday for a handover, no meals provided. "
                     "What day subsistence can I claim?")
    assert answer.outcome == ANSWERED
    assert "£16.00" in answer.text and "£7.50" not in answer.text
    assert "£16.00" in _answer("Away 12 hours and lunch wasn't included. What day subsistence do I get?").text


def test_a_thing_the_asker_does_without_still_leaves_its_table_out():
    # ("instead of a hotel" denies the hotel caps, as before)
    answer = compose_answer("I'm staying at my cousin's in London instead of a hotel. What can I claim per night?",
                            ranked_tables(("Travel > 5.1 Hotels", HOTELS)), corpus_mentions={})
    assert "£150" not in answer.text
