"""Reads for the assistant pages. Every read of chunk text or source files goes through the
user's access scope here, so no view can forget it."""
from __future__ import annotations

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet

from policypal.policies.models import Policy, PolicyVersion, SourceDocument
from retrieval.access import policy_visible_q, sees_everything
from retrieval.models import Chunk

from policypal.policies.roles import is_reviewer

from .models import Answer, AnswerFeedback, Citation, RegressionQuestion, Review

# A version whose text employees may read: processed, and published now or in the past
# (a retired version stays readable so that old answers and reviews can be checked).
_READABLE_VERSION = Q(status=PolicyVersion.Status.READY) & (Q(published=True) | Q(retired_at__isnull=False))


def _visible_policies(*, user) -> QuerySet[Policy]:
    return Policy.objects.filter(policy_visible_q(user))


def readable_versions(*, user) -> QuerySet[PolicyVersion]:
    return PolicyVersion.objects.filter(_READABLE_VERSION, policy__in=_visible_policies(user=user))


def chunk_get_for_user(*, chunk_id: int, user) -> Chunk | None:
    """The chunk, when the user may read its policy and its version is ready; else None."""
    if user is None or not user.is_authenticated:
        return None
    return (
        Chunk.objects.select_related("version", "policy", "source", "parent")
        .filter(pk=chunk_id, policy__in=_visible_policies(user=user), version__in=readable_versions(user=user))
        .first()
    )


def source_get_for_user(*, source_id: int, user) -> SourceDocument | None:
    """The uploaded file, under the same rule as its chunks."""
    if user is None or not user.is_authenticated:
        return None
    return (
        SourceDocument.objects.select_related("version", "version__policy")
        .filter(pk=source_id, version__in=readable_versions(user=user))
        .first()
    )


def answer_list_for_user(*, user, limit: int = 15) -> list[Answer]:
    """The user's most recent questions, newest first, each with `my_feedback` (the user's
    AnswerFeedback on it, or None)."""
    if user is None or not user.is_authenticated:
        return []
    answers = list(
        Answer.objects.filter(user=user)
        .only("id", "question", "as_of", "covered", "created_at")
        .prefetch_related(Prefetch("feedback", queryset=AnswerFeedback.objects.filter(user=user), to_attr="feedback_mine"))
        .order_by("-created_at")[:limit]
    )
    for answer in answers:
        answer.my_feedback = answer.feedback_mine[0] if answer.feedback_mine else None
    return answers


def answer_get_for_user(*, answer_id: int, user) -> Answer | None:
    """One of the user's own answers (the one they asked); None for anyone else's."""
    if user is None or not user.is_authenticated:
        return None
    return Answer.objects.filter(pk=answer_id, user=user).first()


def answer_feedback_get_for_user(*, answer_id: int, user) -> AnswerFeedback | None:
    """The user's own feedback on one of their answers, if they gave any."""
    if user is None or not user.is_authenticated:
        return None
    return AnswerFeedback.objects.filter(answer_id=answer_id, answer__user=user, user=user).first()


def chunk_ids_readable(*, chunk_ids, user) -> set[int]:
    """The ids among chunk_ids whose chunk page (and source) the user may open."""
    if user is None or not user.is_authenticated:
        return set()
    return set(
        Chunk.objects.filter(
            pk__in=list(chunk_ids), policy__in=_visible_policies(user=user), version__in=readable_versions(user=user)
        ).values_list("pk", flat=True)
    )


# --- review -----------------------------------------------------------------------------------
# Reviewers see the recorded answers, whoever asked (checking answers is their role), but only
# those whose every citation quotes a policy the reviewer may read: the scope applies to the list,
# its filter counts, one answer, and the regression questions made from answers (their evidence
# is copied from the cited text). Chunk pages and source files stay under the reviewer's own
# access scope.

REVIEW_FILTERS = ("all", "unreviewed", *Review.Verdict.values)
# Employee feedback: "any" (no filter), a verdict some asker gave, or "none" (no feedback yet).
FEEDBACK_FILTERS = ("any", *AnswerFeedback.Verdict.values, "none")


def _reviews_prefetch() -> Prefetch:
    return Prefetch("reviews", queryset=Review.objects.select_related("reviewer").order_by("-updated_at"))


def _feedback_prefetch() -> Prefetch:
    return Prefetch("feedback", queryset=AnswerFeedback.objects.select_related("user").order_by("-updated_at"))


def _with_review_state(answers: QuerySet[Answer], show: str) -> QuerySet[Answer]:
    if show == "unreviewed":
        return answers.filter(reviews__isnull=True)
    if show in Review.Verdict.values:
        return answers.filter(pk__in=Review.objects.filter(verdict=show).values("answer_id"))
    return answers


