"""Times of day: the hour a question names ("paged at 11pm", "at 7 in the morning", "19:30",
"quarter to five in the morning") and the windows table rows give ("Night shift (22:00-06:00)",
"Evening 18:00 to 22:00"), a window that passes midnight included. Plain text in, minutes after
midnight out. And days of the week: the days a question names that a row does not ("Sunday"
against "Saturday 09:00-13:00")."""
from __future__ import annotations

import re

from .terms import NUMBER_WORDS

_CLOCK_12 = re.compile(r"\b(1[0-2]|0?[1-9])(?:[:.]([0-5]\d))?\s*(am|pm|a\.m\.|p\.m\.)(?![a-z])", re.IGNORECASE)
_CLOCK_24 = re.compile(r"(?<![£$€\d.,])\b([01]?\d|2[0-3]):([0-5]\d)\b(?!\s*(?:am|pm|a\.m\.|p\.m\.|%))", re.IGNORECASE)
_SPOKEN = re.compile(r"\b(1[0-2]|0?[1-9])(?:[:.]([0-5]\d))?\s*(?:o'?clock\s+)?(?:in the (morning|afternoon|evening)|at night)\b",
                     re.IGNORECASE)
_NAMED = re.compile(r"\b(midnight|noon|midday)\b", re.IGNORECASE)
_WINDOW = re.compile(r"\b([01]?\d|2[0-4])[:.]([0-5]\d)\s*(?:-|–|—|to|until)\s*([01]?\d|2[0-4])[:.]([0-5]\d)\b")


_HOURS = {w: NUMBER_WORDS[w] for w in "one two three four five six seven eight nine ten eleven twelve".split()}
_HOUR = rf"(1[0-2]|0?[1-9]|{'|'.join(_HOURS)})"
_PAST_TO = {"quarter": 15, "half": 30, "twenty": 20, "ten": 10, "five": 5, "twenty-five": 25}
_MINUTES_WORD = r"(quarter|half|twenty[- ]five|twenty|ten|five)"
# (not a span of a count: "five to ten minutes", "ten to twelve people")
_NOT_A_COUNT = r"(?![\w-]|\s+(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|people|persons?|staff|miles?|km|"\
               r"metres?|meters?|kg|times|per|percent|%|of)\b)"
_WORDS_PAST_TO = re.compile(rf"\b(?:a\s+)?{_MINUTES_WORD}\s+(past|to)\s+{_HOUR}\b{_NOT_A_COUNT}", re.IGNORECASE)
_HALF_HOUR = re.compile(rf"\bhalf\s+{_HOUR}\b(?!\s+(?:an?\s+)?(?:hours?|days?|weeks?|months?|years?|miles?))", re.IGNORECASE)
_HOUR_WORD = re.compile(rf"\b({'|'.join(_HOURS)})(?=\s+(?:o'?clock|in the (?:morning|afternoon|evening)|at night|am|pm)\b)",
                        re.IGNORECASE)
_LATER_PART = re.compile(r"^[^.?!;]{0,30}?\b(night|evening|afternoon|pm|p\.m\.)\b", re.IGNORECASE)


def _hour(word: str) -> int:
    return int(word) if word.isdigit() else _HOURS[word.lower()]


def times_in_words_as_digits(text: str) -> str:
    """The times a person writes in words as digits: "quarter to five in the morning" as "4:45 in
    the morning", "half past six" as "6:30", "half eleven on Saturday night" as "23:30" (British:
    half past), "five o'clock" as "5 o'clock"; a time told beside "night", "evening" or "pm" is an
    afternoon's or night's one."""
    def clock(hour: int, minutes: int, after: str) -> str:
        later = _LATER_PART.match(after)
        if later and hour < 12 and not (later.group(1).lower() == "night" and hour < 5):
            return f"{hour + 12}:{minutes:02d}"
        return f"{hour}:{minutes:02d}"

    def past_to(m: re.Match) -> str:
        minutes = _PAST_TO[re.sub(r"[- ]+", "-", m.group(1).lower())]
        hour = _hour(m.group(3))
        if m.group(2).lower() == "to":
            hour, minutes = (hour - 1) or 12, 60 - minutes
        return clock(hour, minutes, text[m.end():])

    text = _WORDS_PAST_TO.sub(past_to, text)
    text = _HALF_HOUR.sub(lambda m: clock(_hour(m.group(1)), 30, text[m.end():]), text)
    return _HOUR_WORD.sub(lambda m: str(_HOURS[m.group(1).lower()]), text)


