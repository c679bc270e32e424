"""Words as the answer layer compares them: stems, stop words, identifiers, synonyms.

A question's *key terms* are its content words (stop words and the words every policy question
uses, such as "policy" or "allowed", left out), compared by their Snowball stem so that
"reimbursed", "reimbursable" and "reimbursement" meet. *Identifiers* (grades and bands, codes,
section numbers, amounts, dates) are facts to match exactly, never words to embed.
"""
from __future__ import annotations

import re
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer

from .lexicon import PHRASES, SYNONYM_GROUPS

# A snowball stemmer keeps its state while it works on a word, so it is not safe to share between
# threads (gunicorn's threads answer at once): each thread gets its own.
_STEMMERS = threading.local()


def _stemmer():
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        stemmer = _STEMMERS.english = snowballstemmer.stemmer("english")
    return stemmer


# letters of any script ("Malmö", "Zürich", "São Paulo" are one word each, not "malm" and "z rich")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")

STOP_WORDS = frozenset(
    """
    a about above after again against all am an and any are aren't as at be because been before being
    below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't
    down during each few for from further had hadn't has hasn't have haven't having he her here hers
    herself him himself his how i i'd i'll i'm i've if in into is isn't it it's its itself let's me
    more most mustn't my myself no nor not of off on once only or other ought our ours ourselves out
    over own same shan't she should shouldn't so some such than that that's the their theirs them
    themselves then there there's these they this those through to too under until up very was
    wasn't we were weren't what what's when where which while who whom why will with won't would
    wouldn't you your yours yourself yourselves also just get got gets getting us ok okay please
    anything something someone anyone everyone thing things way much many lot lots like want wants
    wanted tell know onto upon within without towards toward across ahead far back away soon later
    earlier whole entire full fully really quite rather almost already yet even though although
    instead else otherwise ago anyway somehow maybe perhaps probably definitely still around another
    others whose whatever whenever wherever whichever everything nothing well whats hows whos wheres
    nobody somebody anybody everybody noone mine meantime meanwhile past beyond
    """.split()
)

# Words that any policy question may use without naming what it is about: they neither make a
# question answerable nor show that it is not.
GENERIC_WORDS = frozenset(
    """
    policy policies rule rules company employee employees staff colleague people person
    allowed allow permitted permit let lets letting need needs required require must may might can able entitled supposed
    eligible eligibility apply applies applied happen happens happened say says said mean means
    guidance guideline guidelines procedure process right rights option options exactly actually
    currently current today now still ever always new old yes whether kind type types sort long
    often usually normally work working job role organisation organization someone case situation
    question questions answer covered cover covers cost costs amount much number total maximum max
    min minimum limit limits money rate rates year years month months week weeks day days time times hour hours
    first second next last per every different able one two three four five six seven eight nine ten
    do does did make made take taken taking give given go goes going gone went come use used using put
    firm worth main tomorrow yesterday tonight afterwards afterward pop nip reading readings fully entirely wholly purely
    lads lad guys folks
    """.split()
)

NUMBER_WORDS = {  # a number spelt out, with its value ("a"/"an" one, "half")
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "half": 0.5, "a": 1, "an": 1,
}

_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_ONES = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
# a number of tens and ones in words ("twenty-five", "thirty two"): group 1 the tens, group 2 the ones
COMPOUND_NUMBER = re.compile(rf"\b({'|'.join(_TENS)})[- ]({'|'.join(_ONES)})\b", re.IGNORECASE)


_SPELT = "|".join(sorted((w for w in NUMBER_WORDS if w not in ("half", "an", "zero")), key=len, reverse=True))
_HUNDREDS = re.compile(rf"\b(\d{{1,3}}|{_SPELT})\s+(hundred|thousand)\b(?!\s+(?:and\s+)?(?:{_SPELT})\b)", re.IGNORECASE)


