"""A rule written under a condition the question does not state ("If an employee falls ill
during annual leave, ...") gives way to a rule that carries the question alike without one; a
condition the question states keeps its rule; an ailment names being sick."""
from policypal.answering.coverage import decide, unmet_condition

DURING_LEAVE = ("If an employee falls ill during annual leave, the days can be reclassified as sick leave "
                "provided the employee provides a fit note for the whole period.")
EVIDENCE = ("No fit note is needed for a self-certified sickness absence of up to 7 days, but the employee must "
            "complete a self-certification form on their first day back.")


def test_a_condition_the_question_does_not_state_is_unmet():
    assert unmet_condition("I was sick for four days. Do I need a fit note?", DURING_LEAVE)
    assert not unmet_condition("I fell ill during my annual leave. Do I need a fit note?", DURING_LEAVE)
    assert not unmet_condition("I was sick for four days. Do I need a fit note?", EVIDENCE)


def test_of_two_units_carrying_alike_the_unconditioned_rule_answers():
    question = "I was sick for four days. Do I need a fit note when I come back?"
    decision = decide(question, [[DURING_LEAVE], [EVIDENCE]])
    assert decision.asks[0].best_unit == 1
    # the asker on leave is answered by the rule for leave
    decision = decide("I fell ill during my annual leave. Do I need a fit note?", [[DURING_LEAVE], [EVIDENCE]])
    assert decision.asks[0].best_unit == 0


def test_an_ailment_is_being_sick():
    for ailment in ("a stomach bug", "flu", "food poisoning"):
        decision = decide(f"I've had {ailment} for two days. Do I need a fit note?", [[EVIDENCE]])
        assert {"stomach", "bug", "flu", "food", "poison"} & decision.asks[0].carried, (ailment, decision.asks[0].carried)


def test_a_condition_later_in_the_rule_qualifies_it_and_does_not_scope_it():
    lone = ("A keyholder opening alone must call the Security Control Centre before disarming the alarm. "
            "If the second call is not received, the centre will send the police.")
    assert not unmet_condition("I'm opening the store alone tomorrow. What do I do?", lone)
    assert unmet_condition("I'm opening the store alone tomorrow. What do I do?",
                           "If a keyholder arriving to open sees signs of a break-in, they must not enter.")
