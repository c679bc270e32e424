"""Questions per user and minute (ASK_LIMIT_PER_MINUTE) over the chat page, its streamed answer
and /api/ask together: 429 with Retry-After (JSON for the API, a message on the page).

The questions here are invalid on purpose (an empty one): every POST counts, and no answer has to
be composed, so the tests stay fast."""
from __future__ import annotations

import json
import time

import pytest
from django.conf import settings as django_settings

pytestmark = pytest.mark.django_db


class Clock:
    """time.time, stopped 5 s into a minute (windows are aligned to the clock: a test must not
    straddle two of them), moved on by hand."""

    def __init__(self):
        self.now = (time.time() // 60) * 60 + 5

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(time, "time", clock)
    return clock


@pytest.fixture
def asker(client, django_user_model, settings, clock):
    settings.ASK_LIMIT_PER_MINUTE = 3
    client.force_login(django_user_model.objects.create_user("rate-asker", password="x-Password-1"))
    return client


def api_ask(client):
    return client.post("/api/ask", data=json.dumps({"question": ""}), content_type="application/json")


def test_the_default_limit_is_30_a_minute():
    assert django_settings.ASK_LIMIT_PER_MINUTE == 30


def test_api_answers_429_json_with_retry_after(asker, clock):
    for _ in range(3):
        assert api_ask(asker).status_code == 400
    refused = api_ask(asker)
    assert refused.status_code == 429
    assert "3 questions in the last minute" in refused.json()["error"]
    assert refused["Retry-After"] == "55"  # the minute's end

    clock.now += 55
    assert api_ask(asker).status_code == 400  # a new minute


def test_the_limit_is_per_user(asker, django_user_model):
    from django.test import Client

    for _ in range(4):
        api_ask(asker)
    other = Client()
    other.force_login(django_user_model.objects.create_user("rate-other", password="x-Password-2"))
    assert api_ask(other).status_code == 400


def test_chat_page_and_stream_share_the_limit_and_say_how_long_to_wait(asker):
    assert asker.post("/", {"question": " "}).status_code == 200
    assert asker.post("/", {"question": " "}).status_code == 200
    assert api_ask(asker).status_code == 400

    page = asker.post("/", {"question": "What is the meal allowance?"})
    assert page.status_code == 429 and page["Retry-After"] == "55"
    html = page.content.decode()
    assert 'id="ask-rate-limited"' in html and "Please wait" in html
    assert "What is the meal allowance?" in html  # the question stays in the box

    partial = asker.post("/", {"question": "Again?"}, HTTP_HX_REQUEST="true")
    assert partial.status_code == 200  # HTMX swaps no 4xx response
    assert 'id="ask-rate-limited"' in partial.content.decode() and "<html" not in partial.content.decode()
    assert partial["Retry-After"]

    stream = asker.post("/ask/stream", {"question": "Again?"})
    assert stream.status_code == 429 and stream["Retry-After"]
    assert "Please wait" in stream.content.decode()


def test_reading_the_chat_page_is_not_counted(asker):
    for _ in range(5):
        assert asker.get("/").status_code == 200
    assert asker.post("/", {"question": " "}).status_code == 200
