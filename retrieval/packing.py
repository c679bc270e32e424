"""Policy first, then sections: the answer context packed into a token budget.

A question about a situation is answered by a few sentences from two or three sections of one
policy. Ranking blocks across every policy and taking the first k fills the context with near
misses from neighbouring policies; here the context is built in three steps:

1. Policies. The hybrid search (``search.py``) ranks chunks of every visible policy. The versions
   of its best hits (``CANDIDATE_VERSIONS``) are the candidates. One query then scores every
   searchable chunk of those versions against each part of the question (the whole, the ask,
   the situation: ``question_parts``): cosine distance to the part's vector, and, for the
   nearest ones, which of the part's word stems the chunk holds. Each candidate is scored by how well it covers each part
   (its best few chunks per part: cosine plus a lexical share); the best one is chosen, and the
   second too when it scores alike (``ALIKE``): a question may span two policies.
2. Sections. Inside the chosen policies, every part ranks the chunks by reciprocal rank fusion
   of its cosine and its lexical score (inverse document frequency over the candidates'
   chunks, with length normalisation: BM25 with binary term frequency), and a section takes the
   score of its best chunk. The sections are taken round-robin over the parts (the first
   section of each part, then the second of each ...), so a scene-setting fact and each of
   the asks get their section early. With two policies: the best policy's first round, then
   the second's first two rounds (its best sections, in case it is the one that answers),
   then the rest of the best policy's, then the rest of the second's.
3. Packing. Sections are taken in that order while they fit the budget: a section whole when
   it fits and takes at most ``WHOLE_SECTION_SHARE`` of the budget, else its blocks that rank
   (a table row brings its table piece; chunks are already whole evidence units: a table with
   its header, a rule with its exception), in document order. Sections under the same heading
   (siblings such as "3.3 Carry forward" and "3.4 Encashment" under "3 Earned leave") make one
   unit of the answer context, in document order; at most ``k`` units are taken. What ranked
   but did not fit is reported as left out, with breadcrumbs and token counts.

Cost: two queries besides the search and one to load the rows packed. The first gives the
question parts' stems (no table read). The second measures one exact distance per chunk of the
candidate versions and part, with no join and no text carried (a few versions: no index is
needed and none is used), keeps the CHUNKS_PER_VERSION nearest of each, and only for those
joins their section and table piece and tests the question's stems. At 100,000 chunks (172
policies of about 580 searchable chunks) it reads some 1,800 chunks' vectors: about 12 ms on
the development machine, the rest of the packing about 3 ms (bench/query_latency.py --budget).
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from django.db import connection

from .models import Chunk
from .rrf import RRF_K
from .search import PART_WEIGHTS, SearchHit, SearchQuery, vector_literal
from .sources import LIVE_CHUNKS, ChunkSource

CANDIDATE_VERSIONS = 3  # versions of the best hits whose chunks are all scored
ALIKE = 0.9  # a second policy is packed too when its coverage score is at least this share of the best's
FIRST_ROUNDS = (1, 2)  # round-robin rounds of the best policy, then of the second, before the rest of both
WHOLE_SECTION_SHARE = 0.25  # a section larger than this share of the budget is packed by its ranking blocks
CHUNKS_PER_VERSION = 200  # chunks ranked per candidate version: the nearest to some part of the question
COVERAGE_DEPTH = 3  # a policy's coverage of a part: the mean of its best this many chunks
LEXICAL_SHARE = 0.3  # weight of the lexical score against the cosine in a policy's coverage
LEXICAL_FULL_STEMS = 10  # a part's lexical ranking weighs as its cosine ranking from this many stems, less below
RELEVANT_BLOCK_RANK = 12  # a block of a long section is packed when it ranks this high for some part
LEFT_OUT_MAX = 10  # sections reported as left out
BM25_K1 = 1.2
BM25_B = 0.5  # the usual 0.75 halved: with binary term frequency a long chunk (a glossary, a table) holds each term once


# --------------------------------------------------------------------------- scoring rows


@dataclass(frozen=True)
class ScoredChunk:
    """One searchable chunk of a candidate version, as the scoring query returns it."""

    id: int
    version_id: int
    section_id: int | None
    holder_id: int  # the chunk shown for it: itself, or a table row's table piece
    ordinal: int
    token_count: int
    holder_tokens: int
    section_tokens: int
    breadcrumb: str
    distances: tuple[float, ...]  # cosine distance to each part's vector
    stems: frozenset[str]  # the question's stems it holds
    length: int  # distinct stems of the chunk (its length for BM25)


@lru_cache(maxsize=16)
def _scores_sql(table: str, parts: int) -> str:
    """Distances first, over the candidates' chunks alone (no join, no tsvector carried), the
    nearest `per_version` of each version kept; then, for those only, their section, their
    table piece and the question's stems they hold."""
    distances = ", ".join(f"c.embedding <=> %(qvec{i})s::vector AS d{i}" for i in range(parts))
    nearest = f"LEAST({', '.join(f'd{i}' for i in range(parts))})" if parts > 1 else "d0"
    return f"""
WITH terms AS MATERIALIZED (
    SELECT array_agg(t.stem ORDER BY t.stem) AS stems,
           array_agg(quote_literal(t.stem)::tsquery ORDER BY t.stem) AS queries
    FROM unnest(%(stems)s::text[]) AS t(stem)
),
measured AS MATERIALIZED (
    SELECT c.id, c.version_id, {distances}
    FROM {table} c
    WHERE c.version_id = ANY(%(versions)s::bigint[]) AND c.searchable AND c.embedding IS NOT NULL
),
near AS MATERIALIZED (
    SELECT m.*, row_number() OVER (PARTITION BY m.version_id ORDER BY {nearest}, m.id) AS nearness FROM measured m
)
SELECT c.id, c.version_id,
       CASE WHEN p.level = 'section' THEN p.id WHEN p.level = 'block' THEN p.parent_id END AS section_id,
       CASE WHEN c.kind = 'table_row' AND p.level = 'block' THEN p.id ELSE c.id END AS holder_id,
       c.ordinal, c.token_count,
       CASE WHEN c.kind = 'table_row' AND p.level = 'block' THEN p.token_count ELSE c.token_count END AS holder_tokens,
       COALESCE(s.token_count, CASE WHEN c.kind = 'table_row' AND p.level = 'block' THEN p.token_count
                                    ELSE c.token_count END) AS section_tokens,
       c.breadcrumb,
       ARRAY[{', '.join(f'n.d{i}' for i in range(parts))}]::float8[] AS distances,
       ARRAY(SELECT t.stems[i] FROM generate_subscripts(t.queries, 1) AS i WHERE c.search_vector @@ t.queries[i]) AS held,
       length(c.search_vector) AS length
FROM near n
JOIN {table} c ON c.id = n.id
CROSS JOIN terms t
LEFT JOIN {table} p ON p.id = c.parent_id
LEFT JOIN {table} s ON s.id = CASE WHEN p.level = 'section' THEN p.id WHEN p.level = 'block' THEN p.parent_id END
WHERE n.nearness <= %(per_version)s
"""


