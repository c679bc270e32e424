"""A length of time the asker states names a range row with the words that say what it measures
("six years qualified" is the "5-7 PQE" row; those words are the row's, not a sign that the
question is about something else), and its unit never names a column ("years" is not the
"Annual ..." column). A yes/no question that names a value column of a row found by some of its
label's words asks for that cell ("Is there a limit on how much pro bono time counts?")."""
from policypal.answering.compose import compose_answer
from policypal.answering.rows import asked_columns, measure_words, quantity_words

from .row_helpers import ranked_tables, table

PQE = table(["PQE Band", "Annual Chargeable-Hour Target", "Bonus Threshold (Credited Hours)", "Maximum Bonus (% of Base Salary)"],
            [["0-1 PQE", "1,350", "1,420", "10%"], ["2-4 PQE", "1,500", "1,575", "13%"],
             ["5-7 PQE", "1,600", "1,680", "16%"], ["8+ PQE", "1,650", "1,730", "22%"]],
            caption="Table 1: Annual chargeable-hour targets and bonus thresholds by PQE band")
CODES = table(["Code", "Activity", "Annual Credit Cap (hours)", "Supporting Record"],
              [["NC-01", "Business development, pitches and tenders", "150", "Opportunity reference in the CRM"],
               ["NC-03", "Pro bono legal work approved by the Pro Bono Committee", "75", "Pro bono matter number"],
               ["NC-07", "Firm management and committee work", "90", "Committee minutes"]],
              caption="Table 2: Non-chargeable time-recording codes and annual credit caps")
BREADCRUMB = "Chargeable Hours and Bonus Policy > 5. Targets and Codes"


def test_spelt_quantities_and_what_they_measure():
    assert measure_words("a lawyer who's six years qualified") == {"years"}
    assert quantity_words("a lawyer who's six years qualified") == {"qualified"}
    assert quantity_words("I have 4 years' service and 10 years of experience") == {"service", "experience"}
    assert quantity_words("after 6 years at the firm") == set()  # "at": no word of the quantity


def test_the_unit_of_a_quantity_names_no_column():
    assert asked_columns("What's the most bonus I can get as a lawyer who's six years qualified?", PQE) == ()
    assert asked_columns("What is the annual target for 3 years PQE?", PQE) == (1,)  # "annual" written names it


def test_a_range_row_named_by_a_qualified_length_answers():
    answer = compose_answer("What's the most bonus I can get as a lawyer who's six years qualified?",
                            ranked_tables((BREADCRUMB, PQE)), corpus_mentions={})
    assert answer.outcome == "answered"
    assert "16%" in answer.text and "13%" not in answer.text and "22%" not in answer.text


def test_a_yes_no_question_naming_the_value_column_asks_for_the_cell():
    answer = compose_answer("Is there a limit on how much of my pro bono time counts towards the bonus hours?",
                            ranked_tables((BREADCRUMB, CODES)), corpus_mentions={})
    assert "75" in answer.text and "150" not in answer.text
