"""Retrieval evaluation: does search find the whole evidence, only from what the asker may see?

Input: a JSON Lines file of questions (see samples/eval/README.md): question, evidence
(strings that must all be found), optional user, as_of, expect_no_answer, must_not_retrieve.

For every question the search runs as its user on its date, and the evaluation reports:
- evidence recall@k: the share of the question's evidence strings found in the text of the
  first k units of the answer context, taken within the token budget (compared case- and
  whitespace-insensitively; a chunk counts only when its own text holds the string: a table row
  whose table holds it does not). A unit is what the strategy's context is made of: for the
  structure-aware chunkings (the live table, ``structure``, ``overlap``) the packed context of
  ``packing.py`` (policy first, then sections: a unit is a section, or sections under one
  heading, whole or by their ranking blocks); for the baselines (``fixed``, ``fixed256``,
  ``heading``) a ranked chunk, from the same hybrid search;
- all-evidence@k: every evidence string of the question inside the first k units;
- MRR: 1 / rank of the first unit holding any evidence string;
- the same three within a token budget, without the k limit: the packed context filled to the
  budget for the structure-aware chunkings; for the baselines the answer context after parent
  expansion of the top ``budget_depth`` hits (default 20, so that the budget, not k, limits what
  is read: strategies with large chunks get no more text than those with small ones);
- no-answer questions (expect_no_answer): pass when no returned chunk holds a
  must_not_retrieve string and nothing comes from a policy the user may not read;
- must_not_retrieve strings found in any question's results (leaks);
- per question: the evidence missed and the chunks that ranked instead.
"""
from __future__ import annotations

import datetime as dt
import json
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from django.contrib.auth import get_user_model

from .access import policy_visible_q, today
from .context import HITS_PER_CONTEXT_CHUNK, ChunkFamily, ContextChunk, context_fit, packed_context
from .embedding import get_embedder
from .packing import pack, section_ranking
from .question_parts import QuestionParts, question_parts
from .search import SearchQuery, chunk_search_hybrid
from .sources import LIVE_CHUNKS, ChunkSource

DEFAULT_USER = "employee"
BUDGET_DEPTH = 20
NO_BUDGET = 10**9  # the top k units when no budget is given


class QuestionFileError(ValueError):
    """A line of the questions file cannot be used; the message names the line."""


@dataclass(frozen=True)
class EvalQuestion:
    line: int
    question: str
    evidence: tuple[str, ...] = ()
    user: str | None = None
    as_of: dt.date | None = None
    expect_no_answer: bool = False
    must_not_retrieve: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()

    @property
    def answerable(self) -> bool:
        return bool(self.evidence) and not self.expect_no_answer


def questions_load(path: str | Path) -> list[EvalQuestion]:
    questions = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise QuestionFileError(f"{path}:{number}: not JSON ({exc.msg})") from None
        questions.append(question_from_dict(data, line=number, where=f"{path}:{number}"))
    if not questions:
        raise QuestionFileError(f"{path}: no questions")
    return questions


def question_from_dict(data: dict, *, line: int = 0, where: str = "") -> EvalQuestion:
    if not isinstance(data, dict) or not str(data.get("question", "")).strip():
        raise QuestionFileError(f"{where}: needs a non-empty \"question\"")
    evidence = data.get("evidence", [])
    if isinstance(evidence, str):
        evidence = [evidence]
    expect_no_answer = bool(data.get("expect_no_answer", False))
    if not evidence and not expect_no_answer:
        raise QuestionFileError(f"{where}: needs \"evidence\" (a list of strings) or \"expect_no_answer\": true")
    as_of = data.get("as_of")
    try:
        as_of = dt.date.fromisoformat(as_of) if as_of else None
    except ValueError:
        raise QuestionFileError(f"{where}: as_of must be YYYY-MM-DD, got {as_of!r}") from None
    return EvalQuestion(
        line=line,
        question=" ".join(str(data["question"]).split()),
        evidence=tuple(str(e) for e in evidence if str(e).strip()),
        user=data.get("user") or None,
        as_of=as_of,
        expect_no_answer=expect_no_answer,
        must_not_retrieve=tuple(str(s) for s in data.get("must_not_retrieve", []) if str(s).strip()),
        tags=tuple(data.get("tags", [])),
    )


