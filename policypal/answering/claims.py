"""Check a language model's answer, sentence by sentence, against the sources it cites.

Each sentence of the reply is a claim. A claim is supported when all of these hold:

1. It cites a source: its own [n] markers or, when it has none, those of the next sentence of
   its paragraph that has some (a group of sentences cited once at its end, as the built-in
   answerer writes them). A sentence with no marker and none after it cites nothing and is not
   supported, except a sentence saying the sources do not cover something ("The policies do
   not cover this."), which states an absence and needs no source.
2. Every [n] it cites exists: 1 <= n <= number of sources.
3. Every fact in it appears in a source it cites (breadcrumb, title, version, effective dates
   and text): numbers and amounts ("₹1,800" = "1800" = "INR 1,800.00", "12.5%" = "12.5 per
   cent", "three" = "3"), dates ("1 April 2027" = "2027-04-01"; "30 June" matches any year),
   identifiers ("L4", "B14", "EX-101" = "ex101", "4.2.1"). When the cited source is a table and
   the claim names a row by its label ("L4"), its numbers must come from that row (or the
   caption and header), not from another row.
4. Its wording comes from those sources: at least half of its content words (stop words left
   out, plurals made singular, then compared by their first five letters, so "approved" meets
   "approval") are in them, unless its only content word stands beside facts that check ("It
   changes on 1 April 2027 [2]."); and every absolute or negation it states ("every", "all",
   "only", "never", "not") has a word of the same kind there, since adding one turns a rule
   into another rule.
5. What supports it is policy text: sentences of a source addressed to an AI reader ("ignore
   previous instructions", "you are now an assistant", "system prompt") are taken out of the
   text a claim is checked against. A reply that obeys an instruction planted in a policy
   finds no support for what the instruction made it say.

The checks are lexical: they catch wrong figures, wrong rows, invented citations, added
absolutes and sentences that are not from the sources; they do not prove that a sentence
built from the source's own words means what the source means.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from chunking.pipe_tables import is_delimiter_line, is_pipe_line
from chunking.sentences import split_sentences_quick

from .evidence import Claim, Evidence
from .terms import COMPOUND_NUMBER, MONTHS, NUMBER_WORDS

MIN_WORD_SHARE = 0.5  # share of a claim's content words that must be in its sources
STEM = 5  # words are compared by their first letters


# --- splitting the reply ------------------------------------------------------------------------

_MARKER = re.compile(r"\[\s*(?:sources?\s*)?(\d{1,3}(?:\s*(?:[,;]|[-\u2013])\s*(?:sources?\s*)?\d{1,3})*)\s*\]", re.I)
_ONLY_MARKERS = re.compile(rf"^(?:\s*{_MARKER.pattern})+\s*[.,;:!?]*\s*$", re.I)
_LEADING_MARKERS = re.compile(rf"^(?:\s*{_MARKER.pattern})+[.,;:]?\s*", re.I)
_PARAGRAPH = re.compile(r"\n\s*\n")


def split_reply(reply: str) -> list[list[str]]:
    """Paragraphs (blank-line separated) of sentences, each sentence verbatim with its markers.
    Markers written after a sentence's full stop ("... per day. [2] Next ...") join the sentence
    before them; each line of a paragraph (a list item) is split on its own."""
    paragraphs = []
    for block in _PARAGRAPH.split(reply.strip()):
        sentences: list[str] = []
        for line in block.splitlines():
            for piece in split_sentences_quick(line):
                leading = _LEADING_MARKERS.match(piece)
                if sentences and leading and not markers(sentences[-1]):
                    sentences[-1] = f"{sentences[-1]} {leading.group(0).strip()}"
                    piece = piece[leading.end():]
                if piece.strip():
                    sentences.append(piece.strip())
        if sentences:
            paragraphs.append(sentences)
    return paragraphs


def markers(sentence: str) -> tuple[int, ...]:
    """The source numbers a sentence cites, in order, without repeats ("[1, 3]", "[2-4]", "[1][2]")."""
    out: list[int] = []
    for match in _MARKER.finditer(sentence):
        for part in re.split(r"\s*[,;]\s*", match.group(1)):
            numbers = [int(n) for n in re.findall(r"\d+", part)]
            if len(numbers) == 2 and re.search(r"[-\u2013]", part) and 0 < numbers[1] - numbers[0] <= 20:
                numbers = list(range(numbers[0], numbers[1] + 1))
            out.extend(n for n in numbers if n not in out)
    return tuple(out)


def strip_markers(sentence: str) -> str:
    return " ".join(_MARKER.sub(" ", sentence).split())


# --- the check ----------------------------------------------------------------------------------

def check_claims(reply_text: str, sources: list[Evidence]) -> list[Claim]:
    """One Claim per sentence of the reply, in order (see the module docstring for the rules)."""
    support = [_Support.of(source) for source in sources]
    claims: list[Claim] = []
    for sentences in split_reply(reply_text):
        own = [markers(s) for s in sentences]
        for index, sentence in enumerate(sentences):
            cited = own[index] or next((m for m in own[index + 1 :] if m), ())
            claims.append(_check(sentence, cited, support))
    return claims


def _check(sentence: str, cited: tuple[int, ...], support: list[_Support]) -> Claim:
    text = strip_markers(sentence)
    missing = [n for n in cited if not 1 <= n <= len(support)]
    if missing:
        listed = ", ".join(f"[{n}]" for n in missing)
        return Claim(sentence, cited, False, f"cites {listed}, which {'does' if len(missing) == 1 else 'do'} not exist")
    if is_absence(text):
        return Claim(sentence, cited, True, "says what the sources do not cover")
    if not cited:
        return Claim(sentence, cited, False, "cites no source")
    if not _has_words_or_facts(text):
        return Claim(sentence, cited, True)
    sources = [support[n - 1] for n in cited]
    where = " or ".join(f"[{n}]" for n in cited)
    reason = _fact_problem(text, sources, where) or _wording_problem(text, sources, where)
    if reason and _wording_problem(text, sources, where, with_instructions=True) is None and not _fact_problem(text, sources, where):
        reason = f"follows an instruction in {where}, not what the policy says"
    return Claim(sentence, cited, reason is None, reason or "")


def _has_words_or_facts(text: str) -> bool:
    return bool(content_words(text) or facts(text).any())


# --- absence statements -------------------------------------------------------------------------

_DOCS = r"(?:polic(?:y|ies)|sources?|documents?|handbooks?|texts?|guidelines|information\s+provided)"
_ABSENCE = re.compile(
    rf"\b{_DOCS}\b[^.?!]{{0,60}}?\b(?:do|does|did)\s*(?:not|n't)\s+(?:\w+ly\s+)?"
    r"(?:cover|mention|address|say|specify|state|include|contain|describe|answer|give|provide|list|set\s+out)\b"
    rf"|\bno\s+(?:information|mention|details?|guidance|rule)\b[^.?!]{{0,80}}\b{_DOCS}\b"
    rf"|\b(?:is|are)\s*(?:not|n't)\s+(?:covered|mentioned|addressed|specified|stated|described)\s+(?:in|by)\s+"
    rf"(?:the\s+|these\s+|any\s+of\s+the\s+)?(?:provided\s+|available\s+|cited\s+)?(?:sources?|documents?|policies)\b"
    r"|\bI\s+(?:could|can|did)\s*(?:not|n't)\s+find\b",
    re.I,
)


def is_absence(text: str) -> bool:
    """Does the sentence say that the sources do not cover something (rather than state a rule)?"""
    return bool(_ABSENCE.search(text))


# --- instructions planted in sources ------------------------------------------------------------

_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass)\b[^.?!]{0,40}\b(?:instructions?|prompts?|rules|guidelines|directions|above|previous|prior|earlier)\b"
    r"|\b(?:system|developer)\s+(?:prompt|message|instructions?)\b"
    r"|\byou\s+are\s+(?:now\s+)?(?:an?\s+)?(?:ai|assistant|language\s+model|chatbot|llm)\b"
    r"|\b(?:ai|assistants?|language\s+models?|chatbots?|llms?)\b[^.?!]{0,30}\b(?:must|should|shall|will|are\s+to)\s+(?:now\s+)?(?:say|tell|answer|reply|respond|state|ignore)\b"
    r"|\bnew\s+instructions?\s*:",
    re.I,
)


def is_instruction(sentence: str) -> bool:
    """Is this source sentence addressed to an AI reader rather than to the policy's readers?"""
    return bool(_INSTRUCTION.search(sentence))


