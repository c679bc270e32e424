"""A role the asker names by its row's whole name in a table of grades ("a trainee ramp agent":
"RA1 – Ramp Agent (Trainee)") is spoken of by its code in the rule that answers ("An RA1 employee
moves to RA2 ..."): the question is read again with the code, and that answer kept when it
answers. On the real pipeline: one small policy ingested here."""
import datetime as dt

import pytest

from policypal.assistant.answering import answer_compose

from .single_policy import only_policy

pytestmark = pytest.mark.django_db

PAY = """# Ground Handling Grades Policy

## 3 Grades and hourly rates

### 3.2 Rate card

| Grade | Basic hourly rate | Overtime rate |
|---|---|---|
| RA1 – Ramp Agent (Trainee) | £12.40 | £18.60 |
| RA2 – Ramp Agent | £13.25 | £19.88 |
| Senior Ramp Agent (RA3) | £14.60 | £21.90 |
| BH1 – Baggage Hall Operative | £12.55 | £18.83 |

### 3.3 Moving up a grade

An RA1 employee moves to RA2 from the start of the first Pay Week after they have completed six months' service and
passed the ramp competence assessment. Moves into the senior grades are made only on appointment to a vacancy.

### 3.4 Airport weighting

| Airport | Airport weighting (per hour) |
|---|---|
| Manchester | £0.65 |
| Birmingham | £0.50 |
| Edinburgh | £0.70 |

## 4 Uniform

Uniform is issued on the first day of employment and replaced every two years.
"""


@pytest.fixture
def pay(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return only_policy(key="ground-pay", title="Ground Handling Grades Policy", name="pay.md", content=PAY.encode())


def test_a_role_named_by_its_rows_name_reaches_the_rule_written_with_its_code(pay, employee):
    question = "How long before a trainee ramp agent becomes an RA2?"
    answer = answer_compose(question=question, user=employee, as_of=dt.date(2026, 6, 1))
    assert answer.outcome == "answered"  # read as "a trainee ramp agent (RA1)"; read as asked it is only partly answered
    assert "six months' service" in answer.text
    assert answer.question == question  # shown as asked


def test_a_row_the_table_lacks_is_not_asked_again(pay, employee):
    # no row for Stansted: read with the senior ramp agent's code, the pay row would answer for it
    answer = answer_compose(question="What's the airport weighting for a senior ramp agent at Stansted?", user=employee,
                            as_of=dt.date(2026, 6, 1))
    assert answer.outcome == "not_covered" and "no row for Stansted" in answer.text
    assert "£14.60" not in answer.text and "£21.90" not in answer.text
