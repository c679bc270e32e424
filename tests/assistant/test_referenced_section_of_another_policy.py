"""A table row that sends the reader to a section of another policy ("Mileage rate in section 3.3
of FIN-04") is answered with that section quoted beside it, even when the search had already ranked
the section and the first answer left it out; the policy named by the code is the one that gives
the code as its own reference, not another that only cites it. On the real pipeline: three small
policies ingested here, the real search and full-text index."""
import datetime as dt

import pytest

from policypal.assistant.answering import _documents_named, answer_compose

from .single_policy import another_policy, only_policy

pytestmark = pytest.mark.django_db

TRAINING = b"""# Training Allowances Policy

## 1 Scope

This policy covers employees on sponsored courses.

## 5 Allowances while training

The following allowances are paid for each training day.

| Allowance | Rate | When paid |
|---|---|---|
| Training day pay | Basic daily pay | Every training day |
| Meal allowance | 9.50 GBP per training day | Course within 40 miles of home |
| Course travel by own car | Mileage rate in section 3.3 of FIN-04 | Where no rail ticket is provided |
| Examination resit fee | Up to 120 GBP | First resit only |
"""
TRAVEL = b"""# Crew Travel and Subsistence Policy

**Policy reference:** FIN-04

## 1 Scope

This policy covers travel on company business.

## 3 Travel

### 3.1 Joining travel

Joining travel is booked by the crewing office.

### 3.3 Use of own car

Employees who use their own car on company business are paid 45p per mile for the first 10,000 business miles in a tax year and 25p per mile after that.
"""
PAY = b"""# Grades and Pay Policy

## 1 Scope

Travel and subsistence are covered by FIN-04. Overtime is paid at time and a half.

## 3 Shift pay

### 3.3 Night shifts

A night shift premium of 15% is paid for hours worked between 22:00 and 06:00.
"""


@pytest.fixture
def policies(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    training = only_policy(key="training", title="Training Allowances Policy", name="training.md", content=TRAINING)
    travel = another_policy(key="travel", title="Crew Travel and Subsistence Policy", name="travel.md", content=TRAVEL,
                            effective_from=training.effective_from)
    pay = another_policy(key="pay", title="Grades and Pay Policy", name="pay.md", content=PAY,
                         effective_from=training.effective_from)
    return training, travel, pay


def test_the_policy_a_code_names_is_the_one_giving_it_as_its_reference(policies):
    training, travel, pay = policies
    assert _documents_named("", "FIN-04", [training.pk, travel.pk, pay.pk], training.pk) == [travel.pk]


def test_the_row_is_answered_with_the_section_it_sends_the_reader_to(policies, employee):
    answer = answer_compose(question="I'm driving my own car to a sponsored course and no rail ticket was provided. "
                                     "What mileage rate will I be paid?", user=employee, as_of=dt.date(2026, 6, 1))
    assert "section 3.3 of FIN-04" in answer.text
    assert "45p per mile" in answer.text
    assert "night shift premium" not in answer.text  # the pay policy's own 3.3
