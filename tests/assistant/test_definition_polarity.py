"""The defined terms a question is about leave out a definition that says the opposite of what
the asker tells: "a shared car that isn't allocated to anybody" is about the Pool Vehicle (not
assigned to a named employee), not the Assigned Vehicle (allocated to one named employee),
although both hold "car" and "allocated" or its synonym."""
from policypal.answering.terms import key_terms
from policypal.assistant.answering import _terms_about

DEFINITIONS = {
    "Assigned Vehicle": (None, "Assigned Vehicle means a car or light van that the company has allocated to one "
                               "named employee for business and private use."),
    "Pool Vehicle": (None, "Pool Vehicle means a car or light van owned by the company that is not assigned to a "
                           "named employee and is booked for single journeys."),
}


def _about(question):
    asked = [t for t in key_terms(question) if not t.generic]
    return _terms_about(asked, DEFINITIONS, question=question)


def test_the_definition_contradicting_the_question_is_not_what_it_is_about():
    # the Assigned Vehicle's definition holds more of the question's words (car, allocated, business, use)
    question = "A car for business use that isn't allocated to anybody: when must the car go back?"
    assert _about(question) == ["Pool Vehicle"]


def test_the_question_stating_what_a_definition_denies_is_about_the_other():
    # the Pool Vehicle's definition holds more of them (car, assigned, booked, journeys)
    question = "The car assigned to me, booked for my journeys: where does the car go back?"
    assert _about(question) == ["Assigned Vehicle"]