_STEMS_SQL = "SELECT ARRAY(SELECT l.lexeme FROM unnest(to_tsvector('english', t)) AS l) FROM unnest(%s::text[]) AS t"


def scored_chunks(
    *, query: SearchQuery, versions: Sequence[int], chunk_source: ChunkSource = LIVE_CHUNKS,
    per_version: int | None = None,
) -> tuple[list[ScoredChunk], list[frozenset[str]]]:
    """The searchable chunks of the versions, scored against every part of the question; and
    each part's word stems (PostgreSQL's 'english' configuration, as the full-text index)."""
    if not versions:
        return [], []
    texts = query.parts.texts
    params = {f"qvec{i}": vector_literal(v) for i, v in enumerate(query.vectors)}
    with connection.cursor() as cursor:
        cursor.execute(_STEMS_SQL, [list(texts)])
        part_stems = [frozenset(row[0]) for row in cursor.fetchall()]
        stems = sorted(set().union(*part_stems))
        cursor.execute(_scores_sql(chunk_source.table, len(texts)),
                       {**params, "versions": list(versions), "stems": stems,
                        "per_version": per_version or CHUNKS_PER_VERSION})
        rows = [
            ScoredChunk(id=r[0], version_id=r[1], section_id=r[2], holder_id=r[3], ordinal=r[4], token_count=r[5],
                        holder_tokens=r[6], section_tokens=r[7], breadcrumb=r[8], distances=tuple(r[9]),
                        stems=frozenset(r[10]), length=r[11] or 1)
            for r in cursor.fetchall()
        ]
    return rows, part_stems


# --------------------------------------------------------------------------- ranking (pure)


