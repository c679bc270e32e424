"""Does the evidence answer the question? Three honest outcomes, decided from the words.

A question is split into its asks ("Can I carry leave over, and is it paid out?" has two). An
ask is *carried* by a unit of evidence (a chunk with its breadcrumb, or a definition together
with the rule that uses it) when the unit holds its key terms: the same stem, a synonym from the
lexicon, or a word whose vector is close (``WORD_SYNONYM_MIN``). A key term that no evidence
carries and that the visible policies never mention is *unmentioned*: the question asks about
something the policies do not have ("paternity", "gym", "visa").

- answered: every ask is carried (one unit holds two thirds of its key terms, or half of them
  when none of the rest is unmentioned);
- partly: some asks are carried and others are not, or an ask is more than half carried and
  the rest are unmentioned; the answer names what the sources do not mention;
- not covered: no ask is carried.

No similarity score between the question and a chunk takes part: nearness of the whole question
says "same topic", not "answers it".
"""
from __future__ import annotations

import re
from functools import lru_cache
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from .evidence import ANSWERED, NOT_COVERED, PARTLY, Outcome
from .lexicon import NOT_BY_VECTORS
from .places import country_words, places_in, uk_nation, wider_names
from .terms import (
    GENERIC_WORDS,
    readings,
    STOP_STEMS,
    STOP_WORDS,
    Term,
    can_name_a_thing,
    equivalents,
    hubs_of,
    key_terms,
    kinds_beside,
    polarity,
    section_numbers,
    stem,
    stems_of,
    taken_by,
    taken_by_another,
    words,
)

# Two single words whose MiniLM vectors are at least this close are read as synonyms. Measured
# on word pairs, not on questions: vacation/holiday 0.64, laptop/computer 0.71, hotel/
# accommodation 0.70, phone/mobile 0.70; against paternity/maternity 0.40, visa/travel 0.36,
# gym/membership 0.30, roll/carry 0.37.
WORD_SYNONYM_MIN = 0.6
CONTEXT_WEIGHT = 0.5  # weight of a scene-setting term against a term of the question itself
ANSWERED_SHARE = 2 / 3  # an ask is answered when one unit holds this share of its key terms

Related = Callable[[str, Iterable[str]], float]  # max cosine of a word to any of the words


@dataclass
class Ask:
    text: str
    terms: list[Term]
    carried: set[str] = field(default_factory=set)  # stems carried by the best unit
    unmentioned: list[Term] = field(default_factory=list)
    best_unit: int | None = None

    context: set[str] = field(default_factory=set)  # stems of terms that only set the scene
    focus_missing: list[Term] = field(default_factory=list)  # nouns of the ask itself the unit lacks
    partners: set[str] = field(default_factory=set)  # nouns written with an unmentioned one ("board pack")
    value_missing: str = ""  # the kind of value asked for that the unit does not give ("how often")
    comparatives: set[str] = field(default_factory=set)  # stems of comparatives before a noun ("lighter")
    value_unit: int | None = None  # another unit that gives the asked kind of value the best one lacks
    # stems of the words that tell the asker's case before the ask itself ("There's a box that weighs
    # about 30kg, ...", "Year 10 theatre trip, ..."), when a table row the question names exactly
    # answers: the row pins the case, and what the policies do not name of it is the asker's story
    pinned_scene: set[str] = field(default_factory=set)

    @property
    def share(self) -> float:
        """Carried share of the key terms; a term of a scene-setting sentence before the
        question ("A contractor finished their project today.") weighs half."""
        return self._share(self.terms)

    def _share(self, terms: list[Term]) -> float:
        if not terms:
            return 0.0  # a question with no word to look for ("?") is answered by nothing
        weight = {t.stem: CONTEXT_WEIGHT if t.stem in self.context else 1.0 for t in terms}
        total = sum(weight.values())
        return sum(weight[s] for s in self.carried if s in weight) / total

    @property
    def covered(self) -> bool:
        """One unit holds at least two thirds of the key terms, every noun the ask itself names
        among them ("parking" in "Does the company pay for parking at the office?": a unit
        about paying at the office without it is the topic, not the answer), and no term is
        one the policies never use. Where a named row pins the case, the words that only tell
        the case are left out of the count (`pinned_scene`)."""
        terms = [t for t in self.terms if t.stem not in self._story]
        return (bool(terms) and self._share(terms) >= ANSWERED_SHARE and not self.unmentioned_asked
                and not [t for t in self.focus_missing if t.stem not in self._story] and not self.value_missing)

    @property
    def _story(self) -> set[str]:
        """The stems that only tell a pinned case and that no unit carries."""
        return self.pinned_scene - self.carried

    @property
    def unmentioned_asked(self) -> list[Term]:
        """The unmentioned terms, but those that only tell a pinned case (`pinned_scene`)."""
        return [t for t in self.unmentioned if t.stem not in self._story]

    @property
    def mostly(self) -> bool:
        """At least half carried by one unit: partly answered (the rest is named). So is an ask
        whose own words one unit carries when what the policies never use only sets the scene
        ("A tug almost hit a passenger bus ... I'd rather not put my name on the report - is
        that OK?": no policy speaks of buses, the reporting rule answers the ask)."""
        if self.covered:
            return False
        if self.share >= 0.5:
            return True
        if not self.unmentioned or self.focus_missing or any(t.stem not in self.context for t in self.unmentioned):
            return False
        own = [t for t in self.terms if t.stem not in self.context]
        if own:
            return self._share(own) >= ANSWERED_SHARE
        # the ask has no word of its own ("What am I supposed to do?"): the scene is the question
        rest = [t for t in self.terms if t not in self.unmentioned]
        return bool(rest) and self._share(rest) >= 0.5


@dataclass
class Decision:
    outcome: Outcome
    asks: list[Ask]
    missing: list[str]  # phrases of the question the sources do not mention
    # a unit read from several pieces of evidence (a definition with the rule that uses it): its
    # index -> the indices of its pieces
    members: dict[int, tuple[int, ...]] = field(default_factory=dict)

    @property
    def carried_units(self) -> set[int]:
        units = {a.best_unit for a in self.asks if a.best_unit is not None and (a.covered or a.mostly)}
        return units | {a.value_unit for a in self.asks if a.value_unit is not None and a.best_unit in units}

    @property
    def carried_pieces(self) -> set[int]:
        """The pieces of evidence the carrying units are made of."""
        return {piece for unit in self.carried_units for piece in self.members.get(unit, (unit,))}


# a sentence ends at ?, !, ; or a full stop before a space or the end: not at the point of "3.3"
# or "1.5 m" (nor at a stop inside a word: "e.g")
_SENTENCE = re.compile(r"(?:[^?.!;]|\.(?!\s|$))+(?:[?!;]+|\.(?=\s|$)|$)")
_CLAUSE_SPLIT = re.compile(
    r"\b(?:and also|as well as)\b|,?\s*\balso\b(?=\s+(?:what|how|when|can|could|do|does|is|are|will|who|where|which|should|must)\b)"
    r"|\band\b(?=\s+(?:what|how|when|can|could|do|does|is|are|will|who|where|which|should|must)\b)",
    re.IGNORECASE,
)


def clauses(question: str) -> list[str]:
    """Every sentence and question clause on its own, context included as its own piece."""
    out = []
    for m in _SENTENCE.finditer(question):
        out += [c.strip(" ,?.") for c in _CLAUSE_SPLIT.split(m.group(0)) if c and c.strip(" ,?.")]
    return out or [question]


def split_asks(question: str) -> list[str]:
    """The question's separate asks. A statement before a question is its context and joins it
    ("I'm on the UK payroll. What is my hotel cap in Paris?" is one ask); a question sentence
    splits at "and how ...", "and can ...". A piece without a key term of its own joins the one
    before."""
    return [f"{context} {ask}".strip() for context, ask in asks_with_context(question)]


# the words a question opens with ("how", "can", "is"), and those that open a further ask of it
_OPENERS = (r"how|what|what's|whats|when|where|which|who|whom|whose|why|can|could|do|does|did|is|are|am|was|"
            r"were|will|would|should|shall|may|might|must|have|has|had|any")
_ASKS = re.compile(rf"^\W*(?:{_OPENERS}|tell me|please|and|or|also|plus)\b", re.IGNORECASE)


