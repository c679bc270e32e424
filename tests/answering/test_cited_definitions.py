"""Definitions appended to an answer: each cited after the answer's own paragraphs, the
closing "do not mention" sentence of a partly answered question kept last, nothing added to a
question that is not covered."""
from dataclasses import replace

from policypal.answering.compose import with_definitions
from policypal.answering.evidence import ANSWERED, NOT_COVERED, PARTLY, ROLE_DEFINITION, Answer, Evidence

RULE = Evidence(1, "Overtime > 2.1 Cap", "The count returns to zero at the start of the next pay year.", policy="ot", rank=1)
DEFINITION = Evidence(2, "Overtime > 1.1 Definitions", '"Pay year" means the period from 1 July for employees in Wales.',
                      policy="ot", role=ROLE_DEFINITION)


def test_a_definition_is_cited_after_the_answer():
    answer = with_definitions(Answer(f"{RULE.text} [1]", ANSWERED, cited=[RULE]), [(DEFINITION, DEFINITION.text)])
    assert answer.text.split("\n\n") == [f"{RULE.text} [1]", f"{DEFINITION.text} [2]"]
    assert [e.key for e in answer.cited] == [1, 2]


def test_the_closing_sentence_of_a_partly_answered_question_stays_last():
    partly = Answer(f"{RULE.text} [1]\n\nThe cited sections do not mention night shifts.", PARTLY, cited=[RULE],
                    missing=["night shifts"])
    answer = with_definitions(partly, [(DEFINITION, DEFINITION.text), (DEFINITION, DEFINITION.text)])
    paragraphs = answer.text.split("\n\n")
    assert paragraphs[1] == f"{DEFINITION.text} [2]" and paragraphs[-1].startswith("The cited sections do not mention")
    assert len(paragraphs) == 3 and len(answer.cited) == 2  # the same definition once


def test_nothing_is_added_to_a_question_not_covered():
    refused = Answer("The policies you can see do not cover this question.", NOT_COVERED)
    assert with_definitions(refused, [(DEFINITION, DEFINITION.text)]) is refused


def test_a_section_a_cited_rule_refers_to_is_cited_when_the_search_ranked_it_too():
    from policypal.answering.compose import compose_answer

    rule = Evidence(1, "Study Policy > 5. Repayment > 5.1 When repayment applies",
                    "An employee who resigns before the end of the clawback period must repay part of the funding. "
                    "The amount depends on the months since the completion date, as defined in section 2.5.",
                    policy="study", rank=1, similarity=0.55)
    other = Evidence(2, "Study Policy > 5. Repayment > 5.3 Agreement", "Before funding is released the employee signs an agreement.",
                     policy="study", rank=2, similarity=0.5)
    definition = Evidence(3, "Study Policy > 2. Definitions > 2.5 Completion date",
                          '"Completion date" means the date the qualification is awarded or the date the employee withdraws, '
                          "whichever is earlier.", policy="study", rank=3, similarity=0.44)
    elsewhere = Evidence(4, "Leave Policy > 2. Definitions > 2.5 Leave year", '"Leave year" means the calendar year.',
                         policy="leave", rank=4, similarity=0.3)
    answer = compose_answer("I resign after withdrawing from my course. From which date are the months for repayment counted?",
                            [rule, other, definition, elsewhere], corpus_mentions={})
    assert "whichever is earlier" in answer.text  # 2.5 of the rule's own policy
    assert "Leave year" not in answer.text  # not another policy's 2.5
    assert [e.key for e in answer.cited][:2] == [1, 3]


def test_a_chosen_definition_keeps_the_rest_of_its_definition():
    from policypal.answering.compose import compose_answer

    definition = Evidence(1, "Study Policy > 2. Definitions > 2.2 Approved course",
                          '"Approved course" means a course approved in writing by the Learning Panel before enrolment. '
                          "A course agreed only verbally, or by a line manager alone, is not an approved course. "
                          '"Study day" means a working day spent on study.', policy="study", rank=1, similarity=0.5)
    for question in ("Is a course my line manager agreed verbally an approved course?",  # the second sentence brings the first
                     "What counts as an approved course?"):  # the first brings the rest
        answer = compose_answer(question, [definition], corpus_mentions={})
        assert "is not an approved course" in answer.text and "Learning Panel" in answer.text, question
        assert "Study day" not in answer.text  # the next definition is not part of it


def test_the_rule_using_a_term_the_question_is_about_is_not_the_glossarys_next_sentence_and_agrees_with_it():
    from policypal.answering.compose import compose_answer
    from policypal.answering.evidence import ROLE_DEFINITION_USE, ROLE_REFERENCE

    glossary = Evidence(1, "Access Standard > 2 Definitions",
                        '"Privileged Account" means an account that can change a system\'s configuration. '
                        "Database superusers and domain administrators are all Privileged Accounts.",
                        policy="access", rank=1, similarity=0.4)
    ending = Evidence(2, "Access Standard > 6.2 Ending access", "The sponsor tells the IT service desk when a contractor's "
                      "work ends, and the account is disabled within 1 working day.", policy="access", rank=2, similarity=0.33)
    retention = Evidence(3, "Access Standard > 7.1 Retention", "Recordings of Privileged Account sessions are kept for 12 months.",
                         policy="access", role=ROLE_REFERENCE)
    expiry = Evidence(4, "Access Standard > 5.2 Reviews and expiry",
                      "Every Privileged Account is reviewed by its owner every 90 days. "
                      "One that has not been used for 45 days is disabled automatically.",
                      policy="access", role=ROLE_DEFINITION_USE)
    answer = compose_answer("I have a database superuser login I haven't used in two months. Will it still work?",
                            [glossary, ending, retention, expiry], corpus_mentions={}, about=["Privileged Account"])
    # the rule that denies what the asker denies, not the glossary's "... are all Privileged
    # Accounts" nor the retention of session recordings
    assert "not been used for 45 days is disabled automatically" in answer.text
    assert "Recordings" not in answer.text


def test_a_word_the_rule_lacks_and_the_appended_definition_says_is_no_longer_missing():
    row = Evidence(5, "Allowances > 4.1 Duty allowance", "Airport Frankfurt (FRA), Late: EUR 31.", policy="allow", rank=1)
    defined = Evidence(6, "Allowances > 2 Definitions", "Duty Allowance means the fixed supplement paid for each shift.",
                       policy="allow", role=ROLE_DEFINITION)
    partly = Answer(f"{row.text} [1]\n\nThe cited sections do not mention supplement.", PARTLY, cited=[row],
                    missing=["supplement"])
    answer = with_definitions(partly, [(defined, defined.text)])
    assert answer.outcome == ANSWERED and answer.missing == []
    assert "do not mention" not in answer.text and answer.text.endswith("[2]")
    both = replace(partly, text=partly.text.replace("supplement.", "supplement or night bonus."), missing=["supplement", "night bonus"])
    answer = with_definitions(both, [(defined, defined.text)])
    assert answer.outcome == PARTLY and answer.missing == ["night bonus"]
    assert answer.text.split("\n\n")[-1] == "The cited sections do not mention night bonus."
