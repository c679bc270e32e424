"""Long unbroken paragraphs of a few kinds, for the scaling test and bench/chunking_scaling.py."""
from __future__ import annotations

import itertools
import random

from chunking.model import Block, Document

WORDS = (
    "employee claim receipt manager travel hotel allowance approval grade city director finance "
    "booking policy limit days leave month reimbursable metro within before after written"
).split()
ABBREVIATED = ["e.g.", "i.e.", "No. 4", "Sec. 3.2", "approx.", "75.00", "Rs. 500", "Dr. Rao", "etc.", "p. 12"]


def _sentences(rng: random.Random):
    while True:
        words = [rng.choice(WORDS + ABBREVIATED) for _ in range(rng.randint(6, 20))]
        yield f"The {' '.join(words)}{rng.choice('.?!')} "


def _qualified(rng: random.Random):
    for sentence in _sentences(rng):
        yield "However, " + sentence[4:]  # every sentence glued to the one before


def _no_sentence_end(rng: random.Random):
    while True:
        yield rng.choice(WORDS + ABBREVIATED) + " "


def _abbreviations(rng: random.Random):
    while True:
        yield rng.choice(ABBREVIATED) + " "


def _one_word(rng: random.Random):
    while True:
        yield rng.choice("abcdefghij")


KINDS = {
    "sentences": _sentences,
    "qualifiers": _qualified,
    "no sentence end": _no_sentence_end,
    "abbreviations only": _abbreviations,
    "one long word": _one_word,
}


def paragraph(kind: str, length: int, seed: int = 1) -> str:
    parts = KINDS[kind](random.Random(seed))
    text = "".join(itertools.islice(parts, length))  # every part is at least one character
    return text[:length].strip()


def document(text: str) -> Document:
    return Document("Scaling", (Block("b0001", "heading", "1 Rules", level=1), Block("b0002", "paragraph", text)))
