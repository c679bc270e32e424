"""Employee feedback on answers: giving and changing it (service, chat page with and without HTMX,
history items), who may give it, readable errors, and the reviewer queue's feedback filter, badges
and detail. One headless-Chromium test gives feedback on the chat page and takes a screenshot.

Answers come from the real answerer over the sample policies (`sample_corpus`) where the page needs
one; the reviewer-filter tests create answer rows directly, since only their feedback matters.
"""
from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import IntegrityError, transaction

from tests.conftest import signed_in_page
from policypal.assistant.models import Answer, AnswerFeedback, Review
from policypal.assistant.reviews import review_record
from policypal.assistant.selectors import answer_list_for_review, feedback_filter_counts, review_filter_counts
from policypal.assistant.services import (
    FEEDBACK_COMMENT_MAX_LENGTH,
    FeedbackInputError,
    answer_feedback_give,
    answer_question,
)

pytestmark = pytest.mark.django_db

MEAL_QUESTION = "What is the daily meal allowance in Mumbai for grade L4?"  # travel v1: 1,800
AS_OF = dt.date(2026, 6, 1)  # travel v1 in force (v2 from 1 April 2027)
PASSWORD = "feedback-Secret-42"


@pytest.fixture
def reviewer(sample_corpus, django_user_model):
    return django_user_model.objects.get(username="reviewer")


@pytest.fixture
def meal_answer(employee) -> Answer:
    _, answer = answer_question(question=MEAL_QUESTION, user=employee, as_of=AS_OF)
    assert answer.covered
    return answer


def make_answer(user, question: str) -> Answer:
    """A recorded answer without citations (in every reviewer's scope)."""
    return Answer.objects.create(user=user, question=question, as_of=AS_OF, text="Some answer.", covered=True)


def feedback_url(answer: Answer) -> str:
    return f"/answers/{answer.pk}/feedback/"


def block(html: str, dom_id: str) -> str:
    """The element with this id, up to its matching closing tag."""
    start = html.rindex("<", 0, html.index(f'id="{dom_id}"'))
    tag = re.match(r"<(\w+)", html[start:]).group(1)
    depth = 0
    for match in re.finditer(rf"<(/?){tag}\b", html[start:]):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            return html[start:start + match.end()]
    raise AssertionError(f"#{dom_id} is not closed")


def ids(answers) -> set[int]:
    return {a.pk for a in answers}


# --- the service ------------------------------------------------------------------------------

def test_giving_feedback_stores_it_and_giving_it_again_changes_it(employee, meal_answer):
    first = answer_feedback_give(answer=meal_answer, user=employee, verdict="helpful", comment="")
    assert (first.verdict, first.comment, first.user, first.answer) == ("helpful", "", employee, meal_answer)

    changed = answer_feedback_give(answer=meal_answer, user=employee, verdict="missing_caveat",
                                   comment="  It leaves out the cap for metro cities.  ")
    assert changed.pk == first.pk, "re-sending updates the one row"
    assert AnswerFeedback.objects.filter(answer=meal_answer).count() == 1
    changed.refresh_from_db()
    assert (changed.verdict, changed.comment) == ("missing_caveat", "It leaves out the cap for metro cities.")
    assert changed.updated_at >= changed.created_at


def test_only_the_asker_can_give_feedback(employee, manager, meal_answer, client):
    with pytest.raises(Answer.DoesNotExist):
        answer_feedback_give(answer=meal_answer, user=manager, verdict="wrong", comment="")
    client.force_login(manager)
    assert client.post(feedback_url(meal_answer), {"verdict": "wrong"}).status_code == 404
    assert client.post(feedback_url(meal_answer), {"verdict": "wrong"}, HTTP_HX_REQUEST="true").status_code == 404
    assert client.post("/answers/999999/feedback/", {"verdict": "wrong"}).status_code == 404
    assert not AnswerFeedback.objects.exists()


