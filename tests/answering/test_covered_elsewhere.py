"""A policy sentence that puts the asked topic outside the policy and names the document that
covers it ("It does not cover service credits, which are set out in the Service Level
Agreement") is no answer: the question is not covered, the sentence is quoted and its section is
the first of the closest; a question about what the policy covers is answered by it."""
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
