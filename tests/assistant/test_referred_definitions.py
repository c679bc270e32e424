"""A policy that defines a term only by sending the reader to another policy ("“Close Relative”
has the meaning given in the Leave Policy") gets that policy's definition, which says what the term
stands for; a policy the asker cannot see is never read for it. On the real pipeline: two small
policies ingested here, the real full-text index."""
import pytest

from policypal.assistant.answering import _referred_definitions
from policypal.answering.definitions import definition_spans
from retrieval.models import Chunk

from .single_policy import another_policy, only_policy

pytestmark = pytest.mark.django_db

TILLS = b"""# Till Policy

## 1 Definitions

1.1 "Close Relative" has the meaning given in the Leave Policy.

## 2 Serving customers

2.1 You must not serve a Close Relative at your till; ask another colleague to serve them.
"""
LEAVE = b"""# Leave Policy

## 1 Scope

This policy covers every employee.

## 2 Definitions

In this policy, a **Close Relative** is:
- (a) your spouse or civil partner;
- (b) your parent, child or sibling.

## 3 Bereavement

3.1 You may take five days of paid leave when a Close Relative dies.
"""


@pytest.fixture
def two_policies(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    tills = only_policy(key="tills", title="Till Policy", name="tills.md", content=TILLS)
    return tills, another_policy(key="leave", title="Leave Policy", name="leave.md", content=LEAVE,
                                 effective_from=tills.effective_from)


def _referral(tills) -> dict:
    chunk = Chunk.objects.get(version=tills, level="block", text__contains="has the meaning given")
    return {term: (chunk, paragraph) for term, paragraph in definition_spans(chunk.text)}


def test_the_other_policys_definition_replaces_the_referral(two_policies):
    tills, leave = two_policies
    found = _referred_definitions(_referral(tills), [tills.pk, leave.pk])
    chunk, paragraph = found["Close Relative"]
    assert chunk.version_id == leave.pk and "spouse or civil partner" in paragraph and "sibling" in paragraph


def test_a_policy_out_of_sight_is_not_read_for_the_definition(two_policies):
    tills, _ = two_policies
    assert _referred_definitions(_referral(tills), [tills.pk]) == {}
