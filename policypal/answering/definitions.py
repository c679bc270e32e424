"""Definitions and cross-references in evidence: what else must be fetched to answer.

A definition ("A Restricted System means any system that ...", "“Personal Data” has the meaning
...", "In this policy, a Contractor is ...") answers "what is X", but a question about what
applies to X is answered by the rule that uses the defined term. A rule that says "see 4.2" or
"as set out in section 6.2" is answered, in part, by the section it names.
"""
from __future__ import annotations

import re
from functools import lru_cache

from .places import country_of
from .terms import section_numbers

_QUOTE = "\"'“”‘’"
# an abbreviation a definition gives its term: "MFA", "IC", "2FA", "KIT day"
_ABBR = r"[A-Z0-9][A-Za-z0-9]?[A-Z]{1,6}"
# a numbered definition ("2.4 Confined Space means ...", "(c) Partner means ...")
_NUMBERED = r"(?:(?:\d+(?:\.\d+)*\.?|\(?[a-z]\)|\(?[ivx]+\))\s+)?"
_DEFINED = re.compile(
    rf"(?:^|(?<=[.;:]\s)|(?<=\n))\s*(?:[-*•]\s*)?{_NUMBERED}(?:[Ii]n this (?:policy|standard|document),?\s+)?(?:[Aa]n?\s+|[Tt]he\s+|[Ee]ach\s+|[Aa]ny\s+)?"
    rf"(?:\*\*|__)?[{_QUOTE}]?(?P<term>[A-Z][\w-]*(?:\s+(?:[A-Z][\w-]*|of|and|for)){{0,5}})[{_QUOTE}]?(?:\*\*|__)?\s*"
    rf"(?:\([^)]{{1,40}}\)\s*)?"
    rf"(?:means|shall mean|refers to|is defined as|has the meaning|includes|is any|are any|covers)\b",
)
_QUOTED_DEFINED = re.compile(
    rf"[{_QUOTE}](?P<term>[^{_QUOTE}]{{2,60}})[{_QUOTE}]\s*(?:\([^)]{{1,40}}\)\s*)?(?:means|shall mean|refers to|is defined as|has the meaning)\b",
    re.IGNORECASE,
)


# a term in sentence case, as many policies write them ("3.6 Lapsed licence means ...", "Pay week
# means ..."): a capitalised word and up to three lower-case ones opening a sentence, then one of the
# strong defining verbs (never "includes" or "covers", which any sentence may use)
_SENTENCE_CASE_DEFINED = re.compile(
    rf"(?:^|(?<=[.;:]\s)|(?<=\n))\s*(?:[-*•]\s*)?{_NUMBERED}(?:\*\*|__)?"
    r"(?!(?:The|An?|This|That|These|Those|It|Each|Any|Every|Our|Your|Their)\b)"
    r"(?P<term>[A-Z][a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})(?:\*\*|__)?\s*(?:\([^)]{1,40}\)\s*)?"
    r"(?:means|shall mean|is defined as|has the meaning)\b",
)

# "A Break-Glass Account is an emergency administrator account ...", "The Information Owner of a
# system is the head of ...": a capitalised term of two words or a hyphenated one (a single
# capitalised word at a sentence start is any noun), what it belongs to, then "is a/an/the".
# A single capitalised word after the article is a term as well ("A Dependant is a spouse ..."): a
# sentence capitalises its first word, not the one after "A"; the document's own names are not.
_IS_DEFINED = re.compile(
    rf"(?:^|(?<=[.;:]\s)|(?<=\n))\s*(?:[-*•]\s*)?{_NUMBERED}(?:[Ii]n this (?:policy|standard|document),?\s+)?(?:[Aa]n?|[Tt]he)\s+"
    r"(?P<term>[A-Z][\w]*(?:-[A-Z][\w]*)+|[A-Z][\w-]*(?:\s+[A-Z][\w-]*){1,4}"
    r"|(?!(?:Policy|Standard|Document|Procedure|Table|Section|Appendix|Schedule|Annex|Company)\b)[A-Z][a-z]{2,})"
    rf"(?:\s*\((?:the\s+)?[{_QUOTE}]?{_ABBR}[{_QUOTE}]?\))?"
    r"(?:\s+of\s+[^.;:]{1,60}?)?\s+(?:is|are)\s+(?:an?|the)\b",
)

