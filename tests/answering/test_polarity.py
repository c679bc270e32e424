"""What a text denies and what it states, and a description that says the opposite of the
question: the asker's "a car that isn't allocated to anybody" is not the definition of "a car
allocated to one named employee"; synonyms count as the word."""
from policypal.answering.terms import contradicts, equivalents, polarity, stem

ASSIGNED = "Assigned Vehicle means a car or light van that the company has allocated to one named employee."
POOL = "Pool Vehicle means a car or light van owned by the company that is not assigned to a named employee."


def test_a_negation_denies_the_first_content_word_after_it():
    denied, stated = polarity("a car that is not yet assigned to a named employee")
    assert stem("assigned") in denied and stem("assigned") not in stated
    assert stem("car") in stated
    denied, _ = polarity("an account that hasn't been used for 45 days")
    assert denied == {stem("used")}


def test_a_description_stating_what_the_question_denies_contradicts_it():
    question = "I'm using one of the shared cars that isn't allocated to anybody. When must it go back?"
    assert contradicts(question, ASSIGNED)
    assert not contradicts(question, POOL)  # "not assigned" agrees with "isn't allocated"


def test_a_description_denying_what_the_question_states_contradicts_it():
    assert contradicts("The car is assigned to me. Where do I return it?", POOL)
    assert not contradicts("The car is assigned to me. Where do I return it?", ASSIGNED)


def test_words_both_stated_and_denied_do_not_contradict():
    both = "A vehicle may be assigned to a team or not assigned at all."
    assert not contradicts("a car that isn't assigned to anybody", both)


def test_allocated_and_assigned_say_the_same_and_coffee_is_a_drink():
    assert stem("assigned") in equivalents(stem("allocated"))
    assert stem("drinking") in equivalents(stem("coffee"))
    assert stem("tea") not in equivalents(stem("coffee"))  # two kinds of drink are not each other


def test_a_verb_in_ing_after_a_negation_denies_its_object_too():
    denied, _ = polarity("Sole Source means buying from one supplier without seeking competing quotes.")
    assert {stem("seeking"), stem("competing"), stem("quotes")} <= denied
    assert not contradicts("buying from only one vendor without competing bids",
                           "Sole Source means buying from one supplier without seeking competing quotes.")


def test_instead_of_and_rather_than_deny_what_follows():
    assert polarity("I stay at my sister's instead of a hotel")[0] == {stem("hotel")}
    assert polarity("I drive rather than take the train")[0] == {stem("take")}


def test_a_negation_denies_the_verb_after_to_with_its_own():
    from policypal.answering.terms import contradicts, polarity

    denied, _ = polarity("A Dormant Account is a University Account that has not been used to sign in for 90 days.")
    assert {"use", "sign"} <= denied
    # the asker who has not signed in describes it; one who signs in daily does not
    definition = "A Dormant Account is a University Account that has not been used to sign in for 90 days."
    assert not contradicts("I haven't signed in to my university account for four months.", definition)
    assert contradicts("I sign in to my university account every day.", definition)