def asks_with_context(question: str) -> list[tuple[str, str]]:
    """(context, ask) pairs: see `split_asks`."""
    sentences = [m.group(0).strip() for m in _SENTENCE.finditer(question) if m.group(0).strip(" .?!;,")]
    asks: list[list[str]] = []
    context = ""
    for index, sentence in enumerate(sentences):
        # the last sentence is the ask, unless a question came before it and it only adds to the
        # scene ("What's the meal cap for a day trip? I'll be out about 7 hours.")
        is_question = sentence.endswith("?") or (index == len(sentences) - 1 and (not asks or _ASKS.match(sentence)))
        if not is_question:
            context = f"{context} {sentence}".strip()
            continue
        clauses = [c.strip(" ,?") for c in _CLAUSE_SPLIT.split(sentence) if c and c.strip(" ,?")]
        for n, clause in enumerate(clauses):
            if asks and not [t for t in key_terms(clause) if not t.generic]:
                asks[-1][1] += " " + clause
            else:
                asks.append([context if n == 0 else "", clause])
        context = ""
    if context:
        if asks:
            asks[-1][0] = f"{asks[-1][0]} {context}".strip()  # a statement after the question sets its scene
        else:
            asks.append(["", context])
    return [(c, a) for c, a in asks] or [("", question)]


def question_terms(text: str) -> list[Term]:
    """The terms an ask must find carried: its non-generic key terms (all key terms when every
    one is generic, so "What is the policy?" still needs evidence with its words)."""
    terms = key_terms(text)
    specific = [t for t in terms if not t.generic]
    return specific or terms