# a term defined by the list that follows: "In this policy, a **Connected Person** is:", "Eligible
# Dependants are any of the following:", "“Family Member” includes:" (the list items are the
# definition, see definition_spans); the term marked (bold, quoted) or of two capitalised words
_LIST_DEFINED = re.compile(
    rf"(?:^|(?<=[.;:]\s)|(?<=\n))\s*(?:[-*•]\s*)?{_NUMBERED}(?:[Ii]n this (?:policy|standard|document),?\s+)?(?:[Aa]n?\s+|[Tt]he\s+|[Ee]ach\s+)?"
    rf"(?:(?:\*\*|__)(?P<term>[A-Z][\w-]*(?:\s+[\w-]+){{0,4}})(?:\*\*|__)|[{_QUOTE}](?P<term2>[A-Z][\w-]*(?:\s+[\w-]+){{0,4}})[{_QUOTE}]"
    r"|(?P<term3>[A-Z][\w-]*(?:\s+[A-Z][\w-]*){1,4}))"
    r"\s+(?:is|are|means|includes|covers)(?:\s+(?:any\s+(?:one\s+)?of\s+)?the\s+following(?:\s+\w+){0,2})?\s*:(?=\s*$|\s+(?:[-*•]|\(?(?:[a-z]|[ivx]+|\d+)[).])\s)",
)

# "“Connected Person” has the meaning given in the Personal Account Dealing Policy.": the term is
# defined in another document, whose definition holds what it stands for
_REFERRAL = re.compile(
    r"\bhas\s+the\s+(?:same\s+)?meaning\s+(?:given|set\s+out|defined|ascribed)\s+(?:to\s+it\s+)?in\s+(?:the\s+)?(?P<where>[^.:;]{3,120})\.?\s*$",
    re.IGNORECASE,
)


def is_referral(paragraph: str) -> bool:
    """Whether a definition only sends the reader to another document's definition (never one that
    names a section, which is followed as a reference, nor one that goes on to say what it means)."""
    m = _REFERRAL.search(paragraph.strip())
    return m is not None and not section_numbers(m.group("where"))


# the phrasings that name a term and then say what it stands for: "We use "Approver" to refer to
# your line manager ...", "The term Hub Day is used for ...", "References to the Payback Period are
# to the number of months ...", "A shift counts as a Night Shift if ..."
_TERM_WORDS = r"[A-Z][\w-]*(?:\s+(?:[A-Z][\w-]*|of|and|for|in)){0,4}"
_NAMED_FOR = re.compile(
    rf"\b[Ww]e\s+use\s+(?:the\s+(?:term|word|expression|phrase)\s+)?[{_QUOTE}]?(?P<term>{_TERM_WORDS})[{_QUOTE}]?\s+"
    r"(?:to\s+(?:refer\s+to|mean|describe|cover)|for|as\s+(?:shorthand|short)\s+for)\b"
    rf"|\b(?:[Tt]he\s+(?:term|word|expression|phrase)\s+)[{_QUOTE}]?(?P<term2>{_TERM_WORDS})[{_QUOTE}]?\s+is\s+used\s+(?:to\s+(?:refer\s+to|mean|describe)|for)\b"
    rf"|\b[Rr]eferences\s+(?:in\s+this\s+(?:policy|standard|document)\s+)?to\s+(?:the\s+|an?\s+)?[{_QUOTE}]?(?P<term3>{_TERM_WORDS})[{_QUOTE}]?\s+are\s+to\b"
    rf"|\b(?:[Aa]n?|[Tt]he)\s+[a-z][\w -]{{1,40}}?\s+(?:counts|is\s+treated|qualifies)\s+as\s+(?:an?|the)\s+(?P<term4>{_TERM_WORDS})\s+(?:if|when|where|only\s+if|once)\b",
)


