"""The optional language-model answerer, on top of the built-in (extractive) answer.

When LLM_BASE_URL and LLM_MODEL are set, a covered question's evidence goes to the
OpenAI-compatible endpoint as numbered, quoted sources; the reply streams back, and every
sentence is checked against the sources it cites (`policypal.answering.claims`). The answer
then holds the model's text with each unsupported sentence flagged in it, the checked
`claims`, and as citations all the sources the model saw, numbered as the model saw them.
When the endpoint fails or runs out of time, the extractive answer stands, with a notice.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Generator
from dataclasses import replace

from django.conf import settings

from policypal.answering.claims import check_claims
from policypal.answering.evidence import Claim, Evidence
from policypal.answering.llm_client import LLMError, chat_stream
from policypal.answering.llm_prompt import build_messages

from .answering import ComposedAnswer

log = logging.getLogger(__name__)

LLM_FAILED = "The language model did not answer ({reason}); this is the built-in answer."
LLM_FAILED_START = LLM_FAILED.split("(")[0]
UNSUPPORTED_FLAG = "[not supported by the cited source]"  # after a flagged sentence in the plain text
NOTHING_SUPPORTED = "No sentence of the language model's answer is supported by the sources it cites."


def llm_enabled() -> bool:
    return bool(settings.LLM_BASE_URL and settings.LLM_MODEL)


def answer_with_llm(composed: ComposedAnswer, *, on_delta: Callable[[str], None] | None = None) -> ComposedAnswer:
    """The model's checked answer, or `composed` itself when the model is not used or fails."""
    stream = answer_with_llm_stream(composed)
    while True:
        try:
            delta = next(stream)
        except StopIteration as done:
            return done.value
        if on_delta is not None:
            on_delta(delta)


def answer_with_llm_stream(composed: ComposedAnswer) -> Generator[str, None, ComposedAnswer]:
    """Yield the reply's text as it arrives; return the final answer (`yield from` gives it)."""
    if not llm_enabled() or not composed.covered:
        return composed
    evidence, chunks = _sources(composed)
    if not evidence:
        return composed
    messages = build_messages(question=composed.question, sources=evidence, as_of=composed.as_of.isoformat())
    parts: list[str] = []
    try:
        for delta in chat_stream(settings.LLM_BASE_URL, settings.LLM_MODEL, settings.LLM_API_KEY, messages, settings.LLM_TIMEOUT):
            parts.append(delta)
            yield delta
    except LLMError as exc:
        log.warning("LLM answer failed, using the built-in answer: %s", exc)
        return replace(composed, notices=[*composed.notices, LLM_FAILED.format(reason=exc)])
    reply = "".join(parts).strip()
    claims = check_claims(reply, evidence)
    return replace(
        composed,
        text=flagged_text(reply, claims),
        citations=[chunks[e.key] for e in evidence],
        claims=claims,
        answered_by="llm",
    )


def flagged_text(reply: str, claims: list[Claim]) -> str:
    """The reply with UNSUPPORTED_FLAG after each unsupported sentence, so that no reader of the
    plain text (command line, JSON `answer`, the reviewers' record) takes it as fact."""
    out, cursor = [], 0
    for claim in claims:
        found = reply.find(claim.text, cursor)
        if found < 0:
            continue
        end = found + len(claim.text)
        out.append(reply[cursor:end])
        if not claim.supported:
            out.append(f" {UNSUPPORTED_FLAG}")
        cursor = end
    out.append(reply[cursor:])
    text = "".join(out)
    if claims and not any(c.supported for c in claims):
        text = f"{NOTHING_SUPPORTED}\n\n{text}"
    return text


def is_llm_notice(notice: str) -> bool:
    return notice.startswith(LLM_FAILED_START)


def _sources(composed: ComposedAnswer) -> tuple[list[Evidence], dict]:
    """The evidence the answer layer saw and its chunk rows; when the answer carries none,
    its cited chunks, in citation order."""
    if composed.evidence:
        chunks = composed.chunks
        return [e for e in composed.evidence if e.key in chunks], chunks
    return [_evidence_of(chunk) for chunk in composed.citations], {chunk.pk: chunk for chunk in composed.citations}


def _evidence_of(chunk) -> Evidence:
    version = chunk.version
    return Evidence(
        key=chunk.pk,
        breadcrumb=chunk.breadcrumb,
        text=chunk.text,
        kind=chunk.kind,
        policy=version.policy.key,
        policy_title=version.policy.title,
        version=version.number,
        effective_from=version.effective_from.isoformat(),
        effective_to=version.effective_to.isoformat() if version.effective_to else "",
    )
