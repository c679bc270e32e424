"""A table whose columns are for spans of grades ("D1–D3", "G1–G5") is answered for an asker who
says what they are in words ("I'm a conductor"): the table whose rows hold those grades is loaded
from the same policy beside it, though the search did not rank it; not when the question writes a
grade itself. On the real pipeline: one small policy ingested here."""
import pytest

from policypal.assistant.answering import EvidenceLoader, _code_family_tables
from retrieval.models import Chunk

from .single_policy import only_policy

pytestmark = pytest.mark.django_db

PAY = """# Crew Pay Policy

## 3 Grades

| Grade | Job title | Basic annual salary |
|---|---|---|
| D1 | Trainee driver | £37,150 |
| D2 | Driver | £52,480 |
| G1 | Trainee conductor | £26,940 |
| G2 | Conductor | £33,870 |
| G3 | Senior conductor | £36,520 |

## 7 Turn allowances

Allowances are paid per turn, by the grade span of the employee.

| Type of turn | D1–D2 | G1–G3 |
|---|---|---|
| Early turn | £15.40 | £12.10 |
| Night turn | £33.60 | £27.40 |

## 8 Night turn rule 0

The night turn allowance rule 0: a night turn allowance is claimed on the timesheet for the night turn, for turn pattern 0.

## 9 Night turn rule 1

The night turn allowance rule 1: a night turn allowance is claimed on the timesheet for the night turn, for turn pattern 1.

## 10 Night turn rule 2

The night turn allowance rule 2: a night turn allowance is claimed on the timesheet for the night turn, for turn pattern 2.

## 11 Night turn rule 3

The night turn allowance rule 3: a night turn allowance is claimed on the timesheet for the night turn, for turn pattern 3.

## 12 Night turn rule 4

The night turn allowance rule 4: a night turn allowance is claimed on the timesheet for the night turn, for turn pattern 4.

## 13 Night turn rule 5

The night turn allowance rule 5: a night turn allowance is claimed on the timesheet for the night turn, for turn pattern 5.

## 14 Night turn rule 6

The night turn allowance rule 6: a night turn allowance is claimed on the timesheet for the night turn, for turn pattern 6.

## 15 Night turn rule 7

The night turn allowance rule 7: a night turn allowance is claimed on the timesheet for the night turn, for turn pattern 7.
""".encode()


@pytest.fixture
def pay(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return only_policy(key="pay", title="Crew Pay Policy", name="pay.md", content=PAY)


def _allowances_only(pay, loader):
    chunk = Chunk.objects.filter(version=pay, kind=Chunk.Kind.TABLE, text__contains="Night turn").first()
    evidence = [loader.evidence(chunk, rank=1)]
    loader.attach_tables(evidence)
    return loader.with_tables(evidence)


def test_the_grade_table_is_loaded_beside_a_table_of_grade_spans(pay):
    loader = EvidenceLoader()
    evidence = _allowances_only(pay, loader)
    found = _code_family_tables("I'm a conductor. What's the night turn allowance?", evidence, loader, [pay.pk])
    assert found and found[0].breadcrumb.endswith("3 Grades") and "Job title" in found[0].text
    assert _code_family_tables("I'm a G2. What's the night turn allowance?", evidence, loader, [pay.pk]) == []


def test_the_asker_named_in_words_gets_the_cell_of_their_span(pay, django_user_model):
    import datetime as dt

    from policypal.assistant.answering import answer_compose

    user = django_user_model.objects.create_user("crew-member", password="pw-crew-12345")
    answer = answer_compose(question="I'm a conductor. What's the night turn allowance for me?", user=user,
                            as_of=dt.date(2026, 6, 1))
    assert "£27.40" in answer.text and "£33.60" not in answer.text, answer.text
