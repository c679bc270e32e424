"""Reviewer workflow: the answer list, one answer's citations checked against their chunks, verdicts,
regression questions and their JSONL export (the format `manage.py evaluate` reads).

Answers come from the real answerer over the sample policies (`sample_corpus`); nothing of ours is
mocked. The export is checked by running `manage.py evaluate` on it.
"""
from __future__ import annotations

import datetime as dt
import io
import json
import re
from html import unescape

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command

from policypal.assistant.models import Answer, RegressionQuestion, Review
from policypal.assistant.reviews import ReviewInputError, regression_question_create, review_record
from policypal.assistant.services import answer_question
from retrieval.evaluation import question_from_dict
from retrieval.models import Chunk

pytestmark = pytest.mark.django_db

MEAL_QUESTION = "What is the daily meal allowance in Mumbai for grade L4?"  # travel v1: 1,800
UNCOVERED_QUESTION = "Can I bring my dog to work?"
AS_OF = dt.date(2026, 6, 1)  # travel v1 in force (v2 from 1 April 2027)


@pytest.fixture
def reviewer(sample_corpus, django_user_model):
    return django_user_model.objects.get(username="reviewer")


@pytest.fixture
def meal_answer(employee) -> Answer:
    _, answer = answer_question(question=MEAL_QUESTION, user=employee, as_of=AS_OF)
    assert answer.covered and answer.citations.exists()
    return answer


@pytest.fixture
def uncovered_answer(employee) -> Answer:
    _, answer = answer_question(question=UNCOVERED_QUESTION, user=employee, as_of=AS_OF)
    assert not answer.covered
    return answer


def detail_url(answer: Answer) -> str:
    return f"/review/answers/{answer.pk}/"


def row(html: str, answer: Answer) -> str:
    start = html.index(f'id="answer-row-{answer.pk}"')
    return html[start:html.index("</tr>", start)]


def citation_card(html: str, n: int) -> str:
    """The citation's card, its entities unescaped (a cited "traveller's" is "traveller&#x27;s" in
    the page), so that it can be compared with the stored text."""
    start = html.index(f'id="citation-{n}"')
    return unescape(html[start:html.index("</li>", start)])


def messages_of(html: str) -> str:
    if 'id="messages"' not in html:
        return ""
    start = html.index('id="messages"')
    return html[start:html.index("</ul>", start)]


def post_verdict(client, answer, verdict, comment=""):
    return client.post(detail_url(answer), {"action": "verdict", "verdict": verdict, "comment": comment}, follow=True)


def post_regression(client, answer, evidence="", expect_no_answer=False, note=""):
    data = {"action": "regression", "evidence": evidence, "note": note}
    if expect_no_answer:
        data["expect_no_answer"] = "on"
    return client.post(detail_url(answer), data, follow=True)


# --- who may review ---------------------------------------------------------------------------

def test_reviewer_sees_the_list_and_the_nav_link(client, reviewer, meal_answer):
    client.force_login(reviewer)
    response = client.get("/review/")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="nav-review"' in html and 'class="nav__link is-active">Review<' in html
    assert MEAL_QUESTION in html


@pytest.mark.parametrize("method, url", [
    ("get", "/review/"),
    ("get", "/review/answers/{pk}/"),
    ("post", "/review/answers/{pk}/"),
    ("get", "/review/regressions.jsonl"),
])
def test_review_pages_are_403_for_an_employee(client, employee, meal_answer, method, url):
    client.force_login(employee)
    data = {"action": "verdict", "verdict": "correct"} if method == "post" else None
    response = getattr(client, method)(url.format(pk=meal_answer.pk), data)
    assert response.status_code == 403
    html = response.content.decode()
    assert 'id="error-403"' in html and "Only reviewers can open the review pages." in html
    assert MEAL_QUESTION not in html
    assert not Review.objects.exists()