def _with_feedback(answers: QuerySet[Answer], feedback: str) -> QuerySet[Answer]:
    if feedback == "none":
        return answers.filter(~Exists(AnswerFeedback.objects.filter(answer=OuterRef("pk"))))
    if feedback in AnswerFeedback.Verdict.values:
        return answers.filter(Exists(AnswerFeedback.objects.filter(answer=OuterRef("pk"), verdict=feedback)))
    return answers


def _answers_in_scope(*, reviewer) -> QuerySet[Answer]:
    """Answers whose citations all come from policies the reviewer may read: a reviewer outside
    a policy's groups never sees its text, not even quoted in someone else's answer.

    The policy is the one stored on the citation when the answer was recorded, not the cited
    chunk's (the chunk may be deleted since). A citation without a policy (its policy removed,
    or recorded before the field existed and its chunk already gone) hides the answer from every
    reviewer but superusers: fail closed, since nobody can tell whose text it quotes."""
    if not is_reviewer(reviewer):
        return Answer.objects.none()
    if sees_everything(reviewer):
        return Answer.objects.all()
    hidden = Citation.objects.filter(Q(policy__isnull=True) | ~Q(policy__in=_visible_policies(user=reviewer)))
    return Answer.objects.exclude(pk__in=hidden.values("answer_id"))


def answer_list_for_review(*, reviewer, show: str = "all", feedback: str = "any") -> QuerySet[Answer]:
    """Recorded answers, newest first, with their citation count, current verdicts and the
    asker's feedback. show: "all", "unreviewed" (no verdict from anyone) or a verdict (some
    reviewer gave it). feedback: "any", a feedback verdict, or "none" (no feedback given)."""
    if not is_reviewer(reviewer):
        return Answer.objects.none()
    answers = _answers_in_scope(reviewer=reviewer).select_related("user").annotate(
        citation_count=Count("citations", distinct=True)
    )
    answers = _with_feedback(_with_review_state(answers, show), feedback)
    return answers.prefetch_related(_reviews_prefetch(), _feedback_prefetch()).order_by("-created_at", "-id")


def review_filter_counts(*, reviewer, feedback: str = "any") -> dict[str, int]:
    """How many answers each verdict filter of the review list shows, under the feedback filter."""
    if not is_reviewer(reviewer):
        return dict.fromkeys(REVIEW_FILTERS, 0)
    answers = _with_feedback(_answers_in_scope(reviewer=reviewer), feedback)
    counts = {"all": answers.count(), "unreviewed": answers.filter(reviews__isnull=True).count()}
    by_verdict = dict(
        Review.objects.filter(answer__in=answers).values("verdict").annotate(n=Count("answer", distinct=True)).values_list("verdict", "n")
    )
    counts.update({verdict: by_verdict.get(verdict, 0) for verdict in Review.Verdict.values})
    return counts


def feedback_filter_counts(*, reviewer, show: str = "all") -> dict[str, int]:
    """How many answers each feedback filter of the review list shows, under the verdict filter."""
    if not is_reviewer(reviewer):
        return dict.fromkeys(FEEDBACK_FILTERS, 0)
    answers = _with_review_state(_answers_in_scope(reviewer=reviewer), show)
    counts = {"any": answers.count(), "none": _with_feedback(answers, "none").count()}
    by_verdict = dict(
        AnswerFeedback.objects.filter(answer__in=answers)
        .values("verdict").annotate(n=Count("answer", distinct=True)).values_list("verdict", "n")
    )
    counts.update({verdict: by_verdict.get(verdict, 0) for verdict in AnswerFeedback.Verdict.values})
    return counts


def answer_get_for_review(*, answer_id: int, reviewer) -> Answer | None:
    """One answer with its citations (and the chunks they point at now) and its verdicts."""
    if not is_reviewer(reviewer):
        return None
    citations = Citation.objects.select_related("chunk__version__policy", "chunk__source").order_by("n")
    return (
        _answers_in_scope(reviewer=reviewer)
        .select_related("user")
        .prefetch_related(
            Prefetch("citations", queryset=citations),
            _reviews_prefetch(),
            _feedback_prefetch(),
            Prefetch("regression_questions", queryset=RegressionQuestion.objects.select_related("created_by")),
        )
        .filter(pk=answer_id)
        .first()
    )


def regression_question_list_for_review(*, reviewer) -> QuerySet[RegressionQuestion]:
    """Regression questions made from answers in the reviewer's scope, oldest first. One whose
    answer was deleted (its scope unknown) is for superusers only."""
    if not is_reviewer(reviewer):
        return RegressionQuestion.objects.none()
    questions = RegressionQuestion.objects.order_by("created_at", "id")
    if sees_everything(reviewer):
        return questions
    return questions.filter(source_answer__in=_answers_in_scope(reviewer=reviewer))


def regression_question_count(*, reviewer) -> int:
    return regression_question_list_for_review(reviewer=reviewer).count()
