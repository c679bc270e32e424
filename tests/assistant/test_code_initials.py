"""A code written by its family's initial ("g9" for "Grade 9") finds the row by full text, so the
row is answered even when the search ranks other rows first. On the real pipeline: a small policy
ingested here, the real index, model and full-text search."""
import pytest

from policypal.assistant.answering import answer_compose
from retrieval import lookup

from .single_policy import only_policy

pytestmark = pytest.mark.django_db

GRADES = b"""# Academic Workload Policy

## 4 Grade-related allowances

4.1 The protected research time and citizenship allowance for each grade are set out below.

| Grade | Typical job titles | Protected Research Time | Citizenship allowance |
|---|---|---|---|
| Grade 5 | Teaching Assistant | None | 15 hours |
| Grade 6 | Research Assistant | 10% | 30 hours |
| Grade 7 | Lecturer | 35% | 60 hours |
| Grade 8 | Senior Lecturer | 40% | 90 hours |
| Grade 9 | Reader | 45% | 120 hours |
| Grade 10 | Professor | 50% | 160 hours |

## 5 Meetings

5.1 Citizenship covers attendance at school meetings, open days and peer observation.
"""


@pytest.fixture
def workload(settings, tmp_path, django_user_model):
    settings.MEDIA_ROOT = tmp_path
    version = only_policy(key="workload", title="Academic Workload Policy", name="workload.md", content=GRADES)
    user = django_user_model.objects.create_user("lecturer", password="pw-lecturer-12345")
    return version, user


def test_a_word_of_the_initial_before_the_number_is_found(workload):
    version, _ = workload
    found = lookup.chunks_with_initial(versions=[version.pk], letter="g", number=9)
    assert found and "Grade 9" in found[0].text
    assert lookup.chunks_with_initial(versions=[version.pk], letter="q", number=9) == []
    assert lookup.chunks_with_initial(versions=[version.pk], letter="g'; drop", number=9) == []  # a letter only


def test_the_initial_and_number_answer_the_grades_row(workload):
    _, user = workload
    answer = answer_compose(question="g9 citizenship allowance?", user=user)
    assert answer.outcome == "answered"
    assert "120 hours" in answer.text
    assert "90 hours" not in answer.text and "160 hours" not in answer.text
