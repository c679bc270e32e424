"""Beside a table row, a section fetched because a rule sends the reader to it ("payable only while
the instructor also holds a current BA wearer competence under section 4.1 of OPS-03") may be
quoted, whatever its policy, and so may the rule that sends the reader there: the section answers
through the rule, so the two are cited together."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ROLE_REFERENCE, Evidence
from tests.answering.row_helpers import table

SKILLS = table(
    ["Ref", "Specialist skill", "Annual allowance"],
    [["S4", "Hazmat adviser", "£1,210"], ["S5", "Water rescue technician", "£1,340"], ["S6", "Breathing apparatus instructor", "£1,629"]],
    caption="Table 5: Specialist skills allowances")
RULES = ("No member of staff may receive more than two specialist skills allowances at the same time. An allowance is "
         "suspended from the date the underlying qualification lapses. The S6 allowance is payable only while the "
         "instructor also holds a current breathing apparatus wearer competence under section 4.1 of OPS-03.")
COMPETENCE = ("A firefighter or BA instructor who failed the annual BA assessment loses their BA competence until "
              "a reassessment is passed, and must not wear BA in the meantime.")
QUESTION = "I'm a BA instructor and I failed my annual BA assessment last month. Do I keep getting the S6 allowance?"


def _evidence():
    return [
        Evidence(key=1, breadcrumb="Roles and Pay > 7 Specialist skills", text=SKILLS.caption, kind="table", policy="pay",
                 rank=1, similarity=0.6, table=SKILLS),
        Evidence(key=2, breadcrumb="Roles and Pay > 9 Rules for all allowances", text=RULES, policy="pay", rank=2,
                 similarity=0.5),
        Evidence(key=3, breadcrumb="Operational Safety > 4. Breathing apparatus > 4.1 BA competence", text=COMPETENCE,
                 policy="safety", role=ROLE_REFERENCE),
    ]


def test_the_section_a_rule_sends_the_reader_to_is_quoted_with_the_rule():
    answer = compose_answer(QUESTION, _evidence(), corpus_mentions={})
    assert "£1,629" in answer.text
    assert "payable only while the instructor also holds" in answer.text
    assert "loses their BA competence" in answer.text
    assert {e.key for e in answer.cited} >= {2, 3}
