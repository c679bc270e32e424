"""A rule that speaks of the asker's thing by its defined name ("return all Company Kit") brings
the definition that names the thing ("Company Kit means ... monitors, furniture ...") when the
evidence holds no word for it: the two read as one unit and both are cited. On the real
pipeline: a small policy ingested here, the real index, model and full-text search."""
import datetime as dt

import pytest

from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ROLE_DEFINITION
from policypal.assistant.answering import EvidenceLoader, _follow_ups, answer_compose
from retrieval.embedding import get_embedder
from retrieval.models import Chunk

from .single_policy import only_policy

pytestmark = pytest.mark.django_db

KIT = b"""# Remote Kit Policy

## 1 Definitions

1.1 "Company Kit" means any item the company bought for you, including laptops, monitors, furniture and headsets.

1.2 "Kit Desk" means the team that keeps the register of Company Kit.

## 2 Leaving

2.1 When your employment ends, you must return all Company Kit within 10 working days of your last working day.

## 3 Canteen

3.1 The canteen is open from 07:00 to 19:00.
"""
QUESTION = "I am leaving the company. How long have I got to send back my monitor?"


@pytest.fixture
def kit(settings, tmp_path, django_user_model):
    settings.MEDIA_ROOT = tmp_path
    version = only_policy(key="remote-kit", title="Remote Kit Policy", name="kit.md", content=KIT)
    return version, django_user_model.objects.create_user("kit-employee", password="pw-kit-12345")


def test_the_definition_naming_what_the_rule_lacks_is_fetched_beside_the_rule(kit):
    version, _ = kit
    loader = EvidenceLoader()
    rule = loader.evidence(Chunk.objects.get(level="block", text__contains="return all Company Kit"), rank=1)
    first = compose_answer(QUESTION, [rule], corpus_mentions={})
    assert first.outcome != "answered"  # the rule alone does not hold "monitor"
    follow, about = _follow_ups(first, [rule], loader, versions=[version.pk], vector=get_embedder().encode_one(QUESTION),
                                question=QUESTION)
    definitions = [e for e in follow if e.role == ROLE_DEFINITION]
    assert definitions and "monitors, furniture" in definitions[0].text
    # the monitor is a kind the definition lists: the question is about the term (one word of it is enough)
    assert about == ["Company Kit"]
    second = compose_answer(QUESTION, [rule, *follow], corpus_mentions={})
    assert second.outcome == "answered"
    assert "within 10 working days" in second.text and "monitors, furniture" in second.text


def test_nothing_is_fetched_when_the_rule_holds_every_word(kit):
    version, _ = kit
    loader = EvidenceLoader()
    rule = loader.evidence(Chunk.objects.get(level="block", text__contains="return all Company Kit"), rank=1)
    question = "When my employment ends, how long do I have to return Company Kit?"
    first = compose_answer(question, [rule], corpus_mentions={})
    follow, _ = _follow_ups(first, [rule], loader, versions=[version.pk], vector=get_embedder().encode_one(question),
                            question=question)
    assert not [e for e in follow if e.role == ROLE_DEFINITION]


def test_the_whole_pipeline_cites_the_rule_and_the_definition(kit):
    _, user = kit
    answer = answer_compose(question=QUESTION, user=user, as_of=dt.date(2026, 6, 1))
    assert answer.outcome == "answered"
    assert "within 10 working days" in answer.text and "[2]" in answer.text
    assert "canteen" not in answer.text.lower()
