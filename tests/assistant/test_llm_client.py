"""The chat completions client against the local fake endpoint (no database)."""
from __future__ import annotations

import socket
import time

import pytest

from policypal.answering.llm_client import LLMError, chat_stream

from .llm_server import FakeLLMServer, Reply

MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hello?"}]


@pytest.fixture
def server():
    with FakeLLMServer() as running:
        yield running


def stream(server, timeout=5.0, api_key="secret"):
    return chat_stream(server.base_url, "test-model", api_key, MESSAGES, timeout)


def test_streams_the_deltas_in_order(server):
    server.script = lambda request: Reply(["The allowance ", "is 1,800 ", "per day [1]."])
    assert list(stream(server)) == ["The allowance ", "is 1,800 ", "per day [1]."]
    request = server.requests[0]
    assert request.body["model"] == "test-model" and request.body["stream"] is True
    assert request.body["messages"] == MESSAGES
    assert request.headers["Authorization"] == "Bearer secret"


def test_no_key_sends_no_authorization_header(server):
    server.script = lambda request: Reply(["Hi."])
    assert "".join(stream(server, api_key="")) == "Hi."
    assert "Authorization" not in server.requests[0].headers


def test_a_server_that_ignores_stream_and_answers_with_json(server):
    server.script = lambda request: Reply(["One reply ", "in one piece."], json=True)
    assert "".join(stream(server)) == "One reply in one piece."


def test_a_delta_is_given_before_the_reply_is_complete(server):
    """The client yields each delta as it arrives: the server holds the rest back until the
    first delta has been received."""
    import threading

    gate = threading.Event()
    reply = Reply(["first ", "second"], gate=gate, gate_timeout=5)
    server.script = lambda request: reply
    deltas = stream(server)
    assert next(deltas) == "first "
    gate.set()
    assert list(deltas) == ["second"]
    assert reply.gate_released is True


def test_an_http_error_says_its_status_and_message(server):
    server.script = lambda request: Reply(status=500, error="model 'test-model' not found")
    with pytest.raises(LLMError, match=r"HTTP 500 .*model 'test-model' not found"):
        list(stream(server))


def test_broken_json_in_the_stream(server):
    server.script = lambda request: Reply(raw='data: {"choices": [{"delta": {"content": "Hi"}}\n\n')
    with pytest.raises(LLMError, match="not valid JSON"):
        list(stream(server))


def test_a_stream_cut_short(server):
    server.script = lambda request: Reply(raw='data: {"choices": [{"delta": {"content": "The allowance is"}}]}\n\n')
    with pytest.raises(LLMError, match="closed before the reply was complete"):
        list(stream(server))


def test_an_empty_reply(server):
    server.script = lambda request: Reply([])
    with pytest.raises(LLMError, match="empty reply"):
        list(stream(server))


def test_connection_refused():
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(LLMError, match="connection refused"):
        list(chat_stream(f"http://127.0.0.1:{port}/v1", "m", "", MESSAGES, 5))


def test_a_bad_base_url():
    with pytest.raises(LLMError, match="not an http"):
        list(chat_stream("ftp://example.org/v1", "m", "", MESSAGES, 5))


def test_a_server_that_does_not_answer_in_time(server):
    server.script = lambda request: Reply(["Too late."], delay=30)
    started = time.monotonic()
    with pytest.raises(LLMError, match=r"no complete reply within 0.5 s"):
        list(stream(server, timeout=0.5))
    assert time.monotonic() - started < 1.5


def test_the_timeout_is_for_the_whole_reply_not_each_read(server):
    """A server that sends a delta every 0.2 s never lets a single read wait long; the deadline
    still ends the reply."""
    server.script = lambda request: Reply(["word "] * 100, pause=0.2)
    started = time.monotonic()
    received = []
    with pytest.raises(LLMError, match="within 1 s"):
        for delta in stream(server, timeout=1):
            received.append(delta)
    elapsed = time.monotonic() - started
    assert 0.9 < elapsed < 1.6
    assert 2 <= len(received) < 100