_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-", "\u00a0": " "})
_EMPHASIS = re.compile(r"\*\*|__|`")


def normalise(text: str) -> str:
    """Case-, whitespace- and typography-insensitive form for matching evidence to chunk text
    (curly quotes, dashes and Markdown emphasis markers are not part of the words)."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    return " ".join(_EMPHASIS.sub("", text).casefold().split())


# --------------------------------------------------------------------------- results


@dataclass
class ReturnedChunk:
    rank: int
    chunk_id: int
    policy: str
    version: int
    level: str
    kind: str
    breadcrumb: str
    token_count: int
    text: str
    evidence: list[int] = field(default_factory=list)  # indexes of the evidence strings it holds

    @classmethod
    def of(cls, rank: int, item: ContextChunk) -> ReturnedChunk:
        chunk = item.chunk
        return cls(
            rank=rank, chunk_id=chunk.pk, policy=chunk.version.policy.key, version=chunk.version.number,
            level=chunk.level, kind=chunk.kind, breadcrumb=chunk.breadcrumb, token_count=item.token_count,
            text=item.text,
        )


@dataclass
class Retrieved:
    """What one search returned, matched against the question."""

    chunks: list[ReturnedChunk]
    found: list[int | None]  # per evidence string: rank of the first chunk holding it
    leaks: list[str]  # must_not_retrieve strings found
    hidden_policies: list[str]  # policies returned that the user may not read

    @property
    def recall(self) -> float:
        return sum(r is not None for r in self.found) / len(self.found) if self.found else 0.0

    @property
    def all_found(self) -> bool:
        return bool(self.found) and all(r is not None for r in self.found)

    @property
    def reciprocal_rank(self) -> float:
        ranks = [r for r in self.found if r is not None]
        return 1.0 / min(ranks) if ranks else 0.0

    @property
    def tokens(self) -> int:
        return sum(c.token_count for c in self.chunks)


@dataclass
class QuestionResult:
    question: EvalQuestion
    user: str
    as_of: dt.date
    top_k: Retrieved
    budget: Retrieved | None

    @property
    def passed(self) -> bool:
        """Answerable: all evidence in the top k. No-answer: nothing it must not see."""
        if self.question.expect_no_answer:
            return all(not r.leaks and not r.hidden_policies for r in self._retrieved())
        return self.top_k.all_found

    def _retrieved(self) -> list[Retrieved]:
        return [r for r in (self.top_k, self.budget) if r is not None]


def _match(items: list[ContextChunk], question: EvalQuestion, visible_policy_ids: set[int]) -> Retrieved:
    """The returned chunks matched against the evidence; a chunk's rank is its unit's."""
    chunks = [ReturnedChunk.of(item.unit or position, item) for position, item in enumerate(items, start=1)]
    texts = [normalise(c.text) for c in chunks]
    evidence = [normalise(e) for e in question.evidence]
    found: list[int | None] = []
    for i, needle in enumerate(evidence):
        rank = next((c.rank for c, text in zip(chunks, texts) if needle in text), None)
        found.append(rank)
        for c, text in zip(chunks, texts):
            if needle in text:
                c.evidence.append(i)
    leaks = [s for s in question.must_not_retrieve if any(normalise(s) in text for text in texts)]
    hidden = sorted({item.chunk.version.policy.key for item in items if item.chunk.policy_id not in visible_policy_ids})
    return Retrieved(chunks=chunks, found=found, leaks=leaks, hidden_policies=hidden)


# --------------------------------------------------------------------------- metrics


@dataclass
class Metrics:
    questions: int
    answerable: int
    recall_at_k: float
    all_evidence_at_k: float
    mrr_at_k: float
    mean_top_k_tokens: float  # tokens (breadcrumb + text) of the top k chunks, on average
    recall_in_budget: float | None
    all_evidence_in_budget: float | None
    mrr_in_budget: float | None
    mean_budget_tokens: float | None
    no_answer_questions: int
    no_answer_passed: int
    leaks: int  # questions where a must_not_retrieve string or a hidden policy came back


def metrics_of(results: list[QuestionResult]) -> Metrics:
    answerable = [r for r in results if r.question.answerable]
    no_answer = [r for r in results if r.question.expect_no_answer]
    n = len(answerable) or 1

    def mean(values: Iterable[float]) -> float:
        return round(sum(values) / n, 4)

    with_budget = [r for r in answerable if r.budget is not None]
    return Metrics(
        questions=len(results),
        answerable=len(answerable),
        recall_at_k=mean(r.top_k.recall for r in answerable),
        all_evidence_at_k=mean(r.top_k.all_found for r in answerable),
        mrr_at_k=mean(r.top_k.reciprocal_rank for r in answerable),
        mean_top_k_tokens=round(sum(r.top_k.tokens for r in answerable) / n, 1),
        recall_in_budget=mean(r.budget.recall for r in with_budget) if with_budget else None,
        all_evidence_in_budget=mean(r.budget.all_found for r in with_budget) if with_budget else None,
        mrr_in_budget=mean(r.budget.reciprocal_rank for r in with_budget) if with_budget else None,
        mean_budget_tokens=round(sum(r.budget.tokens for r in with_budget) / len(with_budget), 1) if with_budget else None,
        no_answer_questions=len(no_answer),
        no_answer_passed=sum(r.passed for r in no_answer),
        leaks=sum(any(x.leaks or x.hidden_policies for x in r._retrieved()) for r in results),
    )


@dataclass
class StrategyReport:
    strategy: str
    k: int
    budget: int | None
    chunks: int | None  # searchable chunks of an evaluation table (None: the live table)
    results: list[QuestionResult]
    budget_depth: int = BUDGET_DEPTH

    @property
    def metrics(self) -> Metrics:
        return metrics_of(self.results)

    def misses(self) -> list[QuestionResult]:
        return [r for r in self.results if not r.passed or (r.budget is not None and r.question.answerable and not r.budget.all_found)]

    def as_dict(self, *, chunk_chars: int = 300) -> dict:
        return {
            "strategy": self.strategy,
            "k": self.k,
            "budget": self.budget,
            "budget_depth": self.budget_depth,
            "chunks": self.chunks,
            "metrics": asdict(self.metrics),
            "misses": [_miss_dict(r, chunk_chars=chunk_chars) for r in self.misses()],
        }


def _miss_dict(result: QuestionResult, *, chunk_chars: int) -> dict:
    q = result.question

    def retrieved(r: Retrieved | None) -> dict | None:
        if r is None:
            return None
        return {
            "missing": [e for e, rank in zip(q.evidence, r.found) if rank is None],
            "found_at": r.found,
            "leaks": r.leaks,
            "hidden_policies": r.hidden_policies,
            "tokens": r.tokens,
            "chunks": [
                {
                    "rank": c.rank, "chunk_id": c.chunk_id, "policy": c.policy, "version": c.version,
                    "kind": c.kind, "level": c.level, "breadcrumb": c.breadcrumb, "token_count": c.token_count,
                    "evidence": c.evidence, "text": c.text[:chunk_chars],
                }
                for c in r.chunks
            ],
        }

    return {
        "line": q.line, "question": q.question, "user": result.user, "as_of": result.as_of.isoformat(),
        "tags": list(q.tags), "evidence": list(q.evidence), "expect_no_answer": q.expect_no_answer,
        "top_k": retrieved(result.top_k), "in_budget": retrieved(result.budget),
    }


# --------------------------------------------------------------------------- running


class _Users:
    def __init__(self) -> None:
        self._users: dict[str, object] = {}
        self._visible: dict[str, set[int]] = {}

    def get(self, username: str):
        if username not in self._users:
            from policypal.policies.models import Policy

            try:
                user = get_user_model().objects.get(username=username)
            except get_user_model().DoesNotExist:
                raise QuestionFileError(f"no user named {username!r}") from None
            self._users[username] = user
            self._visible[username] = set(Policy.objects.filter(policy_visible_q(user)).values_list("pk", flat=True))
        return self._users[username]

    def visible(self, username: str) -> set[int]:
        self.get(username)
        return self._visible[username]


def question_vectors(questions: list[EvalQuestion]) -> dict[str, SearchQuery]:
    """Every question split (``question_parts``) and embedded, in one encode call."""
    parts = {q.question: question_parts(q.question) for q in questions}
    texts = list(dict.fromkeys(t for p in parts.values() for t in p.texts))
    vectors = dict(zip(texts, get_embedder().encode(texts)))
    return {question: SearchQuery(p, tuple(vectors[t] for t in p.texts)) for question, p in parts.items()}


def _as_query(question: str, value) -> SearchQuery:
    """A SearchQuery from ``question_vectors``, or one vector of the whole question (searched
    whole only: a caller comparing embedding models gives one vector per question)."""
    return value if isinstance(value, SearchQuery) else SearchQuery(QuestionParts(question), (value,))


def evaluate_questions(
    questions: list[EvalQuestion], *, k: int = 5, budget: int | None = 1000, user: str | None = None,
    as_of: dt.date | None = None, chunk_source: ChunkSource = LIVE_CHUNKS, strategy: str = "default",
    vectors: dict | None = None, budget_depth: int = BUDGET_DEPTH, packed: bool = True,
    on_question: Callable[[int, int], None] | None = None,
) -> StrategyReport:
    """Run every question against a chunk source: the live table, or an evaluation table.

    packed: the answer context of a structure-aware chunking (policy first, then sections, as
    the app packs it); False for a baseline: ranked chunks, and parent expansion for the budget."""
    users = _Users()
    vectors = vectors if vectors is not None else question_vectors(questions)
    queries = {q.question: _as_query(q.question, vectors[q.question]) for q in questions}
    family = ChunkFamily(chunk_source)
    results = []
    for number, q in enumerate(questions, start=1):
        username = q.user or user or DEFAULT_USER
        asker = users.get(username)
        day = q.as_of or as_of or today()
        depth = max(k * HITS_PER_CONTEXT_CHUNK, budget_depth if budget is not None else 0)
        hits = chunk_search_hybrid(
            question=q.question, user=asker, as_of=day, k=depth, query=queries[q.question], chunk_source=chunk_source,
        )
        visible = users.visible(username)
        in_budget = None
        if packed:  # from the hits the app reads (answer_context ranks k * HITS_PER_CONTEXT_CHUNK)
            ranking = section_ranking(query=queries[q.question], hits=hits[: k * HITS_PER_CONTEXT_CHUNK],
                                      chunk_source=chunk_source)
            top_items, _ = packed_context(pack(ranking, budget=budget or NO_BUDGET, max_units=k), hits,
                                          chunk_source=chunk_source)
            top = _match(top_items, q, visible)
            if budget is not None:
                budget_items, _ = packed_context(pack(ranking, budget=budget), hits, chunk_source=chunk_source)
                in_budget = _match(budget_items, q, visible)
        else:
            top = _match(context_fit(hits, budget=budget, expand=False, family=family, limit=k).chunks, q, visible)
            if budget is not None:
                in_budget = _match(context_fit(hits, budget=budget, expand=True, family=family).chunks, q, visible)
        results.append(QuestionResult(question=q, user=username, as_of=day, top_k=top, budget=in_budget))
        if on_question:
            on_question(number, len(questions))
    chunks = None if chunk_source is LIVE_CHUNKS else chunk_source.searchable_count()
    return StrategyReport(strategy=strategy, k=k, budget=budget, chunks=chunks, results=results, budget_depth=budget_depth)
