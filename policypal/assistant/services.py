"""Answer a question and keep the record reviewers check."""
from __future__ import annotations

import datetime as dt

from django.db import transaction

from .answering import ComposedAnswer, answer_compose
from .models import Answer, Citation


def answer_question(*, question: str, user, as_of: dt.date | None = None, record: bool = True) -> tuple[ComposedAnswer, Answer | None]:
    composed = answer_compose(question=question, user=user, as_of=as_of)
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
        notices=composed.notices,
    )
    Citation.objects.bulk_create(
        Citation(answer=answer, n=n, chunk=chunk, breadcrumb=chunk.breadcrumb, text=chunk.text)
        for n, chunk in enumerate(composed.citations, start=1)
    )
    return answer