def unit_stems(texts: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for text in texts:
        out |= stems_of(text)
    return out


def _carries(term: Term, stems: set[str]) -> bool:
    # a word of a lexicon phrase is carried as the phrase: "annual leave" by "vacation" or
    # "earned leave", not by "years" (a synonym of "annual" alone) and "maternity leave" (where
    # "leave", a synonym of the phrase, carries only the word "leave")
    candidates = set(equivalents(term.stem))
    if term.phrases:
        own_words = {part for phrase in term.phrases for part in phrase.split("_")} - {term.stem}
        if _modifier_in_phrase(term):
            candidates = {e for e in candidates if "_" in e or e == term.stem}
        for phrase in term.phrases:
            candidates |= equivalents(phrase) - own_words
        if own_words and all(p in _STOP_STEMS or p in _GENERIC_PHRASE_STEMS for p in own_words) \
                and any(p in _GENERIC_PHRASE_STEMS and p not in _STOP_STEMS for p in own_words):
            # the phrase's other words say nothing of their own ("work from home"): the phrase or
            # its synonyms carry it, not the bare word ("Home Base" is no working from home)
            candidates = {e for phrase in term.phrases for e in equivalents(phrase)} - {term.stem}
    # a unit that names other kinds of the general word beside it, not the asked one, speaks of
    # those kinds: "maternity, adoption or shared parental leave" does not carry "paternity"
    siblings = kinds_beside(term.stem)
    if term.stem not in stems and siblings & stems:
        candidates -= hubs_of(term.stem)
    # and so does one naming only who takes another kind: "A birth parent is entitled to 26 weeks of
    # parental leave" does not carry "paternity"; one naming who takes it with the general word does
    # ("Parental leave (partner) ... Per birth, adoption or surrogacy")
    if term.stem not in stems and taken_by_another(term.stem, stems):
        candidates -= hubs_of(term.stem)
    elif term.stem not in stems and hubs_of(term.stem) & stems and any(p <= stems for p in taken_by(term.stem)):
        return True
    for e in candidates:
        if e in stems:
            return True
        if "_" in e and all(part in stems and part not in _STOP_STEMS for part in e.split("_")):
            # the words of a phrase apart ("card" ... "payment" for "payment card"), but not a
            # phrase of a stop word ("a year": any "year")
            return True
    return _carries_place(term.word, stems)


_GENERIC_PHRASE_STEMS = frozenset(stem(w) for w in GENERIC_WORDS)

# stop words, and the prepositions of measure ("per year": not any "per" and "year" apart)
_STOP_STEMS = STOP_STEMS | {stem(w) for w in ("per", "each", "every")}


def _modifier_in_phrase(term: Term) -> bool:
    """Whether the term opens one of its phrases ("annual" of "annual leave"): its own synonyms
    then say something else ("annual" alone is "yearly")."""
    return any(phrase.split("_")[0] == term.stem for phrase in term.phrases)


def _carries_place(word: str, stems: set[str]) -> bool:
    """A place is carried by a unit naming its country or region ("Lyon": France, Europe), or
    speaking of being away from the countries it names ("Spain" and "working from outside the
    United Kingdom and the Republic of Ireland is limited to 20 days"; "abroad", "overseas")."""
    names, away = wider_names(word)
    if not names:
        return False
    if {stem(n) for n in names} & stems:
        return True
    away_stems = {stem(a) for a in away}
    if not away_stems & stems:
        return False
    if stem("outside") in stems and not (away_stems - {stem("outside")}) & stems:
        # "outside" alone is any place ("outside working hours") unless the unit names a country
        return bool({stem(c) for c in country_words()} & stems)
    return True


def carried_by(terms: list[Term], stems: set[str]) -> set[str]:
    """The stems of the terms that a unit with these stems carries."""
    return {t.stem for t in terms if _carries(t, stems)}


def terms_to_look_up(question: str, unit_texts: list[list[str]]) -> list[Term]:
    """Key terms of the question that no unit carries: the ones whose presence in the corpus
    decides between "unmentioned" and "not found here"."""
    units = [unit_stems(texts) for texts in unit_texts]
    out = []
    for term in question_terms(question):
        if not any(_carries(term, stems) for stems in units):
            out.append(term)
    return out


def decide(
    question: str, unit_texts: list[list[str]], *, corpus_mentions: Mapping[str, bool] | None = None,
    related: Related | None = None, carried_anyway: set[str] | None = None, rows_text: str = "",
    pinned: bool = False,
) -> Decision:
    """Decide the outcome.

    unit_texts: for each unit of evidence, its texts (chunk text, breadcrumb).
    corpus_mentions: stem -> whether any visible chunk holds the stem or an equivalent; a
        stem missing from the mapping counts as mentioned (no claim of absence without a look).
    related: word-vector nearness, for synonyms beyond the lexicon.
    carried_anyway: stems carried outside the units (a matched table row's label and column).
    rows_text: the sentences of the matched table rows (they give the values asked for).
    pinned: a matched row is named exactly (by a code, a number in its range): words before the
        ask that the policies do not have tell the asker's case, they do not ask for more.
    """
    units = _Units(unit_texts, related)
    scene = _Scene(question, corpus_mentions or {}, carried_anyway or set(), rows_text, pinned)
    asks = [_decide_ask(context, clause, units, scene) for context, clause in asks_with_context(question)]
    covered = [a for a in asks if a.covered]
    mostly = [a for a in asks if not a.covered and a.mostly]
    if len(covered) == len(asks):
        outcome: Outcome = ANSWERED
    elif covered or mostly:
        outcome = PARTLY
    else:
        outcome = NOT_COVERED
    return Decision(outcome, asks, _missing(asks))


class _Units:
    """The units of evidence as the decision reads them: stems, content words, word sequences."""

    def __init__(self, texts: list[list[str]], related: Related | None) -> None:
        self.texts = texts
        self.stems = [unit_stems(t) for t in texts]
        # content words only: the vector check compares a question word with words that can name something
        self.words = [{w for text in t for w in words(text)
                       if w not in STOP_WORDS and w not in GENERIC_WORDS and w not in NOT_BY_VECTORS} for t in texts]
        self.every_word = set().union(*self.words) if self.words else set()
        self.related = related
        self._cache: dict = {}
        self._sequences: list[list[list[str]]] | None = None

    def sequences(self, index: int) -> list[list[str]]:
        if self._sequences is None:
            self._sequences = [[[stem(w) for w in words(t)] for t in texts] for texts in self.texts]
        return self._sequences[index]

    def near_in_vectors(self, word: str, others: set[str]) -> bool:
        """Whether a word's vector is close to one of the others' (cached)."""
        if self.related is None:
            return False
        key = (word, id(others))
        if key not in self._cache:
            self._cache[key] = bool(others) and self.related(word, others) >= WORD_SYNONYM_MIN
        return self._cache[key]


@dataclass
class _Scene:
    question: str
    corpus_mentions: Mapping[str, bool]
    extra: set[str]  # carried outside the units
    rows_text: str = ""  # the matched rows' sentences
    pinned: bool = False  # a table row the question names exactly (a code, a number in a range) answers

    def __post_init__(self) -> None:
        self.place_stems = {stem(w) for p in places_in(self.question) for w in words(p.written)}


def _decide_ask(context: str, clause: str, units: _Units, scene: _Scene) -> Ask:
    text = f"{context} {clause}".strip()
    ask = Ask(text, question_terms(text))
    own = {t.stem for t in question_terms(clause)}
    # a place sets the scene as a scene-setting sentence does: "from Billund to Hamburg" carried
    # by a rule about Billund and Hamburg does not make it the answer to a relocation question
    # (a place a named row holds is what the look-up asked for)
    ask.context = {t.stem for t in ask.terms
                   if t.stem not in own or (t.stem in scene.place_stems and t.stem not in scene.extra)}
    # what the asker wants it for ("... onto my own iPad so I can read it on the train") sets the
    # scene: the ask is whether they may do the thing
    purpose = purpose_of(clause)
    if purpose:
        before = stems_of(clause[: len(clause) - len(purpose)])
        ask.context |= {t.stem for t in ask.terms if t.stem in stems_of(purpose) and t.stem not in before}
    # "a lighter workload", "a fancier chair than the limit": the comparative asks which way the
    # thing differs; it weighs as little as the scene and is never a thing the policies lack
    ask.comparatives = {stem(w) for w in comparative_modifiers(words(text))}
    ask.context |= ask.comparatives
    best = _best_unit(ask, clause, units, scene.extra)
    ask.best_unit = best if best is not None else (0 if units.stems and not ask.terms else None)
    ask.context -= ask.comparatives & ask.carried  # a comparative the unit writes weighs in full
    ask.unmentioned = _unmentioned(ask, units, scene)
    if not ask.covered and best is not None:
        # a synonym in the unit that carries the ask (word vectors: only when it decides)
        for term in ask.terms:
            if term.stem not in ask.carried and term not in ask.unmentioned and units.near_in_vectors(term.word, units.words[best]):
                ask.carried.add(term.stem)
    ask.partners = _compound_partners(ask.text, ask.unmentioned)
    ask.carried -= ask.partners
    _what_the_unit_lacks(ask, best, clause, own, units, scene)
    if scene.pinned:
        told = stems_of(f"{context} {lead_in(clause)}")
        ask.pinned_scene = {t.stem for t in ask.terms if t.stem in told} - own_asked(clause)
    return ask


_ASK_OPENER = rf"(?:{_OPENERS})\b"
# "There's a box that weighs about 30kg, can I ...", "racking upright has amber damage - what ...",
# "if I get back to the depot after 8pm what can I claim ..."
_LEAD_IN = re.compile(rf"^(.{{3,}}?)(?:\s*,|\s+[-–—]+)\s+(?={_ASK_OPENER})", re.IGNORECASE)
_LEAD_CONDITION = re.compile(rf"^((?:if|when|once|after|while|whilst)\b.{{3,}}?)\s+(?=(?:how|what|what's|which|who|when|where)\b)",
                             re.IGNORECASE)


_PURPOSE = re.compile(r"\b(?:so\s+(?:that\s+)?(?:i|we|you|he|she|they|it)\s+(?:can|could|may|might|will|would)|in\s+order\s+to)\b(.*)$",
                      re.IGNORECASE)


def purpose_of(clause: str) -> str:
    """What the clause says the asker wants a thing for: the words after "so I can", "so that
    we could", "in order to" ("" when it says none)."""
    m = _PURPOSE.search(clause)
    return m.group(0) if m else ""


def lead_in(clause: str) -> str:
    """What a question sentence tells before it asks: the words before ", can I ..." or " - what
    ...", or a leading "if ..." clause before its question word; "" when it opens with the ask."""
    m = _LEAD_IN.match(clause) or _LEAD_CONDITION.match(clause)
    return m.group(1) if m else ""


def own_asked(clause: str) -> set[str]:
    """Stems of the ask itself: the clause after its lead-in."""
    lead = lead_in(clause)
    return stems_of(clause[len(lead):]) if lead else stems_of(clause)


def _best_unit(ask: Ask, clause: str, units: _Units, extra: set[str]) -> int | None:
    """The unit carrying the most of the ask's terms (scene-setting terms weigh half); a noun
    compound counts only where its words stand together. Sets ask.carried."""
    weight = {t.stem: CONTEXT_WEIGHT if t.stem in ask.context else 1.0 for t in ask.terms}
    adjectives = adjective_phrases(clause, ask.terms)
    pairs = noun_compounds(clause) + adjectives
    # "How long can it stay open?" is answered by "set to expire ... after 180 days": the verb of
    # lasting is what the duration measures, so a unit giving a duration carries it
    lasting = _lasting_words(clause)
    best, best_carried = None, set()
    for index, stems in enumerate(units.stems):
        carried = {t.stem for t in ask.terms if t.stem in extra or _carries(t, stems)}
        if lasting and not missing_value(clause, " ".join(units.texts[index])):
            carried |= {t.stem for t in ask.terms if t.stem in lasting}
        if pairs:
            carried -= loose_modifiers(pairs, carried, units.sequences(index), units.texts[index]) - extra
        # (the adjective of a phrase without its noun says nothing of it: "gone sick" is no sick pay)
        carried -= {a for a, head in adjectives if head not in carried} - extra
        carried -= owned_otherwise(ask.text, [t for t in ask.terms if t.stem in carried], units.sequences(index)) - extra
        gained = sum(weight[c] for c in carried) - sum(weight[c] for c in best_carried)
        if gained > 0 or (gained == 0 and carried and best is not None and (
                _gives_value_over(clause, units, index, best) or _condition_met_over(ask.text, units, index, best))):
            best, best_carried = index, carried
    ask.carried = best_carried
    return best


# who a thing belongs to, written before it: the employer's ("a company car", "the firm's phone",
# "a pool car") or the employee's ("my own car", "a private vehicle", "personal devices")
_EMPLOYER_SIDE = frozenset(stem(w) for w in ("company", "work", "firm", "corporate", "employer", "fleet", "pool"))
_PERSONAL_SIDE = frozenset(stem(w) for w in ("own", "private", "personal", "privately"))


def _owner_before(tokens: list[str], i: int) -> str:
    """'employer', 'personal' or '' for the word at i, from the two words before it (the
    employer's word wins: "company-owned car" is the company's)."""
    window = set(tokens[max(i - 2, 0): i])
    if window & _EMPLOYER_SIDE:
        return "employer"
    return "personal" if window & _PERSONAL_SIDE else ""


def owners_written(text: str) -> set[str]:
    """The owners the text writes things as: {"personal"} for "my own iPhone", {"employer"} for
    "a company laptop", both or none."""
    tokens = [stem(w) for w in words(text)]
    return {_owner_before(tokens, i) for i in range(1, len(tokens) + 1)} - {""}


def owned_things(text: str) -> dict[str, str]:
    """word -> owner ('personal' or 'employer') of each thing the text writes as someone's:
    "my own iPad" gives {"ipad": "personal"}, "a company laptop" {"laptop": "employer"}."""
    tokens = words(text)
    stems = [stem(w) for w in tokens]
    out: dict[str, str] = {}
    for i, word in enumerate(tokens):
        if i == 0 or word in STOP_WORDS or stems[i] in _EMPLOYER_SIDE | _PERSONAL_SIDE:
            continue
        owner = _owner_before(stems, i)
        if owner and can_name_a_thing(word):
            out[word] = owner
    return out


def owner_of_term(term: str) -> str:
    """'employer' for a term led by the employer's word ("Company Device"), 'personal' for one led
    by the employee's ("Personal Device"), '' otherwise."""
    tokens = [stem(w) for w in words(term)]
    return _owner_before(tokens, 1) if tokens else ""


def owned_otherwise(question: str, terms: list[Term], sequences: list[list[str]]) -> set[str]:
    """The terms the question writes as one owner's thing ("a company car") that a unit writes
    only as the other owner's ("employees driving in their own car"): the unit speaks of another
    thing. A unit writing the word without an owner, or as the question does, carries it."""
    asked = [stem(w) for w in words(question)]
    out = set()
    for term in terms:
        sides = {_owner_before(asked, i) for i, s in enumerate(asked) if s == term.stem} - {""}
        if len(sides) != 1:
            continue
        side = sides.pop()
        found = {_owner_before(tokens, i) for tokens in sequences for i, s in enumerate(tokens) if s == term.stem}
        if found and found == {"personal" if side == "employer" else "employer"}:
            out.add(term.stem)
    return out


# the condition a rule is written under: "If an employee falls ill during annual leave, ..."
_CONDITION = re.compile(r"\s*(?:if|during|while|whilst|where)\s+([^,.;:]+)", re.IGNORECASE)  # read with .match


@lru_cache(maxsize=4096)
def unmet_condition(question: str, text: str) -> bool:
    """Whether the rule's text opens with a condition the question does not state: most content
    words of its leading "if", "during", "while" or "where" clause (two at least) say nothing the
    question says or an equivalent of it ("If an employee falls ill during annual leave, ..." for
    someone off sick). A condition later in the text ("if the second call is not received")
    qualifies the rule, it does not scope it."""
    match = _CONDITION.match(text)
    if match is None:
        return False
    asked = set().union(*(equivalents(s) for s in stems_of(question)))
    content = {stem(w) for w in words(match.group(1)) if w not in STOP_WORDS and w not in GENERIC_WORDS} - STOP_STEMS
    unmatched = {s for s in content if not (equivalents(s) & asked)}
    return len(unmatched) >= 2 and 2 * len(unmatched) > len(content)


def _condition_met_over(question: str, units: _Units, index: int, best: int) -> bool:
    """Between two units carrying the ask alike, whether the earlier one's rule is written under a
    condition the question does not state and the later one's is not."""
    return unmet_condition(question, units.texts[best][0]) and not unmet_condition(question, units.texts[index][0])


def _gives_value_over(clause: str, units: _Units, index: int, best: int) -> bool:
    """Between two units carrying the ask alike, whether the later one gives the kind of value
    the clause asks for ("how long": a duration) and the earlier one does not: a glossary naming
    the asker's case beside a definition paired with the rule that gives the duration."""
    return bool(missing_value(clause, " ".join(units.texts[best]))) and not missing_value(clause, " ".join(units.texts[index]))


def _unmentioned(ask: Ask, units: _Units, scene: _Scene) -> list[Term]:
    """The ask's nouns that no unit carries and the visible policies never use (a close word
    vector in the evidence carries one instead). What the scene denies of the asker ("we aren't
    married") is not a topic the question needs the policies to speak of."""
    out = []
    denied = polarity(ask.text)[0] & ask.context
    for term in ask.terms:
        if term.stem in ask.carried or term.stem in scene.extra:
            continue
        if any(_carries(term, s) for s in units.stems) or scene.corpus_mentions.get(term.stem, True):
            continue
        if term.stem in denied:
            continue
        if term.stem in scene.place_stems or term.stem in ask.comparatives:
            continue  # a place sets the scene
        if not can_name_a_thing(term.word) and not _classifying_adjective(term.word, words(ask.text)):
            continue  # a verb or an adjective of quality phrases the question
        if _attributive_adjective(term.word, words(ask.text)):
            continue  # "a *quick* lunch": an adjective before the thing says what it is like, not what it is
        if units.near_in_vectors(term.word, units.every_word):
            ask.carried.add(term.stem)
            continue
        out.append(term)
    return out


def _what_the_unit_lacks(ask: Ask, best: int | None, clause: str, own: set[str], units: _Units, scene: _Scene) -> None:
    """The nouns (and the verb of a yes/no question) the ask names that its best unit does not
    carry, the kind of value it asks for when the unit gives none, and an asked place the unit
    does not name among others."""
    predicate = asked_verb(clause)
    if predicate and best is not None and _inflected_in(predicate, units.stems[best]):
        ask.carried.add(stem(predicate))  # "pay" is carried by "paid"
    ask.focus_missing = [t for t in ask.terms if t.stem in own and t.stem not in ask.carried and not t.generic
                         and t.stem not in scene.place_stems and t.stem not in ask.comparatives
                         and (names_a_thing(t.word, clause) or t.word == predicate)]
    ask.focus_missing += _kind_missing(ask, clause, own)
    if best is not None:
        best_text = " ".join(units.texts[best])
        carried_terms = [t for t in ask.terms if t.stem in ask.carried]
        own_carried = [t for t in carried_terms if t.stem not in ask.context]
        ask.value_missing = missing_value(clause, _sentences_holding(units.texts[best], carried_terms, own_carried))
        if ask.value_missing and scene.rows_text and not missing_value(clause, scene.rows_text):
            ask.value_missing = ""  # the named row gives it
        if ask.value_missing:
            ask.value_unit = _value_unit(clause, ask, best, units)
            if ask.value_unit is not None:
                ask.value_missing = ""
        if not ask.value_missing and _ASKS_FOR_A_DAY.search(clause):
            # "what date": the unit gives a date, so the word that asks for it is carried
            named = {t.stem for t in ask.terms if t.stem in _DAY_WORDS}
            ask.carried |= named
            ask.focus_missing = [t for t in ask.focus_missing if t.stem not in named]
        ask.focus_missing += _other_places_only(clause, best_text, ask.terms, ask.carried)


def _kind_missing(ask: Ask, clause: str, own: set[str]) -> list[Term]:
    """The words that say which kind of a carried thing the ask means, written just before it,
    that the unit lacks ("radioactive" of "radioactive waste" against a unit on biological
    waste): the unit speaks of another kind of the thing."""
    tokens = words(clause)
    out = []
    for term in ask.terms:
        if term.stem in ask.carried or term.stem not in own or term.generic or term in ask.focus_missing \
                or term.stem in ask.comparatives or names_a_thing(term.word, clause):
            continue
        readings = _readings(term.word)
        if "ADJ" not in readings or "ADV" in readings or "VERB" in readings:
            continue  # an adjective only: not "quickly report", not "closed permit"
        if any(w == term.word and i + 1 < len(tokens) and stem(tokens[i + 1]) in ask.carried
               and "NOUN" in _readings(tokens[i + 1]) for i, w in enumerate(tokens)):
            out.append(term)
    return out


def _value_unit(clause: str, ask: Ask, best: int, units: _Units) -> int | None:
    """Another unit that gives the kind of value asked for, in a sentence holding the ask's
    words, where the best unit gives none: one carrying every word of the ask's own that the
    best unit carries ("Can I take paternity leave, and how much?": the eligibility rule with
    "may take up to 2 weeks of paternity leave"), or the section that the best unit's sentence
    holding those words refers to ("carries forward up to a limit (see 3.3)": 3.3 gives the
    limit). Of several, the one whose
    value sentences hold most of the ask's words (a breadcrumb naming the policy carries every
    unit of it alike)."""
    own = [t for t in ask.terms if t.stem in ask.carried and t.stem not in ask.context]
    if not own:
        return None
    every = [t for t in ask.terms if t.stem in ask.carried]
    # the sections that the sentence holding the ask's words refers to
    whole = [s for s in _unit_sentences(units.texts[best]) if _holds_all(s, own)]
    referred = section_numbers(" ".join(whole))
    found, found_score = None, (0, 0)
    for index, stems in enumerate(units.stems):
        if index == best:
            continue
        if not all(_carries(t, stems) for t in own) and not _is_section(units.texts[index], referred):
            continue
        giving = [s for s in _sentence_list_holding(units.texts[index], own) if not missing_value(clause, s)]
        held = stems_of(" ".join(giving))
        score = (sum(_carries(t, held) for t in own), sum(_carries(t, held) for t in every))
        if giving and score > found_score:
            found, found_score = index, score
    return found


def _is_section(texts: list[str], numbers: list[str]) -> bool:
    """Whether the unit is one of the numbered sections (its breadcrumb ends in "3.3 ...")."""
    crumbs = [t for t in texts if " > " in t]
    return any(re.search(rf"(?:^|>)\s*{re.escape(n)}\.?\s[^>]*$", c) for c in crumbs for n in numbers)


def _missing(asks: list[Ask]) -> list[str]:
    missing = []
    for ask in asks:
        if ask.covered:
            continue
        if ask.unmentioned:
            missing.extend(missing_phrases(ask.text, ask.unmentioned))
        elif ask.mostly:  # the words the cited unit does not hold, and the kind of value it does not give
            missing.extend(missing_phrases(ask.text, [t for t in ask.terms if t.stem not in ask.carried]))
            if ask.value_missing:
                missing.append(ask.value_missing)
        elif ask.text.strip(" ?.!"):
            missing.append(ask.text.strip(" ?.!"))
    return list(dict.fromkeys(missing))


# words after which a word that can be a noun or a verb is read as a noun ("the end", "for
# parking", "what commission"); after a subject or "to" it is read as a verb ("I quit", "to pay")
_NOUN_BEFORE = frozenset("a an the for of about on in any my our your their his her its no some what which whose own "
                         "much many enough more less".split())  # "how much notice"


_readings = readings  # (the one cached reader, in terms.py)


_VERB_PREPOSITIONS = frozenset("towards toward against".split())
_SUBJECT_BEFORE = frozenset("that which who it he she this one someone".split())


def names_a_thing(word: str, text: str) -> bool:
    """Whether the word is a noun where the question writes it: a word that can only be a noun
    ("conference", "electricity"), a plural noun ("emails", "invoices"), or a word that can
    be a noun or a verb when an article, a possessive, a preposition or "what" stands before
    it ("pay for parking", "in advance", "what commission"). A word the English lexicon does
    not know is a noun unless the question capitalises it (a name sets the scene)."""
    readings = _readings(word)
    tokens = words(text)
    if _attributive_adjective(word, tokens):
        return False  # "a quick lunch": what the lunch is like
    before = [tokens[i - 1] for i, t in enumerate(tokens) if t == word and i > 0]
    if not readings:  # unknown: jargon or an acronym ("MFA") names a thing, a Title-case name sets the scene
        written = re.findall(rf"\b{re.escape(word)}\b", text, re.IGNORECASE)
        return not written or any(w.islower() or w.isupper() for w in written)
    nouns = readings.get("NOUN", ())
    if nouns and word in _asked_to_exist(tokens):
        return True  # "Is there a long service *award*?": the thing asked about
    if word.endswith("ing") and not nouns:
        return any(b in _NOUN_BEFORE for b in before)
    if not nouns:
        return False
    if "VERB" not in readings:
        return True
    if word not in nouns and word.endswith("s"):
        # a plural noun form ("emails"), not the "-s" of a verb after its subject ("the system that
        # stores") or before the preposition it takes ("my time *counts towards* the bonus")
        after = [tokens[i + 1] for i, t in enumerate(tokens[:-1]) if t == word]
        if after and all(a in _VERB_PREPOSITIONS for a in after):
            return False
        return not any(b in _SUBJECT_BEFORE for b in before)
    return any(b in _NOUN_BEFORE for b in before) or _modifies_a_noun(word, tokens) or _after_a_described_article(word, tokens)


def _after_a_described_article(word: str, tokens: list[str]) -> bool:
    """Whether the word follows an article or a possessive and an adjective ("a new uniform",
    "my old laptop"), or a determiner and a participle ("one licensed chaperone", "each signed
    form"): a noun, as after the article alone (a determiner and a participle open a noun
    phrase; "one licensed" names no one)."""
    for i, t in enumerate(tokens):
        if t == word and i >= 2 and tokens[i - 2] in _NOUN_BEFORE | _COUNTING_DETERMINERS:
            described = _readings(tokens[i - 1])
            if "ADJ" in described and "VERB" not in described and "NOUN" not in described:
                return True
            if tokens[i - 1].endswith("ed") and ("VERB" in described or "ADJ" in described):
                return True
    return False


_COUNTING_DETERMINERS = frozenset("one each every another per these those".split())


def comparative_modifiers(tokens: list[str]) -> set[str]:
    """The comparatives of adjectives written before a noun or "than" ("a *lighter* workload",
    "a *fancier* chair", "*cheaper* than"): words that can also be nouns ("lighter", "fancier")
    but say here which way a thing differs. A word that can be a verb too ("number", "better")
    is left alone."""
    out = set()
    for i, word in enumerate(tokens[:-1]):
        readings = _readings(word)
        if "VERB" in readings or not word.endswith("er"):
            continue
        if not any(word in _comparative_forms(adjective) for adjective in readings.get("ADJ", ())):
            continue
        following = tokens[i + 1]
        if following == "than" or (following not in STOP_WORDS and _readings(following).get("NOUN")):
            out.add(word)
    return out


def _comparative_forms(adjective: str) -> set[str]:
    forms = {adjective + "er", adjective + "r", adjective + adjective[-1:] + "er"}
    if adjective.endswith("y"):
        forms.add(adjective[:-1] + "ier")
    return forms - {adjective}


def _asked_to_exist(tokens: list[str]) -> set[str]:
    """The words of the thing an existence question asks about: "Is there a long service award
    after 25 years?" asks about a "long service award" (up to the first word that is not part of
    the noun phrase)."""
    for i in range(len(tokens) - 2):
        if (tokens[i], tokens[i + 1]) not in (("is", "there"), ("are", "there")):
            continue
        j = i + 2
        while j < len(tokens) and tokens[j] in ("a", "an", "any", "some", "the"):
            j += 1
        out = set()
        while j < len(tokens) and tokens[j] not in STOP_WORDS:
            out.add(tokens[j])
            j += 1
        return out
    return set()


_DETERMINERS = frozenset("a an the my our your their his her its this that these those some any another".split())


def _attributive_adjective(word: str, tokens: list[str]) -> bool:
    """A plain quality (an adjective that is also an adverb and no verb: "quick", "cold",
    "late"), written after a determiner and before a word that can be a noun ("a quick lunch",
    "a cold drink"): it says what the thing is like. A noun ("a gym membership", "a dress code")
    or a classifying adjective ("private medical insurance") stays a thing of its own."""
    readings = _readings(word)
    if "ADJ" not in readings or "ADV" not in readings or "VERB" in readings:
        return False
    for i, t in enumerate(tokens[:-1]):
        if t == word and i > 0 and tokens[i - 1] in _DETERMINERS and _readings(tokens[i + 1]).get("NOUN"):
            return True
    return False


def _classifying_adjective(word: str, tokens: list[str]) -> bool:
    """An adjective (no adverb, verb or noun) written before a generic noun ("*broadband* costs",
    "a *vegan* allowance"): with a head that names nothing, the adjective says what the thing is,
    so, like a noun, it names a topic the policies may lack. Before a noun of substance it says
    what the thing is like ("*unused* holiday", "a *proper* inspection")."""
    readings = _readings(word)
    if "ADJ" not in readings or readings.keys() - {"ADJ"}:
        return False
    return any(t == word and i + 1 < len(tokens) and tokens[i + 1] in _GENERIC_THINGS for i, t in enumerate(tokens))


# the generic nouns of things an adjective can say the kind of (not a time: "mid-week", "a full
# day" say when; not people: "temporary staff" are staff the policies may call otherwise)
_GENERIC_THINGS = frozenset("amount cost costs money rate rates limit limits job role work option options kind type types "
                            "sort policy policies rule rules procedure process guidance guidelines".split())


def _modifies_a_noun(word: str, tokens: list[str]) -> bool:
    """A word that can be a noun, written before a word that can only be a noun ("international
    *school* fees", "a *gym* membership") and not after a subject, "to" or an auxiliary (where it
    is a verb: "we pay fees", "to school children"): the modifier of a noun compound."""
    for i, t in enumerate(tokens[:-1]):
        before = tokens[i - 1] if i > 0 else ""
        if t != word or before in _SUBJECT_BEFORE or before in _SUBJECTS or before in _AUXILIARIES or before == "to":
            continue
        following = _readings(tokens[i + 1])
        if following.get("NOUN") and ("VERB" not in following or tokens[i + 1].endswith("s")):
            return True
    return False


_AUXILIARIES = frozenset("do does did can could may might will would should shall must".split())
_SUBJECTS = frozenset("i we you they he she it employees staff someone anyone the a an my our your their company".split())


def is_yes_no(clause: str) -> bool:
    """Whether the ask is a yes/no question: it opens with an auxiliary ("Is there ...", "Do we
    pay ...", "Can I ..."), after any sentences that set the scene."""
    sentences = [m.group(0) for m in _SENTENCE.finditer(clause) if m.group(0).strip(" .?!;,")]
    tokens = words(sentences[-1] if sentences else clause)
    return bool(tokens) and (tokens[0] in _AUXILIARIES or tokens[0] in _COPULAS)


_COPULAS = frozenset("is are am was were has have".split())


def asked_verb(clause: str) -> str | None:
    """The verb a yes/no question asks about: the first word after its auxiliary and subject
    ("Do we *compensate* customers ...", "Can I *donate* ..."), when it can be a verb."""
    tokens = words(clause)
    if len(tokens) >= 4 and tokens[0] in _WH_WORDS:
        # "How many days of leave *can I* carry over", "What *do we* reimburse": the verb after
        # the auxiliary and its subject, when it says something (not "get", "have")
        for j in range(1, len(tokens) - 2):
            if tokens[j] in _AUXILIARIES and tokens[j + 1] in _SUBJECTS:
                word = tokens[j + 2]
                if word in STOP_WORDS or word in GENERIC_WORDS or word in _WEAK_VERBS:
                    return None
                return word if "VERB" in _readings(word) else None
        return None
    if len(tokens) < 3 or tokens[0] not in _AUXILIARIES:
        return None
    # "Can my earned leave *be transferred* to my spouse?": the passive's participle
    for j in range(2, min(len(tokens) - 1, 7)):
        if tokens[j] in ("be", "been") and tokens[j + 1] not in STOP_WORDS and tokens[j + 1] not in GENERIC_WORDS:
            word = tokens[j + 1]
            return word if "VERB" in _readings(word) and word.endswith(("ed", "en", "wn", "id", "ne", "ght")) else None
    i = 1
    while i < len(tokens) and (tokens[i] in _SUBJECTS or tokens[i] in GENERIC_WORDS and i == 1):
        i += 1
    if i >= len(tokens) or i == 1:
        return None
    word = tokens[i]
    return word if "VERB" in _readings(word) else None


_WH_WORDS = frozenset("how what when where which who whom why".split())
_WEAK_VERBS = frozenset("get got have has had be is are was were need want expect know find see".split())


def _inflected_in(verb: str, stems: set[str]) -> bool:
    """Whether a unit holds any form of the verb ("paid" for "pay", "kept" for "keep")."""
    from lemminflect import getAllInflections, getAllLemmas

    lemmas = getAllLemmas(verb).get("VERB", (verb,))
    forms = {f for lemma in lemmas for fs in getAllInflections(lemma, upos="VERB").values() for f in fs}
    return any(stem(f) in stems for f in forms | set(lemmas))


# The kind of value a question asks for, and how a sentence that gives it reads.
_TIME_UNIT = r"(?:minutes?|hours?|days?|weeks?|months?|years?)"
_NUMBER = r"(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|half|a)"
# a number that counts things ("a" and "half" do not: "a separate account" says no count)
_COUNT = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|single|only one|no|any number of|unlimited)"
_ASKS_FOR_A_DAY = re.compile(r"\b(?:which|what) (?:day|date)s?\b", re.IGNORECASE)
_DAY_WORDS = frozenset(stem(w) for w in ("day", "days", "date", "dates"))
_HOW_SOON = re.compile(r"\bhow (?:soon|fast|quickly|promptly)\b|\bby when\b", re.IGNORECASE)
# an amount given: a number, a sum, a share, "full pay", "free"
_AMOUNT_GIVEN = re.compile(r"\d|[£$€¥₹]|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
                           r"twenty|thirty|full|half|free|nothing|unpaid|double|actual|reasonable|same amount)\b", re.IGNORECASE)
