"""Reviewer writes: a verdict on an answer, and a regression question made from it.

Regression questions are exported as JSON Lines in the format `manage.py evaluate` reads
(samples/eval/README.md): question, evidence, user, as_of, expect_no_answer.
"""
from __future__ import annotations

import json
from collections.abc import Iterable

from django.core.exceptions import PermissionDenied
from django.db import transaction

from policypal.policies.roles import is_reviewer

from .models import Answer, RegressionQuestion, Review

COMMENT_MAX_LENGTH = 4000
NOTE_MAX_LENGTH = 2000
EVIDENCE_MAX_LENGTH = 300
EVIDENCE_MAX_STRINGS = 20


class ReviewInputError(ValueError):
    """The reviewer's input cannot be stored; the message says why, in words for the page."""


def _require_reviewer(user) -> None:
    if not is_reviewer(user):
        raise PermissionDenied("Only reviewers can review answers.")


@transaction.atomic
def review_record(*, answer: Answer, reviewer, verdict: str, comment: str = "") -> Review:
    """Store the reviewer's verdict on the answer, replacing their earlier one (never a second row)."""
    _require_reviewer(reviewer)
    if verdict not in Review.Verdict.values:
        choices = ", ".join(label.lower() for label in Review.Verdict.labels)
        raise ReviewInputError(f"Choose a verdict: {choices}.")
    comment = (comment or "").strip()
    if len(comment) > COMMENT_MAX_LENGTH:
        raise ReviewInputError(f"Keep the comment under {COMMENT_MAX_LENGTH} characters (it has {len(comment)}).")
    review, _ = Review.objects.update_or_create(
        answer=answer, reviewer=reviewer, defaults={"verdict": verdict, "comment": comment}
    )
    return review


def evidence_clean(evidence: list[str]) -> list[str]:
    """Stripped, non-blank, de-duplicated evidence strings in the order given."""
    return list(dict.fromkeys(s.strip() for s in evidence if s and s.strip()))


@transaction.atomic
def regression_question_create(
    *, answer: Answer, created_by, evidence: list[str], expect_no_answer: bool, note: str = ""
) -> RegressionQuestion:
    """A question to re-run: the answer's question, asker and date, with the evidence it must find."""
    _require_reviewer(created_by)
    if answer.user is None:
        raise ReviewInputError("The person who asked this question no longer has an account, so it cannot be re-run as them.")
    evidence = evidence_clean(evidence)
    if expect_no_answer and evidence:
        raise ReviewInputError(
            "A question that expects no answer has no evidence: clear the evidence lines or untick “expect no answer”."
        )
    if not expect_no_answer and not evidence:
        raise ReviewInputError(
            "Give at least one evidence string (one per line), or tick “expect no answer” "
            "when the policies in the asker's scope should not answer it."
        )
    if len(evidence) > EVIDENCE_MAX_STRINGS:
        raise ReviewInputError(f"Give at most {EVIDENCE_MAX_STRINGS} evidence strings (there are {len(evidence)}).")
    too_long = [s for s in evidence if len(s) > EVIDENCE_MAX_LENGTH]
    if too_long:
        raise ReviewInputError(
            f"Each evidence string must be at most {EVIDENCE_MAX_LENGTH} characters; "
            f"this one has {len(too_long[0])}: “{too_long[0][:60]}…”. Split it into shorter verbatim pieces."
        )
    note = (note or "").strip()
    if len(note) > NOTE_MAX_LENGTH:
        raise ReviewInputError(f"Keep the note under {NOTE_MAX_LENGTH} characters (it has {len(note)}).")
    return RegressionQuestion.objects.create(
        question=answer.question,
        username=answer.user.get_username(),
        as_of=answer.as_of,
        evidence=evidence,
        expect_no_answer=expect_no_answer,
        note=note,
        created_by=created_by,
        source_answer=answer,
    )


def regression_question_dict(question: RegressionQuestion) -> dict:
    """One line of the evaluate format; `note` and `tags` are extra keys evaluate ignores."""
    data: dict = {"question": question.question, "evidence": list(question.evidence)}
    if question.username:
        data["user"] = question.username
    if question.as_of:
        data["as_of"] = question.as_of.isoformat()
    data["expect_no_answer"] = question.expect_no_answer
    data["tags"] = ["regression"]
    if question.note:
        data["note"] = question.note
    return data


def regression_questions_jsonl(questions: Iterable[RegressionQuestion]) -> str:
    """The given regression questions, one JSON object per line. The caller chooses them: the
    review page passes the reviewer's scope (`regression_question_list_for_review`)."""
    return "".join(json.dumps(regression_question_dict(q), ensure_ascii=False) + "\n" for q in questions)