# --- facts ----------------------------------------------------------------------------------------

_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DATE_PATTERNS = [
    re.compile(r"\b(?P<year>\d{4})-(?P<mnum>\d{1,2})-(?P<day>\d{1,2})\b"),
    re.compile(r"\b(?P<day>\d{1,2})/(?P<mnum>\d{1,2})/(?P<year>\d{4})\b"),  # d/m/y, as written in India and the UK
    re.compile(rf"\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}(?:,?\s+(?P<year>\d{{4}}))?\b", re.I),
    re.compile(rf"\b{_MONTH}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(?P<year>\d{{4}}))?\b(?!,\d)", re.I),
    re.compile(rf"\b{_MONTH}\s+(?P<year>\d{{4}})\b", re.I),
]
# Letters glued to a number that make it an amount, a count or a version, not an identifier ("Rs500", "v2").
_NOT_IDENTIFIER_PREFIX = frozenset({"rs", "inr", "usd", "eur", "gbp", "aed", "sgd", "no", "nos", "km", "kg", "pm", "am", "v", "p", "pp"})
_IDENTIFIER = re.compile(r"\b[A-Za-z]{1,4}-?\d+[A-Za-z]?(?:-\d+)?\b|\b\d+(?:\.\d+){2,}\b")
_NUMBER = re.compile(r"(?<![\d,])(?<!\d\.)(?:\d{1,3}(?:,\d{2,3})+|\d+)(?:\.\d+)?")
# numbers in words, as terms reads them ("twenty-five" one number), and "hundred"; not "a", "an",
# "half" or "zero", which a claim writes as words
_WORD_NUMBERS = {w: v for w, v in NUMBER_WORDS.items() if w not in ("a", "an", "half", "zero")} | {"hundred": 100}
_WORD_NUMBER = re.compile(COMPOUND_NUMBER.pattern + r"|\b(" + "|".join(_WORD_NUMBERS) + r")\b", re.I)