# a sum of money, a share or a multiple of pay, or none ("free", "unpaid", "at cost")
_MONEY_GIVEN = re.compile(r"[£$€¥₹]|\d\s*(?:%|p\b|pence|pounds?|dollars?|euros?|gbp|usd|eur)|\bper ?cent\b|"
                          r"\b(?:gbp|usd|eur)\s*\d|\bx\s?\d|\b\d(?:\.\d+)?\s*x\b|\btimes (?:the|their|basic|normal|standard)\b|"
                          r"\btime and a (?:half|third|quarter)\b|\b(?:double|triple) time\b|\bfull pay\b|\bhalf pay\b|"
                          r"\b(?:free|unpaid|no charge|nothing|at cost|actual cost|same rate|basic rate|spine point|scale point)\b",
                          re.IGNORECASE)
def gives_money(text: str) -> bool:
    """Whether the text gives a sum of money, a share or a multiple of pay, or none ("free",
    "unpaid", "at cost")."""
    return bool(_MONEY_GIVEN.search(text))


# the head word of an office someone holds ("officer", "manager", "lead")
_OFFICE = (r"(?:officer|manager|lead|head|director|representative|champion|co-?ordinator|controller|owner|advis[eo]r|"
           r"administrator|guardian|deputy|chair|chairperson|secretary|ombudsman|ombudsperson|steward|contact person)s?")
