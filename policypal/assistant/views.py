"""Chat page (with feedback on answers), chunk page, source download and the JSON ask endpoint.

Views parse the request, call one service or selector and render. Permission filters live in
selectors (`chunk_get_for_user`, `source_get_for_user`), never in templates; the source download
adds the policy-admin role (policypal/policies/roles.py).
"""
from __future__ import annotations

import datetime as dt
import json
import logging
import mimetypes

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from chunking.pipe_tables import read_table
from policypal.policies.models import SourceDocument
from policypal.policies.roles import is_policy_admin
from policypal.security.services import ask_rate_message, ask_rate_take

from .forms import AskForm, FeedbackForm
from .llm_answering import is_llm_notice, llm_enabled
from .markers import PARAGRAPH_BREAK, answer_paragraphs, marker_segments
from .models import Answer, AnswerFeedback
from .presenters import answer_dict, whole_table
from .selectors import (
    answer_feedback_get_for_user,
    answer_get_for_user,
    answer_list_for_user,
    chunk_get_for_user,
    source_get_for_user,
)
from .services import (
    FEEDBACK_COMMENT_MAX_LENGTH,
    FeedbackInputError,
    answer_feedback_give,
    answer_question,
    answer_question_stream,
)

log = logging.getLogger(__name__)


# --- chat -------------------------------------------------------------------------------------

@login_required
@require_http_methods(["GET", "POST"])
def chat(request):
    form = AskForm(request.POST if request.method == "POST" else None)
    answer = None
    if request.method == "POST" and (wait := ask_rate_take(user=request.user)):
        return _chat_rate_limited(request, form, wait)
    if request.method == "POST" and form.is_valid():
        composed, saved = answer_question(
            question=form.cleaned_data["question"], user=request.user, as_of=form.cleaned_data["as_of"]
        )
        answer = _answer_for_page(composed, saved)
    context = _chat_context(request, form=form, answer=answer)
    if request.htmx:
        # The answer area, plus the history list swapped out of band.
        html = render_to_string("assistant/chat.html#answer-area", context, request=request)
        html += render_to_string("assistant/chat.html#history", {**context, "oob": True}, request=request)
        return HttpResponse(html)
    return render(request, "assistant/chat.html", context)


def _chat_rate_limited(request, form, wait: int):
    """The chat page (429) or, for HTMX, its answer area (200: HTMX swaps no 4xx), saying how long to wait."""
    context = {**_chat_context(request, form=form), "rate_limited": ask_rate_message(wait=wait)}
    if request.htmx:
        response = HttpResponse(render_to_string("assistant/chat.html#answer-area", context, request=request))
    else:
        response = render(request, "assistant/chat.html", context, status=429)
    response["Retry-After"] = str(wait)
    return response


def _answer_for_page(composed, saved) -> dict:
    answer = _answer_view(answer_dict(composed), composed.citations)
    if saved is not None:
        answer["id"] = saved.pk
        answer["feedback"] = feedback_view(answer_id=saved.pk, feedback=None, place="answer")
    return answer


def _chat_context(request, *, form, answer=None, feedback_forms: dict | None = None) -> dict:
    return {
        "form": form,
        "answer": answer,
        "history": _history(request.user, feedback_forms=feedback_forms or {}),
        "today": timezone.localdate(),
        "llm_enabled": llm_enabled(),  # the form then streams the model's answer (static/js/ask-stream.js)
    }


def _history(user, *, feedback_forms: dict) -> list[Answer]:
    """The user's recent answers, each with the feedback block its history item shows."""
    history = answer_list_for_user(user=user)
    for item in history:
        form = feedback_forms.get(item.pk)
        item.feedback_view = feedback_view(
            answer_id=item.pk, feedback=item.my_feedback, place="history", form=form, open=form is not None
        )
    return history