@dataclass
class Facts:
    """The checkable facts of a text, normalised: numbers (Decimal strings), dates (y, m, d) with
    None for a missing part, identifiers (upper case, no hyphens) and how each was written."""

    numbers: dict[str, str]
    dates: dict[tuple, str]
    identifiers: dict[str, str]

    def any(self) -> bool:
        return bool(self.numbers or self.dates or self.identifiers)


def facts(text: str, *, word_numbers: str = "claim") -> Facts:
    """Dates first, then identifiers, then numbers, each taken out of the text before the next,
    so "1 April 2027" is not also the numbers 1 and 2027, nor "EX-101" the number 101.
    word_numbers: "claim" reads "two".."hundred" (not "one", mostly a pronoun), "source" all of them."""
    dates: dict[tuple, str] = {}
    for pattern in _DATE_PATTERNS:
        text = pattern.sub(lambda m: _take_date(m, dates), text)
    identifiers: dict[str, str] = {}
    text = _IDENTIFIER.sub(lambda m: _take_identifier(m, identifiers), text)
    numbers: dict[str, str] = {}
    if word_numbers == "source":  # a year stated in a source's date supports the year alone
        numbers.update((str(y), str(y)) for y, _, _ in dates if y is not None)
    for match in _NUMBER.finditer(text):
        value = _decimal(match.group(0))
        if value is not None:
            numbers.setdefault(value, match.group(0))
    for match in _WORD_NUMBER.finditer(text):
        if match.group(3):
            word = match.group(3).lower()
            if word == "one" and word_numbers == "claim":
                continue
            value = _WORD_NUMBERS[word]
        else:
            value = _WORD_NUMBERS[match.group(1).lower()] + _WORD_NUMBERS[match.group(2).lower()]
        numbers.setdefault(str(value), match.group(0))
    return Facts(numbers, dates, identifiers)


