"""A definition that reads with the rule using its term: the pair carries the asker's words
("my monitor and chair" against "return all Company Kit", where the definition lists monitors
and furniture), both pieces are cited and nothing else is; a lexicon phrase is carried where a
unit writes the phrase it says the same as ("bank holiday" and "public holiday")."""
from policypal.answering.compose import compose_answer
from policypal.answering.coverage import decide
from policypal.answering.evidence import ANSWERED, NOT_COVERED, ROLE_DEFINITION, Evidence

RULE = Evidence(1, "Kit Policy > 7. Leaving > 7.1 Returning kit",
                "When your employment ends, you must return all Company Kit within 10 working days of your last working day.",
                policy="kit", rank=1, similarity=0.5)
PARKING = Evidence(2, "Kit Policy > 8. Parking", "Parking at the office is free for every employee on the day they hand in their badge.",
                   policy="kit", rank=2, similarity=0.45)
DEFINITION = Evidence(3, "Kit Policy > 2. Definitions",
                      '"Company Kit" means any item the company bought for you, including laptops, monitors, furniture and headsets.',
                      policy="kit", role=ROLE_DEFINITION)
QUESTION = "I'm leaving the company. How long have I got to send back my monitor and chair?"


def test_the_rule_alone_does_not_carry_what_only_its_definition_names():
    assert compose_answer(QUESTION, [RULE, PARKING], corpus_mentions={}).outcome == NOT_COVERED


def test_the_definition_and_the_rule_carry_the_question_together_and_both_are_cited():
    answer = compose_answer(QUESTION, [RULE, PARKING, DEFINITION], corpus_mentions={})
    assert answer.outcome == ANSWERED
    assert "within 10 working days" in answer.text
    assert {e.key for e in answer.cited} == {1, 3}  # the rule and the definition; not the parking rule
    assert "Parking" not in answer.text


def test_the_pieces_of_a_carrying_pair_are_its_evidence():
    from policypal.answering.compose import _paired_units

    pool = [RULE, PARKING, DEFINITION]
    pairs = _paired_units(pool)
    assert [pieces for _, pieces in pairs] == [(2, 0)]  # the definition (2) with the rule using its term (0)
    decision = decide(QUESTION, [[e.text, e.breadcrumb] for e in pool] + [texts for texts, _ in pairs])
    decision.members = {len(pool) + n: pieces for n, (_, pieces) in enumerate(pairs)}
    assert decision.carried_units == {3} and decision.carried_pieces == {0, 2}


def test_a_phrase_is_carried_by_the_phrase_the_lexicon_says_is_the_same():
    unit = [["For each public holiday that falls within your rota week you receive an extra payment of GBP 60."]]
    decision = decide("How much extra do I get if a bank holiday comes in my rota week?", unit)
    assert decision.outcome == ANSWERED and "bank" in decision.asks[0].carried


GLOSSARY = Evidence(
    4, "Travel Policy > 3. Definitions",
    '3.1 "Conference Grant" means a contribution from the Faculty towards the costs of attending a conference.\n\n'
    "3.2 In this policy, an Early Career Researcher is a member of research staff awarded their doctorate no more than "
    "5 years before the application.\n\n"
    "3.3 Budget Holder : the person with authority to commit funding from a cost centre.",
    policy="travel", rank=1, similarity=0.6)


def test_a_glossary_is_read_one_definition_at_a_time():
    # the question's words lie in three definitions: together they describe nothing, and no rule is here
    question = "I got my doctorate three years ago. What's the most conference grant funding I can get in a year?"
    assert compose_answer(question, [GLOSSARY], corpus_mentions={}).outcome != ANSWERED
    # one definition holds the whole question: it answers it
    answer = compose_answer("What is a Conference Grant?", [GLOSSARY], corpus_mentions={})
    assert answer.outcome == ANSWERED and "contribution from the Faculty" in answer.text


def test_numbered_definitions_of_every_form_are_found():
    from policypal.answering.definitions import defined_terms

    assert defined_terms(GLOSSARY.text) == ["Conference Grant", "Early Career Researcher", "Budget Holder"]


def test_of_the_rules_using_a_term_the_one_giving_the_asked_kind_of_value_is_cited():
    definition = Evidence(5, "Travel > 3. Definitions",
                          '"High-Risk Destination" means any country for which the Foreign Office advises against all but essential travel.',
                          policy="travel", rank=1, similarity=0.6)
    check_in = Evidence(6, "Travel > 9. Safety", "When travelling to a High-Risk Destination you must check in with your office "
                        "every 72 hours.", policy="travel", rank=2, similarity=0.55)
    approval = Evidence(7, "Travel > 5. Approval", "Travel to a High-Risk Destination must be approved by the Pro-Vice-Chancellor, "
                        "whatever the cost.", policy="travel", rank=3, similarity=0.4)
    question = "The Foreign Office advises against all but essential travel to where I'm going. Who has to sign off on the office trip?"
    answer = compose_answer(question, [definition, check_in, approval], corpus_mentions={}, about=["High-Risk Destination"])
    assert "approved by the Pro-Vice-Chancellor" in answer.text
