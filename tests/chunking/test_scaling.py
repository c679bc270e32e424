"""Chunking time grows linearly with a paragraph's length, whatever the paragraph holds.

Measured, not assumed: the same kind of unbroken paragraph (no line break) is chunked at
n and at 8n characters in the same run, and the ratio of the CPU times must stay near 8.
A wall-clock limit would fail on a slow or busy machine; a ratio does not, and a quadratic
step shows as a ratio near 64 (before the fix, 25k / 50k / 100k characters took 0.78 /
1.97 / 7.78 s). Each size is timed cold (token counts not cached), best of a few runs.
"""
from __future__ import annotations

import time

import pytest

from chunking.chunker import chunk_document
from chunking.config import ChunkConfig, InputLimits
from chunking.sentences import split_sentences
from tests.chunking.long_text import KINDS, document, paragraph

SMALL = 5_000
FACTOR = 8
ALLOWED = FACTOR * 2.5  # linear gives about 8; quadratic about 64


def cpu_seconds(counter, config: ChunkConfig, text: str, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        counter.clear_cache()
        started = time.process_time()
        chunk_document(document(text), config=config, counter=counter)
        best = min(best, time.process_time() - started)
    return best


@pytest.mark.parametrize("kind", list(KINDS))
def test_chunking_time_is_linear_in_paragraph_length(counter, kind):
    large = SMALL * FACTOR
    # The paragraph limit raised so the paragraph stays one block: the splitter and the packer
    # themselves must be linear, not only thanks to the limit.
    config = ChunkConfig(limits=InputLimits(max_paragraph_chars=large))
    chunk_document(document(paragraph(kind, 2_000, seed=9)), config=config, counter=counter)  # warm-up
    small_text, large_text = paragraph(kind, SMALL), paragraph(kind, large)
    small = cpu_seconds(counter, config, small_text, runs=3)
    big = cpu_seconds(counter, config, large_text, runs=2)
    ratio = big / max(small, 1e-3)
    assert ratio < ALLOWED, f"{kind}: {SMALL:,} chars {small:.3f}s, {large:,} chars {big:.3f}s, ratio {ratio:.1f}"


def test_long_paragraphs_split_as_pysbd_does_away_from_the_window_cuts(monkeypatch):
    """Windowing changes nothing but speed on ordinary text: the windowed split of a long
    paragraph equals pysbd's split of the whole paragraph at once."""
    import chunking.sentences as sentences

    text = paragraph("sentences", 12_000, seed=3)
    windowed = split_sentences(text)
    monkeypatch.setattr(sentences, "_LONG_TEXT", 10**9)  # one pysbd call over the whole text
    assert windowed == split_sentences(text)
    assert len(windowed) > 100