def test_feedback_needs_login_and_post(client, employee, meal_answer):
    response = client.post(feedback_url(meal_answer), {"verdict": "wrong"})
    assert response.status_code == 302 and "/login/" in response["Location"]
    client.force_login(employee)
    assert client.get(feedback_url(meal_answer)).status_code == 405
    assert not AnswerFeedback.objects.exists()


def test_a_comment_too_long_or_an_unknown_verdict_is_a_readable_error(employee, meal_answer):
    too_long = "x" * (FEEDBACK_COMMENT_MAX_LENGTH + 5)
    with pytest.raises(FeedbackInputError, match=rf"{FEEDBACK_COMMENT_MAX_LENGTH} characters or fewer \(it has {len(too_long)}\)"):
        answer_feedback_give(answer=meal_answer, user=employee, verdict="wrong", comment=too_long)
    with pytest.raises(FeedbackInputError, match="helpful, wrong, missing caveat"):
        answer_feedback_give(answer=meal_answer, user=employee, verdict="great", comment="")
    assert not AnswerFeedback.objects.exists()


def test_the_database_keeps_one_feedback_per_answer_and_user_and_known_verdicts(employee, meal_answer):
    AnswerFeedback.objects.create(answer=meal_answer, user=employee, verdict="helpful")
    with pytest.raises(IntegrityError), transaction.atomic():
        AnswerFeedback.objects.create(answer=meal_answer, user=employee, verdict="wrong")
    with pytest.raises(IntegrityError), transaction.atomic():
        AnswerFeedback.objects.filter(answer=meal_answer).update(verdict="great")
    check = next(c for c in AnswerFeedback._meta.constraints if c.name == "answer_feedback_verdict_known")
    assert sorted(check.condition.children[0][1]) == sorted(AnswerFeedback.Verdict.values)


# --- the chat page ----------------------------------------------------------------------------

def test_the_chat_answer_shows_the_feedback_form(client, employee):
    client.force_login(employee)
    html = client.post("/", {"question": MEAL_QUESTION, "as_of": AS_OF.isoformat()}).content.decode()
    saved = Answer.objects.get(user=employee)
    form = block(html, f"feedback-{saved.pk}")
    assert "Was this answer right?" in form
    assert f'action="/answers/{saved.pk}/feedback/"' in form and f'hx-post="/answers/{saved.pk}/feedback/"' in form
    for value, label in (("helpful", "Helpful"), ("wrong", "Wrong"), ("missing_caveat", "Missing caveat")):
        assert re.search(rf'<button type="submit" name="verdict" value="{value}"[^>]*>.*?{label}</button>', form, re.S)
    assert f'name="comment" id="feedback-{saved.pk}-comment"' in form and f'maxlength="{FEEDBACK_COMMENT_MAX_LENGTH}"' in form
    assert "csrfmiddlewaretoken" in form
    # The history item has its own block (another id), folded away.
    assert f'id="history-feedback-{saved.pk}"' in html
    assert "<script" not in form and not re.search(r"\son[a-z]+=", form), "no inline scripts or handlers (CSP)"


