"""Text cues the chunker and the linter share: qualifiers, lead-ins, dangling starts."""
from __future__ import annotations

import re

_ENUMERATOR = re.compile(r"^\s*(?:[-*\u2022\u2013]\s*|\(?[a-zA-Z0-9]{1,3}[.)]\s+)")

_REFERRED_NOUNS = (
    r"limits?|rules?|restrictions?|caps?|ceilings?|allowances?|requirements?|entitlements?|"
    r"provisions?|conditions?|exceptions?|exemptions?|thresholds?|amounts?|rates?|benefits?|"
    r"clauses?|approvals?|eligibility|periods?|deadlines?|procedures?|policy|restrictions?"
)

_QUALIFIER_START = re.compile(
    rf"""^(?:
        unless\b | except(?:ing)?\b | excluding\b | save\s+(?:that|where|for|as)\b
      | only\s+(?:where|if|when|after|for|with|in|to)\b
      | provided\s+(?:that|always|further)\b | providing\s+that\b
      | subject\s+to\b | notwithstanding\b
      | however\b | nevertheless\b | nonetheless\b | but\b | otherwise\b
      | in\s+(?:which|such|that|this|these|those)\s+(?:a\s+)?(?:cases?|events?|instances?|circumstances?)\b
      | (?:this|that|these|those|it|such)\s+(?:only\s+)?(?:does|do|shall|will|may|can|must)\s+not\s+apply\b
      | (?:this|that|these|those|it)\s+(?:only\s+)?appl(?:y|ies)\b
      | (?:this|that|these|those|such|the\s+(?:above|foregoing|preceding|said|same))
            \s+(?:[\w'-]+\s+){{0,3}}?(?:{_REFERRED_NOUNS})\b
      | (?:the\s+)?(?:above|foregoing|preceding)\b
      | such\s+[\w-]+\b
      | exceptions?\b | exemptions?\b | note\b | n\.b\.
    )""",
    re.IGNORECASE | re.VERBOSE,
)

# Phrases that make a paragraph an exception wherever they sit in its first sentence.
_EXCEPTION_PHRASE = re.compile(
    r"""\b(?:is|are)\s+(?:an\s+)?(?:exceptions?|exempt(?:ed)?)\b
      | \bexceptions?\s+(?:to|from)\s+(?:this|that|the\s+above|these)\b
      | \b(?:as\s+an|by\s+way\s+of)\s+exception\b
      | \b(?:does|do|shall|will)\s+not\s+apply\b""",
    re.IGNORECASE | re.VERBOSE,
)
_FIRST_SENTENCE = re.compile(r"^.*?(?:[.!?](?=\s|$)|$)", re.DOTALL)

# Words that cannot open a self-contained chunk, even capitalised.
DANGLING_CAPITALISED = frozenset({"and", "or", "but", "nor", "which", "whereby", "whom", "whose"})
# Connectives worth naming in a warning when a chunk opens with them in lower case.
CONNECTIVES = frozenset(
    {"unless", "except", "where", "and", "or", "but", "which", "nor", "whereas", "whereby",
     "while", "whilst", "then", "so", "because", "although", "though", "that", "provided",
     "only", "if", "when", "however"}
)

_FIRST_WORD = re.compile(r"[A-Za-z][\w'-]*")


def strip_enumerator(text: str) -> str:
    return _ENUMERATOR.sub("", text, count=1).lstrip()


def is_qualifier(text: str) -> bool:
    """Does this text qualify what came before ("Unless ...", "This limit applies ...",
    "Enterprise contracts are an exception: ...")?"""
    opening = strip_enumerator(text)
    if _QUALIFIER_START.match(opening):
        return True
    first = _FIRST_SENTENCE.match(opening[:400])
    return bool(first and _EXCEPTION_PHRASE.search(first.group(0)))


def is_lead_in(text: str) -> bool:
    """Does this text introduce what follows (ends with a colon)?"""
    return text.rstrip().endswith(":")


def first_word(text: str) -> str:
    match = _FIRST_WORD.search(text[:80])
    return match.group(0) if match else ""


def dangling_start(text: str) -> str | None:
    """A warning if the text opens mid-thought, else None."""
    stripped = text.lstrip()
    if not stripped:
        return None
    word = first_word(stripped)
    if not word or not stripped.startswith(word):
        return None
    if word[0].islower():
        if word.lower() in CONNECTIVES:
            return f"starts with a dangling connective: {word!r}"
        return f"starts with a lowercase fragment: {stripped[:40]!r}"
    if word.lower() in DANGLING_CAPITALISED:
        return f"starts with a dangling connective: {word!r}"
    return None
