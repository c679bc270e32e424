"""A minimal client for OpenAI-compatible chat completions (Ollama, vLLM, llama.cpp server,
hosted APIs), standard library only.

``chat_stream`` posts to ``{base_url}/chat/completions`` with ``stream: true`` and yields the
text deltas of the reply as they arrive (Server-Sent Events, ``data: {...}`` lines ending with
``data: [DONE]``); a server that ignores ``stream`` and answers with one JSON object is handled
too. Every failure is an ``LLMError`` with a message a person can read.

The timeout is a deadline for the whole reply, not for each read: a server that trickles a
byte a second still stops at ``timeout`` seconds. Each socket read waits at most for what is
left of it, and reads return whatever bytes have arrived (``read1``), never waiting for a
full line or buffer.
"""
from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

MAX_ERROR_BODY = 4096  # bytes of an error response kept for its message


class LLMError(Exception):
    """The endpoint did not give a usable reply; the message says why, for a notice."""


def chat_stream(
    base_url: str, model: str, api_key: str, messages: list[dict], timeout: float, *, temperature: float = 0.0
) -> Iterator[str]:
    """Yield the reply's text deltas; raise LLMError on any failure, including the deadline."""
    deadline = time.monotonic() + timeout
    url = urlsplit(base_url.rstrip("/") + "/chat/completions")
    if url.scheme not in ("http", "https") or not url.hostname:
        raise LLMError(f"LLM_BASE_URL is not an http(s) URL: {base_url!r}")
    body = json.dumps({"model": model, "messages": messages, "stream": True, "temperature": temperature}).encode()
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream, application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    connection_class = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
    connection = connection_class(url.hostname, url.port, timeout=_left(deadline, timeout))
    path = url.path + (f"?{url.query}" if url.query else "")
    try:
        connection.request("POST", path, body=body, headers=headers)
        connection.sock.settimeout(_left(deadline, timeout))
        response = connection.getresponse()
        if response.status != 200:
            raise LLMError(_http_error(response, deadline, connection))
        content_type = response.getheader("Content-Type", "")
        chunks = _chunks(response, deadline, connection, timeout)
        deltas = _sse_deltas(chunks) if "event-stream" in content_type else _json_or_sse_deltas(b"".join(chunks))
        said = False
        for text in deltas:
            said = said or bool(text.strip())
            yield text
        if not said:
            raise LLMError("the model returned an empty reply")
    except LLMError:
        raise
    except (TimeoutError, socket.timeout):
        raise LLMError(f"no complete reply within {timeout:g} s") from None
    except ConnectionRefusedError:
        raise LLMError(f"connection refused by {url.hostname}:{url.port or ''}".rstrip(":")) from None
    except (OSError, http.client.HTTPException) as exc:
        raise LLMError(f"cannot reach {url.scheme}://{url.netloc}: {exc.__class__.__name__} {exc}".strip()) from None
    finally:
        connection.close()


def _left(deadline: float, timeout: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise LLMError(f"no complete reply within {timeout:g} s")
    return left


def _chunks(response: http.client.HTTPResponse, deadline: float, connection, timeout: float) -> Iterator[bytes]:
    """The body as it arrives, each read bounded by what is left of the deadline."""
    while True:
        connection.sock.settimeout(_left(deadline, timeout))
        chunk = response.read1(65536)
        if not chunk:
            return
        yield chunk


def _sse_deltas(chunks: Iterator[bytes]) -> Iterator[str]:
    """Text deltas of an SSE stream. An event is its `data:` lines up to a blank line."""
    buffer = b""
    data: list[str] = []
    finished = False
    for chunk in chunks:
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for raw in lines:
            line = raw.rstrip(b"\r").decode("utf-8", errors="replace")
            if line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
                continue
            if line or not data:  # comments (":"), "event:" and "id:" lines, or a blank line with no data
                continue
            payload, data = "\n".join(data), []
            if payload.strip() == "[DONE]":
                return
            text, finished = _delta(_parse(payload))
            if text:
                yield text
    if data:  # the last event without its blank line
        payload = "\n".join(data)
        if payload.strip() == "[DONE]":
            return
        text, finished = _delta(_parse(payload))
        if text:
            yield text
    if not finished:
        raise LLMError("the connection closed before the reply was complete")


def _json_or_sse_deltas(body: bytes) -> Iterator[str]:
    """A server that ignored stream=true: one JSON object (or SSE sent with another type)."""
    text = body.decode("utf-8", errors="replace").strip()
    if text.startswith("data:"):
        yield from _sse_deltas(iter([body]))
        return
    reply = _parse(text)
    try:
        content = reply["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise LLMError(f"the reply has no choices[0].message.content: {text[:200]}") from None
    if isinstance(content, str):
        yield content


def _parse(payload: str):
    try:
        value = json.loads(payload)
    except ValueError:
        raise LLMError(f"the reply is not valid JSON: {payload[:200]!r}") from None
    if isinstance(value, dict) and value.get("error"):
        raise LLMError(f"the endpoint reported an error: {_error_message(value)}")
    return value


def _delta(event) -> tuple[str, bool]:
    """(text, finished) of one streamed chunk: choices[0].delta.content and finish_reason."""
    try:
        choice = event["choices"][0] if event["choices"] else {}
    except (KeyError, TypeError):
        raise LLMError(f"a streamed chunk has no choices: {json.dumps(event)[:200]}") from None
    delta = choice.get("delta") or choice.get("message") or {}
    text = delta.get("content") if isinstance(delta, dict) else None
    return (text if isinstance(text, str) else ""), bool(choice.get("finish_reason"))


def _http_error(response: http.client.HTTPResponse, deadline: float, connection) -> str:
    connection.sock.settimeout(max(0.1, min(5.0, deadline - time.monotonic())))
    try:
        body = response.read(MAX_ERROR_BODY).decode("utf-8", errors="replace")
    except OSError:
        body = ""
    try:
        message = _error_message(json.loads(body))
    except ValueError:
        message = " ".join(body.split())[:200]
    return f"HTTP {response.status} {response.reason}" + (f": {message}" if message else "")


def _error_message(value) -> str:
    error = value.get("error") if isinstance(value, dict) else None
    if isinstance(error, dict):
        return str(error.get("message") or error)[:200]
    return str(error or value)[:200]