def _take_date(match: re.Match, dates: dict) -> str:
    groups = match.groupdict()
    if groups.get("month") == "may":  # the verb, not the month
        return match.group(0)
    month = MONTHS[groups["month"].lower()] if groups.get("month") else int(groups["mnum"])
    day = int(groups["day"]) if groups.get("day") else None
    year = int(groups["year"]) if groups.get("year") else None
    if not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
        return match.group(0)
    dates.setdefault((year, month, day), match.group(0))
    return " " * len(match.group(0))


def _take_identifier(match: re.Match, identifiers: dict) -> str:
    raw = match.group(0)
    prefix = re.match(r"[A-Za-z]*", raw).group(0).lower()
    if prefix in _NOT_IDENTIFIER_PREFIX:
        return raw
    identifiers.setdefault(raw.replace("-", "").upper(), raw)
    return " " * len(raw)


def _decimal(raw: str) -> str | None:
    try:
        value = Decimal(raw.replace(",", ""))
    except InvalidOperation:
        return None
    return format(value.normalize(), "f")


def _date_found(date: tuple, known: Facts) -> bool:
    """A date without a year matches that day in any year; a month and year, any day of it."""
    year, month, day = date
    for y, m, d in known.dates:
        if m == month and (day is None or d == day) and (year is None or y == year or (y is None and str(year) in known.numbers)):
            return True
    return False


# --- wording --------------------------------------------------------------------------------------

_WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019]*")
_STOP = frozenset(
    """a about above after again against also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers him his how i if in into is it its itself just me more most my of off on once
    or other our ours out over own same she should so some such than that the their theirs them then there
    these they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours may might must shall per also there's it's that's
    policy policies source sources according says say said states state stated document documents section
    mentioned employee employees staff get gets got receive receives received entitled eligible able claim
    claims claimed one yes""".split()
)
_ABSOLUTES = {
    "universal": frozenset("every all each any always everything everyone everybody anyone anything whatever whenever entire".split()),
    "negation": frozenset(
        "not no never none nothing nobody neither nor cannot can't won't isn't aren't doesn't don't didn't "
        "shouldn't mustn't without non prohibited forbidden excluded disallowed ineligible".split()
    ),
    "restriction": frozenset("only solely exclusively".split()),
}
_ALL_ABSOLUTES = frozenset().union(*_ABSOLUTES.values())


def words(text: str) -> list[str]:
    return [w.lower().replace("\u2019", "'") for w in _WORD.findall(text)]


def content_words(text: str) -> set[str]:
    """Stems of the words that carry content: letters only, three or more, no stop words."""
    out = set()
    for word in words(text):
        word = word.removesuffix("'s").strip("'")
        if len(word) >= 3 and word not in _STOP and word not in _ALL_ABSOLUTES and not word.endswith("n't"):
            out.add(stem(word))
    return out


