"""The age the asker tells ("I'm 17") and the age bounds a definition sets ("an employee who is
over compulsory school age but under 18") make the defined term what the asker is; a rule saying
a table does not apply to that term ("Table 1 does not apply to Young Workers") keeps the table's
row from being their answer, and the rule using the term is given beside any other row."""
from policypal.answering.ages import age_bounds, age_fits, told_age
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ROLE_DEFINITION, Evidence

from .row_helpers import ranked_tables, table

BREAKS = table(["Scheduled Shift Length", "Total Break Entitlement"],
               [["Up to 4 hours", "None"], ["More than 4 hours and up to 6 hours", "20 minutes"],
                ["More than 6 hours and up to 9 hours", "30 minutes"]],
               caption="Table 1: Rest break entitlement by scheduled shift length")
YOUNG_RULE = Evidence(7, "Hospitality Group > 3. The Rota > 3.5 Young Workers",
                      "A Young Worker must not be rostered for more than 8 hours in any day. Table 1 does not apply to Young "
                      "Workers; a Young Worker is entitled to a 30-minute break where the shift lasts more than 4.5 hours.",
                      policy="rota", rank=2, similarity=0.4)
DEFINITION = Evidence(8, "Hospitality Group > 2. Definitions",
                      "2.10 In this policy, a Young Worker is an employee who is over compulsory school age but under 18.",
                      policy="rota", role=ROLE_DEFINITION)


def test_told_ages_and_bounds():
    assert told_age("I'm 17 and doing a 5 hour shift on Saturday.") == 17
    assert told_age("My son is a 16-year-old apprentice") == 16
    assert told_age("I'm 5 hours into my shift") is None and told_age("I finished at 9pm") is None
    assert age_bounds("a Young Worker is an employee who is over compulsory school age but under 18.") == (0, 17)
    assert age_bounds("Older Worker means an employee aged 55 or over.") == (55, 200)
    assert age_bounds("a worker aged 16 or 17") == (16, 17)
    assert age_bounds("Night Worker means a worker who works at least 3 hours at night.") is None
    assert age_fits("I'm 17, how long is my break?", DEFINITION.text)
    assert not age_fits("I'm 34, how long is my break?", DEFINITION.text)


def test_a_table_that_does_not_apply_to_the_asker_is_not_their_answer():
    evidence = ranked_tables(("Hospitality Group > 6. Rest Breaks", BREAKS))
    evidence = [Evidence(e.key, e.breadcrumb, e.text, kind=e.kind, rank=e.rank, similarity=e.similarity, table=e.table,
                         policy="rota") for e in evidence] + [YOUNG_RULE, DEFINITION]
    young = compose_answer("I'm 17 and doing a 5 hour shift on Saturday. How long is my break?", evidence,
                           corpus_mentions={}, about=["Young Worker"])
    assert "30-minute break" in young.text and "20 minutes" not in young.text
    adult = compose_answer("I'm 34 and doing a 5 hour shift on Saturday. How long is my break?", evidence, corpus_mentions={})
    assert "20 minutes" in adult.text


def test_the_rule_using_the_term_the_asker_is_may_join_a_named_row():
    from policypal.answering.compose import _beside_rows
    from policypal.answering.coverage import Decision
    from policypal.answering.rows import match_table

    rule = Evidence(9, "Hospitality Group > 3. The Rota > 3.6 Young Workers",
                    "A Young Worker rests for 30 minutes once more than 4.5 hours have been worked.", policy="rota", rank=3)
    host = Evidence(1, "Hospitality Group > 6. Rest Breaks", BREAKS.caption, kind="table", rank=1, table=BREAKS, policy="rota")
    found = [match_table("How long is my break on a 5 hour shift?", BREAKS)]
    nothing_carried = Decision("answered", [], [])
    assert 1 not in _beside_rows(found, [host, rule], [host, rule], nothing_carried)["only"]
    assert 1 in _beside_rows(found, [host, rule], [host, rule], nothing_carried, about=["Young Worker"])["only"]