def compound_numbers_in_digits(text: str) -> str:
    """"twenty-five years", "thirty two miles", "twelve thousand miles" as "25 years", "32 miles",
    "12000 miles": a number of two words or more is one number (read word by word, "twenty-five"
    would be a five, "twelve thousand" a twelve)."""
    text = COMPOUND_NUMBER.sub(lambda m: str(NUMBER_WORDS[m.group(1).lower()] + NUMBER_WORDS[m.group(2).lower()]), text)

    def times(m: re.Match) -> str:
        count = int(m.group(1)) if m.group(1).isdigit() else NUMBER_WORDS[m.group(1).lower()]
        return str(int(count * (100 if m.group(2).lower() == "hundred" else 1000)))

    return _HUNDREDS.sub(times, text)


def stem(word: str) -> str:
    return _stem(word.lower().replace("’", "'"))


# Latin and Greek plurals policies use ("Table 4: Fixed honoraria" against "an honorarium")
_CLASSICAL_PLURALS = {"honoraria": "honorarium", "curricula": "curriculum", "criteria": "criterion",
                      "memoranda": "memorandum", "addenda": "addendum", "phenomena": "phenomenon",
                      "stipendia": "stipendium", "indices": "index", "appendices": "appendix",
                      "theses": "thesis", "analyses": "analysis", "diagnoses": "diagnosis", "syllabi": "syllabus"}


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    if not word.isascii():
        # "café" and "cafe", "naïve" and "naive" are one word (a letter of another script stays)
        folded = "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))
        word = folded if folded.isascii() else word
    word = word.removesuffix("'s")
    word = _CLASSICAL_PLURALS.get(word, word)
    if len(word) > 5 and word.endswith("ies"):
        word = word[:-3] + "y"  # "earlies" (early shifts) as "early", "policies" as "policy"
    if word in _OWN_NOUN_STEMS:
        return _OWN_NOUN_STEMS[word]
    return _stemmer().stemWord(word)


# nouns whose stem would be that of a verb meaning something else: an "allowance" is a sum of
# money, "allows" and "allowed" give permission ("a standard car licence allows" is no car allowance)
_OWN_NOUN_STEMS = {"allowance": "allowanc", "allowances": "allowanc"}


STOP_STEMS = frozenset(stem(w) for w in STOP_WORDS)


def words(text: str) -> list[str]:
    """Lower-cased words; a hyphenated word gives its parts ("first-class": first, class); a
    contraction its words ("they're": they; "can't": can not)."""
    text = _CONTRACTION.sub(_expand, text.replace("’", "'"))
    if text.isascii():
        return [w.lower() for w in _WORD.findall(text)]
    # a footnote mark on a word is no part of it ("Car – fully electric³", "tax year¹")
    text = _FOOTNOTE_MARK.sub("", text)
    return [fold_accents(w.lower()) for w in _WORD.findall(text)]


_FOOTNOTE_MARK = re.compile(r"(?<=[A-Za-z]{3})[¹²³⁴⁵⁶⁷⁸⁹⁰]+")


def fold_accents(word: str) -> str:
    """The word without its diacritics ("poznań" -> "poznan", "café" -> "cafe"): a question
    typed without them names the same row; a script without Latin letters is left as it is."""
    if word.isascii():
        return word
    folded = "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))
    return folded or word


_CONTRACTION = re.compile(r"\b(can't|won't|shan't|\w+n't|\w+'(?:re|ll|ve|d|m|s))\b", re.IGNORECASE)
_IRREGULAR = {"can't": "can not", "won't": "will not", "shan't": "shall not"}


def _expand(m: re.Match) -> str:
    word = m.group(1).lower()
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith("n't"):
        return word[:-3] + " not"
    base, _, ending = word.partition("'")
    if ending == "s":  # "she's", "who's": the pronoun; "the manager's" (and the stop words
        # "it's", "what's", "that's", "there's"): as written
        return base if base in _PRONOUNS_BEFORE_S else m.group(1)
    return base


# words whose "'s" is "is" or "has" ("she's", "where's"), never a possessive the question relies on
_PRONOUNS_BEFORE_S = frozenset("he she who where here how when this why which".split())


