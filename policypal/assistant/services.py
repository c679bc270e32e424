"""Answer a question and keep the record reviewers check; the asker's feedback on it."""
from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Generator

from django.db import transaction

from .answering import ComposedAnswer, answer_compose
from .llm_answering import answer_with_llm, answer_with_llm_stream, llm_enabled
from .models import Answer, AnswerFeedback, Citation

FEEDBACK_COMMENT_MAX_LENGTH = 2000


class FeedbackInputError(ValueError):
    """The feedback cannot be stored; the message says why, in words for the page."""


def answer_question(*, question: str, user, as_of: dt.date | None = None, record: bool = True) -> tuple[ComposedAnswer, Answer | None]:
    composed = answer_compose(question=question, user=user, as_of=as_of)
    if llm_enabled():
        composed = answer_with_llm(composed)
    saved = answer_record(user=user, composed=composed) if record and composed.question else None
    return composed, saved


def answer_question_stream(
    *, question: str, user, as_of: dt.date | None = None, record: bool = True
) -> Generator[str, None, tuple[ComposedAnswer, Answer | None]]:
    """answer_question, yielding the language model's reply as it arrives (nothing when no model
    is configured or the question is not covered); `yield from` gives (composed, saved)."""
    composed = answer_compose(question=question, user=user, as_of=as_of)
    if llm_enabled():
        composed = yield from answer_with_llm_stream(composed)
    saved = answer_record(user=user, composed=composed) if record and composed.question else None
    return composed, saved


@transaction.atomic
def answer_record(*, user, composed: ComposedAnswer) -> Answer:
    answer = Answer.objects.create(
        user=user if getattr(user, "is_authenticated", False) else None,
        question=composed.question,
        as_of=composed.as_of,
        text=composed.text,
        covered=composed.covered,
        outcome=composed.outcome,
        closest=[
            {"chunk_id": chunk.pk, "breadcrumb": chunk.breadcrumb, "policy_title": chunk.policy.title}
            for chunk in composed.closest
        ],
        claims=[dataclasses.asdict(claim) for claim in composed.claims] if composed.claims is not None else None,
        answered_by=composed.answered_by,
        notices=composed.notices,
    )
    Citation.objects.bulk_create(
        Citation(answer=answer, n=n, chunk=chunk, policy_id=chunk.policy_id, breadcrumb=chunk.breadcrumb, text=chunk.text)
        for n, chunk in enumerate(composed.citations, start=1)
    )
    return answer


@transaction.atomic
def answer_feedback_give(*, answer: Answer, user, verdict: str, comment: str = "") -> AnswerFeedback:
    """Store the asker's feedback on their answer, replacing their earlier one (never a second row).

    Only the user who asked may give it; to anyone else the answer does not exist
    (Answer.DoesNotExist, a 404 in views, as for every per-user object)."""
    if not getattr(user, "is_authenticated", False) or answer.user_id is None or answer.user_id != user.pk:
        raise Answer.DoesNotExist("No such answer.")
    if verdict not in AnswerFeedback.Verdict.values:
        choices = ", ".join(label.lower() for label in AnswerFeedback.Verdict.labels)
        raise FeedbackInputError(f"Choose one of: {choices}.")
    comment = (comment or "").strip()
    if len(comment) > FEEDBACK_COMMENT_MAX_LENGTH:
        raise FeedbackInputError(
            f"Keep the comment to {FEEDBACK_COMMENT_MAX_LENGTH} characters or fewer (it has {len(comment)})."
        )
    feedback, _ = AnswerFeedback.objects.update_or_create(
        answer=answer, user=user, defaults={"verdict": verdict, "comment": comment}
    )
    return feedback
