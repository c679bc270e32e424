"""A small OpenAI-compatible chat completions server for tests, on 127.0.0.1 and a free port.

It speaks POST /v1/chat/completions: with "stream": true it answers with Server-Sent Events
in chunked transfer encoding (one `data: {chunk}` per delta, a final chunk with finish_reason,
then `data: [DONE]`), as Ollama, vLLM and llama.cpp do; otherwise one JSON completion.

What it replies is scripted per test: `server.script` is a function of the request (its JSON
body and the numbered sources found in the prompt, {n: source text}) that returns a `Reply`.
Every request is kept in `server.requests`.
"""
from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

_SOURCE = re.compile(r'<source n="(\d+)">\n(.*?)\n</source>', re.DOTALL)


@dataclass
class Reply:
    """A scripted reply: the text deltas in order, or an HTTP error, with optional delays.

    delay: seconds before the response starts (a server that thinks too long).
    pause: seconds between deltas (a server that trickles).
    gate: after the first delta, wait for this event (up to gate_timeout) before sending the
        rest; `gate_released` records whether it was set in time.
    json: answer with one JSON completion even when a stream was asked for.
    raw: the stream's body exactly as given (broken JSON, a stream cut short).
    """

    deltas: list[str] = field(default_factory=list)
    status: int = 200
    error: str = ""
    delay: float = 0.0
    pause: float = 0.0
    gate: threading.Event | None = None
    gate_timeout: float = 10.0
    gate_released: bool | None = None
    json: bool = False
    raw: str | None = None


@dataclass
class Request:
    body: dict
    headers: dict
    sources: dict[int, str]

    @property
    def system(self) -> str:
        return next(m["content"] for m in self.body["messages"] if m["role"] == "system")

    @property
    def user(self) -> str:
        return next(m["content"] for m in self.body["messages"] if m["role"] == "user")

    def source_number(self, *needles: str) -> int:
        """The number of the first source whose text contains every needle."""
        for n, text in sorted(self.sources.items()):
            if all(needle in text for needle in needles):
                return n
        raise AssertionError(f"no source contains {needles}: {self.sources}")


def sources_of(prompt: str) -> dict[int, str]:
    return {int(n): text for n, text in _SOURCE.findall(prompt)}


class FakeLLMServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.script: Callable[[Request], Reply] = lambda request: Reply(["No script was set."])
        self.requests: list[Request] = []
        self.replies: list[Reply] = []
        self.errors: list[Exception] = []
        self.stopping = threading.Event()
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def __enter__(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()  # wakes handlers that are waiting out a delay
        self.shutdown()
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: FakeLLMServer

    def log_message(self, *args) -> None:  # keep test output quiet
        pass

    def handle(self) -> None:
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
            pass

    def do_POST(self) -> None:
        if self.path != "/v1/chat/completions":
            self._json(404, {"error": {"message": f"no route {self.path}"}})
            return
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        user = next((m["content"] for m in body["messages"] if m["role"] == "user"), "")
        request = Request(body=body, headers=dict(self.headers), sources=sources_of(user))
        self.server.requests.append(request)
        try:
            reply = self.server.script(request)
        except Exception as exc:  # a script that cannot find what it looks for: say so in the reply
            self.server.errors.append(exc)
            reply = Reply(status=500, error=f"the test script failed: {exc}")
        self.server.replies.append(reply)
        if reply.delay and self.server.stopping.wait(reply.delay):
            return
        if reply.status != 200:
            self._json(reply.status, {"error": {"message": reply.error or "scripted failure", "type": "server_error"}})
        elif body.get("stream") and not reply.json:
            self._stream(body, reply)
        else:
            self._json(200, _completion(body, "".join(reply.deltas)))

    def _json(self, status: int, value: dict) -> None:
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _stream(self, body: dict, reply: Reply) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        try:
            if reply.raw is not None:
                self._send(reply.raw.encode())
                self._send(b"")
                return
            self._event(_chunk(body, {"role": "assistant", "content": ""}))
            for index, delta in enumerate(reply.deltas):
                if index and reply.pause and self.server.stopping.wait(reply.pause):
                    return
                self._event(_chunk(body, {"content": delta}))
                if index == 0 and reply.gate is not None:
                    reply.gate_released = reply.gate.wait(reply.gate_timeout)
            self._event(_chunk(body, {}, finish_reason="stop"))
            self._send(b"data: [DONE]\n\n")
            self._send(b"")  # the last chunk
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
            return

    def _event(self, value: dict) -> None:
        self._send(f"data: {json.dumps(value)}\n\n".encode())

    def _send(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()


def _chunk(body: dict, delta: dict, finish_reason: str | None = None) -> dict:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "model": body.get("model", ""),
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }


def _completion(body: dict, text: str) -> dict:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": body.get("model", ""),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
    }


def words_of(text: str, size: int = 3) -> list[str]:
    """Text cut into deltas of a few words, as a model streams it."""
    parts = re.findall(r"\S+\s*", text)
    return ["".join(parts[i : i + size]) for i in range(0, len(parts), size)] or [text]
