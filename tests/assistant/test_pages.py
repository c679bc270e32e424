"""Chat page, chunk page, source download and the JSON ask endpoint (Django test client).

Questions go to the real answerer over the sample policies ingested by the real pipeline
(`sample_corpus`); the expected figures come from the files in samples/policies/. The chunk page
and source download tests create their own rows (a restricted policy, a PDF with a table).
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import re

import pytest
from django.contrib.auth.models import Group
from django.core.files.base import ContentFile

from policypal.assistant.answering import NOT_COVERED
from policypal.assistant.models import Answer
from policypal.policies.models import Policy, PolicyVersion, SourceDocument
from retrieval.models import Chunk

pytestmark = pytest.mark.django_db

# Questions with known answers in samples/policies/ (checked with `manage.py ask ... --json`).
MEAL_QUESTION = "What is the daily meal allowance in Mumbai for grade L4?"  # travel: 1,800 (v1), 2,000 (v2)
MEAL_BREADCRUMB = ("Harbourline Travel and Expenses Policy", "5 Meals and daily allowances", "5.1 Daily meal allowance")
BONUS_QUESTION = "How is the manager bonus pool funded?"  # manager-compensation (managers only): 12%
BEFORE_TRAVEL_V2 = "2026-06-01"  # travel v1 in force; v2 takes effect on 1 April 2027
# Nothing in the samples covers these: their best evidence sentence scores about 0.25 and 0.29, well under
# COVERED_MIN_SIMILARITY (0.38). ("bringing pets to the office" is not one: it matches "pet care" in travel 6.3.)
UNCOVERED_QUESTIONS = ("Can I bring my dog to work?", "Is there a dress code for the office?")

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


def section(html: str, start: str, end: str) -> str:
    """The part of a page from the first `start` up to the next `end`."""
    begin = html.index(start)
    return html[begin:html.index(end, begin)]


def card(html: str, n: int) -> str:
    """The <li> of citation card n, from its opening tag (which carries the card's classes)."""
    begin = html.rindex("<li", 0, html.index(f'id="citation-{n}"'))
    return html[begin:html.index("</li>", begin)]


def ask(client, question: str, as_of: str = "", **headers) -> str:
    response = client.post("/", {"question": question, "as_of": as_of}, **headers)
    assert response.status_code == 200
    return response.content.decode()


def test_chat_answer_links_markers_and_lists_citation_cards(client, employee):
    client.force_login(employee)
    html = ask(client, MEAL_QUESTION, as_of=BEFORE_TRAVEL_V2)

    # the question is answered and recorded for the user and the date asked, and listed under recent questions
    answer = Answer.objects.get(user=employee, question=MEAL_QUESTION)
    assert answer.covered and answer.as_of == dt.date(2026, 6, 1)
    assert 'class="card answer answer--covered"' in html and "As of 1 Jun 2026" in html
    assert MEAL_QUESTION in section(html, 'id="history"', "</section>")

    text = section(html, 'id="answer-text"', "</div>")
    assert "1,800" in text
    # every marker in the text is a link to the chunk page of its citation; none is left as plain "[n]"
    citations = list(answer.citations.select_related("chunk__version__policy", "chunk__source").order_by("n"))
    assert citations
    for citation in citations:
        assert f'<a class="cite-marker" href="/chunks/{citation.chunk_id}/" data-citation="{citation.n}"' in text
        assert f'id="citation-{citation.n}" data-chunk-id="{citation.chunk_id}"' in html
    assert not re.search(r"\[\d+\]", re.sub(r'<a class="cite-marker".*?</a>', "", text))

    # the card of the L4 row: breadcrumb, policy, version, dates, excerpt and a link to the source file
    l4 = next(c for c in citations if "L4" in c.text and "1,800" in c.text)
    assert (l4.chunk.policy.key, l4.chunk.version.number) == ("travel", 1)
    l4_card = card(html, l4.n)
    assert "".join(f"<span>{part}</span>" for part in MEAL_BREADCRUMB) in l4_card
    assert "<strong>Harbourline Travel and Expenses Policy</strong>" in l4_card
    assert 'badge--version">v1<' in l4_card
    assert "from 1 Jan 2026, replaced on 1 Apr 2027" in l4_card
    assert "1,800" in l4_card and "not yet in force" not in l4_card
    assert f'href="/sources/{l4.chunk.source_id}/">expenses_travel.docx</a>' in l4_card  # not a PDF: no #page
    # the named row is cited by its own row sentence, which carries the column headers
    assert l4.chunk.kind == "table_row"
    assert "Grade L4" in l4_card and "Metro city (includes Mumbai, Delhi, Bengaluru): 1,800" in l4_card
    assert "Grade L5" not in l4_card
    page = client.get(f"/chunks/{l4.chunk_id}/")
    assert page.status_code == 200 and "5.1 Daily meal allowance" in page.content.decode()

    # a question naming no row cites the whole table, shown as a table, not as Markdown pipes
    html_all = ask(client, "What are the daily meal allowances for each grade and city tier?", as_of=BEFORE_TRAVEL_V2)
    table_card = card(html_all, 1)
    assert '<th scope="col">Metro city (includes Mumbai, Delhi, Bengaluru)</th>' in table_card
    assert "<td>1,800</td>" in table_card and "| L4 |" not in table_card

    # version 2 (from 1 April 2027) is announced: a notice, and its card is marked as not yet in force
    assert 'id="answer-notices"' in html and "takes effect on 1 April 2027" in html
    announced = [c for c in citations if c.chunk.version.number == 2]
    assert announced
    for citation in announced:
        assert "citation-card--announced" in card(html, citation.n)
        assert "not yet in force" in card(html, citation.n) and "from 1 Apr 2027" in card(html, citation.n)


def test_the_as_of_date_picks_the_version_in_force(client, employee):
    client.force_login(employee)
    html = ask(client, MEAL_QUESTION, as_of="2027-06-01")
    text = section(html, 'id="answer-text"', "</div>")
    assert "As of 1 Jun 2027" in html
    assert "2,000" in text and "1,800" not in text  # version 2's figure for L4 in a metro city
    answer = Answer.objects.get(user=employee, question=MEAL_QUESTION)
    assert answer.as_of == dt.date(2027, 6, 1)
    assert {c.chunk.version.number for c in answer.citations.select_related("chunk__version")} == {2}
    assert 'id="answer-notices"' not in html


@pytest.mark.parametrize("question", UNCOVERED_QUESTIONS)
def test_not_covered_answer_is_styled_distinctly(client, employee, question):
    client.force_login(employee)
    html = ask(client, question)
    assert 'class="card answer answer--not-covered"' in html and 'id="answer-not-covered"' in html
    assert "Not covered" in html and Answer.objects.get(user=employee, question=question).outcome == "not_covered"
    assert 'id="citations"' not in html and 'class="cite-marker"' not in html
    # the closest sections are offered to read, as links, never as cited sources
    closest = section(html, 'id="answer-closest"', "</ul>")
    assert "Closest sections" in closest and 'class="closest__link" href="/chunks/' in closest
    assert "not covered ·" in section(html, 'id="history"', "</section>")
    assert Answer.objects.get(user=employee, question=question).covered is False


def test_answers_come_only_from_the_policies_the_user_can_see(client, employee, manager):
    client.force_login(manager)
    html = ask(client, BONUS_QUESTION)
    assert "12%" in section(html, 'id="answer-text"', "</div>")
    assert "<strong>Harbourline Manager Compensation and Bonus Policy</strong>" in card(html, 1)

    client.force_login(employee)
    html = ask(client, BONUS_QUESTION)
    assert "12%" not in html
    assert "Manager Compensation" not in html


def test_htmx_post_returns_only_the_answer_partial_and_history(client, manager):
    client.force_login(manager)
    html = ask(client, BONUS_QUESTION, as_of=BEFORE_TRAVEL_V2, HTTP_HX_REQUEST="true")
    assert "<html" not in html
    assert html.lstrip().startswith('<section id="answer-area"')
    history = section(html, 'id="history"', "</section>")
    assert 'hx-swap-oob="true"' in history and BONUS_QUESTION in history
    text = section(html, 'id="answer-text"', "</div>")
    assert "12%" in text
    assert "unit&#x27;s manager bonus pool" in text and "unit's" not in text  # the answer text is escaped
    bonus_card = card(html, 1)
    assert "<span>3.1 Funding the bonus pool</span>" in bonus_card
    assert 'badge--version">v1<' in bonus_card and "from 1 Jan 2026<" in bonus_card  # no later version
    assert "replaced on" not in bonus_card


def test_empty_question_and_bad_date_show_form_errors(client, employee):
    client.force_login(employee)
    before = Answer.objects.count()
    html = ask(client, "   ", as_of="31/31/2025")
    assert 'id="ask-errors"' in html
    assert "Please type a question." in html
    assert "Enter the date as YYYY-MM-DD." in html
    assert 'id="answer"' not in html
    assert Answer.objects.count() == before  # nothing was asked


def test_a_question_over_the_length_limit_is_refused_with_its_length(client, employee):
    from policypal.assistant.forms import QUESTION_MAX_LENGTH

    client.force_login(employee)
    before = Answer.objects.count()
    html = ask(client, "leave " * 500)  # 3,000 characters, 2,999 once stripped
    assert f"Keep the question to {QUESTION_MAX_LENGTH} characters or fewer (it has 2999)." in html
    assert f'maxlength="{QUESTION_MAX_LENGTH}"' in html  # the browser stops typing at the limit too
    assert Answer.objects.count() == before


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


def test_api_ask_returns_answer_dict(client, manager):
    client.force_login(manager)
    response = client.post("/api/ask", data=json.dumps({"question": BONUS_QUESTION, "as_of": BEFORE_TRAVEL_V2}),
                           content_type="application/json")
    data = response.json()
    assert response.status_code == 200
    assert set(data) == {"question", "as_of", "answer", "covered", "outcome", "missing", "closest", "notices",
                         "citations", "answered_by", "claims"}
    assert data["outcome"] == "answered" and data["claims"] is None and data["answered_by"] == "extractive"
    assert data["question"] == BONUS_QUESTION and data["as_of"] == "2026-06-01"
    assert data["covered"] is True and "12%" in data["answer"] and "[1]" in data["answer"]
    first = data["citations"][0]
    assert set(first) == {"n", "chunk_id", "breadcrumb", "text", "policy", "policy_title", "version", "effective_from",
                          "effective_to", "source", "pages", "url"}
    assert first["n"] == 1 and first["policy"] == "manager-compensation" and first["version"] == 1
    assert first["policy_title"] == "Harbourline Manager Compensation and Bonus Policy"
    assert first["breadcrumb"].endswith(" > 3 Annual bonus > 3.1 Funding the bonus pool") and "12%" in first["text"]
    assert (first["effective_from"], first["effective_to"]) == ("2026-01-01", None)
    assert (first["source"], first["pages"]) == ("manager_compensation.md", [])
    assert first["url"] == f"/chunks/{first['chunk_id']}/"
    assert Chunk.objects.get(pk=first["chunk_id"]).policy.key == "manager-compensation"
    assert Answer.objects.filter(user=manager, question=BONUS_QUESTION, covered=True).count() == 1


def test_api_ask_answers_only_from_the_users_policies(client, employee):
    client.force_login(employee)
    response = client.post("/api/ask", data=json.dumps({"question": BONUS_QUESTION}), content_type="application/json")
    data = response.json()
    assert response.status_code == 200
    assert "12%" not in data["answer"]
    assert all(c["policy"] != "manager-compensation" for c in data["citations"])
