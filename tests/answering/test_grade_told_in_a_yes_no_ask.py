"""A grade the asker tells ("I'm on grade G9. Could I stand in the elections?") names a row of
every table by grade, but a question whether they may do a thing is about that table only when
it also asks for what the table gives (a column, or the table's own words)."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import Evidence

from .row_helpers import ranked_tables, table

SUPPLEMENT = table(["Grade band", "Zone A: Hollinbrook city centre", "Zone B: outer districts"],
                   [["G1-G3", "£905", "£610"], ["G4-G6", "£1,190", "£805"], ["G7-G9", "£1,473", "£996"]],
                   caption="Table 2: Annual location supplement by grade band and work base zone")
RULE = Evidence(9, "Officer Conduct > 6. Political activity",
                "6.1 An officer holding a politically restricted post may not stand for election as a councillor or MP.",
                policy="conduct", rank=2, similarity=0.45)


def test_a_told_grade_is_not_the_question_of_a_yes_no_ask():
    evidence = ranked_tables(("Pay Policy > 4. Location supplement", SUPPLEMENT)) + [RULE]
    answer = compose_answer("I'm a principal solicitor on grade G9. Could I stand as a candidate in the elections?",
                            evidence, corpus_mentions={})
    assert "£1,473" not in answer.text
    # asking for the table's value is still a look-up
    asked = compose_answer("What is the location supplement for grade G9 in zone B?", ranked_tables(
        ("Pay Policy > 4. Location supplement", SUPPLEMENT)), corpus_mentions={})
    assert asked.outcome == "answered" and "£996" in asked.text