def test_no_review_link_for_an_employee_and_login_required(client, employee):
    client.force_login(employee)
    assert 'id="nav-review"' not in client.get("/").content.decode()
    client.logout()
    response = client.get("/review/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_services_refuse_a_non_reviewer(employee, meal_answer):
    with pytest.raises(PermissionDenied):
        review_record(answer=meal_answer, reviewer=employee, verdict="correct", comment="")
    with pytest.raises(PermissionDenied):
        regression_question_create(answer=meal_answer, created_by=employee, evidence=["1,800"],
                                   expect_no_answer=False, note="")
    assert not Review.objects.exists() and not RegressionQuestion.objects.exists()


# --- the list ---------------------------------------------------------------------------------

def test_list_rows_newest_first_with_asker_date_coverage_citations_and_verdict(client, reviewer, meal_answer, uncovered_answer):
    client.force_login(reviewer)
    html = client.get("/review/").content.decode()
    assert html.index(f'id="answer-row-{uncovered_answer.pk}"') < html.index(f'id="answer-row-{meal_answer.pk}"')

    meal = row(html, meal_answer)
    assert f'href="/review/answers/{meal_answer.pk}/"' in meal and MEAL_QUESTION in meal
    assert "Asha Employee" in meal and "employee</span>" in meal
    assert "1 Jun 2026" in meal
    assert 'badge--covered">answered<' in meal
    assert f'<td class="num">{meal_answer.citations.count()}</td>' in meal
    assert 'badge--unreviewed">not reviewed<' in meal

    uncovered = row(html, uncovered_answer)
    assert 'badge--not-covered">not covered<' in uncovered and '<td class="num">0</td>' in uncovered


# --- verdicts ---------------------------------------------------------------------------------

def test_posting_a_verdict_stores_it_and_shows_it(client, reviewer, meal_answer):
    client.force_login(reviewer)
    response = post_verdict(client, meal_answer, "missing_caveat", "Leaves out the cap for L1 and L2.")
    html = response.content.decode()
    assert response.redirect_chain == [(f"{detail_url(meal_answer)}#verdict", 302)]
    assert "Verdict saved: Missing caveat." in messages_of(html)

    review = Review.objects.get()
    assert (review.answer, review.reviewer, review.verdict) == (meal_answer, reviewer, "missing_caveat")
    assert review.comment == "Leaves out the cap for L1 and L2."
    # the page shows the verdict kept: its badge, the radio checked, the comment in the box
    assert 'id="my-verdict">Missing caveat<' in html
    assert re.search(r'<input type="radio" name="verdict" value="missing_caveat"[^>]*checked', html)
    assert "Leaves out the cap for L1 and L2.</textarea>" in html
    assert 'badge--verdict-missing_caveat' in row(client.get("/review/").content.decode(), meal_answer)


def test_an_invalid_verdict_is_rejected_with_a_message_and_nothing_stored(client, reviewer, meal_answer):
    client.force_login(reviewer)
    response = post_verdict(client, meal_answer, "brilliant", "looks fine")
    html = response.content.decode()
    assert response.status_code == 400
    assert "The verdict was not saved." in messages_of(html) and "is not a verdict" in messages_of(html)
    assert not Review.objects.exists()

    response = post_verdict(client, meal_answer, "")
    assert response.status_code == 400 and "Choose a verdict." in messages_of(response.content.decode())
    assert not Review.objects.exists()

    # the service checks the verdict too, whoever calls it
    with pytest.raises(ReviewInputError):
        review_record(answer=meal_answer, reviewer=reviewer, verdict="brilliant", comment="")
    assert not Review.objects.exists()


def test_a_verdict_is_never_lost_posting_again_updates_it(client, reviewer, meal_answer, uncovered_answer):
    client.force_login(reviewer)
    post_verdict(client, meal_answer, "correct", "first look")
    html = post_verdict(client, meal_answer, "wrong_version", "cites v1 but should be v2").content.decode()
    assert 'id="my-verdict">Wrong version<' in html

    review = Review.objects.get()  # one current verdict per answer and reviewer, updated in place
    assert (review.verdict, review.comment) == ("wrong_version", "cites v1 but should be v2")
    assert review.updated_at >= review.created_at

    listing = client.get("/review/").content.decode()
    assert 'badge--verdict-wrong_version" title="reviewer' in row(listing, meal_answer)
    assert "badge--verdict-correct" not in row(listing, meal_answer)
    # the filters: by verdict and unreviewed
    by_verdict = client.get("/review/?show=wrong_version").content.decode()
    assert f'id="answer-row-{meal_answer.pk}"' in by_verdict and f'id="answer-row-{uncovered_answer.pk}"' not in by_verdict
    assert f'id="answer-row-{meal_answer.pk}"' not in client.get("/review/?show=correct").content.decode()
    unreviewed = client.get("/review/?show=unreviewed").content.decode()
    assert f'id="answer-row-{uncovered_answer.pk}"' in unreviewed and f'id="answer-row-{meal_answer.pk}"' not in unreviewed
    assert re.search(r'id="filter-wrong_version"[^>]*>.*?filter-tabs__count">1<', by_verdict, re.S)


def test_model_constraint_knows_the_same_verdicts_as_the_choices():
    constraint = next(c for c in Review._meta.constraints if c.name == "review_verdict_known")
    assert sorted(dict(constraint.condition.children)["verdict__in"]) == sorted(Review.Verdict.values)


# --- one answer: citations against their chunks -----------------------------------------------

def test_detail_shows_each_citation_snapshot_with_chunk_and_source_links(client, reviewer, meal_answer):
    client.force_login(reviewer)
    html = client.get(detail_url(meal_answer)).content.decode()
    assert MEAL_QUESTION in html and 'id="answer-text"' in html
    assert 'href="#citation-1"' in html  # the markers in the answer jump to the cards
    citations = list(meal_answer.citations.select_related("chunk__version"))
    for citation in citations:
        card = citation_card(html, citation.n)
        assert "".join(f"<span>{part}</span>" for part in citation.breadcrumb.split(" > ")) in card
        assert 'badge--unchanged">unchanged<' in card and "changed since" not in card
        assert f'href="/chunks/{citation.chunk_id}/"' in card
        assert f'href="/sources/{citation.chunk.source_id}/"' in card
        assert f"v{citation.chunk.version.number}<" in card
    l4 = next(c for c in citations if "L4" in c.text and "1,800" in c.text)
    assert "1,800" in citation_card(html, l4.n) and "in force on 1 Jun 2026" in citation_card(html, l4.n)
    # the form to turn it into a regression question starts empty
    assert re.search(r'<textarea name="evidence"[^>]*>\s*</textarea>', html)
    assert re.search(r'<input type="checkbox" name="expect_no_answer"[^>]*>', html)


def test_detail_flags_a_chunk_changed_or_removed_since_it_was_cited(client, reviewer, meal_answer):
    first, *others = list(meal_answer.citations.order_by("n"))
    Chunk.objects.filter(pk=first.chunk_id).update(text=first.text + " Amended: receipts required.")
    client.force_login(reviewer)
    html = client.get(detail_url(meal_answer)).content.decode()
    card = citation_card(html, first.n)
    assert 'id="citation-1-changed">changed since<' in card
    assert "Amended: receipts required." in card  # the chunk as it reads now
    snapshot = card[card.index('id="citation-1-snapshot"'):]
    assert "Amended" not in snapshot[:snapshot.index("</blockquote>")]  # the snapshot is what was cited

    if others:
        gone = others[0]
        Chunk.objects.filter(pk=gone.chunk_id).delete()
        html = client.get(detail_url(meal_answer)).content.decode()
        card = citation_card(html, gone.n)
        assert "chunk no longer exists" in card and "/chunks/" not in card
        assert gone.text.splitlines()[0] in card  # the snapshot survives the chunk


# --- regression questions ---------------------------------------------------------------------

def test_regression_question_is_created_downloaded_and_exported_in_the_evaluate_format(
    client, reviewer, meal_answer, tmp_path
):
    client.force_login(reviewer)
    response = post_regression(client, meal_answer, evidence="  1,800 \r\n\r\nL4\r\n1,800", note="must keep the metro rate")
    html = response.content.decode()
    assert response.redirect_chain == [(f"{detail_url(meal_answer)}#regression", 302)]
    assert "Regression question saved." in messages_of(html)
    assert 'id="saved-regressions"' in html and '<span class="chip">1,800</span>' in html

    saved = RegressionQuestion.objects.get()
    assert (saved.question, saved.username, saved.as_of) == (MEAL_QUESTION, "employee", AS_OF)
    assert saved.evidence == ["1,800", "L4"] and saved.expect_no_answer is False
    assert (saved.source_answer, saved.created_by, saved.note) == (meal_answer, reviewer, "must keep the metro rate")

    download = client.get("/review/regressions.jsonl")
    assert download.status_code == 200
    assert download["Content-Disposition"] == 'attachment; filename="regressions.jsonl"'
    body = download.content.decode()
    lines = body.splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert data == {"question": MEAL_QUESTION, "evidence": ["1,800", "L4"], "user": "employee", "as_of": "2026-06-01",
                    "expect_no_answer": False, "tags": ["regression"], "note": "must keep the metro rate"}
    parsed = question_from_dict(data)  # what `manage.py evaluate` does with each line
    assert (parsed.user, parsed.as_of, parsed.evidence) == ("employee", AS_OF, ("1,800", "L4"))

    stdout = io.StringIO()
    call_command("export_regressions", stdout=stdout, stderr=io.StringIO())
    assert stdout.getvalue() == body
    path = tmp_path / "regressions.jsonl"
    call_command("export_regressions", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    assert path.read_text(encoding="utf-8") == body

    # and it re-runs: the evaluation finds the evidence for the asker on the date asked
    out = io.StringIO()
    call_command("evaluate", str(path), "--json", "--budget", "0", stdout=out, stderr=io.StringIO())
    report = json.loads(out.getvalue())
    assert report["questions"] == 1
    assert report["strategies"]["default"]["metrics"]["recall_at_k"] == 1.0


def test_evidence_is_required_unless_no_answer_is_expected(client, reviewer, meal_answer, uncovered_answer):
    client.force_login(reviewer)
    response = post_regression(client, meal_answer, evidence=" \n \n")
    assert response.status_code == 400
    assert "Give at least one evidence string" in messages_of(response.content.decode())
    assert not RegressionQuestion.objects.exists()

    response = post_regression(client, meal_answer, evidence="x" * 301)
    assert response.status_code == 400 and "at most 300 characters" in messages_of(response.content.decode())
    response = post_regression(client, meal_answer, evidence="1,800", expect_no_answer=True)
    assert response.status_code == 400 and "has no evidence" in messages_of(response.content.decode())
    assert not RegressionQuestion.objects.exists()

    response = post_regression(client, uncovered_answer, expect_no_answer=True, note="nothing covers pets")
    assert response.status_code == 200 and "Regression question saved." in messages_of(response.content.decode())
    saved = RegressionQuestion.objects.get()
    assert (saved.question, saved.evidence, saved.expect_no_answer) == (UNCOVERED_QUESTION, [], True)
    data = json.loads(client.get("/review/regressions.jsonl").content.decode())
    assert data["expect_no_answer"] is True and data["evidence"] == []
    assert question_from_dict(data).expect_no_answer

    with pytest.raises(ReviewInputError):
        regression_question_create(answer=meal_answer, created_by=reviewer, evidence=["1,800", "y" * 301],
                                   expect_no_answer=False, note="")
    assert RegressionQuestion.objects.count() == 1


def test_reviewer_never_sees_answers_quoting_policies_outside_their_scope(client, reviewer, manager, meal_answer):
    _, restricted = answer_question(question="How is the manager bonus pool funded?", user=manager, as_of=AS_OF)
    assert restricted.citations.filter(chunk__policy__key="manager-compensation").exists()
    client.force_login(reviewer)
    listing = client.get("/review/").content.decode()
    assert f'id="answer-row-{meal_answer.pk}"' in listing
    assert f'id="answer-row-{restricted.pk}"' not in listing and "12%" not in listing
    assert client.get(detail_url(restricted)).status_code == 404
