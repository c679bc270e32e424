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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from .evidence import ANSWERED, NOT_COVERED, PARTLY, Outcome
from .places import places_in
from .terms import GENERIC_WORDS, STOP_WORDS, Term, can_name_a_thing, equivalents, key_terms, stem, stems_of, words

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

    @property
    def share(self) -> float:
        """Carried share of the key terms; a term of a scene-setting sentence before the
        question ("A contractor finished their project today.") weighs half."""
        if not self.terms:
            return 0.0  # a question with no word to look for ("?") is answered by nothing
        weight = {t.stem: CONTEXT_WEIGHT if t.stem in self.context else 1.0 for t in self.terms}
        total = sum(weight.values())
        if not total:  # only scene-setting terms: judge by them
            return len(self.carried) / len(self.terms)
        return sum(weight[s] for s in self.carried if s in weight) / total

    @property
    def covered(self) -> bool:
        """One unit holds at least two thirds of the key terms, or at least half of them and
        the rest are words the policies do use (the search found the place, not new words)."""
        return self.share >= ANSWERED_SHARE and not self.unmentioned

    @property
    def mostly(self) -> bool:
        """At least half carried by one unit: partly answered (the rest is named)."""
        return not self.covered and self.share >= 0.5


@dataclass
class Decision:
    outcome: Outcome
    asks: list[Ask]
    missing: list[str]  # phrases of the question the sources do not mention

    @property
    def carried_units(self) -> set[int]:
        return {a.best_unit for a in self.asks if a.best_unit is not None and (a.covered or a.mostly)}


_SENTENCE = re.compile(r"[^?.!;]+(?:[?!;]+|\.(?=\s|$)|$)")
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


def asks_with_context(question: str) -> list[tuple[str, str]]:
    """(context, ask) pairs: see `split_asks`."""
    sentences = [m.group(0).strip() for m in _SENTENCE.finditer(question) if m.group(0).strip(" .?!;,")]
    asks: list[list[str]] = []
    context = ""
    for index, sentence in enumerate(sentences):
        is_question = sentence.endswith("?") or index == len(sentences) - 1
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
            asks[-1][1] += " " + context
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
    for e in set().union(*(equivalents(k) for k in (term.stem, *term.phrases))):
        if e in stems:
            return True
        if "_" in e and all(part in stems for part in e.split("_")):
            return True
    return False


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
    related: Related | None = None, carried_anyway: set[str] | None = None,
) -> Decision:
    """Decide the outcome.

    unit_texts: for each unit of evidence, its texts (chunk text, breadcrumb).
    corpus_mentions: stem -> whether any visible chunk holds the stem or an equivalent; a
        stem missing from the mapping counts as mentioned (no claim of absence without a look).
    related: word-vector nearness, for synonyms beyond the lexicon.
    carried_anyway: stems carried outside the units (a matched table row's label and column).
    """
    corpus_mentions = corpus_mentions or {}
    units = [unit_stems(texts) for texts in unit_texts]
    # content words only: the vector check compares a question word with words that can name something
    unit_words = [{w for text in texts for w in words(text) if w not in STOP_WORDS and w not in GENERIC_WORDS}
                  for texts in unit_texts]
    every_word = set().union(*unit_words) if unit_words else set()
    extra = carried_anyway or set()
    asks = []
    related_cache: dict[str, bool] = {}
    place_stems = {stem(w) for p in places_in(question) for w in words(p.written)}
    for context, clause in asks_with_context(question):
        text = f"{context} {clause}".strip()
        ask = Ask(text, question_terms(text))
        own = {t.stem for t in question_terms(clause)}
        ask.context = {t.stem for t in ask.terms if t.stem not in own}
        best, best_carried = None, set()
        weight = {t.stem: CONTEXT_WEIGHT if t.stem in ask.context else 1.0 for t in ask.terms}
        for index, stems in enumerate(units):
            carried = {t.stem for t in ask.terms if t.stem in extra or _carries(t, stems)}
            if sum(weight[c] for c in carried) > sum(weight[c] for c in best_carried):
                best, best_carried = index, carried
        ask.best_unit = best if best is not None else (0 if units and not ask.terms else None)
        ask.carried = best_carried
        for term in ask.terms:
            if term.stem in best_carried or term.stem in extra:
                continue
            if any(_carries(term, s) for s in units) or corpus_mentions.get(term.stem, True):
                continue
            if not can_name_a_thing(term.word) or term.stem in place_stems:
                continue  # a verb or an adjective phrases the question; a place sets the scene
            if related is not None:
                if term.word not in related_cache:
                    related_cache[term.word] = bool(every_word) and related(term.word, every_word) >= WORD_SYNONYM_MIN
                if related_cache[term.word]:
                    ask.carried.add(term.stem)
                    continue
            ask.unmentioned.append(term)
        if not ask.covered and related is not None and best is not None:
            # a synonym in the unit that carries the ask (word vectors: only when it decides)
            for term in ask.terms:
                if term.stem not in ask.carried and term not in ask.unmentioned and \
                        _related(related, related_cache, term.word, unit_words[best]):
                    ask.carried.add(term.stem)
        ask.carried -= _compound_partners(ask.text, ask.unmentioned)
        asks.append(ask)
    covered = [a for a in asks if a.covered]
    mostly = [a for a in asks if not a.covered and a.mostly]
    if len(covered) == len(asks):
        outcome: Outcome = ANSWERED
    elif covered or mostly:
        outcome = PARTLY
    else:
        outcome = NOT_COVERED
    missing = []
    for ask in asks:
        if ask.covered:
            continue
        if ask.unmentioned:
            missing.extend(missing_phrases(ask.text, ask.unmentioned))
        elif ask.mostly:  # the words the cited unit does not hold
            missing.extend(missing_phrases(ask.text, [t for t in ask.terms if t.stem not in ask.carried]))
        elif ask.text.strip(" ?.!"):
            missing.append(ask.text.strip(" ?.!"))
    return Decision(outcome, asks, list(dict.fromkeys(missing)))


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
            if 0 <= j < len(tokens) and tokens[j] not in STOP_WORDS and stems[j] not in absent:
                out.add(stems[j])
    return out


def _related(related: Related, cache: dict, word: str, others: set[str]) -> bool:
    key = (word, id(others))
    if key not in cache:
        cache[key] = bool(others) and related(word, others) >= WORD_SYNONYM_MIN
    return cache[key]


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
