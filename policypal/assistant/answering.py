"""The built-in answerer: composes an answer from retrieved evidence, every sentence cited.

It picks the sentences that answer the question from the top chunks, keeps each rule's
conditions and exceptions next to it, and says plainly when the policies the user can see
do not cover the question. No external service is involved.
"""
from __future__ import annotations

import datetime as dt
import math
import os
import re
from dataclasses import dataclass, field

from chunking.rules import is_lead_in, is_qualifier
from chunking.sentences import split_sentences_quick
from retrieval.access import today
from retrieval.context import ContextChunk, answer_context
from retrieval.models import Chunk

NOT_COVERED = "The policies you can see do not cover this question."
COVERED_MIN_SIMILARITY = 0.275  # cosine between the question and the best evidence chunk (measured on samples/eval)
SENTENCE_WINDOW = 0.12  # keep sentences scoring within this of the best one
CHUNK_WEIGHT = 1.0  # a sentence starts from its chunk's cosine to the question
LEXICAL_WEIGHT = 0.35  # bonus for sharing all of the question's (rare) terms
MAX_SENTENCES = 5
MAX_EVIDENCE_CHUNKS = 4


@dataclass
class ComposedAnswer:
    question: str
    as_of: dt.date
    text: str
    covered: bool
    citations: list[Chunk] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


@dataclass
class _Candidate:
    chunk_index: int
    position: int  # sentence index within its chunk
    text: str
    paragraph: int = 0  # paragraph (line) index within its chunk
    lead_in: bool = False  # introduces what follows (ends with ":"), e.g. a list's intro
    row: bool = False  # a table row sentence
    similarity: float = 0.0  # cosine of its chunk to the question
    shared: float = 0.0  # weighted share of the question's terms it contains
    score: float = 0.0  # similarity plus rank and shared-term bonuses


def answer_compose(*, question: str, user, as_of: dt.date | None = None, k: int = 5) -> ComposedAnswer:
    as_of = as_of or today()
    question = " ".join((question or "").split())
    if not question:
        return ComposedAnswer(question="", as_of=as_of, text="Please type a question.", covered=False)
    context = answer_context(question=question, user=user, as_of=as_of, k=k)
    evidence = context.chunks[:MAX_EVIDENCE_CHUNKS]
    if not evidence:
        return ComposedAnswer(question=question, as_of=as_of, text=NOT_COVERED, covered=False)
    candidates = _candidates([item.chunk for item in evidence])
    if not candidates:
        return ComposedAnswer(question=question, as_of=as_of, text=NOT_COVERED, covered=False)
    relevance = _relevance(evidence)
    _score(question, candidates, relevance)
    if max(relevance) < COVERED_MIN_SIMILARITY:
        return ComposedAnswer(question=question, as_of=as_of, text=NOT_COVERED, covered=False)
    chosen = _choose(candidates, max(c.score for c in candidates))
    if not chosen:
        return ComposedAnswer(question=question, as_of=as_of, text=NOT_COVERED, covered=False)
    text, cited = _render(chosen, evidence)
    cited_policies = {chunk.policy_id for chunk in cited}
    notices = [n for n in context.notices if n.version.policy_id in cited_policies]
    text = _with_upcoming_changes(text, cited, question, notices)
    return ComposedAnswer(
        question=question, as_of=as_of, text=text, covered=True, citations=cited, notices=[n.message for n in notices]
    )


def _with_upcoming_changes(text: str, cited: list[Chunk], question: str, notices) -> str:
    """Say what changes, and when, for each cited policy with a newer version not yet in force:
    the new version's best sentence that the current version does not say (with the conditions
    and exceptions that go with it), taken from the sections the answer cites when the new
    version has them. When those sections do not change, nothing is added (the notice remains)."""
    cited_policies = {c.policy_id for c in cited}
    for notice in notices:
        if not notice.candidates or notice.version.policy_id not in cited_policies:
            continue
        candidates = _candidates(notice.candidates)
        if not candidates:
            continue
        _score(question, candidates, [0.0] * len(notice.candidates))
        now = [c for c in cited if c.policy_id == notice.version.policy_id]
        said_now = {" ".join(s.split()) for c in now for line in c.text.splitlines() for s in split_sentences_quick(line)}
        cited_sections = {c.breadcrumb for c in now}
        same_sections = [c for c in candidates if notice.candidates[c.chunk_index].breadcrumb in cited_sections]
        changed = [c for c in same_sections or candidates if " ".join(c.text.split()) not in said_now]
        if not changed:
            continue
        best = max(changed, key=lambda c: c.score)
        keep = {id(best)}
        _keep_context([c for c in candidates if c.chunk_index == best.chunk_index], best, keep)
        sentences = _join_sentences([c.text for c in candidates if id(c) in keep])
        cited.append(notice.candidates[best.chunk_index])
        date = notice.version.effective_from.strftime("%-d %B %Y")
        text += f"\n\nFrom {date} (version {notice.version.number}, announced, not yet in force): {sentences} [{len(cited)}]"
    return text


