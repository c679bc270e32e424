"""Reviewer pages: answered questions, one answer with its citations checked against the chunks
as they are now, a verdict, a regression question, and the regression questions as JSONL.

Every view is for reviewers only (403 for anyone else); the check is `reviewer_required`,
never a template condition.
"""
from __future__ import annotations

from functools import wraps
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from policypal.policies.roles import is_reviewer

from .forms import RegressionQuestionForm, ReviewForm
from .markers import answer_paragraphs, marker_segments
from .models import Answer, AnswerFeedback, Review
from .reviews import ReviewInputError, regression_question_create, regression_questions_jsonl, review_record
from .selectors import (
    FEEDBACK_FILTERS,
    REVIEW_FILTERS,
    answer_get_for_review,
    answer_list_for_review,
    chunk_ids_readable,
    feedback_filter_counts,
    regression_question_count,
    regression_question_list_for_review,
    review_filter_counts,
)

ANSWERS_PER_PAGE = 50

VERDICT_HELP = {
    Review.Verdict.CORRECT: "Every sentence is backed by the text it cites.",
    Review.Verdict.WRONG: "The answer says something its sources do not, or cites the wrong text.",
    Review.Verdict.MISSING_CAVEAT: "The rule is right but a condition or exception next to it is left out.",
    Review.Verdict.WRONG_VERSION: "It cites a version that was not in force on the as-of date.",
}


def reviewer_required(view):
    @login_required
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not is_reviewer(request.user):
            raise PermissionDenied("Only reviewers can open the review pages.")
        return view(request, *args, **kwargs)

    return wrapper


# --- list -------------------------------------------------------------------------------------

@reviewer_required
@require_GET
def review_list(request):
    show = request.GET.get("show", "all")
    if show not in REVIEW_FILTERS:
        show = "all"
    feedback = request.GET.get("feedback", "any")
    if feedback not in FEEDBACK_FILTERS:
        feedback = "any"
    page = Paginator(
        answer_list_for_review(reviewer=request.user, show=show, feedback=feedback), ANSWERS_PER_PAGE
    ).get_page(request.GET.get("page"))
    counts = review_filter_counts(reviewer=request.user, feedback=feedback)
    feedback_counts = feedback_filter_counts(reviewer=request.user, show=show)
    labels = {"all": "All", "unreviewed": "Unreviewed", **dict(Review.Verdict.choices)}
    feedback_labels = {"any": "Any", **dict(AnswerFeedback.Verdict.choices), "none": "No feedback"}
    return render(
        request,
        "assistant/review_list.html",
        {
            "page": page,
            "show": show,
            "feedback": feedback,
            "query": _list_query(show=show, feedback=feedback),
            "filters": [
                {"key": key, "label": labels[key], "count": counts[key], "query": _list_query(show=key, feedback=feedback)}
                for key in REVIEW_FILTERS
            ],
            "feedback_filters": [
                {"key": key, "label": feedback_labels[key], "count": feedback_counts[key],
                 "query": _list_query(show=show, feedback=key)}
                for key in FEEDBACK_FILTERS
            ],
            "regression_count": regression_question_count(reviewer=request.user),
        },
    )


def _list_query(*, show: str, feedback: str) -> str:
    """The review list's query string for these filters (defaults left out)."""
    return urlencode({"show": show, **({"feedback": feedback} if feedback != "any" else {})})


# --- one answer -------------------------------------------------------------------------------

