"""A policy sentence that puts the asked topic outside the policy and names the document that
covers it ("It does not cover service credits, which are set out in the Service Level
Agreement") is no answer: the question is not covered, the sentence is quoted and its section is
the first of the closest; a question about what the policy covers is answered by it."""
from dataclasses import replace

from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED, NOT_COVERED, Evidence

SCOPE = Evidence(1, "Refunds Policy > 1 Purpose and scope",
                 "This policy tells billing staff when a customer may get their money back. It does not cover "
                 "service credits for outages, which are set out in the Service Level Agreement.",
                 policy="refunds", rank=1, similarity=0.6)
WINDOW = Evidence(2, "Refunds Policy > 2 Refund window",
                  "Standard plans are refundable in full within 30 days of the first payment.",
                  policy="refunds", rank=2, similarity=0.5)


def test_a_topic_the_policy_sends_elsewhere_is_not_covered():
    answer = compose_answer("How are service credits for an outage calculated?", [SCOPE, WINDOW], corpus_mentions={})
    assert answer.outcome == NOT_COVERED and not answer.cited
    assert "set out in the Service Level Agreement" in answer.text
    assert [e.key for e in answer.closest][:1] == [1]


def test_a_question_about_what_the_policy_covers_is_answered_by_it():
    answer = compose_answer("Does the refunds policy cover service credits for outages?", [SCOPE, WINDOW],
                            corpus_mentions={})
    assert answer.outcome == ANSWERED and "does not cover service credits" in answer.text
    assert [e.key for e in answer.cited] == [1]


def test_an_exclusion_naming_no_other_document_still_answers():
    # "does not apply to contractors" says what the policy does, not where else to look
    rule = Evidence(3, "Leave Policy > 2 Scope", "This policy does not apply to contractors, who have no paid leave.",
                    policy="leave", rank=1, similarity=0.6)
    answer = compose_answer("Do contractors get paid leave?", [rule], corpus_mentions={})
    assert answer.outcome != NOT_COVERED and "does not apply to contractors" in answer.text


def test_a_thing_this_policy_says_it_does_not_deal_with_is_not_covered():
    # "... a clothing allowance through the payroll, which is not covered by this policy": how much is not said
    rule = Evidence(3, "Uniform Policy > 2 Issue", "Area managers do not receive a uniform and instead receive a clothing "
                    "allowance through the payroll, which is not covered by this policy.", policy="uniform",
                    policy_title="Uniform Policy", rank=1, similarity=0.6)
    answer = compose_answer("How much is the clothing allowance paid to area managers?", [rule], corpus_mentions={})
    assert answer.outcome == NOT_COVERED and "where it is dealt with" in answer.text
    # a sentence saying this policy covers it is no pointer away
    rule = replace(rule, text="The clothing allowance for area managers is covered by this policy and is £300 a year.")
    assert compose_answer("How much is the clothing allowance paid to area managers?", [rule], corpus_mentions={}).outcome != NOT_COVERED


def test_another_named_policy_covering_the_thing_is_a_pointer_but_the_policy_itself_is_not():
    rule = Evidence(3, "Loans Policy > 6 Other loans", "Season ticket loans for office staff are covered by the Travel Policy.",
                    policy="loans", policy_title="Colleague Loans Policy", rank=1, similarity=0.6)
    answer = compose_answer("What is the maximum season ticket loan for office staff?", [rule], corpus_mentions={})
    assert answer.outcome == NOT_COVERED and "Travel Policy" in answer.text
    own = replace(rule, policy_title="Travel Policy", breadcrumb="Travel Policy > 6 Loans")
    assert compose_answer("What is the maximum season ticket loan for office staff?", [own], corpus_mentions={}).outcome != NOT_COVERED