@dataclass(frozen=True)
class Term:
    word: str  # as written (lower case)
    stem: str
    generic: bool = False
    phrases: tuple[str, ...] = ()  # lexicon phrases of the text the word is part of ("switch_off")


_REST_OF = re.compile(r"\bthe rest of\b", re.IGNORECASE)
# when the asker's case happens ("this summer", "over the winter", "next spring"): the scene, not
# what the question is about (a policy about summer hours is asked with "summer hours")
_SEASON_WHEN = re.compile(r"\b(?:this|next|last|the coming|over the|during the|in the)\s+(?:summer|winter|spring|autumn)\b(?!\s+(?:hours?|shutdown|closure|term|holidays?|fair|party|schedule|timetable)\b)",
                          re.IGNORECASE)
_IS_THAT_OK = re.compile(r"\b(?:is|would|will|was)\s+(?:that|it|this)\s+(?:be\s+)?(?:fine|ok|okay|alright|all right|acceptable)\b",
                         re.IGNORECASE)
# a measure or a container before "of" names how much of the thing, not a thing to look for ("a
# glass of wine", "a bit of spread betting", "a box of chocolates"); "a bit" and "a lot" alone are
# how much ("can I bag up a bit")
_PARTITIVE = re.compile(
    r"\b(?:a|an|one|two|three|four|five|a few|some|several|a couple of)\s+(?:little\s+|small\s+|big\s+|large\s+)?"
    r"(?:bit|glass|cup|mug|bottle|box|pair|piece|lot|bunch|handful|bag|pack|packet|can|pint|slice|plate|"
    r"round|spot|couple|drop|sip|bite|half|third|quarter|fifth|sixth|seventh|eighth|ninth|tenth)(?:e?s)?\s+of\b"
    r"|\ba\s+(?:little\s+)?(?:bit|lot)\b(?!\s+of\b)",
    re.IGNORECASE)


def key_terms(text: str) -> list[Term]:
    """The content words of a question, in order, each once (stop words left out; generic
    policy words kept but marked, numbers left to `identifiers`)."""
    out: dict[str, Term] = {}
    text = _REST_OF.sub(" ", text)  # "for the rest of the year" asks about the year, not rest
    text = _SEASON_WHEN.sub(" ", text)
    text = _PARTITIVE.sub(" ", text)
    text = _IS_THAT_OK.sub(" allowed ", text)  # "Is that fine?" asks whether it is allowed, not about a fine
    text = _KICKS_IN.sub(" start ", text)  # "When does the competent rate kick in?" asks when it starts
    # "the second job starts ...": one of a series, not a phrase naming a kind ("a second job")
    series = {stem(m.group(1)) for m in _ORDINAL_OF_A_SERIES.finditer(text)}
    phrases = [k for k in stems_of(text) if "_" in k and k.split("_")[0] not in series]
    tokens = words(text)
    for word in tokens:
        if word in STOP_WORDS or word.isdigit() or len(word) < 2 or _has_digit(word):
            continue
        s = stem(word)
        if s not in out:
            own = tuple(p for p in phrases if s in p.split("_"))
            # (a phrase inside a longer one written is not written for itself: "time off" of "time off in lieu")
            own = tuple(p for p in own if not any(o != p and f"_{p}_" in f"_{o}_" for o in own))
            generic = is_generic(word) and not (_can_be_a_noun(word) and any(_names_a_thing_whole(p) for p in own)) \
                and not _noun_in_ing(word, tokens)
            out[s] = Term(word, s, generic=generic, phrases=own)
    return list(out.values())


_KICKS_IN = re.compile(r"\bkick(?:s|ed|ing)?\s+in\b", re.IGNORECASE)
_ORDINAL_OF_A_SERIES = re.compile(r"\b(?:the|my|our|their|that|this)\s+(first|second|third|fourth|next|last|other)\b", re.IGNORECASE)


# the small words a measure opens with ("a year", "per night", "each week", "every month")
MEASURE_STEMS = frozenset({"a", "an", "per", "each", "everi"})


_DETERMINERS = frozenset("a an the my our your their his her its this that each every any no".split())