def _relevance(evidence: list[ContextChunk]) -> list[float]:
    """Each evidence chunk's cosine to the question; a chunk found by full text alone counts as
    the least similar vector hit (its words matched, its vector was not among the best)."""
    known = [item.similarity for item in evidence if item.similarity is not None]
    floor = min(known) if known else COVERED_MIN_SIMILARITY
    return [float(item.similarity) if item.similarity is not None else floor for item in evidence]


def _candidates(chunks: list[Chunk]) -> list[_Candidate]:
    """The sentences of the chunks (a table's: its row sentences, all tables' in one query)."""
    rows: dict[int, list[str]] = {}
    tables = [c.pk for c in chunks if c.kind == Chunk.Kind.TABLE]
    if tables:
        found = Chunk.objects.filter(parent_id__in=tables, kind=Chunk.Kind.TABLE_ROW).order_by("parent_id", "ordinal")
        for parent_id, text in found.values_list("parent_id", "text"):
            rows.setdefault(parent_id, []).append(text)
    for chunk in chunks:
        if chunk.kind == Chunk.Kind.TABLE_ROW:
            rows[chunk.pk] = [chunk.text]
    return [c for index, chunk in enumerate(chunks) for c in _chunk_candidates(index, chunk, rows.get(chunk.pk))]


def _chunk_candidates(index: int, chunk: Chunk, rows: list[str] | None) -> list[_Candidate]:
    """The chunk's sentences (a table's: its row sentences), with their paragraph numbers."""
    if rows:
        return [_Candidate(index, position, row, paragraph=position, row=True) for position, row in enumerate(rows)]
    out: list[_Candidate] = []
    paragraphs = [line.strip() for line in chunk.text.splitlines() if line.strip() and not _is_table_rule(line)]
    for paragraph, line in enumerate(paragraphs):
        for sentence in split_sentences_quick(line):
            out.append(_Candidate(index, len(out), sentence, paragraph=paragraph, lead_in=is_lead_in(sentence)))
    return out


def _is_table_rule(line: str) -> bool:
    return bool(re.fullmatch(r"[|\s:-]+", line.strip()))


def _score(question: str, candidates: list[_Candidate], relevance: list[float]) -> None:
    """Score sentences without running the model again: the relevance of their chunk (its cosine
    to the question, already computed by the search) plus the share of the question's terms
    they contain, each term weighted by how rare it is among the candidates.

    Rare terms decide between sentences of one chunk: "L4" (in one table row) counts for much
    more than "Mumbai" (in every row's header), which the embedding barely tells apart anyway.
    """
    terms = _terms(question)
    candidate_terms = [_terms(c.text) for c in candidates]
    weights = {t: math.log(1 + len(candidates) / (1 + sum(t in ct for ct in candidate_terms))) for t in terms}
    total = sum(weights.values())
    for candidate, present in zip(candidates, candidate_terms):
        rank_bonus = 0.03 / (1 + candidate.chunk_index)  # ties go to the better-ranked chunk
        shared = sum(weights[t] for t in terms & present) / total if total else 0.0
        candidate.similarity = relevance[candidate.chunk_index]
        candidate.shared = shared
        candidate.score = CHUNK_WEIGHT * candidate.similarity + rank_bonus + LEXICAL_WEIGHT * shared


_TERM = re.compile(r"[a-z0-9][a-z0-9,.'-]*[a-z0-9]|[a-z0-9]")
_STOP = frozenset(
    "a an and are as at be by can do does for from have how i if in is it my of on or the to what when "
    "where which who will with me we our you your much many there this that any get i'm i've its".split()
)
_SUFFIX = re.compile(r"(?:ing|ed|es|s|ly)$")


def _terms(text: str) -> set[str]:
    """Lower-cased word stems (plural, -ed, -ing and -ly endings cut), stop words left out; a
    hyphenated word counts whole and by its parts ("first-class" also matches "first class")."""
    out = set()
    for word in _TERM.findall(text.lower()):
        word = word.rstrip(".,'")
        parts = [word] + (word.split("-") if "-" in word else [])
        for term in parts:
            if not term or term in _STOP:
                continue
            if term.isalpha() and len(term) > 4:
                term = _SUFFIX.sub("", term)
            out.add(term)
    return out


def _choose(candidates: list[_Candidate], best: float) -> list[_Candidate]:
    ranked = sorted(candidates, key=lambda c: -c.score)
    chosen = _best_rows_only([c for c in ranked if c.score >= best - SENTENCE_WINDOW])[:MAX_SENTENCES]
    by_chunk: dict[int, list[_Candidate]] = {}
    for candidate in candidates:
        by_chunk.setdefault(candidate.chunk_index, []).append(candidate)
    keep = {id(c) for c in chosen}
    for candidate in chosen:
        _keep_context(by_chunk[candidate.chunk_index], candidate, keep)
        if candidate.lead_in:
            _keep_what_it_introduces(by_chunk[candidate.chunk_index], candidate, keep)
    return [c for c in candidates if id(c) in keep]