_ASKED_VALUES = (
    (re.compile(r"\bhow (?:often|frequently)\b", re.IGNORECASE), "how often",
     re.compile(r"\b(?:every|each|daily|weekly|monthly|quarterly|annually|yearly|once|twice|times a|per (?:day|week|month|year)|"
                r"fortnightly|hourly|nightly|termly|biannually|semi-annually|bi-?weekly|bi-?monthly|six-monthly)\b", re.IGNORECASE)),
    (re.compile(rf"\bhow many ({_TIME_UNIT})\b", re.IGNORECASE), "how many {0}", None),
    # "how many Privileged Accounts can one person hold?": a count of those things ("two
    # accounts", "a single account"), not a number of days beside them
    (re.compile(rf"\bhow many (?!{_TIME_UNIT}\b)((?:[a-z-]+\s+){{0,2}}?[a-z-]+?s)\b", re.IGNORECASE), "how many {0}", "count"),
    # "how many accounts", "how many people": a count of any other thing
    (re.compile(rf"\bhow many (?!{_TIME_UNIT}\b)\w+", re.IGNORECASE), "how many",
     re.compile(r"\b(?:\d+|one(?=\s+[a-z])|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
                r"single|only|no more than|at most|up to|unlimited|any number|none|no one)\b", re.IGNORECASE)),
    # "on which day of the month", "what date", "which day": a date, a day of the month or week
    (_ASKS_FOR_A_DAY, "which day",
     re.compile(r"\b(?:\d{1,2}(?:st|nd|rd|th)\b|\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*|"
                r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\s+\d{1,2}\b|"
                r"(?:first|last|final|second|third|fourth|\d+(?:st|nd|rd|th)?) (?:working |business |calendar )?day of|"
                r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d{4}-\d{2}-\d{2}|day \d{1,2}\b)", re.IGNORECASE)),
    # "which weeks are the boost weeks", "what month": a week or month named (a month, a date, a
    # numbered week), not how many of them there are
    (re.compile(r"\b(?:which|what) (?:weeks?|months?)\b(?! (?:of|before|after|notice)\b)", re.IGNORECASE), "which weeks",
     re.compile(r"\b(?:jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|"
                r"nov(?:ember)?|dec(?:ember)?|week \d{1,2}|weeks \d{1,2}|\d{4}-\d{2}-\d{2}|christmas|easter|new year|"
                r"(?:first|last|final|second|third|fourth) (?:week|month)|(?:week|month) (?:before|after|of|in which|containing))\b",
                re.IGNORECASE)),
    # "how soon", "how quickly": a time limit ("within one hour", "by the next working day", "at once")
    (_HOW_SOON, "how soon",
     re.compile(rf"\b(?:within|by|before|no later than|not later than|immediately|at once|straight away|without delay|"
                rf"as soon as|promptly)\b|\b{_NUMBER}[\s-]+(?:working |business |calendar )?{_TIME_UNIT}\b", re.IGNORECASE)),
    # "how much leave / pay / time off": an amount (a number, a share, a sum, "full pay", "free")
    (re.compile(r"\bhow much\b", re.IGNORECASE), "how much",
     _AMOUNT_GIVEN),
    # "What's the salary for ...?", "what is the current national minimum wage per hour?": an amount too
    (re.compile(r"\bwhat(?:'s|s| is| are| will be)\s+(?:the|my|our|a)\s+(?:[a-z-]+\s+){0,3}?"
                r"(?:salary|salaries|wage|wages|pay rate|rate|rates|price|prices|cost|costs|fee|fees|charge|charges|amount|"
                r"allowance|allowances|cap|limit|budget)"
                # (... or before who pays or charges it: "the maximum amount we're allowed to charge")
                r"(?=\s+(?:for|of|per|in|at|on|to|when|if|i|we|you|they|i'm|we're|you're|they're|i'd|we'd|staff|"
                r"employees|can|may|could)\b|\s*[?.!]|\s*$)", re.IGNORECASE), "how much",
     _AMOUNT_GIVEN),
    # "the maximum number of PhD students one academic can supervise": a count of that thing
    # ("six students", "4 doctoral students"), not hours per student
    (re.compile(r"\b(?:maximum|minimum|max|min|largest|smallest|highest|lowest)\s+number\s+of\s+((?:[a-z-]+\s+){0,2}?[a-z-]+?s)\b",
                re.IGNORECASE), "how many {0}", "count"),
    # "the Associate Lecturer hourly rate", "the fee for ...": a sum of money or a share, not hours
    (re.compile(r"\bwhat(?:'s|s| is| are| will be)\s+(?:the|my|our|a)\s+(?:[a-z-]+\s+){0,3}?"
                r"(?:salary|salaries|wages?|(?:pay|hourly|daily|weekly|day|hour) rates?|prices?|costs?|fees?|charges?)"
                r"(?=\s+(?:for|of|per|in|at|on|to|when|if)\b|\s*[?.!]|\s*$)", re.IGNORECASE), "how much",
     _MONEY_GIVEN),
    (re.compile(r"\bhow long\b", re.IGNORECASE), "how long",
     re.compile(rf"\b{_NUMBER}[\s-]+(?:working |business |calendar |consecutive )?{_TIME_UNIT}\b|\b(?:until|within|by|before|after|end of)\b", re.IGNORECASE)),
    # "Who is our Data Protection Officer?": the holder of an office named, not what the office does
    (re.compile(rf"\bwho(?:'s|s| is| are)\s+(?:the|our|my|your)\s+((?:[a-z-]+\s+){{0,4}}?{_OFFICE})\b", re.IGNORECASE),
     "who the {0} is", "holder"),
)


# verbs of lasting: in "how long" they ask for the duration itself ("How long can an account stay
# open / does a permit remain valid / can the excavation permit run for?")
_LASTING_VERBS = frozenset("stay stays remain remains last lasts run runs continue continues hold holds keep keeps "
                           "stand stands persist persists".split())
_HOW_LONG = re.compile(r"\bhow long\b", re.IGNORECASE)


def _lasting_words(clause: str) -> set[str]:
    """Stems of the words a clause asks for a time with, which a unit giving that time carries:
    the adverb of "how soon / how fast / how quickly", and the verb of lasting a "how long" clause
    asks about with the state after it ("stay *open*", "remain *valid*", "stay *active*")."""
    soon = _HOW_SOON.search(clause)
    if soon:
        return {stem(w) for w in words(soon.group(0)) if w not in ("how", "by")}
    found = _HOW_LONG.search(clause)
    if not found:
        return set()
    after = words(clause[found.end():])
    verb = next((i for i, t in enumerate(after) if t in _LASTING_VERBS), None)
    if verb is None:
        return set()
    out = {stem(after[verb])}
    state = after[verb + 1] if verb + 1 < len(after) else ""
    if state and state not in STOP_WORDS and "ADJ" in _readings(state):
        out.add(stem(state))
    return out


def _sentences_holding(texts: list[str], carried: list[Term], own: list[Term] | None = None) -> str:
    """The unit's sentences that hold a carried term, in any of its forms or synonyms ("return"
    for "send back"): where the value asked for must stand (not a number anywhere in a long
    glossary, nor the breadcrumb's section numbers). When sentences hold all of `own` (the
    ask's own carried words), only they and the sentence after each: "how many days of annual
    leave" is not answered by "five working days ... study leave" beside "booked in the same
    way as annual leave"."""
    if own:
        sentences = _unit_sentences(texts)
        whole = [i for i, sentence in enumerate(sentences) if _holds_all(sentence, own)]
        # (the sentence after goes on about the same thing when it names none of those words; one
        # naming some of them only speaks of another kind: "approved annual leave." then "Engineers
        # returning from parental leave ... first 30 days back" gives no days of annual leave)
        after = {i + 1 for i in whole if i + 1 < len(sentences)
                 and not any(_carries(t, stems_of(sentences[i + 1])) for t in own)}
        if whole:
            return " ".join(sentences[j] for j in sorted(set(whole) | after))
    return " ".join(_sentence_list_holding(texts, carried))


def _sentence_list_holding(texts: list[str], carried: list[Term]) -> list[str]:
    """The unit's sentences holding one of the terms."""
    return [sentence for sentence in _unit_sentences(texts) if any(_carries(t, stems_of(sentence)) for t in carried)]


def _unit_sentences(texts: list[str]) -> list[str]:
    """The sentences of a unit's texts, breadcrumbs left out."""
    return [sentence for text in texts if " > " not in text for line in text.splitlines() for sentence in _SENTENCE.findall(line)]


def _holds_all(sentence: str, terms: list[Term]) -> bool:
    held = stems_of(sentence)
    return all(_carries(t, held) for t in terms)


_REFERENCE = re.compile(r"\b(?:see\s+)?(?:section|clause|paragraph|para|part|article|table|appendix|annex)\s*\d+(?:\.\d+)*"
                        r"|\bsee\s+\d+(?:\.\d+)+", re.IGNORECASE)


_CLAUSE_NUMBER = re.compile(r"(?:(?<=^)|(?<=\s))\d+(?:\.\d+)+\.?(?=\s+[A-Z(])")


def missing_value(clause: str, unit_text: str) -> str:
    """The kind of value the clause asks for ("how often", "how many hours") when the unit's
    text gives no value of that kind; "" when it does or the clause asks for none. A reference
    ("see 3.3", "section 6.1", "Table 2") is not a value."""
    unit_text = _REFERENCE.sub(" ", unit_text)
    unit_text = _CLAUSE_NUMBER.sub(" ", unit_text)  # "3.3 The Firm pays ...": a clause's number is no value
    for asks, name, reads in _ASKED_VALUES:
        m = asks.search(clause)
        if not m:
            continue
        if reads is None:  # "how many hours": a number of that unit
            unit = m.group(1).lower().rstrip("s")
            reads = re.compile(rf"\b{_NUMBER}[\s-]+(?:working |business |calendar |consecutive )?{unit}s?\b", re.IGNORECASE)
            name = name.format(m.group(1).lower())
        elif reads == "count":  # a number of the things counted, one word between at most
            counted = [w for w in words(m.group(1).lower()) if w not in STOP_WORDS]
            if not counted:
                continue
            head = re.escape(stem(counted[-1]))
            if _AGE_NOUN.fullmatch(" ".join(counted)):
                head = _PEOPLE_COUNTED  # "how many ten-year-olds": a count of children ("9 children")
            reads = re.compile(rf"\b(?:{_COUNT}|no more than|at most|up to|maximum of|limit of)[\s-]+(?:[\w-]+\s+)?{head}\w*", re.IGNORECASE)
            name = name.format(" ".join(counted))
        elif reads == "holder":
            office = m.group(1).lower()
            if _names_the_holder(office, unit_text):
                continue
            return name.format(office)
        if not reads.search(unit_text):
            return name
    return ""


# people written by their age ("ten year olds", "under 18s", "over-65s"), counted as people are
_AGE_NOUN = re.compile(r"(?:(?:\w+ )?years? olds?|(?:under|over)[ -]?\d+s)")
_PEOPLE_COUNTED = r"(?:child|children|kid|people|person|pupil|student|minor|adult|young)"


# words after "<office> is" that say what the office does or must, not who holds it
_NOT_A_HOLDER = frozenset("responsible accountable required expected entitled able allowed permitted notified informed "
                          "told consulted not also available the a an to in on at for of by this that these those it "
                          "there which what who he she they each every any all no anyone everyone".split())


def _names_the_holder(office: str, text: str) -> bool:
    """Whether the text says who holds the office: a name or another office after "<office>
    is" ("... Officer is Dana Reyes", "... Officer is the Head of Legal"), a name beside it
    ("the Data Protection Officer, Dana Reyes,"), a name or office that "is" or "acts as" it,
    the office's contact details ("contact the Data Protection Officer at dpo@example.com"), or
    the office held or performed by someone. "The Data Protection Officer decides within 48
    hours" says what the office does, not who holds it."""
    head = rf"(?i:{re.escape(office.split()[-1].rstrip('s'))}s?)"
    name = r"[A-Z][\w'.-]+(?:\s+(?:of|for|and|the|de|van|von)?\s*[A-Z][\w'.-]+)*"
    patterns = (
        rf"\b{head}\s+(?:is|are)\s+(?:(?:currently|presently|our|the|a|an)\s+)*(?P<holder>{name})",
        rf"\b{head}\s*(?:,|\(|:|–|—)\s*(?P<holder>[A-Z][a-z'.-]+\s+[A-Z][a-z'.-]+)",
        rf"(?P<holder>{name})\s+(?:is|acts as|serves as|is appointed as|has been appointed as)\s+(?:the\s+|our\s+|a\s+)?"
        rf"(?:[A-Z][\w-]*\s+){{0,4}}{head}\b",
        rf"\b{head}\b[^.]{{0,60}}?(?:[\w.+-]+@[\w-]+\.[\w.]+|\+?\d[\d ()-]{{7,}}\d|\b(?i:ext)(?:ension)?\.?\s*\d+)",
        rf"\b{head}\b[^.]{{0,40}}?\b(?:is|are) (?:held|performed|carried out|fulfilled|filled|taken) by\b",
        rf"\b(?i:role) of (?:the\s+)?(?:[\w-]+\s+){{0,4}}{head}\b[^.]{{0,40}}?\b(?:is|are) (?:held|performed|filled|taken) by\b",
    )
    for pattern in patterns:
        for m in re.finditer(pattern, text):
            holder = m.groupdict().get("holder")
            first = holder.split()[1 if holder.startswith("The ") and " " in holder else 0].lower() if holder else ""
            if holder is not None and first in _NOT_A_HOLDER:
                continue
            return True
    return False


def _other_places_only(clause: str, unit_text: str, terms: list[Term], carried: set[str]) -> list[Term]:
    """The place the clause asks about, when the unit names other places but not it ("the
    endpoint in Singapore" against a list of the London and Mumbai endpoints)."""
    asked = places_in(clause)
    if not asked:
        return []
    named = places_in(unit_text)
    if not named:
        return []
    names = {p.written.lower() for p in named} | {p.country.lower() for p in named}
    out = []
    for place in asked:
        if place.written.lower() in names:
            continue
        if place.country.lower() in names:
            # the same country, unless both name nations of the UK and they differ ("Cardiff"
            # against "Rest of England": Wales is not England)
            nation = uk_nation(place)
            others = {uk_nation(p) for p in named if p.country == place.country}
            if not (nation and others and None not in others and nation not in others):
                continue
        out += [t for t in terms if t.stem in {stem(w) for w in words(place.written)} and t.stem not in carried]
    return out


COMPOUND_WINDOW = 3  # a modifier and its head noun at most this many words apart, either order


def noun_compounds(text: str) -> list[tuple[str, str]]:
    """(modifier stem, head stem) for each two nouns written side by side ("notice period",
    "service credits", "data protection officer" gives two pairs)."""
    tokens = words(text)
    out = []
    for a, b in zip(tokens, tokens[1:]):
        if a in STOP_WORDS or b in STOP_WORDS or a in GENERIC_WORDS or b in GENERIC_WORDS:
            continue
        if names_a_thing(a, text) and names_a_thing(b, text) and not places_in(f"{a} {b}"):
            out.append((stem(a), stem(b)))
    return out


def adjective_phrases(text: str, terms: list[Term]) -> list[tuple[str, str]]:
    """(adjective stem, noun stem) of each lexicon phrase the text writes as an adjective before
    its noun ("sick pay", "annual leave"): a unit holds it only with the two together, as a noun
    compound ("a crew member who has gone sick ... is paid" holds no sick pay)."""
    phrases = {phrase for t in terms for phrase in t.phrases}
    tokens = words(text)
    out = []
    for a, b in zip(tokens, tokens[1:]):
        joined = f"{stem(a)}_{stem(b)}"
        if joined in phrases and "ADJ" in _readings(a):
            out.append((stem(a), stem(b)))
    return out


def loose_modifiers(pairs: list[tuple[str, str]], carried: set[str], sequences: list[list[str]],
                    texts: list[str] = ()) -> set[str]:
    """The modifiers a unit holds but not next to their head: a unit with "notice" in one
    sentence and "period" in another does not carry "notice period". A definition of a term
    ending in the head that uses the modifier holds them together ("a Restricted System means
    any system that holds ... payroll records" carries "payroll system")."""
    loose = set()
    for modifier, head in pairs:
        if modifier not in carried or head not in carried:
            continue
        if _phrase_written(f"{modifier}_{head}", sequences):
            continue  # "bank holiday" is carried where a unit writes "public holiday"
        mods, heads = equivalents(modifier), equivalents(head)
        if not any(_near(tokens, mods, heads) for tokens in sequences) and not _defined_with(texts, mods, heads):
            loose.add(modifier)
    return loose


def _phrase_written(phrase: str, sequences: list[list[str]]) -> bool:
    """Whether a unit writes the phrase or a phrase of the lexicon that says the same, its words
    side by side."""
    for e in equivalents(phrase):
        parts = e.split("_")
        if len(parts) < 2:
            continue
        if any(tokens[i:i + len(parts)] == parts for tokens in sequences for i in range(len(tokens) - len(parts) + 1)):
            return True
    return False


def _defined_with(texts, mods: set[str], heads: set[str]) -> bool:
    from .definitions import defined_terms

    for text in texts:
        for paragraph in (p for p in text.splitlines() if p.strip()):
            terms = defined_terms(paragraph)
            if any(stem(words(t)[-1]) in heads for t in terms if words(t)) and stems_of(paragraph) & mods:
                return True
    return False


def _near(tokens: list[str], first: set[str], second: set[str]) -> bool:
    where = [i for i, t in enumerate(tokens) if t in second]
    return any(abs(i - j) <= COMPOUND_WINDOW for i, t in enumerate(tokens) if t in first for j in where)


def _compound_partners(text: str, unmentioned: list[Term]) -> set[str]:
    """Stems of the content words written right next to an unmentioned word: "dress code",
    "gym membership", "paternity leave" name one thing, and a policy that has "code" or
    "leave" has not said anything about it."""
    from .terms import STOP_WORDS, stem

    if not unmentioned:
        return set()
    tokens = words(text)
    stems = [stem(t) for t in tokens]
    absent = {t.stem for t in unmentioned}
    out = set()
    for i, s in enumerate(stems):
        if s not in absent:
            continue
        for j in (i - 1, i + 1):
            # a noun ("gym membership"), not a word that describes the thing ("confidential board pack")
            if 0 <= j < len(tokens) and tokens[j] not in STOP_WORDS and stems[j] not in absent and \
                    can_name_a_thing(tokens[j]):
                out.add(stems[j])
    return out


def missing_phrases(text: str, unmentioned: list[Term]) -> list[str]:
    """Each unmentioned word with the content word after it when that is a noun the question
    goes on with ("paternity leave", "gym membership")."""
    tokens = words(text)
    stems = {t.stem for t in unmentioned}
    out = []
    from .terms import STOP_WORDS, stem

    i = 0
    while i < len(tokens):
        if stem(tokens[i]) in stems:
            j = i + 1
            while j < len(tokens) and stem(tokens[j]) in stems:
                j += 1
            if j < len(tokens) and tokens[j] not in STOP_WORDS and not any(ch.isdigit() for ch in tokens[j]):
                j += 1
            out.append(" ".join(tokens[i:j]))
            i = j
        else:
            i += 1
    return out
