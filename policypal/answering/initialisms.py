"""Initialisms an asker writes for a phrase the policies spell out ("ooh rate" for the
"Out-of-hours hourly rate", "wfh" for "working from home"): read as that phrase, so that the
column, the rule and the coverage check see the words the policy uses."""
from __future__ import annotations

import re

from .terms import STOP_WORDS, readings, words

MIN_LETTERS = 3  # two letters are too often something else ("hr" of "24 hr" is hours, not "hourly rate")
MAX_LETTERS = 5
# words a phrase an initialism stands for neither opens nor closes with ("of the Policy" is no "OTP")
_SMALL_WORDS = frozenset("a an the and or nor of to in on for at by with from as is are be been this that these those "
                         "it its our your their my".split())


def spelt_out(question: str, texts: list[str]) -> str:
    """The question with each initialism it writes spelt out as the one phrase of the texts whose
    initials it is: a word of three to five letters that is no English word and that the texts do
    not write themselves, and a phrase of as many words (hyphens or spaces between), neither opening
    nor closing with a small word. Left as written when no phrase or more than one fits."""
    candidates = [w for w in dict.fromkeys(re.findall(r"\b[A-Za-z]{%d,%d}\b" % (MIN_LETTERS, MAX_LETTERS), question))
                  if w.lower() not in STOP_WORDS and not readings(w.lower())]
    # two capitals are an initialism too where they stand as a noun ("the DM was off sick"), not
    # after a number ("6 PM", "24 HR")
    candidates += [w for w in dict.fromkeys(re.findall(r"(?<!\d\s)\b[A-Z]{2}\b(?![-/]?\d)", question))
                   if w.lower() not in STOP_WORDS and not readings(w.lower())]
    if not candidates:
        return question
    body = "\n".join(texts)
    written = {w.lower() for w in words(body)}
    for initialism in candidates:
        if initialism.lower() in written:
            continue  # the policies write it: a term of theirs, not an initialism of the asker's
        phrases = _phrases_with_initials(initialism.lower(), body)
        if len(phrases) == 1:
            question = re.sub(rf"\b{re.escape(initialism)}\b", phrases.pop(), question)
    return question


def _phrases_with_initials(initialism: str, text: str) -> set[str]:
    pattern = r"[ \t-]+".join(rf"{letter}[a-z]*" for letter in initialism)  # (never across lines or texts)
    out = set()
    for m in re.finditer(rf"\b{pattern}\b", text, re.IGNORECASE):
        parts = re.split(r"[ \t-]+", m.group(0).lower())
        if parts[0] in _SMALL_WORDS or parts[-1] in _SMALL_WORDS:
            continue
        out.add(m.group(0).lower())
    return out
