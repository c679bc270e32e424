"""When nothing the search ranked holds even half of a question's words and a noun of it is held
by no evidence, the chunk nearest the question that holds that noun and another word of the
question is fetched ("the visitor sign-in log at reception" reaches the "Visitor log" row); a
chunk holding the noun alone is another topic and is not. On the real pipeline: a small policy
ingested here, the real index, model and full-text search."""
import datetime as dt

import pytest

from policypal.assistant.answering import EvidenceLoader, _carrying_evidence, answer_compose
from retrieval.embedding import get_embedder
from retrieval.models import Chunk

from .single_policy import only_policy

pytestmark = pytest.mark.django_db

RETENTION = b"""# Depot Records Standard

## 1 Purpose

This standard says how long the depot keeps its records and how they are destroyed.

## 2 Schedule

Table 1: Retention by record type

| Record type | Retention period | Disposal |
|---|---|---|
| Delivery note | 6 years | Shredding |
| Driver timesheet | 3 years | Shredding |
| Visitor log | 14 months | Secure deletion |
| Forklift check sheet | 2 years | Shredding |

## 3 Mileage

Claims for more than 500 km in a month must be supported by a mileage log signed by the depot manager.

## 4 Front desk

The front desk is staffed from 07:00 to 19:00 on working days.
"""
QUESTION = "How long should the visitor sign-in log at reception be kept?"


@pytest.fixture
def depot(settings, tmp_path, django_user_model):
    settings.MEDIA_ROOT = tmp_path
    version = only_policy(key="depot-records", title="Depot Records Standard", name="records.md", content=RETENTION)
    user = django_user_model.objects.create_user("depot-employee", password="pw-depot-12345")
    return version, user


def test_a_noun_no_evidence_holds_fetches_the_nearest_chunk_holding_it_with_another_word(depot):
    version, _ = depot
    loader = EvidenceLoader()
    mileage = Chunk.objects.get(version=version, level="block", text__startswith="Claims for more than")
    evidence = [loader.evidence(mileage, rank=1)]  # the search ranked only the mileage log rule
    found = _carrying_evidence(QUESTION, [version.pk], loader, evidence, get_embedder().encode_one(QUESTION), 1)
    assert found, "the visitor log row was not fetched"
    assert "Visitor log" in found[0].text and "14 months" in found[0].text


def test_a_chunk_holding_only_the_missing_noun_is_not_fetched(depot):
    version, _ = depot
    loader = EvidenceLoader()
    mileage = Chunk.objects.get(version=version, level="block", text__startswith="Claims for more than")
    question = "Do visitors need to wear a hard hat in the yard?"
    # "visitor" is held only by the schedule's row, which holds no other word of this question
    found = _carrying_evidence(question, [version.pk], loader, [loader.evidence(mileage, rank=1)],
                               get_embedder().encode_one(question), 1)
    assert found == []


def test_the_row_answers_the_question(depot):
    _, user = depot
    answer = answer_compose(question=QUESTION, user=user, as_of=dt.date(2026, 6, 1))
    assert answer.outcome == "answered"
    assert "14 months" in answer.text and "6 years" not in answer.text