def lexical_scores(rows: Sequence[ScoredChunk], stems: frozenset[str]) -> dict[int, float]:
    """BM25 with binary term frequency: inverse document frequency over `rows`, length
    normalised by the chunk's number of distinct stems. Only chunks holding a stem score."""
    if not rows or not stems:
        return {}
    n = len(rows)
    df: dict[str, int] = defaultdict(int)
    for row in rows:
        for stem in row.stems & stems:
            df[stem] += 1
    idf = {stem: math.log(1 + (n - count + 0.5) / (count + 0.5)) for stem, count in df.items()}
    mean_length = sum(r.length for r in rows) / n
    out = {}
    for row in rows:
        held = row.stems & stems
        if held:
            norm = (BM25_K1 + 1) / (1 + BM25_K1 * (1 - BM25_B + BM25_B * row.length / mean_length))
            out[row.id] = sum(idf[s] for s in held) * norm
    return out


@dataclass
class PartRanking:
    """One part of the question over the candidates' chunks."""

    weight: float
    chunk_scores: dict[int, float]  # RRF of cosine rank and lexical rank, per chunk id
    chunk_rank: dict[int, int]  # 1 = best
    similarity: dict[int, float]  # cosine similarity per chunk id
    lexical: dict[int, float]


def part_rankings(rows: Sequence[ScoredChunk], part_stems: Sequence[frozenset[str]],
                  weights: Sequence[float] = PART_WEIGHTS) -> list[PartRanking]:
    """Each part's ranking of the chunks: reciprocal rank fusion of the cosine ranking and the
    lexical ranking. A few stems rank coarsely (a chunk holding the one common word of a short
    question ranks high), so a part with fewer than LEXICAL_FULL_STEMS stems weighs its lexical
    ranking in proportion."""
    out = []
    for index, stems in enumerate(part_stems):
        lexical_weight = min(1.0, len(stems) / LEXICAL_FULL_STEMS)
        similarity = {r.id: 1.0 - r.distances[index] for r in rows}
        lexical = lexical_scores(rows, stems)
        by_vector = sorted(rows, key=lambda r: (r.distances[index], r.id))
        by_text = sorted(lexical, key=lambda cid: (-lexical[cid], cid))
        scores: dict[int, float] = defaultdict(float)
        for rank, row in enumerate(by_vector, start=1):
            scores[row.id] += 1.0 / (RRF_K + rank)
        for rank, cid in enumerate(by_text, start=1):
            scores[cid] += lexical_weight / (RRF_K + rank)
        ordered = sorted(scores, key=lambda cid: (-scores[cid], cid))
        out.append(PartRanking(weight=weights[index] if index < len(weights) else weights[-1],
                               chunk_scores=dict(scores), chunk_rank={cid: i for i, cid in enumerate(ordered, start=1)},
                               similarity=similarity, lexical=lexical))
    return out


def policy_coverage(rows: Sequence[ScoredChunk], rankings: Sequence[PartRanking]) -> dict[int, float]:
    """Per version: how well its chunks cover each part of the question (the mean cosine of its
    best COVERAGE_DEPTH chunks, plus LEXICAL_SHARE times the mean of their best lexical scores
    over the best lexical score of any candidate), weighted by part."""
    by_version: dict[int, list[int]] = defaultdict(list)
    for row in rows:
        by_version[row.version_id].append(row.id)
    coverage: dict[int, float] = defaultdict(float)
    for ranking in rankings:
        top_lexical = max(ranking.lexical.values(), default=0.0) or 1.0
        for version, ids in by_version.items():
            cosines = sorted((ranking.similarity[i] for i in ids), reverse=True)[:COVERAGE_DEPTH]
            lexical = sorted((ranking.lexical.get(i, 0.0) / top_lexical for i in ids), reverse=True)[:COVERAGE_DEPTH]
            coverage[version] += ranking.weight * (_mean(cosines) + LEXICAL_SHARE * _mean(lexical))
    return dict(coverage)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def choose_policies(coverage: dict[int, float], *, alike: float | None = None) -> list[int]:
    """The best-covering version, and the second when it covers alike (ALIKE)."""
    alike = ALIKE if alike is None else alike
    ordered = sorted(coverage, key=lambda v: (-coverage[v], v))
    if not ordered:
        return []
    best = coverage[ordered[0]]
    return ordered[:1] + [v for v in ordered[1:2] if best > 0 and coverage[v] >= alike * best]


