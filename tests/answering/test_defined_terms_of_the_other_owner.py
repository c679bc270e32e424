"""A definition of the employer's thing is not what the asker describes when they write the thing
as their own ("my own iPhone" is no "Company Device"), and the other way round."""
from policypal.assistant.answering import _owned_otherwise, _terms_about
from policypal.answering.terms import key_terms

DEFINITIONS = {
    "Company Device": (None, "Company Device means a laptop, phone, tablet or desktop owned or issued by Northwind and enrolled in "
                             "its device management system."),
    "Personal Device": (None, "Personal Device means any device that is not a Company Device, including a contractor's own laptop "
                              "and an employee's own phone."),
}


def test_the_owner_the_question_writes_rules_out_the_other_owners_term():
    assert _owned_otherwise("can I keep it on my own phone?", "Company Device")
    assert not _owned_otherwise("can I keep it on my own phone?", "Personal Device")
    assert _owned_otherwise("can I install it on my work laptop?", "Personal Device")
    assert not _owned_otherwise("can I install it on a laptop?", "Company Device")


def test_a_question_about_the_askers_own_phone_is_about_the_personal_device():
    question = "Can I save a caller's mobile number in the contacts on my own iPhone?"
    about = _terms_about([t for t in key_terms(question) if not t.generic], DEFINITIONS, question=question)
    assert about and about[0] == "Personal Device"
    assert "Company Device" not in about