@lru_cache(maxsize=20_000)
def readings(word: str) -> dict:
    """The parts of speech a word can be, each with its lemmas (lemminflect's reading, cached)."""
    from lemminflect import getAllLemmas

    return getAllLemmas(word)


def _can_be_a_noun(word: str) -> bool:
    return "NOUN" in readings(word)


def _noun_in_ing(word: str, tokens: list[str]) -> bool:
    """A word in -ing written as a noun of its own, after a determiner or a noun ("my type
    rating", "the timing"), not the verb it comes from ("she's applying"): no generic word then."""
    if word in GENERIC_WORDS or not word.endswith("ing"):
        return False
    for i, t in enumerate(tokens):
        if t == word and i > 0:
            before = tokens[i - 1]
            if before in _DETERMINERS or (before not in STOP_WORDS and "NOUN" in readings(before)):
                return True
    return False


def _names_a_thing_whole(phrase: str) -> bool:
    """Whether a lexicon phrase of a generic word and small words says the same as a word of
    substance ("time off": leave, vacation), so the generic word written in it is a topic."""
    parts = phrase.split("_")
    if parts[0] in MEASURE_STEMS:
        return False  # a measure, "a year", "per hour": how a value is counted
    if not all(p in _GENERIC_STEMS or p in STOP_STEMS for p in parts):
        return False  # a phrase with a word of its own: that word is the term
    return any("_" not in e and e not in _GENERIC_STEMS and e not in STOP_STEMS for e in equivalents(phrase))


_GENERIC_STEMS = frozenset(stem(w) for w in GENERIC_WORDS)


def organisation_names(titles: list[str]) -> list[str]:
    """The organisation's name as its policy titles write it: a capitalised word that most
    titles share ("Harbourline" in "Harbourline Leave Policy", "Harbourline Travel Policy"),
    other than a generic one ("Policy"). Needs three titles: two may share a topic word."""
    titles = list(dict.fromkeys(t for t in titles if t))
    if len(titles) < 3:
        return []
    counts: dict[str, int] = {}
    for title in titles:
        # (at the head of the title, as a name stands: "Harbourline Leave Policy", "Acme Corp
        # Travel Policy"; a topic most titles share further in is no name: "... and Research Leave")
        for word in set(re.findall(r"\b[A-Z][\w&-]+\b", " ".join(title.split()[:3]))):
            counts[word] = counts.get(word, 0) + 1
    return sorted(w for w, n in counts.items() if n >= 0.6 * len(titles) and w.lower() not in GENERIC_WORDS)


# the kinds of organisation a policy calls its employer by ("the Bank", "the Council", "the
# University"): written capitalised after "the", such a word is the employer's short name
ORGANISATION_KINDS = frozenset("""
    bank council university company firm group trust practice partnership society authority
    organisation organization employer business college school hospital agency charity institute
    corporation airline airport store retailer insurer
""".split())


_AFTER_THE_EMPLOYER = "|".join(sorted(STOP_WORDS | {
    "pay", "pays", "paid", "cover", "covers", "contribute", "contributes", "give", "gives", "gave", "offer", "offers",
    "provide", "provides", "reimburse", "reimburses", "allow", "allows", "expect", "expects", "require", "requires",
    "let", "lets", "want", "wants", "need", "needs", "fund", "funds", "match", "matches", "top", "tops"}, key=len, reverse=True))


def organisation_short_names(texts: list[str]) -> list[str]:
    """The kinds of organisation the policy texts name their employer by, written "the Bank" (a
    capital after "the", at least twice): "Will the bank pay for ...?" then asks what the
    employer pays, as "Will the company pay" does. A defined term ("the Scheme") is no
    organisation kind and stays a word to look for."""
    counts: dict[str, int] = {}
    for text in texts:
        for word in re.findall(r"\b[Tt]he ([A-Z][a-z]+)\b(?!\s+[A-Z])", text):  # not "the Bank Holiday"
            if word.lower() in ORGANISATION_KINDS:
                counts[word.lower()] = counts.get(word.lower(), 0) + 1
    return sorted(w for w, n in counts.items() if n >= 2 and w not in ("company",))


