"""A term a policy's glossary defines, which a rule uses in lower case ("During an inflatable
session, ..."), is read from the glossary of the ranked policy: the asker describes the thing in
their own words ("a big floating assault course"), so neither its capitals nor the search reach
the definition; the rule and the definition are then cited together. On the real pipeline (a
small policy ingested here, the real index, model and full-text search). Seen in the blind run of
holdout48 (leisure centres)."""
import datetime as dt

import pytest

from policypal.assistant.answering import EvidenceLoader, _glossary_terms_used, answer_compose
from retrieval.models import Chunk

from .single_policy import only_policy

pytestmark = pytest.mark.django_db

POOLS = b"""# Pool Safety Standard

## 1 Purpose

This standard sets out how the pools of the leisure centre are staffed and kept safe.

## 2 Definitions

In this standard:

- "Bather load" means the number of people in the water of one pool at the same time.
- "Inflatable session" means any session in which a floating inflatable obstacle course or play structure is in the water.
- "Deep water" means any water deeper than 1.5 metres.

## 3 Lifeguard cover

### 3.1 Numbers on poolside

A main pool needs two lifeguards on poolside for a bather load of up to 80 and three above that.

### 3.2 Sessions with equipment

During an inflatable session, one extra lifeguard must be positioned at each end of the inflatable, in addition to the numbers in section 3.1.

## 4 Chemicals

A face shield and chemical-resistant gloves must be worn when handling any pool chemical.
"""
QUESTION = "On Saturday we're putting the big floating assault course in the main pool. Do we need more lifeguards?"


@pytest.fixture
def pools(settings, tmp_path, django_user_model):
    settings.MEDIA_ROOT = tmp_path
    version = only_policy(key="pool-safety", title="Pool Safety Standard", name="pools.md", content=POOLS)
    user = django_user_model.objects.create_user("pool-employee", password="pw-pool-12345")
    return version, user


def test_a_lower_case_term_a_ranked_rule_uses_is_read_from_the_glossary(pools):
    version, _ = pools
    loader = EvidenceLoader()
    rule = Chunk.objects.get(version=version, level="block", text__startswith="During an inflatable session")
    chemicals = Chunk.objects.get(version=version, level="block", text__startswith="A face shield")
    found = _glossary_terms_used([loader.evidence(rule, rank=1), loader.evidence(chemicals, rank=2)], loader, {})
    assert list(found) == ["Inflatable session"]  # not "Deep water" nor "Bather load": no ranked rule uses them
    assert found["Inflatable session"][1].startswith('- "Inflatable session" means any session')


def test_the_rule_and_the_definition_answer_the_asker_in_their_own_words(pools):
    _, user = pools
    answer = answer_compose(question=QUESTION, user=user, as_of=dt.date(2026, 6, 1))
    assert answer.outcome != "not_covered", answer.text
    assert "one extra lifeguard must be positioned at each end of the inflatable" in answer.text
    assert "floating inflatable obstacle course" in answer.text

