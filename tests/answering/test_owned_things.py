"""Which thing the question means. A thing the question says is the employer's ("a company car")
is not carried by a unit that speaks of it only as the employee's ("their own car"), nor the
other way round; a unit naming it without an owner, or as the question does, carries it. An
adjective naming the kind ("radioactive waste") must be the unit's too."""
import pytest

from policypal.answering.coverage import decide


@pytest.mark.parametrize("question, unit, carried", [
    ("Can I get a company car?", "Employees driving to sites in their own car must have business cover.", False),
    ("Can I get a company car?", "Company cars are offered from grade 5.", True),
    ("Can I get a company car?", "Cars are offered to sales staff from grade 5.", True),
    ("Can I get a company car?", "A company-owned car may be taken home at weekends.", True),
    ("Can I park my own car at the office?", "Company cars park in bay 3 at the office.", False),
    ("Can I park my own car at the office?", "Staff may park their own car at the office in the rear yard.", True),
    ("Can I read work email on my personal phone?", "Company phones must be locked with a PIN.", False),
])
def test_whose_thing_it_is_decides_whether_the_unit_speaks_of_it(question, unit, carried):
    decision = decide(question, [[unit]])
    held = decision.asks[0].carried
    assert (("car" in held) or ("phone" in held)) is carried, held


@pytest.mark.parametrize("question, unit, outcome", [
    # the adjective says which kind of waste: a unit on biological waste speaks of another kind
    ("How should radioactive waste from the lab be disposed of?",
     "All biological waste from the lab must be autoclaved. Waste is disposed of by the contracted provider.", "partly"),
    ("How should radioactive waste from the lab be disposed of?",
     "Radioactive waste from the lab is disposed of through the Radiation Protection Officer.", "answered"),
    # an adverb or a participle before the noun says no kind
    ("How quickly must lab waste be disposed of?", "Lab waste must be disposed of within 24 hours.", "answered"),
])
def test_the_kind_the_question_names_must_be_the_units(question, unit, outcome):
    decision = decide(question, [[unit]])
    assert decision.outcome == outcome, (decision.asks[0].carried, decision.asks[0].focus_missing)
    if outcome == "partly":
        assert decision.missing == ["radioactive waste"]