def as_the_company(question: str, names: list[str]) -> str:
    """The question with the organisation's name read as "the company" ("Does Acme pay for
    parking?" asks what the company pays): the name is in every policy, so it tells nothing."""
    for name in names:
        if name.lower() in ORGANISATION_KINDS:
            # a kind ("bank") is the employer after "the" and before a verb, a function word or
            # the end ("will the bank pay", "from the council?"), not before a noun ("the bank holiday")
            question = re.sub(rf"\b(?:the|our|this)\s+{re.escape(name)}(?:'s)?\b(?=\s*(?:[^\w\s]|$)|\s+(?:{_AFTER_THE_EMPLOYER})\b)",
                              "the company", question, flags=re.IGNORECASE)
        else:
            question = re.sub(rf"\b{re.escape(name)}\b", "the company", question, flags=re.IGNORECASE)
    return question


_PROPER = re.compile(r"(?<![.?!:]\s)(?<!^)\b([A-Z][a-z][\w'-]*(?:\s+[A-Z][a-z][\w'-]*)*)")
# month names and their short forms -> the month's number (dates in claims, dated row conditions)
MONTHS = {
    name: number
    for number, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
         ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"),
         ("november", "nov"), ("december", "dec")],
        start=1,
    )
    for name in names
}
_CALENDAR = frozenset("monday tuesday wednesday thursday friday saturday sunday christmas easter".split()) \
    | {name for name in MONTHS if len(name) > 3 or name == "may"}  # (the full names)


def proper_names(question: str) -> list[str]:
    """Names the asker writes capitalised inside a sentence ("the Glasgow hub", "a store in
    Croydon", "Trafford Park"): a town, a site, a product: facts to find in the policies'
    own words (a depot register, a list of example towns), not words to embed. Days, months, feasts and
    the asker's "I" are not names; a capital that starts a sentence tells nothing."""
    out = []
    for m in _PROPER.finditer(question.strip()):
        parts = m.group(1).split()
        if any(w.lower() in _CALENDAR for w in parts):
            continue  # "Christmas Day", "Sunday": a day, not a place
        if len("".join(parts)) > 2 and " ".join(parts) not in out:
            out.append(" ".join(parts))
    return out


@lru_cache(maxsize=20_000)
def is_generic(word: str) -> bool:
    """A generic word or a form of one ("applies", "rules"); not a word whose stem only looks
    like one ("allowance" is not "allow")."""
    if word in GENERIC_WORDS:
        return True
    if stem(word) not in _GENERIC_STEMS:
        return False
    lemmas = {lemma for forms in readings(word).values() for lemma in forms}
    return not lemmas or bool(lemmas & GENERIC_WORDS)


@lru_cache(maxsize=20_000)
def stems_of(text: str) -> frozenset[str]:
    """Every stem of the text, with the stems of the lexicon's phrases it contains joined
    ("carry forward" also counts as the phrase 'carry_forward'). Cached: chunk texts recur
    from question to question."""
    tokens = [stem(w) for w in words(text)]
    out = set(tokens)
    # phrases are found with pronouns left out: "logs me out" is "log out", "carry it over" "carry over"
    joined = " " + " ".join(t for t in tokens if t not in _PRONOUNS) + " "
    for phrase, key in _PHRASE_KEYS.items():
        if f" {phrase} " in joined:
            out.add(key)
    # a noun used only inside an idiom is not that noun: "book two weeks in advance" says
    # nothing about "an advance on my salary", "in place" nothing about a place
    every = " " + " ".join(tokens) + " "
    for lead, noun in _IDIOMS:
        if noun in out and every.count(f" {noun} ") == every.count(f" {lead} {noun} "):
            out.discard(noun)
            out.add(f"{lead}_{noun}")
    return frozenset(out)


