"""A section a rule refers to by number is found where the policy writes its number: a clause
numbered in the text ("6.4 Late recording. ..." under the heading "6. Bonus") is the section 6.4
that "taken into account under section 6.4" sends the reader to. On the real pipeline: a small
policy ingested here, the real index and look-up."""
import pytest

from retrieval import lookup
from retrieval.embedding import get_embedder

from .single_policy import only_policy

pytestmark = pytest.mark.django_db

BONUS = b"""# Time Recording and Bonus Policy

## 4. Time Recording

4.1 All time must be entered by 10:00 on the next working day.

4.3 Late entries. Persistent late recording, meaning late-entry reminders in three consecutive months, is taken into account under section 6.4.

## 5. Targets

5.1 Non-chargeable time counts towards credited hours up to the caps set out in Table 2.

Table 1: Bonus thresholds by band

| Band | Bonus threshold |
|---|---|
| 0-1 PQE | 1,420 |
| 2-4 PQE | 1,575 |

Table 2: Non-chargeable codes and annual caps

| Code | Activity | Annual cap (hours) |
|---|---|---|
| NC-01 | Business development | 150 |
| NC-12 | Pro bono legal work | 75 |

## 6. Bonus

6.1 Eligibility. A fee earner must be in post on 30 April to be considered for a bonus.

6.4 Late recording. The Remuneration Committee will reduce any bonus otherwise payable by one quarter.

## 7. Review

### 7.1 Annual review

The policy is reviewed every year.
"""


@pytest.fixture
def bonus(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return only_policy(key="bonus", title="Time Recording and Bonus Policy", name="bonus.md", content=BONUS)


def test_a_clause_numbered_in_the_text_is_its_section(bonus):
    vector = get_embedder().encode_one("late recording bonus")
    found = lookup.section_blocks(version_id=bonus.pk, number="6.4", query_vector=vector)
    assert len(found) == 1 and "reduce any bonus otherwise payable by one quarter" in found[0].text
    assert lookup.section_blocks(version_id=bonus.pk, number="6.3", query_vector=vector) == []  # not "6.4"'s prefix
    assert lookup.section_blocks(version_id=bonus.pk, number="1.4", query_vector=vector) == []  # not "... 1,420"
    # a numbered heading still comes first
    headed = lookup.section_blocks(version_id=bonus.pk, number="7.1", query_vector=vector)
    assert headed and "reviewed every year" in headed[0].text
