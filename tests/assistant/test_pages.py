"""Chat page, chunk page, source download and the JSON ask endpoint (Django test client).

Rows are created directly; the answerer is replaced by a canned ComposedAnswer where a test is
about the page rather than the answer (the real answerer is covered by the e2e tests).
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json

import pytest
from django.contrib.auth.models import Group
from django.core.files.base import ContentFile

from policypal.assistant import views as assistant_views
from policypal.assistant.answering import NOT_COVERED, ComposedAnswer
from policypal.assistant.models import Answer
from policypal.assistant.services import answer_record
from policypal.policies.models import Policy, PolicyVersion, SourceDocument
from retrieval.models import Chunk

pytestmark = pytest.mark.django_db

TABLE_TEXT = (
    "Table 6.1: Daily meal allowance\n"
    "| Grade | Metro city | Other city |\n"
    "| --- | --- | --- |\n"
    "| L4 | 1,800 | 1,200 |\n"
    "| L5 | 2,400 \\| capped | 1,600 |"
)


@pytest.fixture
def page_users(django_user_model):
    managers = Group.objects.create(name="page-managers")
    member = django_user_model.objects.create_user("page-member", password="pw-member-123", first_name="Mira")
    member.groups.add(managers)
    outsider = django_user_model.objects.create_user("page-outsider", password="pw-outsider-123")
    return {"member": member, "outsider": outsider, "group": managers}


def make_version(policy: Policy, *, number=1, status=PolicyVersion.Status.READY, published=True,
                 effective_from=dt.date(2025, 1, 1), source_name="bonus.md", source_bytes=b"# Bonus\n\nText.") -> PolicyVersion:
    version = PolicyVersion.objects.create(
        policy=policy, number=number, effective_from=effective_from, status=status, published=published, progress=100
    )
    source = SourceDocument(version=version, original_name=source_name,
                            checksum=hashlib.sha256(source_bytes).hexdigest(), size_bytes=len(source_bytes))
    source.file.save(source_name, ContentFile(source_bytes), save=True)
    return version


def make_chunk(version: PolicyVersion, *, text="Bonuses are paid in March. Only staff in post on 31 December qualify.",
               breadcrumb="Manager Compensation > 4. Bonus > 4.2 Payment", kind=Chunk.Kind.TEXT, ordinal=1, pages=()) -> Chunk:
    return Chunk.objects.create(
        version=version, policy=version.policy, source=version.sources.first(), level=Chunk.Level.BLOCK, kind=kind,
        ordinal=ordinal, breadcrumb=breadcrumb, text=text, embed_text=f"{breadcrumb}\n{text}", token_count=24,
        content_hash=hashlib.sha256(text.encode()).hexdigest(), record_id=f"rec-{ordinal}", pages=list(pages),
    )


@pytest.fixture
def restricted(page_users, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    policy = Policy.objects.create(key="page-bonus", title="Manager Bonus Policy")
    policy.groups.add(page_users["group"])
    version = make_version(policy)
    return {"policy": policy, "version": version, "chunk": make_chunk(version)}


@pytest.fixture
def open_policy(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    policy = Policy.objects.create(key="page-travel", title="Travel Policy")
    version = make_version(policy, source_name="travel.pdf", source_bytes=b"%PDF-1.4 fake")
    return {"policy": policy, "version": version,
            "chunk": make_chunk(version, text=TABLE_TEXT, breadcrumb="Travel Policy > 6. Meals > 6.1 Meal allowance",
                                kind=Chunk.Kind.TABLE, pages=(7, 8))}


# --- chat page ------------------------------------------------------------------------------

def test_chat_page_requires_login(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


def test_login_page_has_the_fields_the_e2e_tests_use(client):
    html = client.get("/login/").content.decode()
    for marker in ('id="login-form"', 'id="id_username"', 'id="id_password"', 'id="login-submit"'):
        assert marker in html


def test_chat_page_shows_the_question_form_and_nav(client, page_users):
    client.force_login(page_users["member"])
    html = client.get("/").content.decode()
    for marker in ('id="ask-form"', 'id="id_question"', 'id="id_as_of"', 'id="ask-submit"', 'id="answer-area"',
                   'id="logout-form"', "Mira"):
        assert marker in html
    assert 'id="nav-manage"' not in html  # not a policy admin
    assert "django_htmx/htmx-2.min.js" in html


def canned_answer(monkeypatch, composed: ComposedAnswer):
    calls = []

    def fake_answer_question(*, question, user, as_of=None, record=True):
        calls.append({"question": question, "user": user, "as_of": as_of})
        composed.question = question
        return composed, answer_record(user=user, composed=composed)

    monkeypatch.setattr(assistant_views, "answer_question", fake_answer_question)
    return calls


def test_chat_answer_links_markers_and_lists_citation_cards(client, page_users, restricted, open_policy, monkeypatch):
    bonus, meals = restricted["chunk"], open_policy["chunk"]
    composed = ComposedAnswer(
        question="", as_of=dt.date(2025, 6, 1), covered=True, citations=[bonus, meals],
        text="Bonuses are paid in March <b>now</b>. [1]\n\nL4 gets 1,800 in a metro city. [2]",
        notices=["A new version (v2) of Travel Policy takes effect on 1 April 2027."],
    )
    calls = canned_answer(monkeypatch, composed)
    client.force_login(page_users["member"])
    response = client.post("/", {"question": "When are bonuses paid?", "as_of": "2025-06-01"})
    html = response.content.decode()
    assert response.status_code == 200
    assert calls[0]["as_of"] == dt.date(2025, 6, 1) and calls[0]["user"] == page_users["member"]
    assert f'class="cite-marker" href="/chunks/{bonus.pk}/"' in html
    assert f'class="cite-marker" href="/chunks/{meals.pk}/"' in html
    assert "&lt;b&gt;now&lt;/b&gt;" in html  # answer text is escaped
    assert 'id="citation-1"' in html and 'id="citation-2"' in html
    assert "Manager Bonus Policy" in html and "Travel Policy" in html
    assert f'href="/sources/{meals.source_id}/#page=7"' in html  # PDF opens at the page
    assert 'id="answer-notices"' in html and "takes effect on 1 April 2027" in html
    assert "answer--covered" in html
    # the question is recorded and listed under recent questions
    assert Answer.objects.filter(user=page_users["member"]).count() == 1
    assert 'id="history"' in html and "When are bonuses paid?" in html


def test_not_covered_answer_is_styled_distinctly(client, page_users, monkeypatch):
    canned_answer(monkeypatch, ComposedAnswer(question="", as_of=dt.date(2025, 6, 1), text=NOT_COVERED, covered=False))
    client.force_login(page_users["outsider"])
    html = client.post("/", {"question": "How is the bonus pool funded?"}).content.decode()
    assert "answer--not-covered" in html and 'id="answer-not-covered"' in html
    assert NOT_COVERED in html
    assert 'id="citations"' not in html


def test_htmx_post_returns_only_the_answer_partial_and_history(client, page_users, monkeypatch):
    canned_answer(monkeypatch, ComposedAnswer(question="", as_of=dt.date(2025, 6, 1), text=NOT_COVERED, covered=False))
    client.force_login(page_users["member"])
    html = client.post("/", {"question": "Anything?"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in html
    assert html.lstrip().startswith('<section id="answer-area"')
    assert 'id="history"' in html and 'hx-swap-oob="true"' in html


def test_empty_question_and_bad_date_show_form_errors(client, page_users, monkeypatch):
    calls = canned_answer(monkeypatch, ComposedAnswer(question="", as_of=dt.date.today(), text="", covered=False))
    client.force_login(page_users["member"])
    html = client.post("/", {"question": "   ", "as_of": "31/31/2025"}).content.decode()
    assert 'id="ask-errors"' in html
    assert "Please type a question." in html
    assert "Enter the date as YYYY-MM-DD." in html
    assert calls == []


# --- chunk page and source ------------------------------------------------------------------

def test_chunk_page_for_a_group_member(client, page_users, restricted):
    chunk = restricted["chunk"]
    client.force_login(page_users["member"])
    response = client.get(f"/chunks/{chunk.pk}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Manager Bonus Policy" in html
    assert "4.2 Payment" in html and 'id="chunk-breadcrumb"' in html
    assert chunk.text in html
    assert 'id="chunk-version">v1<' in html
    assert f'href="/sources/{chunk.source_id}/"' in html


def test_chunk_page_is_404_for_a_user_outside_the_policy_groups(client, page_users, restricted):
    client.force_login(page_users["outsider"])
    response = client.get(f"/chunks/{restricted['chunk'].pk}/")
    assert response.status_code == 404
    assert "Manager Bonus Policy" not in response.content.decode()


def test_chunk_page_requires_login(client, restricted):
    response = client.get(f"/chunks/{restricted['chunk'].pk}/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


@pytest.mark.parametrize("status, published", [(PolicyVersion.Status.INDEXING, False), (PolicyVersion.Status.READY, False)])
def test_chunk_page_is_404_for_unfinished_or_unpublished_versions(client, page_users, open_policy, status, published):
    PolicyVersion.objects.filter(pk=open_policy["version"].pk).update(status=status, published=published)
    client.force_login(page_users["outsider"])
    assert client.get(f"/chunks/{open_policy['chunk'].pk}/").status_code == 404


def test_chunk_page_renders_a_pipe_table_as_an_html_table(client, page_users, open_policy):
    client.force_login(page_users["outsider"])  # the policy is open to everyone signed in
    html = client.get(f"/chunks/{open_policy['chunk'].pk}/").content.decode()
    assert 'id="chunk-table"' in html
    assert "<th scope=\"col\">Metro city</th>" in html
    assert "<td>2,400 | capped</td>" in html  # escaped pipe inside a cell
    assert "Table 6.1: Daily meal allowance" in html
    assert 'href="/sources/' in html and "#page=7" in html


def test_source_download_follows_the_policy_scope(client, page_users, restricted, open_policy):
    source = restricted["chunk"].source
    client.force_login(page_users["outsider"])
    assert client.get(f"/sources/{source.pk}/").status_code == 404
    client.force_login(page_users["member"])
    response = client.get(f"/sources/{source.pk}/")
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"# Bonus\n\nText."
    assert "attachment" in response["Content-Disposition"]
    pdf = client.get(f"/sources/{open_policy['chunk'].source_id}/")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert "inline" in pdf["Content-Disposition"]


# --- JSON API -------------------------------------------------------------------------------

def test_api_ask_needs_login_and_returns_401_json(client):
    response = client.post("/api/ask", data=json.dumps({"question": "x"}), content_type="application/json")
    assert response.status_code == 401
    assert "error" in response.json()


@pytest.mark.parametrize("body, needle", [
    ("not json", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    ('{"question": ""}', "question"),
    ('{"question": 5}', "strings"),
    ('{"question": "When?", "as_of": "tomorrow"}', "YYYY-MM-DD"),
])
def test_api_ask_rejects_bad_input_with_400(client, page_users, body, needle):
    client.force_login(page_users["member"])
    response = client.post("/api/ask", data=body, content_type="application/json")
    assert response.status_code == 400
    assert needle in response.json()["error"]


def test_api_ask_rejects_form_posts_and_get(client, page_users):
    client.force_login(page_users["member"])
    assert client.post("/api/ask", {"question": "x"}).status_code == 400
    assert client.get("/api/ask").status_code == 405


def test_api_ask_returns_answer_dict(client, page_users, restricted, monkeypatch):
    composed = ComposedAnswer(question="", as_of=dt.date(2025, 6, 1), covered=True, citations=[restricted["chunk"]],
                              text="Bonuses are paid in March. [1]")
    calls = canned_answer(monkeypatch, composed)
    client.force_login(page_users["member"])
    response = client.post("/api/ask", data=json.dumps({"question": "When are bonuses paid?", "as_of": "2025-06-01"}),
                           content_type="application/json")
    data = response.json()
    assert response.status_code == 200
    assert calls[0]["as_of"] == dt.date(2025, 6, 1)
    assert data["covered"] is True and data["answer"] == "Bonuses are paid in March. [1]"
    assert data["citations"][0]["chunk_id"] == restricted["chunk"].pk
    assert data["citations"][0]["url"] == f"/chunks/{restricted['chunk'].pk}/"