def times_in(text: str) -> list[int]:
    """The times of day the text names, in the order written, as minutes after midnight."""
    text = times_in_words_as_digits(text)
    found: list[tuple[int, int]] = []
    taken: list[tuple[int, int]] = []

    def add(m: re.Match, minutes: int) -> None:
        if not any(a < m.end() and m.start() < b for a, b in taken):
            taken.append((m.start(), m.end()))
            found.append((m.start(), minutes % (24 * 60)))

    for m in _CLOCK_12.finditer(text):
        hour = int(m.group(1)) % 12 + (12 if m.group(3).lower().startswith("p") else 0)
        add(m, hour * 60 + int(m.group(2) or 0))
    for m in _SPOKEN.finditer(text):
        part = (m.group(3) or "night").lower()
        hour = int(m.group(1)) % 12
        if part in ("afternoon", "evening") or (part == "night" and hour >= 6):
            hour += 12
        add(m, hour * 60 + int(m.group(2) or 0))
    for m in _CLOCK_24.finditer(text):
        if not _WINDOW.search(text[max(0, m.start() - 12): m.end() + 12]):  # a time, not a window's end
            add(m, int(m.group(1)) * 60 + int(m.group(2)))
    for m in _NAMED.finditer(text):
        add(m, 0 if m.group(1).lower() == "midnight" else 12 * 60)
    return [minutes for _, minutes in sorted(found)]


def window_of(label: str) -> tuple[int, int] | None:
    """(start, end) in minutes of the time window a label gives ("Night shift (22:00-06:00)":
    (1320, 360)); None when it gives none."""
    m = _WINDOW.search(label)
    if not m:
        return None
    return int(m.group(1)) * 60 + int(m.group(2)), int(m.group(3)) * 60 + int(m.group(4))


def in_window(minutes: int, window: tuple[int, int]) -> bool:
    start, end = window
    if start == end:
        return True  # "08:00-08:00 Sunday": the whole day
    return start <= minutes < end if start < end else minutes >= start or minutes < end


_HOURS_BRACKET = re.compile(r"\([^()]*\b\d{1,2}:\d{2}\b[^()]*\)")


def without_hours(label: str) -> str:
    """The label without a bracket giving its hours ("Saturday (08:00-08:00 Sunday)": "Saturday "),
    or the hours written after a comma ("Sunday, 00:00 to 24:00"): when the row runs, not its
    name (the Saturday row is not named by "Sunday")."""
    return _HOURS_AFTER_A_COMMA.sub(" ", _HOURS_BRACKET.sub(" ", label))


# "Sunday, 00:00 to 24:00": the hours after the name, as a bracket would give them
_HOURS_AFTER_A_COMMA = re.compile(r",\s*\d{1,2}:\d{2}\s*(?:-|–|—|to|until)\s*\d{1,2}:\d{2}\s*$")


