"""Reviewer scope: a reviewer sees an answer, its verdict counts and the regression questions made
from it only when they may read every policy it cites, even after the cited chunks are deleted.

The restricted policy is the sample corpus's manager compensation policy (group "managers"); the
demo `reviewer` is not a manager, `scope-lead` reviews and is one."""
from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from django.contrib.auth.models import Group

from policypal.assistant.models import Answer, AnswerFeedback, Citation
from policypal.assistant.reviews import regression_question_create
from policypal.assistant.selectors import feedback_filter_counts, review_filter_counts
from policypal.assistant.services import answer_feedback_give, answer_question
from policypal.policies.roles import REVIEWERS
from retrieval.models import Chunk

pytestmark = pytest.mark.django_db

AS_OF = dt.date(2026, 6, 1)
RESTRICTED_QUESTION = "How is the manager bonus pool funded?"  # manager-compensation: 12% of profit
OPEN_QUESTION = "What is the daily meal allowance in Mumbai for grade L4?"  # travel: 1,800


@pytest.fixture
def outsider(sample_corpus, django_user_model):
    return django_user_model.objects.get(username="reviewer")


@pytest.fixture
def lead(sample_corpus, django_user_model):
    user = django_user_model.objects.create_user("scope-lead", password="pw-lead-123")
    user.groups.add(Group.objects.get(name=REVIEWERS), Group.objects.get(name="managers"))
    return user


@pytest.fixture
def restricted(manager, lead) -> Answer:
    _, answer = answer_question(question=RESTRICTED_QUESTION, user=manager, as_of=AS_OF)
    assert set(answer.citations.values_list("chunk__policy__key", flat=True)) == {"manager-compensation"}
    regression_question_create(answer=answer, created_by=lead, evidence=["12%"], expect_no_answer=False,
                               note="bonus pool (restricted)")
    answer_feedback_give(answer=answer, user=manager, verdict=AnswerFeedback.Verdict.MISSING_CAVEAT)
    return answer


@pytest.fixture
def open_answer(employee) -> Answer:
    _, answer = answer_question(question=OPEN_QUESTION, user=employee, as_of=AS_OF)
    assert answer.citations.exists()
    return answer


def _sees(client, user, answer: Answer) -> dict:
    client.force_login(user)
    listing = client.get("/review/").content.decode()
    jsonl = client.get("/review/regressions.jsonl").content.decode()
    badge = re.search(r'id="regression-count">(\d+)<', listing)
    return {
        "regressions": int(badge.group(1)),
        "row": f'id="answer-row-{answer.pk}"' in listing,
        "detail": client.get(f"/review/answers/{answer.pk}/").status_code == 200,
        "regression": any(json.loads(line)["question"] == answer.question for line in jsonl.splitlines()),
        "quoted": "12%" in listing + jsonl,
        "counts": review_filter_counts(reviewer=user)["all"],
        "missing_caveat": feedback_filter_counts(reviewer=user)[AnswerFeedback.Verdict.MISSING_CAVEAT],
    }


def test_outsider_sees_neither_the_restricted_answer_nor_its_regression_line(client, outsider, lead, restricted, open_answer):
    mine = _sees(client, outsider, restricted)
    assert not mine["row"] and not mine["detail"] and not mine["regression"] and not mine["quoted"]
    assert mine["missing_caveat"] == 0  # the feedback filter counts follow the same scope
    assert f'id="answer-row-{open_answer.pk}"' in client.get("/review/").content.decode()

    theirs = _sees(client, lead, restricted)
    assert theirs["row"] and theirs["detail"] and theirs["regression"] and theirs["quoted"]
    assert theirs["missing_caveat"] == 1
    assert theirs["counts"] == mine["counts"] + 1
    assert theirs["regressions"] == mine["regressions"] + 1  # the download button's count too


def test_deleting_the_cited_chunks_does_not_open_the_answer_to_outsiders(client, outsider, lead, restricted, open_answer):
    Chunk.objects.filter(pk__in=restricted.citations.values("chunk_id")).delete()
    assert not restricted.citations.filter(chunk__isnull=False).exists()

    mine = _sees(client, outsider, restricted)
    assert not mine["row"] and not mine["detail"] and not mine["regression"] and not mine["quoted"]
    assert mine["missing_caveat"] == 0

    assert set(restricted.citations.values_list("policy__key", flat=True)) == {"manager-compensation"}
    theirs = _sees(client, lead, restricted)  # the policy kept on the citation still lets them check it
    assert theirs["row"] and theirs["detail"] and theirs["regression"]
    client.force_login(lead)
    assert "chunk no longer exists" in client.get(f"/review/answers/{restricted.pk}/").content.decode()


def test_a_citation_whose_policy_is_unknown_hides_the_answer_from_all_but_superusers(
    client, outsider, lead, open_answer, django_user_model
):
    # A citation recorded before the policy was stored on it, whose chunk is gone since.
    Citation.objects.filter(answer=open_answer).update(chunk=None, policy=None)
    assert not _sees(client, outsider, open_answer)["detail"]
    assert not _sees(client, lead, open_answer)["detail"]
    root = django_user_model.objects.create_superuser("scope-root", password="pw-root-123")
    assert _sees(client, root, open_answer)["row"]
