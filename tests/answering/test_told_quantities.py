"""A quantity the asker tells ("the job only took me 40 minutes", "woken five separate times",
"three shifts in a row") against the condition a rule sets on it ("less than one hour", "on more
than four separate occasions", "fewer than five consecutive scheduled shifts"): the rule whose
condition it meets, or whose limit it breaks, decides the asker's case and joins the answer."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import Evidence
from policypal.answering.quantities import Condition, Quantity, conditions, decides_the_case, told_quantities


def test_the_quantities_a_question_tells():
    assert told_quantities("the job only took me 40 minutes") == [Quantity("time", 40)]
    assert told_quantities("I was woken five separate times to help") == [Quantity("occasions", 5)]
    assert told_quantities("I covered for three shifts in a row") == [Quantity("count of shift", 3)]
    assert told_quantities("I was called twice last night") == [Quantity("occasions", 2)]
    assert told_quantities("I was phoned at 11pm on a Tuesday") == []  # a clock time is no length


def test_the_conditions_a_rule_sets():
    assert conditions("where the call-out work was less than one hour") == [Condition("less than", Quantity("time", 60))]
    found = conditions("Where Disturbance exceeds three hours, or the employee is woken on more than four separate occasions")
    assert [(c.comparison, c.bound) for c in found] == [("exceeds", Quantity("time", 180)), ("more than", Quantity("occasions", 4))]
    assert [(c.comparison, c.bound.amount) for c in conditions("absences of 12 months or more")] == [("more", 12 * 43800)]


def decides(question: str, sentence: str) -> bool:
    return decides_the_case(told_quantities(question), sentence)


def test_a_condition_met_or_a_limit_broken_decides():
    rule = "Section 7.1 does not apply where the total call-out work was less than one hour."
    assert decides("the job only took me 40 minutes", rule)
    assert not decides("the job took me 3 hours", rule)
    assert not decides("I was woken 3 times", rule)  # another measure
    assert decides("I was rostered for 3 night duties in a row", "no more than 2 consecutive night duties")
    assert not decides("I was rostered for 2 night duties in a row", "no more than 2 consecutive night duties")
    assert decides("I covered for three shifts in a row",
                            "Where a colleague acts up for fewer than five consecutive scheduled shifts, no allowance is paid.")


REST = Evidence(
    key=1, breadcrumb="Call-out Policy > 7. Rest > 7.1 Compensatory rest", rank=1, similarity=0.6, policy="callout",
    text="Where call-out work prevents an employee from having 11 consecutive hours of rest before their next shift, "
         "the employee must take compensatory rest before starting that shift.",
)
EXCEPTION = Evidence(
    key=2, breadcrumb="Call-out Policy > 7. Rest > 7.2 Short call-outs", rank=2, similarity=0.4, policy="callout",
    text="Compensatory rest is paid at the basic rate. Sickness during rest is recorded as sickness.\n"
         "Section 7.1 does not apply where the total call-out work between 22:00 and 06:00 was less than one hour.",
)


def test_the_rule_whose_condition_the_asker_meets_joins_the_answer():
    question = "I was called out after midnight but the job only took me 40 minutes. Can I start late tomorrow to get my rest?"
    answer = compose_answer(question, [REST, EXCEPTION], corpus_mentions={})
    assert "less than one hour" in answer.text
    # a call-out of three hours meets no condition of 7.2: its exception is not given
    longer = compose_answer(question.replace("40 minutes", "3 hours"), [REST, EXCEPTION], corpus_mentions={})
    assert "less than one hour" not in longer.text