# a glossary entry: a capitalised term, a colon, and a definition opening with an article or "any"
# ("**Primary Responder**: the engineer who ...", "Overnight Stay : a Business Trip that ..."),
# at the start of its line (a sentence's "Note: the ..." is one capitalised word, not a term)
# A listed entry may be one word or a capitalised word and lower-case ones ("3.4 Partner : the
# spouse ...", "- Tier 3 city: any other location", "Keeping in Touch day (KIT day): a day ..."), but
# never a note's or an example's label.
_LABELS = r"(?:Note|Notes|Example|Examples|Exception|Exceptions|Important|Warning|Tip|Reminder|Summary|Remember|Caution|Purpose|Scope|Owner|Status|Version|Contact|Answer|Question|Reason|Result|Outcome|Step|Action|Why|How|What|When|Where|Who|If|For|In|On|At|By|See|Also|But|And|Or|Please)\b"
_GLOSSARY_ENTRY = re.compile(
    rf"(?:^|(?<=\n))\s*(?:[-*•]\s*)?{_NUMBERED}(?:\*\*|__)?(?!{_LABELS})"
    r"(?P<term>[A-Z][\w-]*(?:\s+(?:[A-Z][\w-]*|of|and|for)){1,5}|[A-Z][\w]*-[A-Z][\w-]*|[A-Z][\w-]*(?:\s+[A-Za-z0-9][\w-]*){0,4}?)"
    rf"(?:\*\*|__)?(?:\s*\([{_QUOTE}]?{_ABBR}(?:\s+[a-z]+)?[{_QUOTE}]?\))?(?:\*\*|__)?\s*:\s+(?:the|an?|any|each|every)\s",
)


def defined_terms(text: str) -> list[str]:
    """Terms the text defines, in order, each once."""
    return list(_defined_terms(text))


@lru_cache(maxsize=20_000)
def _defined_terms(text: str) -> tuple[str, ...]:
    """Cached: the same chunk texts are read for question after question."""
    out: dict[str, None] = {}
    for pattern in (_QUOTED_DEFINED, _DEFINED, _SENTENCE_CASE_DEFINED, _IS_DEFINED, _LIST_DEFINED, _GLOSSARY_ENTRY, _NAMED_FOR):
        for m in pattern.finditer(text):
            group = next(g for g in ("term", "term2", "term3", "term4") if g in m.re.groupindex and m.group(g))
            term = " ".join(m.group(group).split()).strip(_QUOTE + " ")
            if pattern is _GLOSSARY_ENTRY and country_of(term):
                continue  # "- Poland: the voucher is funded from ...": a place's note, not a term
            if term and term.lower() not in ("this", "it", "that", "which", "policy", "this policy"):
                out[term] = None
                # "Motorised Ground Equipment (MGE) is ...", "The Incident Commander (the "IC")":
                # rules write the abbreviation
                short = _ABBREVIATION.match(text, m.end(group))
                if short:
                    out[short.group(1)] = None
    return tuple(out)


_ABBREVIATION = re.compile(
    rf"[{_QUOTE}]?(?:\*\*|__)?\s*\((?:the\s+|hereafter\s+)?[{_QUOTE}]?({_ABBR}(?:\s+[a-z]+)?)[{_QUOTE}]?\)")


def referenced_sections(text: str) -> list[str]:
    """Section numbers the text refers to ("see 4.2", "section 6.2", "in 7.1"), except those of
    another document ("paragraph 4.4 of the Office Attendance Policy", "section 2 of the Act"):
    its own 4.4 is not the one meant."""
    elsewhere = {m.group(1) for m in _OTHER_DOCUMENTS_SECTION.finditer(text)}
    elsewhere |= {number for number, _, _ in other_document_references(text)}
    return [n for n in section_numbers(text) if n not in elsewhere]