def _best_rows_only(chosen: list[_Candidate]) -> list[_Candidate]:
    """Of one table's rows, only those naming the most of the question ("L4" picks the L4 row);
    when no row names more than the others (the question names no row), all of them stay."""
    best_share: dict[int, float] = {}
    for c in chosen:
        if c.row:
            best_share[c.chunk_index] = max(best_share.get(c.chunk_index, 0.0), c.shared)
    return [c for c in chosen if not c.row or c.shared >= best_share[c.chunk_index] - 1e-9]


def _keep_what_it_introduces(siblings: list[_Candidate], lead_in: _Candidate, keep: set[int], limit: int = 12) -> None:
    """A chosen lead-in ("The following are non-refundable:") brings the items after it."""
    for sibling in siblings[lead_in.position + 1 : lead_in.position + 1 + limit]:
        if sibling.lead_in:
            break
        keep.add(id(sibling))


def _keep_context(siblings: list[_Candidate], chosen: _Candidate, keep: set[int]) -> None:
    """What a chosen sentence needs to be read correctly, from its own chunk:
    - the conditions and exceptions that follow it: qualifying sentences after it in its
      paragraph, and a following paragraph that opens by qualifying it ("This does not apply...");
    - the rule a chosen qualifier refers back to;
    - the lead-in a chosen list item or a sentence after a colon depends on."""
    position = chosen.position
    following = position + 1
    while following < len(siblings) and siblings[following].paragraph == chosen.paragraph:
        if not is_qualifier(siblings[following].text):
            break
        keep.add(id(siblings[following]))
        following += 1
    paragraph = chosen.paragraph + 1
    while (opener := _first_of_paragraph(siblings, paragraph)) is not None and is_qualifier(opener.text):
        _keep_paragraph(siblings, paragraph, keep)
        paragraph += 1
    back = position
    while back > 0 and is_qualifier(siblings[back].text):
        back -= 1
        keep.add(id(siblings[back]))
    for sibling in reversed(siblings[:position]):
        if sibling.lead_in:
            keep.add(id(sibling))
            break
        if sibling.paragraph != chosen.paragraph and not _is_item(siblings, sibling):
            break


def _first_of_paragraph(siblings: list[_Candidate], paragraph: int) -> _Candidate | None:
    return next((s for s in siblings if s.paragraph == paragraph), None)


def _keep_paragraph(siblings: list[_Candidate], paragraph: int, keep: set[int]) -> None:
    keep.update(id(s) for s in siblings if s.paragraph == paragraph)


def _is_item(siblings: list[_Candidate], candidate: _Candidate) -> bool:
    """Is this sentence one of a run of short paragraphs (list items) under a lead-in?"""
    return any(s.lead_in and s.paragraph < candidate.paragraph for s in siblings)


def _render(chosen: list[_Candidate], evidence: list[ContextChunk]) -> tuple[str, list[Chunk]]:
    order = sorted({c.chunk_index for c in chosen}, key=lambda i: min(x.chunk_index for x in chosen if x.chunk_index == i))
    cited: list[Chunk] = []
    paragraphs = []
    for chunk_index in order:
        cited.append(evidence[chunk_index].chunk)
        n = len(cited)
        sentences = [c.text for c in chosen if c.chunk_index == chunk_index]
        paragraphs.append(_join_sentences(sentences) + f" [{n}]")
    return "\n\n".join(paragraphs), cited


def _join_sentences(sentences: list[str]) -> str:
    """Join sentences; table rows that share a caption ("Table 1: ...: row") state it once."""
    prefix = _shared_label(sentences)
    if prefix:
        rows = [s[len(prefix):].strip() for s in sentences]
        return prefix.rstrip() + " " + "; ".join(r.rstrip(".") for r in rows) + "."
    out = ""
    for sentence in sentences:
        separator = "\n" if _ITEM.match(sentence) else " "
        out = f"{out}{separator}{_as_sentence(sentence)}" if out else _as_sentence(sentence)
    return out


_ITEM = re.compile(r"^(?:[-*\u2022]\s|\(?\w{1,3}[.)]\s)")


def _shared_label(sentences: list[str]) -> str:
    """The longest shared lead-in ending with ": " (a table caption), or ""."""
    if len(sentences) < 2:
        return ""
    common = os.path.commonprefix(sentences)
    cut = common.rfind(": ")
    return common[: cut + 2] if cut >= 8 else ""


def _as_sentence(text: str) -> str:
    text = text.strip()
    return text if text[-1:] in ".!?:;" else text + "."