def section_order(rows: Sequence[ScoredChunk], rankings: Sequence[PartRanking], versions: Sequence[int],
                  rounds: tuple[int, int] | None = None) -> list[int]:
    """Section ids of the versions, round-robin over the parts, each part's sections by their
    best chunk's score, heavier parts first in a round. `rounds`: only the rounds in
    [start, stop), counted from 0."""
    wanted = set(versions)
    section_of = {r.id: r.section_id for r in rows if r.version_id in wanted and r.section_id is not None}
    turns = []
    for part, ranking in enumerate(rankings):
        best: dict[int, float] = {}
        for cid, section in section_of.items():
            score = ranking.chunk_scores.get(cid, 0.0)
            if score > best.get(section, -1.0):
                best[section] = score
        order = sorted(best, key=lambda s: (-best[s], s))
        weight = ranking.weight
        turns += [(float(n), -weight, part, n, section) for n, section in enumerate(order)]
    start, stop = rounds or (0, math.inf)
    out: list[int] = []
    seen: set[int] = set()
    for time, _, _, _, section in sorted(turns):
        if start <= time < stop and section not in seen:
            seen.add(section)
            out.append(section)
    return out


# --------------------------------------------------------------------------- packing (pure)


@dataclass(frozen=True)
class PackedPiece:
    """A chunk to show: a whole section, or a block (or table piece) of a long one."""

    chunk_id: int
    section_id: int
    unit: int  # 1-based: the unit of the answer context it belongs to
    token_count: int
    ordinal: int
    score: float
    expanded_from: tuple[int, ...]  # ranked chunk ids it stands for
    whole_section: bool


@dataclass(frozen=True)
class LeftOut:
    section_id: int
    breadcrumb: str
    token_count: int
    version_id: int
    reason: str  # "budget": did not fit; "units": beyond the k units; "partly": some of its blocks did not fit


@dataclass
class Packing:
    pieces: list[PackedPiece] = field(default_factory=list)
    left_out: list[LeftOut] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)  # the policies chosen, best first

    @property
    def token_count(self) -> int:
        return sum(p.token_count for p in self.pieces)


def unit_key(breadcrumb: str, version_id: int, section_id: int, root_depth: int) -> tuple:
    """Sections under the same heading make one unit, below the headings every section of the
    document shares (its title, or a heading that wraps the whole document)."""
    parts = breadcrumb.split(" > ")
    if len(parts) - 1 > root_depth:
        return (version_id, tuple(parts[:-1]))
    return (version_id, section_id)


def _root_depth(breadcrumbs: list[str]) -> int:
    """Length of the breadcrumb prefix every section of a document shares."""
    split = [b.split(" > ") for b in breadcrumbs]
    if not split:
        return 1
    depth = 0
    for level in zip(*split):
        if len(set(level)) != 1:
            break
        depth += 1
    return max(1, min(depth, min(len(s) for s in split) - 1))


def pack_sections(
    rows: Sequence[ScoredChunk], rankings: Sequence[PartRanking], order: Sequence[int], *, budget: int,
    max_units: int | None = None, whole_share: float | None = None,
) -> Packing:
    """Take sections in `order` while they fit the budget: whole when they fit and are small
    enough, else their ranking blocks; group them into units (see ``unit_key``)."""
    whole_share = WHOLE_SECTION_SHARE if whole_share is None else whole_share
    by_section: dict[int, list[ScoredChunk]] = defaultdict(list)
    for row in rows:
        if row.section_id is not None:
            by_section[row.section_id].append(row)
    root = {v: _root_depth([r.breadcrumb for r in rows if r.version_id == v]) for v in {r.version_id for r in rows}}
    best_rank = {r.id: min((rk.chunk_rank.get(r.id, 10**9) for rk in rankings), default=10**9) for r in rows}
    best_score = {r.id: max((rk.chunk_scores.get(r.id, 0.0) * rk.weight for rk in rankings), default=0.0) for r in rows}
    packing = Packing()
    units: dict[tuple, int] = {}
    used = 0
    for section_id in order:
        members = by_section.get(section_id)
        if not members:
            continue
        first = members[0]
        key = unit_key(first.breadcrumb, first.version_id, section_id, root[first.version_id])
        section_tokens = first.section_tokens
        if key not in units and max_units is not None and len(units) >= max_units:
            _left_out(packing, first, section_tokens, "units")
            continue
        score = max(best_score[m.id] for m in members)
        ranked_ids = tuple(sorted((m.id for m in members), key=lambda i: best_rank[i]))
        if used + section_tokens <= budget and section_tokens <= whole_share * budget:
            unit = units.setdefault(key, len(units) + 1)
            packing.pieces.append(PackedPiece(section_id, section_id, unit, section_tokens, min(m.ordinal for m in members),
                                              score, ranked_ids, True))
            used += section_tokens
            continue
        blocks = _relevant_blocks(members, best_rank)
        taken, tokens = [], 0
        for holder_id, holder_tokens, ordinal, stands_for in blocks:
            if used + tokens + holder_tokens <= budget:
                taken.append((holder_id, holder_tokens, ordinal, stands_for))
                tokens += holder_tokens
        if not taken:
            _left_out(packing, first, section_tokens, "budget")
            continue
        unit = units.setdefault(key, len(units) + 1)
        for holder_id, holder_tokens, ordinal, stands_for in taken:
            packing.pieces.append(PackedPiece(holder_id, section_id, unit, holder_tokens, ordinal, score, stands_for, False))
        used += tokens
        if tokens < section_tokens:
            _left_out(packing, first, section_tokens - tokens, "partly")
    packing.pieces.sort(key=lambda p: (p.unit, p.ordinal))
    return packing


