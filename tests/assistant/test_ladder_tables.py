"""A table whose columns are written for stretches of a ladder of grades without numbers ("FF-T to
FF-C", "CM-WM") brings the ladder's own table from the same policy when no evidence holds it, and
an asker who names their grade in words ("a watch manager") gets the cell of their stretch. On the
real pipeline: one small policy ingested here."""
import pytest

from policypal.assistant.answering import EvidenceLoader, _code_family_tables
from retrieval.models import Chunk

from .single_policy import only_policy

pytestmark = pytest.mark.django_db

PAY = """# Firefighter Pay Policy

## 3 Roles

| Role code | Role and stage | Annual basic pay |
|---|---|---|
| FF-D | Firefighter in development | £28,037 |
| FF-C | Competent firefighter | £37,369 |
| CM-C | Competent crew manager | £41,393 |
| WM-D | Watch manager in development | £42,276 |
| WM-C | Competent watch manager | £45,031 |
| SM-C | Competent station manager | £51,260 |

## 5 Duty system allowances

The annual allowances below are paid in addition to basic pay, by the member of staff's role code.

| Duty system | FF-D to FF-C | CM-WM | SM |
|---|---|---|---|
| Wholetime shift | £1,146 | £1,287 | Not applicable |
| Day-crewed | £4,512 | £5,068 | £5,731 |
""" + "".join(f"""
## {6 + n} Day-crewed rule {n}

The day-crewed allowance rule {n}: a day-crewed allowance is claimed on the timesheet for the duty system, for rota pattern {n}.
""" for n in range(8))


@pytest.fixture
def pay(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return only_policy(key="fire-pay", title="Firefighter Pay Policy", name="pay.md", content=PAY.encode())


def test_the_ladder_table_is_loaded_beside_a_table_of_its_stretches(pay):
    loader = EvidenceLoader()
    chunk = Chunk.objects.filter(version=pay, kind=Chunk.Kind.TABLE, text__contains="Day-crewed").first()
    evidence = [loader.evidence(chunk, rank=1)]
    loader.attach_tables(evidence)
    evidence = loader.with_tables(evidence)
    found = _code_family_tables("day-crewed allowance for a watch manager", evidence, loader)
    assert found and found[0].breadcrumb.endswith("3 Roles") and "Role and stage" in found[0].text
    # once the ladder is among the evidence (its table attached), nothing more is loaded
    loader.attach_tables(found)
    found = loader.with_tables(found)
    assert found[0].table is not None and found[0].table.rows[0].cells[0] == "FF-D"
    assert _code_family_tables("day-crewed allowance for a watch manager", evidence + found, loader) == []


def test_the_asker_named_in_words_gets_the_cell_of_their_stretch(pay, django_user_model):
    import datetime as dt

    from policypal.assistant.answering import answer_compose

    user = django_user_model.objects.create_user("firefighter", password="pw-fire-12345")
    answer = answer_compose(question="What is the day-crewed allowance for a watch manager?", user=user,
                            as_of=dt.date(2026, 6, 1))
    assert "£5,068" in answer.text and "£4,512" not in answer.text and "£5,731" not in answer.text, answer.text
