"""A table whose columns are written for stretches of a ladder of grades without numbers ("FF-T to
FF-C", "CM-WM") brings the ladder's own table from the same policy when no evidence holds it, and
an asker who names their grade in words ("a watch manager") gets the cell of their stretch. On the
real pipeline: one small policy ingested here."""
import pytest

from policypal.assistant.answering import EvidenceLoader, _code_family_tables
from retrieval.models import Chunk

from .single_policy import another_policy, only_policy

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
    found = _code_family_tables("day-crewed allowance for a watch manager", evidence, loader, [pay.pk])
    assert found and found[0].breadcrumb.endswith("3 Roles") and "Role and stage" in found[0].text
    # once the ladder is among the evidence (its table attached), nothing more is loaded
    loader.attach_tables(found)
    found = loader.with_tables(found)
    assert found[0].table is not None and found[0].table.rows[0].cells[0] == "FF-D"
    assert _code_family_tables("day-crewed allowance for a watch manager", evidence + found, loader, [pay.pk]) == []


def test_the_asker_named_in_words_gets_the_cell_of_their_stretch(pay, django_user_model):
    import datetime as dt

    from policypal.assistant.answering import answer_compose

    user = django_user_model.objects.create_user("firefighter", password="pw-fire-12345")
    answer = answer_compose(question="What is the day-crewed allowance for a watch manager?", user=user,
                            as_of=dt.date(2026, 6, 1))
    assert "£5,068" in answer.text and "£4,512" not in answer.text and "£5,731" not in answer.text, answer.text


GRADES = """# Clinical Grades and Pay

## 2 Nursing grades

| Grade code | Role | Minimum hourly rate |
|---|---|---|
| PCA1 | Patient care assistant | £11.50 |
| PCA2 | Senior patient care assistant | £12.10 |
| VN1 | Student veterinary nurse | £12.80 |
| VN2 | Registered veterinary nurse | £14.20 |
| VN3 | Senior registered veterinary nurse | £15.90 |
"""

ON_CALL = """# Out-of-Hours and On-Call Policy

## 3 On-call payments

Employees receive the payment below for each on-call session, whether or not they are called out.

| On-call session | PCA2 | VN1-VN2 | VN3 |
|---|---|---|---|
| Weekday night, first on-call | £27 | £35 | £43 |
| Weekday night, second on-call | £13.50 | £17.50 | £21.50 |
| Bank holiday (24 hours), first on-call | £66 | £84 | £102 |
"""


def test_the_ladders_table_is_found_in_another_policy(settings, tmp_path, django_user_model):
    """The grades are set in the pay policy; the on-call policy's columns are written for them."""
    import datetime as dt

    from policypal.assistant.answering import answer_compose

    settings.MEDIA_ROOT = tmp_path
    grades = only_policy(key="clinical-grades", title="Clinical Grades and Pay", name="grades.md", content=GRADES.encode())
    on_call = another_policy(key="on-call", title="Out-of-Hours and On-Call Policy", name="on_call.md", content=ON_CALL.encode())
    loader = EvidenceLoader()
    chunk = Chunk.objects.filter(version=on_call, kind=Chunk.Kind.TABLE).first()
    evidence = [loader.evidence(chunk, rank=1)]
    loader.attach_tables(evidence)
    evidence = loader.with_tables(evidence)
    # its own policy holds no row of the ladder: every policy the asker may read is searched
    assert _code_family_tables("a student nurse on call", evidence, loader, [on_call.pk]) == []
    found = _code_family_tables("a student nurse on call", evidence, loader, [on_call.pk, grades.pk])
    # one row of the grades table (its families PCA and VN share the table), which brings it whole
    assert len(found) == 1 and found[0].breadcrumb.endswith("Nursing grades"), [e.text for e in found]
    user = django_user_model.objects.create_user("nurse", password="pw-nurse-12345")
    answer = answer_compose(question="I'm a student nurse, second on call on a Tuesday night - what do I get if I'm not called in?",
                            user=user, as_of=dt.date(2026, 6, 1))
    assert "£17.50" in answer.text, answer.text
    assert "£13.50" not in answer.text and "£35" not in answer.text and "£21.50" not in answer.text, answer.text


MARINE_PAY = """# Marine Pay Policy

## 3 Marine grades

| Grade | Typical post | Basic hourly rate |
|---|---|---|
| DO-4 | Third officer; junior officer of the watch | £19.80 |
| DO-3 | Second officer | £22.80 |
| DO-2 | Chief officer | £27.00 |
| DO-1 | Master | £32.40 |
"""

CERTIFICATES = """# Seafarer Certificates Policy

## 2 Certificates by grade

Every marine grade employee must hold the certificate and the additional training shown for their grade.

| Grade | Minimum certificate | Additional training required |
|---|---|---|
| DO-4 | OOW (Near Coastal) CoC | Elementary first aid |
| DO-3 | OOW (Unlimited) CoC | Medical first aid |
| DO-2 | Chief Mate CoC | Medical first aid |
| DO-1 | Master (Near Coastal) CoC or higher | Ship security officer certificate |

## 3 Training allowances

| Allowance | DO-4-DO-3 | DO-2-DO-1 |
|---|---|---|
| Daily allowance | £40 | £55 |
"""


def test_a_table_of_grade_codes_brings_the_table_that_titles_them(settings, tmp_path, django_user_model):
    """The certificates are set by grade code; which code a third officer is, the pay policy says
    (its row opening with the code, not the allowance row under a header naming it)."""
    import datetime as dt

    from policypal.assistant.answering import answer_compose

    settings.MEDIA_ROOT = tmp_path
    pay = only_policy(key="marine-pay", title="Marine Pay Policy", name="pay.md", content=MARINE_PAY.encode())
    certificates = another_policy(key="certificates", title="Seafarer Certificates Policy", name="certs.md",
                                  content=CERTIFICATES.encode())
    loader = EvidenceLoader()
    chunk = Chunk.objects.filter(version=certificates, kind=Chunk.Kind.TABLE).first()
    evidence = [loader.evidence(chunk, rank=1)]
    loader.attach_tables(evidence)
    evidence = loader.with_tables(evidence)
    found = _code_family_tables("minimum certificate for a third officer", evidence, loader, [certificates.pk, pay.pk])
    assert len(found) == 1 and found[0].breadcrumb.endswith("Marine grades"), [e.text for e in found]
    # the question writing nothing the table lacks brings nothing; nor does a table of those codes
    # that lacks the words as well ("a deckhand"), nor a grade named by its number
    assert _code_family_tables("minimum certificate for the grade", evidence, loader, [certificates.pk, pay.pk]) == []
    assert _code_family_tables("minimum certificate for a deckhand", evidence, loader, [certificates.pk, pay.pk]) == []
    assert _code_family_tables("minimum certificate for a third officer on grade 4", evidence, loader, [certificates.pk, pay.pk]) == []
    user = django_user_model.objects.create_user("officer", password="pw-officer-12345")
    answer = answer_compose(question="What's the minimum certificate for a third officer?", user=user, as_of=dt.date(2026, 6, 1))
    assert "OOW (Near Coastal) CoC" in answer.text, answer.text
    assert "Master (Near Coastal)" not in answer.text and "OOW (Unlimited)" not in answer.text, answer.text