_OTHER_DOCUMENTS_SECTION = re.compile(
    r"\b(\d+(?:\.\d+)*)\s+of\s+(?:the\s+|our\s+)?(?:[A-Z][\w&'’-]*,?\s+(?:(?:and|of|for|the|on|&)\s+)*){0,8}"
    r"(?:Policy|Standard|Procedure|Handbook|Code|Agreement|Act|Regulations?|Guidance|Guidelines|Framework|Scheme|Rules|Manual|Charter)\b"
)


# a document's reference code ("TLP-PRD-01", "HR-PAY-07", "CA-OPS-150"): capitals, hyphens, a number
_DOCUMENT_CODE = r"[A-Z]{2,}(?:-[A-Z0-9]+)*-\d+[A-Z0-9]*"
_DOCUMENT_NAME = (r"(?:[A-Z][\w&'’-]*,?\s+(?:(?:and|of|for|the|on|&)\s+)*){0,8}"
                  r"(?:Policy|Standard|Procedure|Handbook|Code|Agreement|Guidance|Guidelines|Framework|Scheme|Rules|Manual|Charter)\b")
_SECTION_OF_DOCUMENT = re.compile(
    rf"\b(?:[Ss]ections?|[Cc]lauses?|[Pp]aragraphs?|[Pp]arts?|[Ss]ee)\s+(?P<number>\d+(?:\.\d+)*)\s+of\s+(?:the\s+|our\s+)?"
    rf"(?:(?P<code>{_DOCUMENT_CODE})\b|(?P<name>{_DOCUMENT_NAME})(?:\s*\((?P<named_code>{_DOCUMENT_CODE})\))?)"
)


def other_document_references(text: str) -> list[tuple[str, str, str]]:
    """(section number, document name, document code) for each reference to a section of another
    document ("see section 6.1 of TLP-PRD-01", "section 2 of the On-Set Health and Safety Policy
    (TLP-HS-01)"): name or code may be empty; each reference once."""
    out = []
    for m in _SECTION_OF_DOCUMENT.finditer(text):
        name = " ".join((m.group("name") or "").split())
        code = m.group("code") or m.group("named_code") or ""
        out.append((m.group("number"), name, code))
    return list(dict.fromkeys(out))


def writes_its_own_code(text: str, code: str) -> bool:
    """Whether a document's text gives the code as its own reference ("**Policy reference:**
    MSH-FIN-04", "Document no. TLP-HS-01", "TLP-HS-01: On-Set Health and Safety Policy"), not as a
    reference to another document ("Travel is covered by MSH-FIN-04")."""
    code = re.escape(code)
    labelled = re.compile(
        rf"\b(?:(?:policy|document|doc|procedure|standard)\s+)?(?:reference|ref|number|no|code|id)\b\.?[*_]*\s*(?:[:#-]\s*)?[*_]*\s*{code}\b",
        re.IGNORECASE)
    headed = re.compile(rf"^\s*(?:#+\s*)?[*_]*{code}[*_]*\s*(?:[:|–—-]|$)", re.IGNORECASE | re.MULTILINE)
    return labelled.search(text) is not None or headed.search(text) is not None


_TITLE_FILLER = frozenset("the and of for on our policy standard procedure handbook code".split())


def names_the_document(name: str, title: str) -> bool:
    """Whether a document name written in a reference ("the On-Set Health and Safety Policy") names
    a policy by its title ("On-Set Health and Safety Policy: Stunts, Special Effects and Work at
    Height"): every word of the name but the filler ("the", "Policy") is in the title, two at least."""
    wanted = {w for w in re.findall(r"[a-z0-9]+", name.lower()) if w not in _TITLE_FILLER}
    return len(wanted) >= 2 and wanted <= set(re.findall(r"[a-z0-9]+", title.lower()))


def is_definition_of(sentence: str, term: str) -> bool:
    return term in defined_terms(sentence)


def mentions(text: str, term: str) -> bool:
    """Whether the text uses the term (word-bounded, any case, plural allowed)."""
    return re.search(rf"\b{re.escape(term)}(?:s|es)?\b", text, re.IGNORECASE) is not None


