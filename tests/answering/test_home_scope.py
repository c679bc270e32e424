"""Where the asker is based ("on the UK payroll") against the scope of the cited policy: an
answer drawn only from a policy for another country is partly answered and says the place is
not mentioned; the same answer for the policy's own country, or for a place the asker travels
to, stays answered."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED, PARTLY, Evidence

RULE = Evidence(1, "Harbourline Leave Policy (India) > 3 Earned leave > 3.1 Entitlement",
                "Employees on the payroll earn 24 days of earned leave in each leave year.", policy="leave-in",
                policy_title="Harbourline Leave Policy (India)", rank=1, similarity=0.6)


def test_a_home_place_the_policy_is_not_for_makes_the_answer_partly():
    answer = compose_answer("I'm based in London. How many days of earned leave do I get?", [RULE], corpus_mentions={})
    assert answer.outcome == PARTLY
    assert "24 days" in answer.text and answer.text.endswith("do not mention London.")
    # "UK payroll" is not carried either (the decision names it)
    uk = compose_answer("How many days of earned leave do employees on the UK payroll get?", [RULE], corpus_mentions={})
    assert uk.outcome == PARTLY and "uk" in uk.text.split("[1]")[-1].lower()


def test_the_policys_own_country_or_a_destination_keeps_it_answered():
    assert compose_answer("I'm based in Pune. How many days of earned leave do I get?", [RULE],
                          corpus_mentions={}).outcome == ANSWERED
    assert compose_answer("How many days of earned leave do employees get?", [RULE], corpus_mentions={}).outcome == ANSWERED