def _relevant_blocks(members: list[ScoredChunk], best_rank: dict[int, int]) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """(holder id, tokens, ordinal, ranked ids) of the section's ranking blocks, best first; a
    table row stands for its table piece."""
    holders: dict[int, list] = {}
    for m in sorted(members, key=lambda m: best_rank[m.id]):
        if best_rank[m.id] > RELEVANT_BLOCK_RANK and holders:
            break
        entry = holders.setdefault(m.holder_id, [m.holder_id, m.holder_tokens, m.ordinal, []])
        entry[2] = min(entry[2], m.ordinal)
        entry[3].append(m.id)
    return [(h, t, o, tuple(ids)) for h, t, o, ids in holders.values()]


def _left_out(packing: Packing, row: ScoredChunk, tokens: int, reason: str) -> None:
    if len(packing.left_out) < LEFT_OUT_MAX:
        packing.left_out.append(LeftOut(row.section_id, row.breadcrumb, tokens, row.version_id, reason))


# --------------------------------------------------------------------------- the whole step


def candidate_versions(hits: Sequence[SearchHit], *, limit: int | None = None) -> list[int]:
    """The versions of the best hits, in the order of their best hit (CANDIDATE_VERSIONS of them)."""
    return list(dict.fromkeys(h.chunk.version_id for h in hits))[: limit or CANDIDATE_VERSIONS]


@dataclass
class SectionRanking:
    """The candidates' chunks scored, the policies chosen and their sections in packing order."""

    rows: list[ScoredChunk]
    rankings: list[PartRanking]
    versions: list[int]  # chosen, best first
    order: list[int]  # section ids: the chosen policies' sections, then the other candidates'


def section_ranking(
    *, query: SearchQuery, hits: Sequence[SearchHit], chunk_source: ChunkSource = LIVE_CHUNKS, alike: float | None = None,
) -> SectionRanking:
    """Choose the policies and rank their sections (steps 1 and 2 of the module docstring)."""
    candidates = candidate_versions(hits)
    rows, part_stems = scored_chunks(query=query, versions=candidates, chunk_source=chunk_source)
    if not rows:
        return SectionRanking([], [], [], [])
    rankings = part_rankings(rows, part_stems)
    chosen = choose_policies(policy_coverage(rows, rankings), alike=alike)
    steps = [section_order(rows, rankings, chosen[:1])]
    if len(chosen) > 1:
        best_first, second_first = FIRST_ROUNDS
        steps = [section_order(rows, rankings, chosen[:1], rounds=(0, best_first)),
                 section_order(rows, rankings, chosen[1:], rounds=(0, second_first)),
                 steps[0], section_order(rows, rankings, chosen[1:])]
    steps.append(section_order(rows, rankings, [v for v in candidates if v not in chosen]))
    order = list(dict.fromkeys(s for step in steps for s in step))
    return SectionRanking(rows, rankings, chosen, order)


def pack(ranking: SectionRanking, *, budget: int, max_units: int | None = None) -> Packing:
    """Step 3 of the module docstring over a section ranking."""
    packing = pack_sections(ranking.rows, ranking.rankings, ranking.order, budget=budget, max_units=max_units)
    packing.versions = list(ranking.versions)
    return packing


def packed_chunks(packing: Packing, chunk_source: ChunkSource = LIVE_CHUNKS) -> dict[int, Chunk]:
    """The rows of the packed chunks (one query), with their version, policy and source."""
    return chunk_source.by_ids_with_sources([p.chunk_id for p in packing.pieces])
