"""Quantities: the ones the asker tells ("the job only took me 40 minutes", "I was woken five
separate times", "covering for five weeks") and the conditions a rule sets on them ("was less
than one hour", "on more than four separate occasions", "for at least four weeks"). A rule
whose condition the told quantity meets decides the asker's case, though its other words may be
few ("Section 7.1 does not apply where the call-out work was less than one hour" for a 40-minute
job); a limit the told quantity breaks ("no more than two consecutive night duties" for three)
does too.

Plain text in, plain data out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .terms import NUMBER_WORDS, STOP_WORDS, compound_numbers_in_digits, readings, stem

# unit word -> (what it measures, its size in the smallest unit of that measure)
_UNITS = {
    "minute": ("time", 1), "min": ("time", 1), "hour": ("time", 60), "hr": ("time", 60), "day": ("time", 1440),
    "week": ("time", 10080), "fortnight": ("time", 20160), "month": ("time", 43800), "year": ("time", 525600),
    "time": ("occasions", 1), "occasion": ("occasions", 1),
}
_NUMBER = r"(\d+(?:\.\d+)?|" + "|".join(sorted((w for w in NUMBER_WORDS if w not in ("a", "an")), key=len, reverse=True)) + r")"
# a unit of time, occasions, or things counted in the plural ("three shifts", "five consecutive
# scheduled shifts": the things themselves are what is counted)
_UNIT = r"(minutes?|mins?|hours?|hrs?|days?|weeks?|fortnights?|months?|years?|times|occasions?|[a-z]{3,}s)"
# up to two words between the number and its unit ("five separate times", "three working days"),
# none of them a word that starts another phrase
_BETWEEN = r"(?:\s+(?!(?:and|or|of|a|the|to|in|on|at|for|per|than)\b)[a-z-]+){0,2}?"

_TOLD = re.compile(rf"\b{_NUMBER}{_BETWEEN}\s+{_UNIT}\b", re.IGNORECASE)
_TOLD_ADVERB = re.compile(r"\b(once|twice)\b", re.IGNORECASE)

# the comparison a rule writes before the number ("less than one hour", "more than four
# separate occasions", "at least four weeks") or after it ("12 months or more")
_BEFORE = re.compile(
    r"\b(less than|fewer than|shorter than|under|below|more than|longer than|exceeds?|exceeding|in excess of|over|above|"
    r"at least|a minimum of|no less than|not less than|no fewer than|no more than|not more than|at most|a maximum of|"
    r"up to|within)\s+(?:a total of\s+)?" + _NUMBER + _BETWEEN + r"\s+" + _UNIT + r"\b",
    re.IGNORECASE,
)
_AFTER = re.compile(rf"\b{_NUMBER}{_BETWEEN}\s+{_UNIT}\s+or\s+(more|longer|over|less|fewer|shorter|under)\b", re.IGNORECASE)

_BELOW = {"less than", "fewer than", "shorter than", "under", "below"}
_ABOVE = {"more than", "longer than", "exceeds", "exceed", "exceeding", "in excess of", "over", "above"}
_AT_LEAST = {"at least", "a minimum of", "no less than", "not less than", "no fewer than", "more", "longer", "over"}
_AT_MOST = {"no more than", "not more than", "at most", "a maximum of", "up to", "less", "fewer", "shorter", "under", "within"}
_LIMITS = {"no more than", "not more than", "at most", "a maximum of", "up to"}  # a cap on what one may do


@dataclass(frozen=True)
class Quantity:
    measure: str  # "time", "occasions" or "count of <the things' stem>"
    amount: float  # in the measure's smallest unit (minutes for time)


@dataclass(frozen=True)
class Condition:
    comparison: str  # as written: "less than", "at least", "or more" ...
    bound: Quantity

    def met_by(self, told: Quantity) -> bool:
        if told.measure != self.bound.measure:
            return False
        c, a, b = self.comparison, told.amount, self.bound.amount
        if c in _BELOW:
            return a < b
        if c in _ABOVE and c != "over":
            return a > b
        if c in _AT_LEAST:
            return a >= b
        return a <= b

    @property
    def limit(self) -> bool:
        return self.comparison in _LIMITS


def _amount(number: str, unit: str) -> Quantity | None:
    number = number.lower()
    value = float(number) if number[0].isdigit() else NUMBER_WORDS.get(number)
    if value is None:
        return None
    key = unit.lower()
    key = key if key in _UNITS else key[:-1]
    if key in _UNITS:
        measure, size = _UNITS[key]
        return Quantity(measure, value * size)
    if unit.lower() in STOP_WORDS or "NOUN" not in readings(unit.lower()):
        return None
    return Quantity("count of " + stem(unit), value)


_AND_A_HALF = re.compile(rf"\b{_NUMBER}\s+and\s+a\s+half\b", re.IGNORECASE)


_DEGREES = re.compile(r"(\d)\s*°\s*[CF]?\b|(\d)\s*°|(\d)\s+degrees?\s+(?:celsius|centigrade|c)\b", re.IGNORECASE)


def _with_halves(text: str) -> str:
    """"seven and a half hours" as "7.5 hours" (not seven, and "a half hours"); "25°C" as "25
    degrees", as an asker writes a temperature."""
    text = _DEGREES.sub(lambda m: (m.group(1) or m.group(2) or m.group(3)) + " degrees", text)
    def half(m: re.Match) -> str:
        number = m.group(1).lower()
        value = float(number) if number[0].isdigit() else NUMBER_WORDS.get(number)
        return m.group(0) if value is None else f"{value + 0.5:g}"
    return _AND_A_HALF.sub(half, text)