@reviewer_required
@require_http_methods(["GET", "POST"])
def review_detail(request, pk: int):
    answer = answer_get_for_review(answer_id=pk, reviewer=request.user)
    if answer is None:
        raise Http404("No such answer.")
    reviews = list(answer.reviews.all())
    mine = next((r for r in reviews if r.reviewer_id == request.user.pk), None)
    review_form = ReviewForm(initial={"verdict": mine.verdict, "comment": mine.comment} if mine else None)
    regression_form = RegressionQuestionForm()
    status = 200

    if request.method == "POST":
        action = request.POST.get("action")
        if action == "verdict":
            review_form = ReviewForm(request.POST)
            if _verdict_save(request, answer, review_form):
                return redirect(reverse("assistant:review_detail", args=[answer.pk]) + "#verdict")
        elif action == "regression":
            regression_form = RegressionQuestionForm(request.POST)
            if _regression_save(request, answer, regression_form):
                return redirect(reverse("assistant:review_detail", args=[answer.pk]) + "#regression")
        else:
            messages.error(request, "Nothing was saved: the form sent an unknown action.")
        status = 400

    citations = _citation_views(answer, request.user)
    by_n = {c["n"]: c for c in citations}
    return render(
        request,
        "assistant/review_detail.html",
        {
            "answer": answer,
            "paragraphs": [marker_segments(p, by_n) for p in answer_paragraphs(answer.text)],
            "citations": citations,
            "my_review": mine,
            "feedback": list(answer.feedback.all()),
            "other_reviews": [r for r in reviews if r is not mine],
            "review_form": review_form,
            "verdict_options": [(radio, VERDICT_HELP[radio.data["value"]]) for radio in review_form["verdict"]],
            "regression_form": regression_form,
            "regression_questions": list(answer.regression_questions.all()),
        },
        status=status,
    )


def _verdict_save(request, answer: Answer, form: ReviewForm) -> bool:
    if form.is_valid():
        try:
            review = review_record(
                answer=answer, reviewer=request.user, verdict=form.cleaned_data["verdict"],
                comment=form.cleaned_data["comment"],
            )
        except ReviewInputError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"Verdict saved: {review.get_verdict_display()}.")
            return True
    messages.error(request, "The verdict was not saved. " + _errors_text(form))
    return False


def _regression_save(request, answer: Answer, form: RegressionQuestionForm) -> bool:
    if form.is_valid():
        try:
            regression_question_create(
                answer=answer, created_by=request.user, evidence=form.evidence_lines(),
                expect_no_answer=form.cleaned_data["expect_no_answer"], note=form.cleaned_data["note"],
            )
        except ReviewInputError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, "Regression question saved. It is in the JSONL download, ready for manage.py evaluate.")
            return True
    messages.error(request, "The regression question was not saved. " + _errors_text(form))
    return False


def _errors_text(form) -> str:
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


def _citation_views(answer: Answer, reviewer) -> list[dict]:
    """Each citation as snapshotted, next to what its chunk holds now."""
    citations = list(answer.citations.all())
    readable = chunk_ids_readable(chunk_ids=[c.chunk_id for c in citations if c.chunk_id], user=reviewer)
    out = []
    for citation in citations:
        chunk = citation.chunk
        view = {
            "n": citation.n,
            "breadcrumb": citation.breadcrumb,
            "breadcrumb_parts": citation.breadcrumb.split(" > "),
            "marker_url": f"#citation-{citation.n}",  # a marker in the answer jumps to this card
            "text": citation.text,
            "chunk": chunk,
            "state": "removed",
            "chunk_url": "",
            "source_url": "",
        }
        if chunk is not None:
            changed = chunk.text != citation.text or chunk.breadcrumb != citation.breadcrumb
            view.update(
                state="changed" if changed else "unchanged",
                breadcrumb_changed=chunk.breadcrumb != citation.breadcrumb,
                version=chunk.version,
                policy=chunk.version.policy,
                source=chunk.source,
                on_as_of=_standing_on(chunk.version, answer.as_of),
                readable=chunk.pk in readable,
            )
            if chunk.pk in readable:
                view["chunk_url"] = reverse("assistant:chunk", args=[chunk.pk])
                if chunk.source_id:
                    view["source_url"] = reverse("assistant:source", args=[chunk.source_id])
                    if chunk.source.is_pdf and chunk.pages:
                        view["source_url"] += f"#page={min(chunk.pages)}"
        out.append(view)
    return out


def _standing_on(version, day) -> dict:
    """Whether the cited version was the one in force on the date the question was asked for."""
    if version.effective_from > day:
        return {"key": "announced", "label": f"not yet in force on {day:%-d %b %Y}"}
    if version.effective_to and version.effective_to <= day:
        return {"key": "superseded", "label": f"superseded on {day:%-d %b %Y}"}
    return {"key": "in-force", "label": f"in force on {day:%-d %b %Y}"}


# --- regression questions ---------------------------------------------------------------------

@reviewer_required
@require_GET
def regressions_jsonl(request):
    jsonl = regression_questions_jsonl(regression_question_list_for_review(reviewer=request.user))
    response = HttpResponse(jsonl, content_type="application/jsonl; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="regressions.jsonl"'
    return response