_IDIOMS = tuple((stem(a), stem(b)) for a, b in (
    ("in", "advance"), ("in", "charge"), ("in", "place"), ("in", "full"), ("in", "person"), ("in", "writing"),
    ("in", "force"), ("on", "behalf"), ("in", "touch"), ("in", "mind"), ("in", "turn"), ("in", "case"),
    ("in", "principle"), ("in", "practice"),
))


_PRONOUNS = frozenset("me it them him her us you my your our their his its this that".split())


def _has_digit(word: str) -> bool:
    return any(ch.isdigit() for ch in word)


# --------------------------------------------------------------------------- synonyms

def _phrase_key(phrase: str) -> str:
    return "_".join(stem(w) for w in words(phrase))


_PHRASE_KEYS = {" ".join(stem(w) for w in words(p)): _phrase_key(p) for p in PHRASES}


def _build_groups() -> dict[str, frozenset[str]]:
    by_key: dict[str, set[str]] = {}
    for group in SYNONYM_GROUPS:
        keys = {_phrase_key(member) for member in group}
        for key in keys:
            by_key.setdefault(key, set()).update(keys)
    return {key: frozenset(members) for key, members in by_key.items()}


_GROUPS = _build_groups()


def _build_siblings() -> dict[str, frozenset[str]]:
    from .lexicon import HUB_GROUPS

    out: dict[str, set[str]] = {}
    for _, kinds in HUB_GROUPS:
        keys = {_phrase_key(kind) for kind in kinds}
        for key in keys:
            out.setdefault(key, set()).update(keys - {key})
    return {key: frozenset(v) for key, v in out.items()}


_SIBLINGS = _build_siblings()


def _build_hubs() -> dict[str, frozenset[str]]:
    from .lexicon import HUB_GROUPS

    out: dict[str, set[str]] = {}
    for hubs, kinds in HUB_GROUPS:
        for kind in kinds:
            out.setdefault(_phrase_key(kind), set()).update(_phrase_key(h) for h in hubs)
    return {key: frozenset(v) for key, v in out.items()}


_HUBS = _build_hubs()


def _build_taken_by() -> dict[str, tuple[frozenset[str], ...]]:
    from .lexicon import TAKEN_BY

    return {stem(kind): tuple(frozenset(stem(w) for w in words(who)) for who in people) for kind, people in TAKEN_BY.items()}


_TAKEN_BY = _build_taken_by()


def taken_by(term_stem: str) -> tuple[frozenset[str], ...]:
    """The people a kind of leave is taken by, each as the stems of its words ("patern": {partner},
    {second, parent}, ...), read one way: from the kind to the people."""
    return _TAKEN_BY.get(term_stem, ())


def taken_by_another(term_stem: str, stems: set[str]) -> bool:
    """Whether the words name only who takes another kind of the leave ("A birth parent is
    entitled to 26 weeks" for "paternity"), not who takes this one."""
    own = taken_by(term_stem)
    if not own or any(person <= stems for person in own):
        return False
    return any(person <= stems for kind in _TAKEN_BY if kind != term_stem for person in _TAKEN_BY[kind])


def hubs_of(term_stem: str) -> frozenset[str]:
    """The general words the lexicon lists this one as a kind of ("paternity": parental)."""
    return _HUBS.get(term_stem, frozenset())


def kinds_beside(term_stem: str) -> frozenset[str]:
    """The other kinds of the general words the lexicon lists this one as a kind of ("saturday":
    sunday; "diploma": degree, certificate)."""
    return _SIBLINGS.get(term_stem, frozenset())


def equivalents(term_stem: str) -> frozenset[str]:
    """The stem itself and the stems (or phrase keys) the lexicon lists as saying the same."""
    return _GROUPS.get(term_stem, frozenset()) | {term_stem}


def question_phrases(text: str) -> list[str]:
    """Lexicon phrases the text contains, as phrase keys ("roll over" -> 'roll_over')."""
    return sorted(k for k in stems_of(text) if "_" in k)


# --------------------------------------------------------------------------- identifiers