_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_FULL_DAY = re.compile(r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b", re.IGNORECASE)
# in a table a day may be written short, with its capital ("Fri-Sun", "Sat 09:00")
_SHORT_DAY = re.compile(r"\b(?:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)\b")
_SPAN_BETWEEN = re.compile(r"^\s*(?:-|–|—|to|through|until)\s*$", re.IGNORECASE)


def _day_index(word: str) -> int:
    return next(i for i, d in enumerate(_DAYS) if d.startswith(word.lower()[:3]))


def unheld_days(question: str, text: str) -> list[str]:
    """The days of the week the question names (in full) that a row names none of while it names
    others ("Sunday" against "Saturday 09:00-13:00"); a span of days holds the days inside it
    ("Monday to Friday", "Fri-Sun")."""
    asked = days_named(question)
    if not asked:
        return []
    held = days_held(text)
    if not held:
        return []  # a row that names no day says nothing of days
    return [_DAYS[d].capitalize() for d in sorted(asked - held)]


def days_named(question: str) -> set[int]:
    """The days of the week (0 is Monday) the question names in full ("a Wednesday rest day")."""
    return {_day_index(m.group(0)) for m in _FULL_DAY.finditer(question)}


def first_day(text: str) -> int | None:
    """The first day of the week (0 is Monday) a text names in full ("Saturday night into Sunday":
    Saturday); None when it names none."""
    m = _FULL_DAY.search(text)
    return _day_index(m.group(0)) if m else None


def days_held(text: str) -> set[int]:
    """The days of the week (0 is Monday) a text names, a span of days holding the days inside it
    ("Monday to Friday rest day": Monday ... Friday; "Fri-Sun"; "Saturday or Sunday": both)."""
    found = sorted([*_FULL_DAY.finditer(text), *_SHORT_DAY.finditer(text)], key=lambda m: m.start())
    held = {_day_index(m.group(0)) for m in found}
    for a, b in zip(found, found[1:]):
        if _SPAN_BETWEEN.match(text[a.end():b.start()]):
            first, last = _day_index(a.group(0)), _day_index(b.group(0))
            held |= set(range(first, last + 1)) if first <= last else set(range(first, 7)) | set(range(0, last + 1))
    return held


# the parts of a day, in minutes after midnight (night runs past midnight)
_PARTS_OF_DAY = {"morning": (6 * 60, 12 * 60), "afternoon": (12 * 60, 18 * 60), "evening": (18 * 60, 23 * 60),
                 "night": (22 * 60, 6 * 60), "overnight": (22 * 60, 6 * 60)}
_PART_OF_DAY = re.compile(r"\b(morning|afternoon|evening|night|overnight)s?\b", re.IGNORECASE)
_FROM_TIME = re.compile(r"\b(?:from|after)\s+([01]?\d|2[0-3])[:.]([0-5]\d)\b", re.IGNORECASE)
_UNTIL_TIME = re.compile(r"\b(?:until|till|before|up to)\s+([01]?\d|2[0-4])[:.]([0-5]\d)\b", re.IGNORECASE)


def _minutes_of(window: tuple[int, int]) -> set[int]:
    start, end = window
    span = range(start, end) if start < end else [*range(start, 24 * 60), *range(0, end)]
    return set(span[::15])


def parts_of_day_held(question: str, text: str) -> set[str]:
    """The parts of the day the question names ("Saturday afternoon") that a row's hours fall in
    ("Saturday (from 13:00)", "Evening 18:00 to 22:00"): the row speaks of them in hours."""
    asked = {m.group(1).lower() for m in _PART_OF_DAY.finditer(question)}
    if not asked:
        return set()
    windows = []
    if (window := window_of(text)) is not None:
        windows.append(window)
    windows += [(int(m.group(1)) * 60 + int(m.group(2)), 24 * 60) for m in _FROM_TIME.finditer(text)]
    windows += [(0, int(m.group(1)) * 60 + int(m.group(2))) for m in _UNTIL_TIME.finditer(text)]
    held = set().union(*(_minutes_of(w) for w in windows)) if windows else set()
    return {part for part in asked if held & _minutes_of(_PARTS_OF_DAY[part])}


_WORKING_DAY_NAME = re.compile(r"\b(?:monday|tuesday|wednesday|thursday|friday)s?\b", re.IGNORECASE)


def weekday_stems(question: str) -> set[str]:
    """{"weekday"} when the question names a day from Monday to Friday ("on a Wednesday night"):
    a table's "Weekday night" row is that day's. Only for naming rows: the lexicon does not make
    "Wednesday" a synonym of "weekday" (a question about a Tuesday is not about weekdays)."""
    return {"weekday"} if _WORKING_DAY_NAME.search(question) else set()

