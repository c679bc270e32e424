"""A long question split into what it asks and the situation around it (pure, no model).

Employees describe a situation before they ask ("I joined two months ago and just found out I'm
pregnant. Do I still get the full maternity leave?"). Embedded whole, such a question lands
between the sections the story mentions and the one that answers; embedded apart, the ask finds
the rule and the situation finds the conditions it depends on. Search runs the whole question,
the ask and the situation, and fuses the three rankings (``retrieval/search.py``).

A sentence that ends with "?" is an ask; without one, the last sentence is. The rest is the
situation. A question of one sentence, or a short one, is searched whole only (no extra work).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from chunking.sentences import ALWAYS_JOINED, SOMETIMES_JOINED, split_sentences_quick

# Fewer words than this: one search, whatever the sentences (a short question says one thing).
MIN_WORDS_TO_SPLIT = 18
# A sentence end the quick splitter does not cut at, because the next sentence starts in lower
# case, as chat questions often do ("... from Pune. does it cover an uncle? if not ..."): "?" or
# "!", or "." after a word that is not an abbreviation.
_LOWER_CASE_START = re.compile(r"(?<=[?!])\s+(?=\S)|(?<=\w\w\.)\s+(?=[a-z])")
_ABBREVIATIONS = ALWAYS_JOINED | SOMETIMES_JOINED
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class QuestionParts:
    whole: str
    ask: str = ""  # the question sentences, joined; empty when the question is not split
    situation: str = ""  # the other sentences, joined

    @property
    def split(self) -> bool:
        return bool(self.ask and self.situation)

    @property
    def texts(self) -> list[str]:
        """What to search with: the whole question, then the ask and the situation when split."""
        return [self.whole, self.ask, self.situation] if self.split else [self.whole]


def question_parts(question: str) -> QuestionParts:
    whole = " ".join(question.split())
    if len(_WORD.findall(whole)) < MIN_WORDS_TO_SPLIT:
        return QuestionParts(whole)
    sentences = [piece for sentence in split_sentences_quick(whole) for piece in _lower_case_split(sentence)]
    sentences = [s for s in sentences if _WORD.search(s)]
    if len(sentences) < 2:
        return QuestionParts(whole)
    asks = [s for s in sentences if s.rstrip("\"')").endswith("?")] or sentences[-1:]
    situation = [s for s in sentences if s not in asks]
    if not situation:
        return QuestionParts(whole)
    return QuestionParts(whole, ask=" ".join(asks), situation=" ".join(situation))



def _lower_case_split(sentence: str) -> list[str]:
    pieces: list[str] = []
    for piece in _LOWER_CASE_START.split(sentence):
        if pieces and pieces[-1].rsplit(None, 1)[-1].casefold() in _ABBREVIATIONS:
            pieces[-1] = f"{pieces[-1]} {piece}"
        else:
            pieces.append(piece)
    return pieces
