"""Ages: the one the asker tells ("I'm 17", "aged 16", "a 17-year-old") and the bounds a
definition sets ("an employee who is over compulsory school age but under 18", "a worker aged 16
or 17", "aged 55 or over"). A defined term whose bounds hold the asker's age is what the asker
is, though the question never writes its name ("I'm 17 ... how long is my break?" is about a
Young Worker, for whom the adults' table does not apply).

Plain text in, plain data out.
"""
from __future__ import annotations

import re

_TOLD = re.compile(
    r"\b(?:i'?m|i\s+am|i\s+turned|aged?)\s+(\d{1,2})\b(?!\s*(?:%|hours?|hrs?|days?|weeks?|months?|minutes?|mins?|am|pm|miles?|km|:|\.\d))"
    r"|\b(\d{1,2})[\s-]?(?:years?|yrs?)[\s-]?old\b",
    re.IGNORECASE,
)
_UNDER = re.compile(r"\b(?:under|below|younger\s+than|less\s+than)\s+(?:the\s+age\s+of\s+)?(\d{1,2})\b", re.IGNORECASE)
_AT_LEAST = re.compile(r"\b(?:aged\s+)?(\d{1,2})\s+(?:or|and)\s+(?:over|above|older)\b|\b(?:over|above|older\s+than)\s+(?:the\s+age\s+of\s+)?(\d{1,2})\b",
                       re.IGNORECASE)
_SPAN = re.compile(r"\baged\s+(\d{1,2})\s*(?:or|to|-|–|and)\s*(\d{1,2})\b", re.IGNORECASE)
_AGE_WORDS = re.compile(r"\b(?:age[ds]?|years?\s+old|young|older)\b", re.IGNORECASE)

YOUNGEST, OLDEST = 13, 99  # ages a worker may tell


def told_age(question: str) -> int | None:
    """The age the asker tells, when one only."""
    ages = {int(a or b) for a, b in _TOLD.findall(question)}
    ages = {a for a in ages if YOUNGEST <= a <= OLDEST}
    return ages.pop() if len(ages) == 1 else None


def age_bounds(definition: str) -> tuple[int, int] | None:
    """(youngest, oldest) ages the definition admits, when it speaks of age and sets a bound."""
    if not _AGE_WORDS.search(definition):
        return None
    low, high, bounded = 0, 200, False
    for m in _SPAN.finditer(definition):
        low, high, bounded = max(low, int(m.group(1))), min(high, int(m.group(2))), True
    for m in _UNDER.finditer(definition):
        high, bounded = min(high, int(m.group(1)) - 1), True
    for m in _AT_LEAST.finditer(definition):
        if m.group(1):
            low = max(low, int(m.group(1)))
        else:
            low = max(low, int(m.group(2)) + 1)
        bounded = True
    return (low, high) if bounded and low <= high else None


def age_fits(question: str, definition: str) -> bool:
    """Whether the asker's told age lies within the definition's bounds."""
    age = told_age(question)
    bounds = age_bounds(definition) if age is not None else None
    return bounds is not None and bounds[0] <= age <= bounds[1]
