"""Two small middlewares: the Content-Security-Policy header, and a request-size cap.

Written here rather than taken from django-csp: the policy is one fixed string (no nonces, no
per-view changes), so the whole feature is a header; settings.CONTENT_SECURITY_POLICY holds it.
"""
from __future__ import annotations

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat
from django.urls import reverse


class ContentSecurityPolicyMiddleware:
    """Sends settings.CONTENT_SECURITY_POLICY with every response that has none yet.

    PDFs are left without it: they open inline (citations link to #page=N) in the browser's own
    viewer, which some browsers run inside the PDF's document and would block; a PDF cannot run
    script in our origin in any case."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        policy = settings.CONTENT_SECURITY_POLICY
        if policy and "Content-Security-Policy" not in response and not response.get("Content-Type", "").startswith("application/pdf"):
            response["Content-Security-Policy"] = policy
        return response


class RequestSizeLimitMiddleware:
    """Refuses with 413 a request whose Content-Length is over settings.REQUEST_MAX_BYTES, before
    anything reads its body (Django would otherwise stream a 200 MB upload to a temporary file
    before the upload form could say it is too large).

    A request without Content-Length (chunked) gets no body at all from Django's WSGI request, so
    the declared length is the whole story."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.REQUEST_MAX_BYTES
        size = _declared_length(request)
        if limit and size > limit:
            return request_too_large(request, size=size, limit=limit)
        return self.get_response(request)


def _declared_length(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def request_too_large_message(*, size: int, limit: int) -> str:
    return (
        f"This request is {filesizeformat(size)}, larger than the {filesizeformat(limit)} the server accepts "
        f"(a policy file may be at most {filesizeformat(settings.POLICY_UPLOAD_MAX_BYTES)}). Nothing was uploaded."
    )


def request_too_large(request, *, size: int, limit: int):
    message = request_too_large_message(size=size, limit=limit)
    if request.path.startswith("/api/") or request.content_type == "application/json":
        return JsonResponse({"error": message}, status=413)
    on_upload = request.path.startswith(reverse("policies:policy_list"))
    back = {"url": reverse("policies:upload"), "label": "Back to the upload form"} if on_upload else {
        "url": reverse("assistant:chat"), "label": "Back to asking questions"}
    return render(request, "413.html", {"message": message, "back": back}, status=413)
