"""A cited rule that uses a defined term brings the term's definition when the definition holds
what the question asks and the rule lacks ("I work in Wales": the rule says "the next pay year",
the definition says when a pay year starts in Wales); both are cited. On the real pipeline: a
small policy ingested here, the real index, model and full-text search."""
import datetime as dt

import pytest

from policypal.answering.evidence import Answer
from policypal.assistant.answering import EvidenceLoader, _definitions_of_cited_terms, answer_compose
from retrieval.models import Chunk

from .single_policy import only_policy

pytestmark = pytest.mark.django_db

OVERTIME = b"""# Plant Overtime Standard

## 1 Definitions

1.1 "Pay year" means the calendar year for employees in England, and the period from 1 July to the following 30 June for employees in Wales.

1.2 "Shift lead" means the person in charge of a production line during a shift.

## 2 Overtime cap

2.1 No employee may work more than 180 hours of overtime in a pay year. The count of overtime hours returns to zero at the start of the next pay year.

## 3 Approval

3.1 Overtime must be agreed with the shift lead before it is worked.

## 4 Canteen

4.1 The canteen is open from 06:00 to 22:00.
"""


@pytest.fixture
def plant(settings, tmp_path, django_user_model):
    settings.MEDIA_ROOT = tmp_path
    only_policy(key="plant-overtime", title="Plant Overtime Standard", name="overtime.md", content=OVERTIME)
    user = django_user_model.objects.create_user("plant-employee", password="pw-plant-12345")
    return user


def test_the_definition_of_a_term_the_cited_rule_uses_is_cited_when_it_holds_what_the_rule_lacks(plant):
    answer = answer_compose(question="I work in Wales - when does my count of overtime hours go back to zero?", user=plant,
                            as_of=dt.date(2026, 6, 1))
    assert answer.outcome != "not_covered"
    assert "returns to zero at the start of the next pay year" in answer.text
    assert "1 July" in answer.text  # the definition, cited beside the rule
    assert len(answer.citations) >= 2 and "[2]" in answer.text
    assert "canteen" not in answer.text.lower()


def test_no_definition_is_added_when_the_rule_holds_every_word(plant):
    answer = answer_compose(question="How many hours of overtime may I work in a pay year?", user=plant,
                            as_of=dt.date(2026, 6, 1))
    assert "180 hours" in answer.text
    assert "1 July" not in answer.text


def test_the_follow_up_finds_the_definition_from_the_cited_rule_alone(plant):
    """The search ranked only the rule: the definition is found through the term the rule uses."""
    loader = EvidenceLoader()
    rule = loader.evidence(Chunk.objects.get(level="block", text__contains="No employee may work more than 180"), rank=1)
    question = "I work in Wales - when does my count of overtime hours go back to zero?"
    found = _definitions_of_cited_terms(question, Answer(f"{rule.text} [1]", "answered", cited=[rule]), loader)
    assert list(found) == ["Pay year"]
    assert "1 July" in found["Pay year"][1]
    # the shift lead's definition holds no word the rule lacks; a question the rule carries fully looks up nothing
    assert _definitions_of_cited_terms("How many overtime hours may I work in a pay year?",
                                       Answer(f"{rule.text} [1]", "answered", cited=[rule]), loader) == {}