def test_htmx_feedback_swaps_in_the_recorded_state_and_can_be_changed(client, employee, meal_answer):
    client.force_login(employee)
    response = client.post(feedback_url(meal_answer), {"verdict": "wrong", "comment": "Mumbai is 2,000 now.", "place": "answer"},
                           HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    recorded = block(html, f"feedback-{meal_answer.pk}")
    assert "Thanks — recorded as" in recorded and 'data-verdict="wrong">Wrong<' in recorded
    assert "Mumbai is 2,000 now." in recorded
    assert re.search(r'value="wrong"[^>]*is-chosen[^>]*aria-pressed="true"', recorded), "the chosen button is marked"
    assert "<summary>Change</summary>" in recorded, "the recorded state can be changed"
    # The history item follows, out of band.
    assert re.search(rf'<details class="history__feedback" id="history-feedback-{meal_answer.pk}"[^>]*hx-swap-oob="true"', html)
    assert AnswerFeedback.objects.get(answer=meal_answer).verdict == "wrong"

    changed = client.post(feedback_url(meal_answer), {"verdict": "helpful", "comment": "", "place": "answer"},
                          HTTP_HX_REQUEST="true").content.decode()
    assert 'data-verdict="helpful">Helpful<' in changed
    assert AnswerFeedback.objects.filter(answer=meal_answer).count() == 1
    assert AnswerFeedback.objects.get(answer=meal_answer).verdict == "helpful"


def test_htmx_feedback_from_a_history_item_keeps_it_unfolded(client, employee, meal_answer):
    client.force_login(employee)
    html = client.post(feedback_url(meal_answer), {"verdict": "missing_caveat", "place": "history"},
                       HTTP_HX_REQUEST="true").content.decode()
    assert re.match(rf'\s*<details class="history__feedback" id="history-feedback-{meal_answer.pk}"[^>]* open>', html)
    assert "Your feedback: <span" in html and "Missing caveat" in html and "Thanks — recorded as" in html
    assert f'id="feedback-{meal_answer.pk}"' not in html


def test_htmx_comment_too_long_comes_back_in_the_form_with_the_limit_and_length(client, employee, meal_answer):
    client.force_login(employee)
    too_long = "y" * (FEEDBACK_COMMENT_MAX_LENGTH + 1)
    response = client.post(feedback_url(meal_answer), {"verdict": "wrong", "comment": too_long, "place": "answer"},
                           HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200  # HTMX swaps only 2xx responses
    assert f"Keep the comment to {FEEDBACK_COMMENT_MAX_LENGTH} characters or fewer (it has {len(too_long)})." in html
    assert 'role="alert"' in html and too_long in html, "the comment is kept for editing"
    assert "Traceback" not in html
    assert not AnswerFeedback.objects.exists()


def test_without_javascript_feedback_redirects_back_with_a_message_and_the_history_shows_it(client, employee, meal_answer):
    client.force_login(employee)
    response = client.post(feedback_url(meal_answer), {"verdict": "missing_caveat", "comment": "No mention of receipts."})
    assert response.status_code == 302 and response["Location"] == f"/#history-item-{meal_answer.pk}"
    html = client.get(response["Location"]).content.decode()
    assert "Thanks — your feedback is recorded as “Missing caveat”." in html
    item = block(html, f"history-feedback-{meal_answer.pk}")
    assert "Your feedback:" in item and "Missing caveat" in item and "No mention of receipts." in item
    assert f'id="history-item-{meal_answer.pk}"' in html

    # Changing it from the history item's form, still without JavaScript.
    client.post(feedback_url(meal_answer), {"verdict": "helpful", "comment": "", "place": "history"})
    feedback = AnswerFeedback.objects.get(answer=meal_answer)
    assert (feedback.verdict, feedback.comment) == ("helpful", "")


def test_without_javascript_an_invalid_feedback_shows_the_page_with_a_readable_message(client, employee, meal_answer):
    client.force_login(employee)
    response = client.post(feedback_url(meal_answer), {"verdict": "wrong", "comment": "z" * 2345, "place": "history"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "Your feedback was not saved. Keep the comment to 2000 characters or fewer (it has 2345)." in html
    assert re.search(rf'id="history-feedback-{meal_answer.pk}"[^>]* open>', html), "the item's form is unfolded"
    response = client.post(feedback_url(meal_answer), {"comment": "no button"})
    assert response.status_code == 400 and "Choose Helpful, Wrong or Missing caveat." in response.content.decode()
    assert not AnswerFeedback.objects.exists()


# --- the reviewer queue -----------------------------------------------------------------------

@pytest.fixture
def feedback_answers(employee, manager):
    answers = {
        "helpful": make_answer(employee, "Feedback helpful?"),
        "wrong": make_answer(employee, "Feedback wrong?"),
        "missing_caveat": make_answer(manager, "Feedback missing caveat?"),
        "none": make_answer(employee, "Feedback none?"),
    }
    answer_feedback_give(answer=answers["helpful"], user=employee, verdict="helpful", comment="")
    answer_feedback_give(answer=answers["wrong"], user=employee, verdict="wrong", comment="It says 1,800; the table says 2,000.")
    answer_feedback_give(answer=answers["missing_caveat"], user=manager, verdict="missing_caveat", comment="")
    return answers


def test_the_review_filter_returns_only_answers_with_that_feedback(reviewer, feedback_answers):
    mine = ids(feedback_answers.values())
    for key in ("helpful", "wrong", "missing_caveat", "none"):
        listed = ids(answer_list_for_review(reviewer=reviewer, feedback=key)) & mine
        assert listed == {feedback_answers[key].pk}, key
    assert ids(answer_list_for_review(reviewer=reviewer, feedback="any")) >= mine
    assert ids(answer_list_for_review(reviewer=reviewer, feedback="nonsense")) >= mine, "an unknown filter filters nothing"

    counts = feedback_filter_counts(reviewer=reviewer)
    assert counts["helpful"] == counts["wrong"] == counts["missing_caveat"] == 1
    assert counts["any"] == counts["none"] + 3 == Answer.objects.count()


def test_the_feedback_filter_combines_with_the_verdict_filter(reviewer, feedback_answers):
    review_record(answer=feedback_answers["wrong"], reviewer=reviewer, verdict="correct", comment="")
    assert ids(answer_list_for_review(reviewer=reviewer, show="correct", feedback="wrong")) == {feedback_answers["wrong"].pk}
    assert not answer_list_for_review(reviewer=reviewer, show="unreviewed", feedback="wrong").exists()
    assert feedback_filter_counts(reviewer=reviewer, show="correct") == {
        "any": 1, "helpful": 0, "wrong": 1, "missing_caveat": 0, "none": 0
    }
    assert review_filter_counts(reviewer=reviewer, feedback="wrong")["correct"] == 1
    assert review_filter_counts(reviewer=reviewer, feedback="helpful")["correct"] == 0


def test_the_review_list_has_the_feedback_filter_and_a_badge_on_each_row(client, reviewer, feedback_answers):
    client.force_login(reviewer)
    html = client.get("/review/?feedback=wrong").content.decode()
    assert f'id="answer-row-{feedback_answers["wrong"].pk}"' in html
    assert all(f'id="answer-row-{a.pk}"' not in html for k, a in feedback_answers.items() if k != "wrong")
    assert re.search(r'id="feedback-filter-wrong" class="filter-tabs__tab is-active"[^>]*>.*?filter-tabs__count">1<', html, re.S)
    assert 'href="?show=unreviewed&amp;feedback=wrong"' in html, "the verdict tabs keep the feedback filter"
    row = html[html.index(f'id="answer-row-{feedback_answers["wrong"].pk}"'):]
    row = row[:row.index("</tr>")]
    assert re.search(r'class="badge badge--feedback-wrong" data-feedback="wrong" title="employee, [^"]*: It says 1,800; the table says 2,000.">Wrong', row)
    assert "“It says 1,800; the table says 2,000.”" in row

    none = client.get("/review/?feedback=none").content.decode()
    assert f'id="answer-row-{feedback_answers["none"].pk}"' in none
    assert f'id="answer-row-{feedback_answers["helpful"].pk}"' not in none
    none_row = none[none.index(f'id="answer-row-{feedback_answers["none"].pk}"'):]
    assert '<span class="muted small">none</span>' in none_row[:none_row.index("</tr>")]


def test_the_review_detail_shows_the_feedback_verdict_and_comment(client, reviewer, feedback_answers):
    client.force_login(reviewer)
    html = client.get(f"/review/answers/{feedback_answers['wrong'].pk}/").content.decode()
    card = html[html.index('id="employee-feedback"'):html.index('id="verdict"')]
    assert 'badge--feedback-wrong">Wrong<' in card and "It says 1,800; the table says 2,000." in card and "employee" in card
    html = client.get(f"/review/answers/{feedback_answers['none'].pk}/").content.decode()
    assert 'id="employee-feedback-none"' in html


def test_the_feedback_filter_keeps_the_reviewer_scope(client, reviewer, manager, meal_answer):
    _, restricted = answer_question(question="How is the manager bonus pool funded?", user=manager, as_of=AS_OF)
    assert restricted.citations.filter(chunk__policy__key="manager-compensation").exists()
    answer_feedback_give(answer=restricted, user=manager, verdict="wrong", comment="The pool is 12% of profit.")
    assert restricted.pk not in ids(answer_list_for_review(reviewer=reviewer, feedback="wrong"))
    assert feedback_filter_counts(reviewer=reviewer)["wrong"] == 0
    client.force_login(reviewer)
    html = client.get("/review/?feedback=wrong").content.decode()
    assert f'id="answer-row-{restricted.pk}"' not in html and "12%" not in html
    assert not answer_list_for_review(reviewer=manager, feedback="wrong").exists(), "not a reviewer: nothing"


# --- in a real browser ------------------------------------------------------------------------

@pytest.mark.e2e  # a real browser on the live server
def test_giving_feedback_in_the_browser(live_server, browser, screenshots, employee, reviewer):
    from playwright.sync_api import expect

    employee.set_password(PASSWORD)
    employee.save()
    context, page = signed_in_page(browser, live_server, "employee", PASSWORD)

    page.fill("#id_question", MEAL_QUESTION)
    page.fill("#id_as_of", AS_OF.isoformat())
    page.click("#ask-submit")
    expect(page.locator("#answer-text")).to_contain_text("1,800", timeout=60_000)
    answer_id = Answer.objects.get(user=employee).pk
    feedback = page.locator(f"#feedback-{answer_id}")
    expect(feedback).to_contain_text("Was this answer right?")

    page.fill(f"#feedback-{answer_id}-comment", "It leaves out that the cap applies to metro cities only.")
    page.evaluate("window.scrollTo(0, 0)")
    screenshots(page, "feedback-form")
    page.click(f"#feedback-{answer_id}-missing_caveat")
    expect(feedback).to_contain_text("Thanks — recorded as Missing caveat")
    expect(page.locator(f"#history-feedback-{answer_id} > summary")).to_contain_text("Missing caveat")
    assert AnswerFeedback.objects.get(answer_id=answer_id).verdict == "missing_caveat"
    page.evaluate("window.scrollTo(0, 0)")  # the sticky top bar stays on top in a full-page shot
    path = screenshots(page, "feedback-recorded")

    # Change it: unfold "Change", choose another button.
    feedback.locator("summary").click()
    page.locator(f"#history-feedback-{answer_id} > summary").click()
    page.evaluate("window.scrollTo(0, 0)")
    screenshots(page, "feedback-change")
    page.click(f"#feedback-{answer_id}-helpful")
    expect(feedback).to_contain_text("Thanks — recorded as Helpful")
    assert AnswerFeedback.objects.get(answer_id=answer_id).verdict == "helpful"
    assert path.exists()
    context.close()

    reviewer.set_password(PASSWORD)
    reviewer.save()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "reviewer")
    page.fill("#id_password", PASSWORD)
    page.click("#login-submit")
    page.goto(f"{live_server.url}/review/?feedback=helpful")
    expect(page.locator(f"#answer-row-{answer_id}")).to_contain_text("Helpful")
    screenshots(page, "review-list")
    page.goto(f"{live_server.url}/review/answers/{answer_id}/")
    expect(page.locator("#employee-feedback")).to_contain_text("Helpful")
    screenshots(page, "review-detail")
    context.close()
