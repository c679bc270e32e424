"""Policies that number their clauses in the text ("6.4 Late recording. The Committee will ...",
under a heading "6. Bonus") are referred to as sections are: a cited rule's "taken into account
under section 6.4" brings the clause numbered 6.4 when the search ranked its block, and its rule
is given rather than the clause's title. A number that belongs to another document ("paragraph
4.4 of the Office Attendance Policy") is not this policy's 4.4."""
from policypal.answering.compose import compose_answer
from policypal.answering.definitions import referenced_sections
from policypal.answering.evidence import Evidence

LATE = Evidence(1, "Time Recording and Bonus Policy > 4. Time Recording",
                "4.3 Late entries. Any entry made after the Recording Deadline is flagged as late. Persistent late recording, "
                "meaning late-entry reminders in three consecutive calendar months, is taken into account under section 6.4.",
                policy="bonus", rank=1, similarity=0.62)
BONUS = Evidence(2, "Time Recording and Bonus Policy > 6. Bonus",
                 "6.1 Eligibility. A Fee Earner is eligible for a bonus only if they are in post on 30 April.\n\n"
                 "6.2 Payment. Bonuses are paid through the July payroll.\n\n"
                 "6.4 Late recording. The Remuneration Committee will reduce any bonus otherwise payable by one quarter where "
                 "a Fee Earner has engaged in persistent late recording during the Financial Year.",
                 policy="bonus", rank=2, similarity=0.48)
OTHER_POLICY = Evidence(3, "Expenses Policy > 6. Claims",
                        "6.4 Receipts. Every claim above £25 needs an itemised receipt.", policy="expenses", rank=3,
                        similarity=0.3)


def test_the_clause_a_cited_rule_refers_to_is_given_from_its_block():
    answer = compose_answer("I got late-entry reminders three months running. Will that affect my bonus?",
                            [LATE, BONUS, OTHER_POLICY], corpus_mentions={})
    assert "reduce any bonus otherwise payable by one quarter" in answer.text
    assert "Receipts" not in answer.text  # the 6.4 of another policy is not the one referred to
    assert [e.key for e in answer.cited][:2] == [1, 2]


def test_the_clause_title_alone_is_not_the_rule_given():
    # the title shares the question's words more than the rule does
    answer = compose_answer("What happens with late recording?", [LATE, BONUS], corpus_mentions={})
    paragraphs = [p for p in answer.text.split("\n\n") if "[2]" in p]
    assert paragraphs and "one quarter" in paragraphs[0] and "6.4 Late recording. [2]" not in answer.text


def test_a_number_of_another_document_is_not_followed():
    assert referenced_sections("Study leave reduces the Office Days, as set out in paragraph 4.4 of the Secondments, "
                               "Agile Working and Office Attendance Policy.") == []
    assert referenced_sections("Claims follow section 2 of the Equality Act; see 4.1 of this policy.") == ["4.1"]
    assert referenced_sections("Balances above 30 days lapse (see 3.3), as set out in section 6.2.") == ["6.2", "3.3"]