def stem(word: str) -> str:
    """A plural made singular, then the first STEM letters: "expenses" and "expense" meet,
    "approved" and "approval" meet."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word[:STEM]


def absolutes(text: str) -> dict[str, str]:
    """The kinds of absolute a text states, each with the first word that states it."""
    found: dict[str, str] = {}
    for word in words(text):
        for kind, members in _ABSOLUTES.items():
            if (word in members or (kind == "negation" and word.endswith("n't"))) and kind not in found:
                found[kind] = word
    return found


# --- what a source offers -----------------------------------------------------------------------

@dataclass
class _Support:
    """A source as sentences of policy text and sentences addressed to an AI, with its facts."""

    policy: list[str]  # the header (breadcrumb, title, version, dates) first, then the text's sentences
    instructions: list[str]
    facts: Facts
    rows: list[Facts]  # one per table body row
    frame: Facts  # the table's caption, header and surrounding text (no body rows)

    @classmethod
    def of(cls, source: Evidence) -> _Support:
        header = " ".join(
            part for part in (source.breadcrumb, source.policy_title, source.policy,
                              f"version {source.version}" if source.version else "",
                              source.effective_from, source.effective_to) if part
        )
        policy, instructions = [header], []
        for line in source.text.splitlines():
            for sentence in split_sentences_quick(line):
                (instructions if is_instruction(sentence) else policy).append(sentence)
        policy_text = "\n".join(policy)
        rows, frame_text = _table_rows(source, policy_text)
        return cls(policy, instructions, facts(policy_text, word_numbers="source"),
                   [facts(r, word_numbers="source") for r in rows], facts(frame_text, word_numbers="source"))


def _table_rows(source: Evidence, text: str) -> tuple[list[str], str]:
    """Body rows of a table source (its TableData, or its Markdown pipe lines) and the rest."""
    if source.table is not None and source.kind == "table":
        rows = [" | ".join(row.cells) for row in source.table.rows]
        frame = "\n".join([source.breadcrumb, source.table.caption, " | ".join(source.table.headers)])
        return rows, frame
    # The text is in sentences, one a line, so a cell holding two sentences breaks its row in two:
    # every pipe line after the delimiter row is a body row, not only the first run of them.
    lines = text.splitlines()
    pipes = [i for i, line in enumerate(lines) if is_pipe_line(line)]
    if len(pipes) < 3:
        return [], text
    separator = next((i for i in pipes if is_delimiter_line(lines[i])), None)
    if separator is None:
        return [], text
    rows = [lines[i] for i in pipes if i > separator]
    frame = "\n".join(line for i, line in enumerate(lines) if i not in pipes or i < separator)
    return rows, frame


def _fact_problem(text: str, sources: list[_Support], where: str) -> str | None:
    claim = facts(text)
    for value, written in claim.numbers.items():
        if not any(value in s.facts.numbers for s in sources):
            return f"'{written}' is not in {where}"
    for date, written in claim.dates.items():
        if not any(_date_found(date, s.facts) for s in sources):
            return f"'{written}' is not in {where}"
    for identifier, written in claim.identifiers.items():
        if not any(identifier in s.facts.identifiers for s in sources):
            return f"'{written}' is not in {where}"
    return _row_problem(claim, sources, where)


def _row_problem(claim: Facts, sources: list[_Support], where: str) -> str | None:
    """A claim naming a table row by its label takes its numbers from that row."""
    if not claim.identifiers or not claim.numbers:
        return None
    named, tables = [], False
    for source in sources:
        rows = [row for row in source.rows if set(claim.identifiers) & set(row.identifiers)]
        tables = tables or bool(source.rows)
        named.extend(rows)
        named.append(source.frame)
    if not tables or len(named) == len(sources):  # no table, or no row named by the claim
        return None
    labels = ", ".join(claim.identifiers.values())
    for value, written in claim.numbers.items():
        if not any(value in row.numbers for row in named):
            return f"'{written}' is not in the row of {labels} in {where}"
    return None


def _wording_problem(text: str, sources: list[_Support], where: str, *, with_instructions: bool = False) -> str | None:
    """Enough of the claim's words in its sources, and its absolutes in the sentences closest to it."""
    sentences = [x for s in sources for x in s.policy + (s.instructions if with_instructions else [])]
    claimed = content_words(text)
    if len(claimed) > 1 or (claimed and not facts(text).any()):  # one word beside checked facts is framing
        present = content_words("\n".join(sentences))
        if len(claimed & present) / len(claimed) < MIN_WORD_SHARE:
            return f"most of its words are not in {where}"
    stated = absolutes("\n".join(_closest(claimed, sentences)))
    for kind, word in absolutes(text).items():
        if kind not in stated:
            return f"'{word}' is not in {where}"
    return None


def _closest(claimed: set[str], sentences: list[str]) -> list[str]:
    """The source sentences sharing the most content words with the claim (all when it has none):
    an absolute must be stated where the rule is, not anywhere in the chunk."""
    overlap = [len(claimed & content_words(sentence)) for sentence in sentences]
    best = max(overlap, default=0)
    return [sentence for sentence, n in zip(sentences, overlap) if n == best] if best else sentences
