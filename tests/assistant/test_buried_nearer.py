"""A chunk of another policy that holds a noun no evidence holds, and another word of the question,
is fetched when it is nearer to the question than every chunk the search ranked: the fusion
buried it under chunks full of a common word ("work" in a shift-work policy). One that is not
nearer stays out: then the ranked chunks are closer, and the words alone prove nothing. On the
real pipeline: two small policies ingested here, the real index, model and full-text search."""
import pytest

from policypal.assistant.answering import EvidenceLoader, _carrying_evidence
from retrieval.embedding import get_embedder
from retrieval.models import Chunk

from .single_policy import another_policy, only_policy

pytestmark = pytest.mark.django_db

SHIFTS = b"""# Depot Shift Work Policy

## 1 Hours of work

Work on a rostered shift starts at the time on the roster. Work done after the end of a shift is recorded as overtime work.

## 2 Breaks

A shift of more than six hours of work includes a 30-minute break away from the work area.
"""
RECORDS = b"""# Depot Records Policy

## 1 Where records are kept

Records must be kept in the system of record for their type. Records must not be kept on personal email accounts or on removable media such as USB sticks.

## 2 Paper records

Paper records are kept in locked cabinets when not in use.
"""
QUESTION = "Can I keep work files on a USB stick?"


@pytest.fixture
def two_policies(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    shifts = only_policy(key="depot-shifts", title="Depot Shift Work Policy", name="shifts.md", content=SHIFTS)
    return shifts, another_policy(key="depot-records", title="Depot Records Policy", name="records.md", content=RECORDS,
                                  effective_from=shifts.effective_from)


def _fetched(shifts, versions, *, similarity):
    """What _carrying_evidence fetches when the search ranked only the shift-work chunks, each at
    this similarity, for an asker who may read these versions; and the loader."""
    loader = EvidenceLoader()
    chunks = Chunk.objects.filter(version=shifts, level="block", searchable=True).order_by("ordinal")
    evidence = [loader.evidence(c, rank=i, similarity=similarity) for i, c in enumerate(chunks, start=1)]
    found = _carrying_evidence(QUESTION, versions, loader, evidence, get_embedder().encode_one(QUESTION), len(evidence))
    return found, loader


def test_a_nearer_chunk_of_another_policy_holding_the_missing_noun_is_fetched(two_policies):
    shifts, records = two_policies
    found, loader = _fetched(shifts, [shifts.pk, records.pk], similarity=0.05)
    assert found, "the records rule on USB sticks was not fetched"
    assert "USB sticks" in found[0].text
    assert loader.rows[found[0].key].version_id == records.pk


def test_a_chunk_no_nearer_than_the_ranked_ones_is_not_fetched(two_policies):
    shifts, records = two_policies
    assert _fetched(shifts, [shifts.pk, records.pk], similarity=0.99)[0] == []  # the ranked chunks are the nearest


def test_a_policy_the_asker_may_not_read_is_not_searched(two_policies):
    shifts, _ = two_policies
    assert _fetched(shifts, [shifts.pk], similarity=0.05)[0] == []