def told_quantities(question: str) -> list[Quantity]:
    """The lengths of time and the numbers of occasions the question tells ("40 minutes", "five
    separate times", "twice", "seven and a half hours"), in order. A clock time ("at 8pm") is no
    length."""
    question = _with_halves(compound_numbers_in_digits(question))
    out = [q for m in _TOLD.finditer(question) if (q := _amount(m.group(1), m.group(2))) is not None]
    out += [Quantity("occasions", 1 if m.group(1).lower() == "once" else 2) for m in _TOLD_ADVERB.finditer(question)]
    return list(dict.fromkeys(out))


def told_units(question: str) -> list[str]:
    """The unit words of the quantities the question tells, as written ("hours", "miles")."""
    return list(dict.fromkeys(m.group(2).lower() for m in _TOLD.finditer(_with_halves(question))
                              if _amount(m.group(1), m.group(2))))


def the_same_measure(question: str, text: str) -> bool:
    """Whether a quantity the question tells and a bound the text sets on it are said of the same
    thing: a word after each, within three, is the same ("32 hours a week" and "fewer than 40
    hours per week"; not "two hours straight in the freezer" and "less than 24 hours before the
    shift")."""
    told = [_after(question, m.end()) for m in _TOLD.finditer(_with_halves(question))]
    bounds = [_after(text, m.end()) for m in (*_BEFORE.finditer(text), *_AFTER.finditer(text))]
    return any(a & b for a in told for b in bounds)


def _after(text: str, end: int) -> set[str]:
    following = re.findall(r"[A-Za-z]+", text[end:end + 40])[:3]
    return {stem(w.lower()) for w in following if w.lower() not in STOP_WORDS and w.lower() not in ("or", "more", "less")}


def conditions(text: str) -> list[Condition]:
    """The comparisons the text sets on a length of time or a number of occasions."""
    text = _with_halves(text)
    out = []
    for m in _BEFORE.finditer(text):
        bound = _amount(m.group(2), m.group(3))
        if bound is not None:
            comparison = m.group(1).lower()
            out.append(Condition("exceeds" if comparison in ("exceeds", "exceed", "exceeding") else comparison, bound))
    for m in _AFTER.finditer(text):
        bound = _amount(m.group(1), m.group(2))
        if bound is not None:
            out.append(Condition(m.group(3).lower(), bound))
    return out


def decides_the_case(told: list[Quantity], sentence: str) -> bool:
    """Whether the sentence sets a condition that one of the told quantities (`told_quantities`
    of the question) meets, or a limit that it breaks."""
    if not told:
        return False
    for condition in conditions(sentence):
        for quantity in told:
            if quantity.measure != condition.bound.measure:
                continue
            if condition.limit:
                if not condition.met_by(quantity):
                    return True  # a cap the asker's case goes beyond
            elif condition.met_by(quantity):
                return True
    return False


def fits(told: list[Quantity], text: str) -> bool | None:
    """Whether the told quantities meet every condition the text sets on what they measure ("28
    degrees" and "above 25°C": True; "18 degrees": False); None when it sets none."""
    relevant = [c for c in conditions(text) if any(q.measure == c.bound.measure for q in told)]
    if not relevant:
        return None
    return all(any(c.met_by(q) for q in told if q.measure == c.bound.measure) for c in relevant)
