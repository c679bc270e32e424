"""The answer record keeps the answer layer's fields: outcome, closest sections, claims and which
answerer wrote it; the migration that added them derives `outcome` of older answers from `covered`."""
from __future__ import annotations

import datetime as dt
import importlib

import pytest
from django.apps import apps

from policypal.answering.evidence import Claim
from policypal.assistant.answering import ComposedAnswer
from policypal.assistant.models import Answer
from policypal.assistant.services import answer_question, answer_record
from retrieval.models import Chunk

pytestmark = pytest.mark.django_db

AS_OF = dt.date(2026, 6, 1)


def test_an_answer_from_the_built_in_answerer_is_recorded_with_its_outcome(employee):
    composed, saved = answer_question(question="What is the daily meal allowance in Mumbai for grade L4?", user=employee, as_of=AS_OF)
    saved.refresh_from_db()
    assert (saved.outcome, saved.covered, saved.answered_by) == (composed.outcome, composed.covered, composed.answered_by)
    assert saved.answered_by == "extractive" and saved.claims is None


def test_closest_sections_and_claims_are_stored_as_plain_data(employee):
    chunks = list(Chunk.objects.select_related("policy").order_by("pk")[:3])
    composed = ComposedAnswer(
        question="Can I claim a gym membership?", as_of=AS_OF, text="Partly [1].", outcome="partly",
        citations=chunks[:1], closest=chunks[1:],
        claims=[Claim(text="Partly [1].", citations=(1,), supported=True),
                Claim(text="Also 45.", citations=(7,), supported=False, reason="cites [7], which does not exist")],
        answered_by="llm",
    )
    saved = answer_record(user=employee, composed=composed)
    saved.refresh_from_db()
    assert (saved.outcome, saved.covered, saved.answered_by) == ("partly", True, "llm")
    assert saved.closest == [
        {"chunk_id": c.pk, "breadcrumb": c.breadcrumb, "policy_title": c.policy.title} for c in chunks[1:]
    ]
    assert saved.claims == [
        {"text": "Partly [1].", "citations": [1], "supported": True, "reason": ""},
        {"text": "Also 45.", "citations": [7], "supported": False, "reason": "cites [7], which does not exist"},
    ]
    assert saved.citations.count() == 1


def test_not_covered_is_recorded_as_such(employee):
    composed = ComposedAnswer(question="Can I bring my dog?", as_of=AS_OF, text="Not covered.", outcome="not_covered")
    saved = answer_record(user=employee, composed=composed)
    assert (saved.outcome, saved.covered, saved.closest, saved.claims) == ("not_covered", False, [], None)


def test_the_migration_marks_older_uncovered_answers_not_covered(employee):
    covered = Answer.objects.create(user=employee, question="a", as_of=AS_OF, text="a", covered=True)
    uncovered = Answer.objects.create(user=employee, question="b", as_of=AS_OF, text="b", covered=False)
    assert uncovered.outcome == "answered"  # the column default, as for rows that existed before
    migration = importlib.import_module("policypal.assistant.migrations.0003_answer_layer_fields_and_feedback")
    migration.outcome_from_covered(apps, None)
    covered.refresh_from_db(), uncovered.refresh_from_db()
    assert (covered.outcome, uncovered.outcome) == ("answered", "not_covered")
