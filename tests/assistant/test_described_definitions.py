"""A question that describes a defined thing without its name reaches the definition, and
through it the rule that uses the term: on the real pipeline (a small policy ingested here, the
real index, model and full-text search)."""
import datetime as dt

import pytest

from policypal.answering.terms import key_terms
from policypal.assistant.answering import EvidenceLoader, _definitions_described, _terms_about, answer_compose
from retrieval.models import Chunk

from .single_policy import only_policy

pytestmark = pytest.mark.django_db

COLD_STORE = b"""# Cold Store Working Standard

## 1 Purpose

This standard sets out how people who work in the frozen goods warehouse are protected and paid.

## 2 Definitions

2.1 Extended exposure means a shift in which an employee spends more than four hours in total inside a freezer room held below minus 18 degrees.

2.2 Warm break means a break of at least 15 minutes taken outside the freezer area.

2.3 Freezer room means any chamber of the warehouse held below zero degrees.

## 5 Pay and health

### 5.3 Extended exposure

An employee working an extended exposure receives a cold supplement of EUR 3.10 per hour for the whole shift. Such employees also have a health check every six months.

## 6 Equipment

Thermal gloves are replaced every three months. Lost gloves are charged at cost.
"""
QUESTION = "I spend about five hours in total inside the freezer room below minus 18 degrees on most shifts. What am I owed?"


@pytest.fixture
def cold_store(settings, tmp_path, django_user_model):
    settings.MEDIA_ROOT = tmp_path
    version = only_policy(key="cold-store", title="Cold Store Working Standard", name="cold.md", content=COLD_STORE)
    user = django_user_model.objects.create_user("cold-employee", password="pw-cold-12345")
    return version, user


def test_a_definition_the_question_describes_is_found_by_its_words(cold_store):
    version, _ = cold_store
    loader = EvidenceLoader()
    gloves = Chunk.objects.get(version=version, level="block", text__startswith="Thermal gloves")
    evidence = [loader.evidence(gloves, rank=1)]  # the search ranked only an unrelated chunk
    found = _definitions_described(QUESTION, evidence, loader)
    assert "Extended exposure" in found
    assert found["Extended exposure"][1].startswith("2.1 Extended exposure means a shift")
    # the freezer room's own definition holds only its name's words: it does not describe the question
    asked = [t for t in key_terms(QUESTION) if not t.generic]
    assert _terms_about(asked, found, question=QUESTION)[0] == "Extended exposure"


def test_the_rule_using_the_described_term_answers(cold_store):
    _, user = cold_store
    answer = answer_compose(question=QUESTION, user=user, as_of=dt.date(2026, 6, 1))
    assert answer.outcome != "not_covered"
    assert "cold supplement of EUR 3.10 per hour" in answer.text