# Codes and labels with a digit: B14, L4, EX-101, HL-HR-03, 4.2, 3(b); amounts and dates are
# matched through their digits.
_CODE = re.compile(r"\b[A-Za-z]{0,6}[-/]?\d+(?:[-/.]\d+)*[A-Za-z]?\b")
_SECTION = re.compile(r"\b(?:section|clause|paragraph|para|sec\.?|§|part|article)\s*(\d+(?:\.\d+)*)", re.IGNORECASE)


def identifiers(text: str) -> list[str]:
    """Tokens that name something exactly (they contain a digit): "B14", "EX-101", "4.2",
    "1,800" (thousands separators removed), in order, each once, upper-cased."""
    out: dict[str, None] = {}
    for match in _CODE.finditer(text.replace(",", "")):
        token = match.group(0).strip(".-/").upper()
        if token and any(ch.isdigit() for ch in token):
            out[token] = None
    return list(out)


_CODE_KEY = re.compile(r"([A-Za-z]{1,5})[\s-]?0*(\d{1,4})")


def code_key(text: str) -> tuple[str, int] | None:
    """(prefix, number) of a code however it is written: "NC-06", "nc6" and "NC 6" are
    ("nc", 6); None for anything else."""
    m = _CODE_KEY.fullmatch(text.strip())
    return (m.group(1).lower(), int(m.group(2))) if m else None


def code_keys_in(text: str, *, min_prefix: int = 1) -> set[tuple[str, int]]:
    """The keys of the codes a text writes ("time logged under nc6": {("nc", 6)})."""
    return {(m.group(1).lower(), int(m.group(2))) for m in re.finditer(rf"\b{_CODE_KEY.pattern}\b", text)
            if len(m.group(1)) >= min_prefix}


def code_variants(identifier: str) -> list[str]:
    """The ways a policy may write a code the question writes another way: "NC6" as "NC-06",
    "NC-6", "NC06"; "EX101" as "EX-101". The code as written first."""
    key = code_key(identifier)
    if key is None:
        return [identifier]
    prefix, number = key[0].upper(), str(key[1])
    padded = number.zfill(2)
    out = [identifier, f"{prefix}-{number}", f"{prefix}-{padded}", f"{prefix}{padded}", f"{prefix}{number}", f"{prefix} {number}"]
    return list(dict.fromkeys(out))


def numbers(text: str) -> list[float]:
    """Numbers the text states, in digits or words ("4 years", "eleven", "two and a half")."""
    found: list[float] = []
    for match in re.finditer(r"\d+(?:[.,]\d+)*|[a-z]+", text.lower()):
        token = match.group(0)
        if token[0].isdigit():
            try:
                found.append(float(token.replace(",", "")))
            except ValueError:
                continue
        elif token in NUMBER_WORDS and token not in ("a", "an", "half"):
            found.append(float(NUMBER_WORDS[token]))
    return found


def section_numbers(text: str) -> list[str]:
    """Section numbers referred to ("section 4.2", "clause 3", "see 5.3")."""
    out = [m.group(1) for m in _SECTION.finditer(text)]
    out += [m.group(1) for m in re.finditer(r"\bsee\s+(\d+\.\d+(?:\.\d+)*)", text, re.IGNORECASE)]
    out += [m.group(1) for m in re.finditer(r"\b(?:in|under|of)\s+(\d+\.\d+(?:\.\d+)*)\b", text, re.IGNORECASE)]
    return list(dict.fromkeys(out))


def _build_group_words() -> dict[str, frozenset[str]]:
    by_key: dict[str, set[str]] = {}
    for group in SYNONYM_GROUPS:
        for member in group:
            by_key.setdefault(_phrase_key(member), set()).update(group)
    return {key: frozenset(members) for key, members in by_key.items()}


_GROUP_WORDS = _build_group_words()


def equivalent_words(word: str) -> list[str]:
    """The word and the lexicon's members of its groups, as written (for a full-text look-up)."""
    return sorted({word} | set(_GROUP_WORDS.get(stem(word), ())))