def _answer_view(data: dict, chunks) -> dict:
    """answer_dict plus what the page needs: paragraphs with linked markers, source links."""
    data["as_of_date"] = dt.date.fromisoformat(data["as_of"])
    by_n = {}
    for citation, chunk in zip(data["citations"], chunks):
        citation["effective_from_date"] = chunk.version.effective_from
        citation["effective_to_date"] = chunk.version.effective_to
        citation["kind"] = chunk.kind
        citation["table"] = whole_table(chunk) if chunk.kind == chunk.Kind.TABLE else None
        citation["breadcrumb_parts"] = chunk.breadcrumb_parts
        citation["source_url"] = _source_url(chunk)
        citation["announced"] = citation["effective_from"] > data["as_of"]
        citation["marker_url"] = citation["url"]  # a marker opens the chunk it cites
        by_n[citation["n"]] = citation
    data["paragraphs"] = [marker_segments(p, by_n) for p in answer_paragraphs(data["answer"])]
    data["claim_paragraphs"] = _claim_paragraphs(data["answer"], data["claims"], by_n) if data.get("claims") is not None else None
    data["unsupported_count"] = sum(not c["supported"] for c in data.get("claims") or [])
    data["model_notices"] = [n for n in data["notices"] if is_llm_notice(n)]
    data["notices"] = [n for n in data["notices"] if not is_llm_notice(n)]
    return data


def _claim_paragraphs(text: str, claims: list[dict], by_n: dict) -> list[list[dict]]:
    """An LLM answer's sentences (its claims, in order) in the paragraphs of its text, each with
    its linked markers; `sep` is what goes before it (a line break for a list item's line)."""
    paragraphs: list[list[dict]] = []
    cursor = 0
    for claim in claims:
        found = text.find(claim["text"], cursor)
        between = text[cursor:found] if found >= 0 else " "
        if not paragraphs or PARAGRAPH_BREAK.search(between):
            paragraphs.append([])
        sep = "" if not paragraphs[-1] else ("\n" if "\n" in between else " ")
        segments = _full_stop_before_markers(marker_segments(claim["text"], by_n))
        paragraphs[-1].append({**claim, "sep": sep, "segments": segments})
        cursor = found + len(claim["text"]) if found >= 0 else cursor
    return paragraphs


def _full_stop_before_markers(segments: list[dict]) -> list[dict]:
    """"... per day [2]." shows as "... per day. [2]", as the built-in answers read."""
    if len(segments) < 3 or "text" not in segments[-1] or segments[-1]["text"].strip() not in (".", "!", "?"):
        return segments
    markers_start = len(segments) - 1
    while markers_start > 0 and "citation" in segments[markers_start - 1]:
        markers_start -= 1
    if markers_start == len(segments) - 1 or markers_start == 0:
        return segments
    before = segments[markers_start - 1]
    stop = segments[-1]["text"].strip()
    return [*segments[: markers_start - 1], {"text": before["text"].rstrip() + stop + " "}, *segments[markers_start:-1]]


def _source_url(chunk) -> str:
    if chunk.source_id is None:
        return ""
    url = reverse("assistant:source", args=[chunk.source_id])
    if chunk.source and chunk.source.is_pdf and chunk.pages:
        url += f"#page={min(chunk.pages)}"
    return url


# --- the chat answer, streamed --------------------------------------------------------------
# With a language model configured, static/js/ask-stream.js posts the chat form here and shows
# the reply as it arrives. The response is Server-Sent Events (read with fetch: EventSource
# cannot POST): `delta` events carry text as the model writes it, unchecked; one `answer` event
# ends the stream with the answer area and the history list as the chat view renders them
# (sentences checked, unsupported ones flagged), or the form errors; `error` ends it when the
# server fails after the response has started.

