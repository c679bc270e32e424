"""A rule the policy states in the same paragraph as the sentence an answer quotes, going on about
the same thing ("It is paid only when ..."), is quoted with it; a rule stated right before a
table, in the table's own chunk, is read as a rule (before, only the table's rows were)."""
from policypal.answering.compose import compose_answer, states_its_conditions
from policypal.answering.evidence import Evidence
from tests.answering.row_helpers import table

SUPPLEMENT = ("The short-notice supplement is a flat amount per shift, paid on top of the hourly rate. It is paid only "
              "when the shift was a Short-Notice Shift and is worked in full. It is not paid where the worker swaps "
              "onto a shift already booked by another Bank Worker.\n\nThe rates are reviewed every April.")


def test_a_sentence_saying_when_the_thing_before_it_holds_is_its_condition():
    assert states_its_conditions("It is paid only when the shift was a Short-Notice Shift and is worked in full.")
    assert states_its_conditions("They are not payable where the employee declines the shift.")
    assert states_its_conditions("It is reduced by half where the employee works part time.")
    assert not states_its_conditions("It is a flat amount.")
    assert not states_its_conditions("These are reviewed each April.")
    assert not states_its_conditions("Employees are paid only when they work.")  # not about the thing before


def test_the_conditions_after_a_quoted_sentence_are_quoted_with_it():
    evidence = [Evidence(key=1, breadcrumb="Bank > 4 Short-notice supplement", text=SUPPLEMENT, rank=1, similarity=0.6)]
    answer = compose_answer("Is there a short-notice supplement on top of the hourly rate?", evidence, corpus_mentions={})
    assert "flat amount per shift" in answer.text
    assert "paid only when the shift was a Short-Notice Shift" in answer.text
    assert "not paid where the worker swaps" in answer.text
    assert "reviewed every April" not in answer.text


RESIDENT = table(
    ["Category", "Monday to Thursday", "Friday"],
    [["RC1 (bands 2 to 4)", "£38.20", "£42.65"], ["RC2 (bands 5 and 6)", "£52.90", "£58.15"]],
    caption="Table 2: Resident On-Call payments per period")
RESIDENT_CHUNK = ("Resident On-Call is paid as a flat amount per period, not as a percentage of basic pay. The amount "
                  "depends on the employee's band category and the day on which the period starts.\n\n"
                  "Table 2: Resident On-Call payments per period\n| Category | Monday to Thursday | Friday |\n"
                  "| --- | --- | --- |\n| RC1 (bands 2 to 4) | £38.20 | £42.65 |\n| RC2 (bands 5 and 6) | £52.90 | £58.15 |")


def test_a_rule_before_a_table_in_its_chunk_answers_as_a_rule():
    evidence = [Evidence(key=1, breadcrumb="On-call > 4.2 Resident On-Call", text=RESIDENT_CHUNK, kind="table",
                         rank=1, similarity=0.6, table=RESIDENT)]
    answer = compose_answer("Is Resident On-Call paid as a percentage of basic pay?", evidence, corpus_mentions={})
    assert "paid as a flat amount per period, not as a percentage of basic pay" in answer.text
    # the rows still answer the row a question names
    answer = compose_answer("Resident on-call on a Friday for band 6: how much?", evidence, corpus_mentions={})
    assert "£58.15" in answer.text and "£42.65" not in answer.text
