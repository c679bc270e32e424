"""Definitions written without "means" ("We use "Key Holder" to refer to ...", "The Site
Controller (the "SC") is ...") are found by the words that describe them, and the rule that
writes only the abbreviation is fetched for the term: on the real pipeline (a small policy
ingested here, the real index, model and full-text search)."""
import datetime as dt

import pytest

from policypal.assistant.answering import EvidenceLoader, _definitions_described, _rules_using, answer_compose
from retrieval.embedding import get_embedder
from retrieval.models import Chunk

from .single_policy import only_policy

pytestmark = pytest.mark.django_db

DEPOT = b"""# Depot Operations Standard

## 1 Purpose

This standard sets out how the depot is opened, secured and kept safe.

## 2 Definitions

We use "Key Holder" to refer to the driver who locks the depot gates after the last delivery of the day.

The Site Controller (the "SC") is the senior manager who opens the depot each morning and answers for its security.

## 5 Alarms

### 5.1 Intruder alarm

If the intruder alarm lasts more than ten minutes, the SC must call the monitoring centre and the police.

### 5.2 Fire alarm

Everyone leaves by the nearest exit and gathers at the assembly point by the gatehouse.

## 6 Keys

The Key Holder returns the gate keys to the key safe within 30 minutes of locking up.

## 7 Parking

Staff park in the rear yard; visitors use the front bays.
"""


@pytest.fixture
def depot(settings, tmp_path, django_user_model):
    settings.MEDIA_ROOT = tmp_path
    version = only_policy(key="depot", title="Depot Operations Standard", name="depot.md", content=DEPOT)
    user = django_user_model.objects.create_user("depot-employee", password="pw-depot-12345")
    return version, user


def test_a_definition_worded_we_use_to_refer_to_is_found_by_its_words(depot):
    version, _ = depot
    loader = EvidenceLoader()
    parking = Chunk.objects.get(version=version, level="block", text__startswith="Staff park")
    question = "I'm the driver who locks the depot gates after the last delivery. How long do I have to put the keys back?"
    found = _definitions_described(question, [loader.evidence(parking, rank=1)], loader)
    assert "Key Holder" in found
    assert found["Key Holder"][1].startswith('We use "Key Holder" to refer to the driver')


def test_the_rule_writing_only_the_abbreviation_is_fetched_for_the_term(depot):
    version, _ = depot
    question = "The senior manager who opens the depot - who must they call if the intruder alarm drags on past ten minutes?"
    vector = get_embedder().encode_one(question)
    uses = _rules_using("Site Controller", ["Site Controller"], question, home=[version.pk], vector=vector, have=set(),
                        aliases=["Site Controller", "SC"])
    assert [u.text for u in uses] == ["If the intruder alarm lasts more than ten minutes, the SC must call the monitoring centre and the police."]
    # by its full name alone no rule uses it
    assert _rules_using("Site Controller", ["Site Controller"], question, home=[version.pk], vector=vector, have=set()) == []


def test_the_question_describing_the_role_gets_the_rule_and_the_definition(depot):
    _, user = depot
    answer = answer_compose(question="The senior manager who opens the depot each morning - who must they call if the "
                                     "intruder alarm drags on past ten minutes?", user=user, as_of=dt.date(2026, 6, 1))
    assert answer.outcome != "not_covered"
    assert "must call the monitoring centre and the police" in answer.text
    assert any("Definitions" in c.breadcrumb for c in answer.citations)