@login_required
@require_POST
def ask_stream(request):
    if wait := ask_rate_take(user=request.user):
        # Not a stream: static/js/ask-stream.js then posts the form to the chat page, which says why.
        return HttpResponse(ask_rate_message(wait=wait), status=429, content_type="text/plain; charset=utf-8",
                            headers={"Retry-After": str(wait)})
    form = AskForm(request.POST)
    if not form.is_valid():
        events = iter([_answer_event(request, form=form, answer=None)])
    else:
        stream = answer_question_stream(
            question=form.cleaned_data["question"], user=request.user, as_of=form.cleaned_data["as_of"]
        )
        events = _answer_events(request, form, stream)
    response = StreamingHttpResponse(events, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass events on as they come
    return response


def _answer_events(request, form, stream):
    try:
        while True:
            try:
                delta = next(stream)
            except StopIteration as done:
                composed, saved = done.value
                break
            yield sse_event("delta", {"text": delta})
        yield _answer_event(request, form=form, answer=_answer_for_page(composed, saved))
    except Exception:  # the status line is sent: say so in the stream, and log it
        log.exception("streamed answer failed")
        yield sse_event("error", {"message": "The server could not answer. Please try again."})


def _answer_event(request, *, form, answer) -> str:
    context = _chat_context(request, form=form, answer=answer)
    return sse_event("answer", {
        "html": render_to_string("assistant/chat.html#answer-area", context, request=request),
        "history_html": render_to_string("assistant/chat.html#history", context, request=request),
    })


def sse_event(name: str, data: dict) -> str:
    """One Server-Sent Event; the data is JSON on one line, so it never contains a blank line."""
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


# --- feedback on an answer -------------------------------------------------------------------
# The block under an answer (place "answer") and the one in its history item (place "history")
# post to the same view. With HTMX the block swaps in its new state (and the answer's block
# refreshes the history item out of band); without JavaScript the view redirects to the chat page.

FEEDBACK_PLACES = ("answer", "history")


def feedback_view(*, answer_id: int, feedback: AnswerFeedback | None, place: str, form: FeedbackForm | None = None,
                  open: bool = False, oob: bool = False) -> dict:
    """What templates/assistant/_feedback.html needs to render one feedback block."""
    if form is None:
        form = FeedbackForm(initial={"comment": feedback.comment if feedback else ""})
    errors = _form_errors(form) if form.is_bound else []
    chosen = feedback.verdict if feedback else ""
    return {
        "answer_id": answer_id,
        "place": place,
        "dom_id": f"{'feedback' if place == 'answer' else 'history-feedback'}-{answer_id}",
        "feedback": feedback,
        "errors": errors,
        "comment": form["comment"].value() or "",
        "max_length": FEEDBACK_COMMENT_MAX_LENGTH,
        "choices": [
            {"value": value, "label": label, "chosen": value == chosen} for value, label in AnswerFeedback.Verdict.choices
        ],
        "open": open or bool(errors),  # a history item's block: unfolded
        "editing": bool(errors),  # a recorded block: its form unfolded
        "oob": oob,
    }


@login_required
@require_POST
def answer_feedback(request, pk: int):
    answer = answer_get_for_user(answer_id=pk, user=request.user)
    if answer is None:
        raise Http404("No such answer.")
    place = request.POST.get("place")
    place = place if place in FEEDBACK_PLACES else "answer"
    form = FeedbackForm(request.POST)
    feedback = _feedback_save(request.user, answer, form)

    if request.htmx:
        # Errors come back with 200 so that HTMX swaps them in (it does not swap 4xx responses).
        current = feedback or answer_feedback_get_for_user(answer_id=answer.pk, user=request.user)
        html = render_to_string(
            "assistant/_feedback.html",
            {"fb": feedback_view(answer_id=answer.pk, feedback=current, place=place, form=None if feedback else form,
                                 open=place == "history")},
            request=request,
        )
        if feedback and place == "answer":
            html += render_to_string(
                "assistant/_feedback.html",
                {"fb": feedback_view(answer_id=answer.pk, feedback=feedback, place="history", oob=True)},
                request=request,
            )
        return HttpResponse(html)

    if feedback is None:
        # The page again, with the history item's form unfolded and its errors (and the comment) in it.
        messages.error(request, "Your feedback was not saved. " + " ".join(_form_errors(form)))
        context = _chat_context(request, form=AskForm(), feedback_forms={answer.pk: form})
        return render(request, "assistant/chat.html", context, status=400)
    messages.success(request, f"Thanks — your feedback is recorded as “{feedback.get_verdict_display()}”.")
    return redirect(reverse("assistant:chat") + f"#history-item-{answer.pk}")


def _form_errors(form) -> list[str]:
    return [str(error) for errors in form.errors.values() for error in errors]


def _feedback_save(user, answer: Answer, form: FeedbackForm) -> AnswerFeedback | None:
    if not form.is_valid():
        return None
    try:
        return answer_feedback_give(
            answer=answer, user=user, verdict=form.cleaned_data["verdict"], comment=form.cleaned_data["comment"]
        )
    except FeedbackInputError as exc:
        form.add_error(None, str(exc))
    except Answer.DoesNotExist as exc:
        raise Http404("No such answer.") from exc
    return None


# --- JSON API ---------------------------------------------------------------------------------

@csrf_exempt  # JSON only: a cross-site form cannot send application/json without a CORS preflight
def api_ask(request):
    if request.method != "POST":
        return JsonResponse({"error": "Use POST with a JSON body."}, status=405, headers={"Allow": "POST"})
    if not request.user.is_authenticated:
        return JsonResponse({"error": "Sign in first."}, status=401)
    if wait := ask_rate_take(user=request.user):
        return JsonResponse({"error": ask_rate_message(wait=wait)}, status=429, headers={"Retry-After": str(wait)})
    if request.content_type != "application/json":
        return JsonResponse({"error": "Send the question as JSON (Content-Type: application/json)."}, status=400)
    try:
        body = json.loads(request.body or b"")
    except (ValueError, UnicodeDecodeError):
        return JsonResponse({"error": "The body is not valid JSON."}, status=400)
    if not isinstance(body, dict):
        return JsonResponse({"error": 'Send a JSON object: {"question": "...", "as_of": "YYYY-MM-DD"}.'}, status=400)
    if not isinstance(body.get("question", ""), str) or not isinstance(body.get("as_of") or "", str):
        return JsonResponse({"error": "question and as_of must be strings."}, status=400)
    form = AskForm({"question": body.get("question", ""), "as_of": body.get("as_of") or ""})
    if not form.is_valid():
        messages = [f"{field}: {error}" for field, errors in form.errors.items() for error in errors]
        return JsonResponse({"error": " ".join(messages)}, status=400)
    composed, _ = answer_question(
        question=form.cleaned_data["question"], user=request.user, as_of=form.cleaned_data["as_of"]
    )
    return JsonResponse(answer_dict(composed))


# --- chunk and source -------------------------------------------------------------------------

@login_required
def chunk_detail(request, pk: int):
    chunk = chunk_get_for_user(chunk_id=pk, user=request.user)
    if chunk is None:
        raise Http404("No such chunk.")
    parent = chunk.parent
    if parent is not None and parent.level == parent.Level.DOCUMENT:
        parent = None
    return render(
        request,
        "assistant/chunk.html",
        {
            "chunk": chunk,
            "version": chunk.version,
            "policy": chunk.policy,
            "source": chunk.source,
            "source_url": _source_url(chunk),
            "parent": parent,
            "table": read_table(chunk.text),
            "standing": version_standing(chunk.version, timezone.localdate()),
        },
    )


@login_required
def source_download(request, pk: int):
    """An uploaded policy file: the one download view (`/manage/sources/<pk>/` redirects here).
    Anyone may download the files of a version they may read (the chat, chunk and review pages
    link here); a policy admin also those of any other version, in any state, as the version
    page that lists them shows that version whole (its chunks, status and error)."""
    source = source_get_for_user(source_id=pk, user=request.user)
    if source is None and is_policy_admin(request.user):
        source = SourceDocument.objects.filter(pk=pk).first()
    if source is None or not source.file:
        raise Http404("No such file.")
    try:
        handle = source.file.open("rb")
    except FileNotFoundError as exc:
        raise Http404("The stored file is missing.") from exc
    content_type = mimetypes.guess_type(source.original_name)[0] or "application/octet-stream"
    # PDFs open inline so that #page=N works; anything else (HTML included) is a download.
    return FileResponse(
        handle, as_attachment=not source.is_pdf, filename=source.original_name, content_type=content_type
    )


# --- presentation helpers ---------------------------------------------------------------------

def version_standing(version, today) -> dict:
    """Where a version stands on a date, for a badge: in force, announced, superseded, retired."""
    if version.retired_at:
        return {"key": "retired", "label": "Retired"}
    if version.effective_from > today:
        return {"key": "announced", "label": f"Announced: takes effect {version.effective_from:%-d %b %Y}"}
    if version.effective_to and version.effective_to <= today:
        return {"key": "superseded", "label": f"Superseded on {version.effective_to:%-d %b %Y}"}
    return {"key": "in-force", "label": "In force"}
