"""Chat page, chunk page, source download and the JSON ask endpoint.

Views parse the request, call one service or selector and render. Permission filters live in
selectors (`chunk_get_for_user`, `source_get_for_user`), never in templates.
"""
from __future__ import annotations

import datetime as dt
import json
import mimetypes
import re

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from .forms import AskForm
from .presenters import answer_dict
from .selectors import answer_list_for_user, chunk_get_for_user, source_get_for_user
from .services import answer_question

_MARKER = re.compile(r"\[(\d{1,3})\]")


# --- chat -------------------------------------------------------------------------------------

@login_required
@require_http_methods(["GET", "POST"])
def chat(request):
    form = AskForm(request.POST if request.method == "POST" else None)
    answer = None
    if request.method == "POST" and form.is_valid():
        composed, _ = answer_question(
            question=form.cleaned_data["question"], user=request.user, as_of=form.cleaned_data["as_of"]
        )
        answer = _answer_view(answer_dict(composed), composed.citations)
    context = {
        "form": form,
        "answer": answer,
        "history": answer_list_for_user(user=request.user),
        "today": timezone.localdate(),
    }
    if request.htmx:
        # The answer area, plus the history list swapped out of band.
        html = render_to_string("assistant/chat.html#answer-area", context, request=request)
        html += render_to_string("assistant/chat.html#history", {**context, "oob": True}, request=request)
        return HttpResponse(html)
    return render(request, "assistant/chat.html", context)


def _answer_view(data: dict, chunks) -> dict:
    """answer_dict plus what the page needs: paragraphs with linked markers, source links."""
    data["as_of_date"] = dt.date.fromisoformat(data["as_of"])
    by_n = {}
    for citation, chunk in zip(data["citations"], chunks):
        citation["effective_from_date"] = chunk.version.effective_from
        citation["effective_to_date"] = chunk.version.effective_to
        citation["kind"] = chunk.kind
        citation["table"] = pipe_table(chunk.text) if chunk.kind == chunk.Kind.TABLE else None
        citation["breadcrumb_parts"] = chunk.breadcrumb_parts
        citation["source_url"] = _source_url(chunk)
        citation["announced"] = citation["effective_from"] > data["as_of"]
        by_n[citation["n"]] = citation
    data["paragraphs"] = [_segments(p, by_n) for p in re.split(r"\n\s*\n", data["answer"]) if p.strip()]
    return data


def _segments(paragraph: str, by_n: dict) -> list[dict]:
    """Split a paragraph into text and citation-marker segments (escaped by the template)."""
    out, position = [], 0
    for match in _MARKER.finditer(paragraph):
        citation = by_n.get(int(match.group(1)))
        if citation is None:
            continue
        if match.start() > position:
            out.append({"text": paragraph[position:match.start()]})
        out.append({"citation": citation})
        position = match.end()
    if position < len(paragraph):
        out.append({"text": paragraph[position:]})
    return out


def _source_url(chunk) -> str:
    if chunk.source_id is None:
        return ""
    url = reverse("assistant:source", args=[chunk.source_id])
    if chunk.source and chunk.source.is_pdf and chunk.pages:
        url += f"#page={min(chunk.pages)}"
    return url


# --- JSON API ---------------------------------------------------------------------------------

@csrf_exempt  # JSON only: a cross-site form cannot send application/json without a CORS preflight
def api_ask(request):
    if request.method != "POST":
        return JsonResponse({"error": "Use POST with a JSON body."}, status=405, headers={"Allow": "POST"})
    if not request.user.is_authenticated:
        return JsonResponse({"error": "Sign in first."}, status=401)
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
            "table": pipe_table(chunk.text),
            "standing": version_standing(chunk.version, timezone.localdate()),
        },
    )


@login_required
def source_download(request, pk: int):
    source = source_get_for_user(source_id=pk, user=request.user)
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


_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_SEPARATOR_CELL = re.compile(r":?-{3,}:?")


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [cell.strip().replace("\\|", "|") for cell in _CELL_SPLIT.split(inner)]


def pipe_table(text: str) -> dict | None:
    """A markdown pipe table (optionally after caption lines) as header and rows; else None."""
    lines = [line for line in text.splitlines() if line.strip()]
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("|")), None)
    if start is None or len(lines) - start < 2:
        return None
    table_lines = lines[start:]
    if not all(line.lstrip().startswith("|") for line in table_lines):
        return None
    header, separator = _cells(table_lines[0]), _cells(table_lines[1])
    if not all(_SEPARATOR_CELL.fullmatch(cell) for cell in separator):
        return None
    width = len(header)
    rows = []
    for line in table_lines[2:]:
        cells = _cells(line)
        rows.append((cells + [""] * width)[:width] if len(cells) <= width else cells)
    before = lines[:start]
    # The line right above the table is its caption; anything earlier is the text introducing it.
    return {"intro": "\n".join(before[:-1]), "caption": before[-1] if before else "", "header": header, "rows": rows}
