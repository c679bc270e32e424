"""Content-Security-Policy: every page sends it, and no template needs what it forbids (inline
scripts, on* handlers, inline styles, javascript: URLs, htmx attributes evaluated as code)."""
from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from policypal.policies.models import Policy, PolicyVersion
from policypal.security.middleware import ContentSecurityPolicyMiddleware

REPO = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((REPO / "templates").rglob("*.html"))

REQUIRED = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
}


def directives(header: str) -> dict[str, str]:
    parts = (part.strip().split(None, 1) for part in header.split(";") if part.strip())
    return {part[0]: (part[1] if len(part) > 1 else "") for part in parts}


@pytest.fixture
def superuser_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("csp-root", password="x-Password-9"))
    return client


@pytest.mark.django_db
def test_every_page_sends_the_policy(client, superuser_client):
    policy = Policy.objects.create(key="csp-travel", title="Travel")
    version = PolicyVersion.objects.create(policy=policy, number=1, effective_from=dt.date(2025, 1, 1))
    anonymous = {"/login/": 200, "/django-admin/login/": 200}
    signed_in = {
        "/": 200, "/review/": 200, "/manage/": 200, "/manage/upload/": 200,
        f"/manage/versions/{version.pk}/": 200, f"/manage/versions/{version.pk}/?partial=progress": 200,
        "/no-such-page/": 404, "/api/ask": 405, "/django-admin/": 200,
    }
    responses = [(path, status, client.get(path)) for path, status in anonymous.items()]
    responses += [(path, status, superuser_client.get(path)) for path, status in signed_in.items()]
    for path, status, response in responses:
        assert response.status_code == status, path
        assert directives(response["Content-Security-Policy"]) | REQUIRED == directives(response["Content-Security-Policy"]), path


def test_the_policy_has_no_unsafe_sources(settings):
    policy = directives(settings.CONTENT_SECURITY_POLICY)
    assert all(policy[name] == value for name, value in REQUIRED.items())
    assert "unsafe" not in settings.CONTENT_SECURITY_POLICY


def test_inline_pdfs_are_left_to_the_browsers_viewer(settings):
    middleware = ContentSecurityPolicyMiddleware(lambda request: HttpResponse(b"%PDF-1.4", content_type="application/pdf"))
    assert "Content-Security-Policy" not in middleware(RequestFactory().get("/sources/1/"))


FORBIDDEN = {
    "inline <script> (use a static file)": re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I),
    "<style> block (use static/css/app.css)": re.compile(r"<style\b", re.I),
    "on* event handler attribute": re.compile(r"\son[a-z]+\s*=", re.I),
    "style attribute": re.compile(r"\sstyle\s*=", re.I),
    "javascript: URL": re.compile(r"javascript:", re.I),
    "htmx attribute evaluated as code": re.compile(r"\shx-on\b|\shx-vars\b|[\"']js:", re.I),
}


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: str(path.relative_to(REPO / "templates")))
def test_templates_hold_no_inline_script_or_style(template):
    text = template.read_text()
    found = [f"{what}: {match.group(0)!r}" for what, pattern in FORBIDDEN.items() for match in pattern.finditer(text)]
    assert not found, found


def test_htmx_injects_no_indicator_styles_and_app_css_has_them():
    base = (REPO / "templates" / "base.html").read_text()
    assert re.search(r"""<meta name="htmx-config" content='\{[^']*"includeIndicatorStyles": false""", base)
    assert ".htmx-indicator" in (REPO / "static" / "css" / "app.css").read_text()
