"""The age the asker tells finds the definition that bounds it, by full text in the policies the
search found, and the question is about that term: on the real pipeline (a small policy ingested
here, the real index and look-up)."""
import pytest

from policypal.answering.terms import key_terms
from policypal.assistant.answering import EvidenceLoader, _definitions_of_the_askers_age, _terms_about
from retrieval.models import Chunk

from .single_policy import only_policy

pytestmark = pytest.mark.django_db

ROTA = b"""# Rota and Breaks Policy

## 2 Definitions

2.1 The Rota Coordinator is the person at each property who compiles and publishes the rota.

2.2 In this policy, a Young Worker is an employee who is over compulsory school age but under 18.

2.3 A Night Worker is an employee who regularly works at least 3 hours between 23:00 and 06:00.

## 3 The rota

3.1 The rota is published two weeks ahead.

3.5 A Young Worker must not be rostered between 22:00 and 06:00. Table 1 does not apply to Young Workers.
"""


@pytest.fixture
def rota(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return only_policy(key="rota", title="Rota and Breaks Policy", name="rota.md", content=ROTA)


def test_the_definition_bounding_a_told_age_is_found(rota):
    loader = EvidenceLoader()
    published = Chunk.objects.get(version=rota, level="block", text__contains="published two weeks ahead")
    evidence = [loader.evidence(published, rank=1)]
    question = "I'm 17 and doing a 5 hour shift on Saturday. How long is my break?"
    found = _definitions_of_the_askers_age(question, evidence, loader)
    assert list(found) == ["Young Worker"]
    asked = [t for t in key_terms(question) if not t.generic]
    assert _terms_about(asked, found, question=question) == ["Young Worker"]
    assert _definitions_of_the_askers_age("I'm 34 and doing a 5 hour shift. How long is my break?", evidence, loader) == {}
