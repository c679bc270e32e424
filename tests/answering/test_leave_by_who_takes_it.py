"""Leave around a birth is named by who takes it: "paternity" is the other parent's leave (the
partner's), "maternity" the leave of the parent who gives birth. A table that writes both kinds as
"Parental leave (...)" rows answers each with its own row, never the other parent's, and a sentence
naming only the other parent does not carry the asked kind. One way only: "my partner" asks about
a person, not about paternity leave."""
import pytest

from .row_helpers import named, table

LEAVE = table(
    ["Leave type", "Entitlement", "Paid"],
    [["Annual leave", "25 days", "Full pay"],
     ["Parental leave (birth parent)", "26 weeks", "Full pay"],
     ["Parental leave (partner)", "20 working days", "Full pay"],
     ["Bereavement leave", "5 days", "Full pay"]],
    caption="Table 1: Leave entitlements",
)


@pytest.mark.parametrize("question, row", [
    ("How many days of paternity leave do I get?", "Parental leave (partner)"),
    ("Is paternity leave paid?", "Parental leave (partner)"),
    ("How long is maternity leave?", "Parental leave (birth parent)"),
    ("How much parental leave does a partner get?", "Parental leave (partner)"),
])
def test_the_leave_is_the_row_of_the_parent_who_takes_it(question, row):
    found = named(question, LEAVE)
    assert found is not None and found[1] == [row], found



def _carried(question, unit, word):
    from policypal.answering.coverage import decide

    return any(word in ask.carried for ask in decide(question, [[unit]]).asks)


def test_paternity_is_carried_by_the_partners_leave_not_the_birth_parents():
    question = "How many days of paternity leave do I get?"
    assert _carried(question, "Parental leave (partner): 20 working days, per birth, adoption or surrogacy.", "patern")
    assert not _carried(question, "A birth parent is entitled to 26 weeks of fully paid parental leave.", "patern")
    assert not _carried("How long is maternity leave?",
                        "The partner of an employee is entitled to 20 days of parental leave.", "matern")


def test_a_partner_asked_about_is_no_paternity_leave():
    # one way only: "my partner" is a person, not a kind of leave
    assert not _carried("Can my partner come with me on the trip?", "Paternity leave is two weeks at full pay.", "partner")