def definition_spans(text: str) -> list[tuple[str, str]]:
    """(term, its definition) for every definition in the text: from the sentence that defines
    the term up to the next sentence that defines another one, within its paragraph ("2.1 Lone
    Working means ... 2.2 Site Category means ... Categories run from A to F." gives Lone Working
    its first sentence and Site Category the other two)."""
    return list(_definition_spans(text))


@lru_cache(maxsize=20_000)
def _definition_spans(text: str) -> tuple[tuple[str, str], ...]:
    """Cached: each piece of evidence is read as glossary and as pair, answer after answer."""
    from chunking.sentences import split_sentences_quick

    out: list[tuple[str, str]] = []
    for paragraph in _paragraphs(text):
        spans: list[tuple[list[str], list[str]]] = []
        for sentence in split_sentences_quick(paragraph):
            terms = defined_terms(sentence)
            if terms:
                spans.append((terms, [sentence]))
            elif spans:
                spans[-1][1].append(sentence)
        for terms, sentences in spans:
            out += [(term, " ".join(sentences)) for term in terms]
    return tuple(out)


_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\(?(?:[a-z]|[ivx]+|\d+)[).])\s+")


def _paragraphs(text: str) -> list[str]:
    """The text's lines, except that the items of a list that a defining line introduces ("a
    Connected Person is:") join that line: they are its definition."""
    out: list[str] = []
    joining = False
    for line in (line.strip() for line in text.splitlines() if line.strip()):
        if joining and _LIST_ITEM.match(line):
            out[-1] += " " + line
            continue
        out.append(line)
        joining = line.endswith(":") and _LIST_DEFINED.search(line) is not None
    return out


_DEFINES = re.compile(r"\b(?:means|includes|covers|refers to)\b|[:\u2014\u2013]", re.IGNORECASE)
_LIST_ITEM_WORDS = 3  # a kind in a definition's list is named in a few words


def listed_kinds(paragraph: str) -> list[str]:
    """The kinds a definition lists: the list it opens with ("any mobile phone, smartwatch, tablet,
    laptop, camera or other device capable of ..." gives mobile phone ... camera), a list of
    examples ("a space ... such as a tank, sewer, chamber or silo") or a sentence opening with
    one; none where no list of short
    names follows ("an occasion when the employee is contacted by the Hub, a colleague or a
    patient" lists who calls, not kinds of call-out)."""
    m = _DEFINES.search(paragraph)
    starts = ([m.end()] if m else []) + [e.end() for e in _EXAMPLES.finditer(paragraph)]
    # ... and a later sentence opening with a list ("Service reservoirs, chambers, wet wells,
    # valve pits, sewers and tanks are all confined spaces")
    starts += [e.end() for e in re.finditer(r"[.;]\s+(?=[A-Z])", paragraph)]
    return [item for start in starts for item in _list_at(paragraph[start:])]


_EXAMPLES = re.compile(r"\b(?:such as|including|includes|for example|e\.g\.|namely)", re.IGNORECASE)


def _list_at(text: str) -> list[str]:
    """The short names listed at the start of the text, when there are three at least."""
    body = re.sub(r"^[\s:,]*(?:any|all|every|a|an|the|such)\s+", "", text, flags=re.IGNORECASE)
    items = []
    for part in re.split(r"\s*,\s*|\s+(?:or|and)\s+", body):
        part_words = part.strip().rstrip(".;").split()
        if len(part_words) > _LIST_ITEM_WORDS:
            # the last kind, then what qualifies the list: "computer that has not been issued ..."
            cut = next((i for i, w in enumerate(part_words) if w.lower() in _QUALIFIER_WORDS), len(part_words))
            if 0 < cut <= _LIST_ITEM_WORDS:
                items.append(" ".join(part_words[:cut]))
            break
        if not part_words:
            break
        items.append(" ".join(part_words))
    return items if len(items) >= 3 else []


_QUALIFIER_WORDS = frozenset("that which who whose where when with capable used owned issued provided held of for in on "
                             "by from during under".split())