def lexicon_group(word: str) -> frozenset[str]:
    """The lexicon's members of the groups the word is itself a member of, as written ("hourly":
    "per hour", "an hour" ...; "hours" is in no group, though it shares the stem)."""
    members = _GROUP_WORDS.get(stem(word), frozenset())
    return members if word.lower() in members else frozenset()


def can_name_a_thing(word: str) -> bool:
    """Whether a word can be a noun (or is unknown to the English lexicon: a name or jargon).
    A question's verbs, adjectives and adverbs ("arrives", "biggest", "quickly") phrase it;
    only a noun can name a topic that the policies lack."""
    read = readings(word.lower())
    return not read or "NOUN" in read or "PROPN" in read


# --------------------------------------------------------------------------- polarity

_NEGATIONS = frozenset({"not", "never", "no", "without"})
_NEGATING_PAIRS = frozenset({("instead", "of"), ("rather", "than")})
# words between a negation and what it denies ("is not yet assigned", "has not been used")
_NEGATION_GAP = frozenset("be been being is are was were yet ever any a an the to currently formally officially "
                          "have has had do does did get got".split())


@lru_cache(maxsize=20_000)
def polarity(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(stems the text denies, stems it states): in "a car that is not assigned to a named
    employee" 'assign' is denied; in "a car allocated to one named employee" 'alloc' is stated.
    A negation denies the first content word after it (and what a verb in -ing after it takes:
    "without seeking competing quotes"); a stem written both ways is in both."""
    tokens = words(text)
    denied_at: set[int] = set()
    for i, token in enumerate(tokens):
        # "instead of a hotel", "rather than the train" deny what follows as "not" does
        if token in _NEGATIONS or (i > 0 and (tokens[i - 1], token) in _NEGATING_PAIRS):
            for j in range(i + 1, min(i + 4, len(tokens))):
                if tokens[j] not in _NEGATION_GAP:
                    denied_at.add(j)
                    # "without seeking competing quotes": a verb in -ing denies its object too
                    while tokens[j].endswith("ing") and j + 1 < len(tokens) and tokens[j + 1] not in STOP_WORDS:
                        j += 1
                        denied_at.add(j)
                    # "has not been used to sign in": the verb after "to" is denied with it
                    if j + 2 < len(tokens) and tokens[j + 1] == "to" and tokens[j + 2] not in STOP_WORDS:
                        denied_at.add(j + 2)
                    # "hasn't been signed off as competent": what the verb would make the asker
                    k = j + 1 + (j + 1 < len(tokens) and tokens[j + 1] in ("off", "up", "out"))
                    if k + 1 < len(tokens) and tokens[k] == "as":
                        k += 1 + (k + 2 < len(tokens) and tokens[k + 1] in ("a", "an", "the"))
                        if tokens[k] not in STOP_WORDS:
                            denied_at.add(k)
                    break
    denied = {stem(tokens[i]) for i in denied_at}
    stated = {stem(t) for i, t in enumerate(tokens)
              if i not in denied_at and t not in STOP_WORDS and t not in _NEGATIONS and t not in _NEGATION_GAP}
    return frozenset(denied), frozenset(stated)


def contradicts(question: str, description: str) -> bool:
    """Whether the description says the opposite of the question about a word they share: the
    question denies what the description only states ("a car that isn't allocated to anybody"
    against "a car allocated to one named employee"), or states what the description only
    denies. Synonyms count as the word."""
    q_denied, q_stated = polarity(question)
    d_denied, d_stated = polarity(description)

    def holds(stems: frozenset[str], s: str) -> bool:
        return bool(equivalents(s) & stems)

    if any(holds(d_stated, s) and not holds(d_denied, s) for s in q_denied):
        return True
    return any(holds(d_denied, s) and not holds(d_stated, s) for s in q_stated - q_denied)


def agreements(question: str, text: str) -> int:
    """How many of the words the question denies the text denies too ("a login I haven't used"
    and "an account that has not been used for 45 days"); synonyms count as the word."""
    q_denied, _ = polarity(question)
    t_denied, _ = polarity(text)
    return sum(1 for s in q_denied if equivalents(s) & t_denied)
