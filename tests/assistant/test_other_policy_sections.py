"""A rule that sends the reader to a section of another policy ("paid as a travel day (see
section 6.1 of PRD-01)", "as set out in section 3 of the Crew Pay Policy") brings that section of
that policy, found by the reference code its text carries or by its title, in the version the
asker may read; never the referring policy's own section of that number. On the real pipeline:
two small policies ingested here, the real full-text index."""
import numpy as np
import pytest

from policypal.assistant.answering import _documents_named, _sections_referred_to
from retrieval.models import Chunk

from .single_policy import another_policy, only_policy

pytestmark = pytest.mark.django_db

TRAVEL = b"""# Location Travel Policy

## 1 Scope

This policy covers crew working away from base.

## 2 Travel days

A day on which a crew member only travels is paid as a travel day (see section 3.1 of PRD-01).

## 3 Meals

### 3.1 Breakfast

Breakfast is provided at the unit base on every shooting day.
"""
PAY = b"""# Crew Pay Policy

**Policy reference:** PRD-01

## 1 Scope

This policy sets the pay of every crew member.

## 3 Day types

### 3.1 Pay for different day types

| Day type | Pay |
|---|---|
| Sixth day | 1.5 x daily rate |
| Travel day with no work | 50% of daily rate |
"""


@pytest.fixture
def two_policies(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    travel = only_policy(key="travel", title="Location Travel Policy", name="travel.md", content=TRAVEL)
    return travel, another_policy(key="pay", title="Crew Pay Policy", name="pay.md", content=PAY,
                                  effective_from=travel.effective_from)


def _followed(referring_text: str, travel, versions) -> list[Chunk]:
    host = Chunk.objects.filter(version=travel, level="block").first()
    return _sections_referred_to([(host, referring_text)], vector=np.zeros(384, dtype=np.float32), have=set(),
                                 versions=versions)


def test_the_section_of_the_policy_named_by_its_code_is_fetched(two_policies):
    travel, pay = two_policies
    found = _followed("paid as a travel day (see section 3.1 of PRD-01).", travel, [travel.pk, pay.pk])
    assert found and all(c.version_id == pay.pk for c in found)
    assert any("50% of daily rate" in c.text for c in found)


def test_the_section_of_the_policy_named_by_its_title_is_fetched(two_policies):
    travel, pay = two_policies
    found = _followed("as set out in section 3.1 of the Crew Pay Policy.", travel, [travel.pk, pay.pk])
    assert found and all(c.version_id == pay.pk for c in found)


def test_the_referring_policys_own_section_of_that_number_is_not_fetched(two_policies):
    travel, pay = two_policies
    found = _followed("paid as a travel day (see section 3.1 of PRD-01).", travel, [travel.pk, pay.pk])
    assert not any("Breakfast" in c.text for c in found)


def test_a_policy_the_asker_cannot_see_is_not_read(two_policies):
    travel, pay = two_policies
    assert _documents_named("", "PRD-01", [travel.pk], travel.pk) == []
    assert _followed("paid as a travel day (see section 3.1 of PRD-01).", travel, [travel.pk]) == []


def test_its_own_sections_are_still_followed(two_policies):
    travel, pay = two_policies
    found = _followed("Meals are provided (see 3.1).", travel, [travel.pk, pay.pk])
    assert found and all(c.version_id == travel.pk for c in found) and "Breakfast" in found[0].text
