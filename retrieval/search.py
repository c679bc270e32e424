"""Hybrid search: vector and full-text candidates, filtered inside SQL, fused by RRF.

Each candidate list applies the same filter (the versions the asker may see on the asked date:
published, ready, not retired, in force, in the asker's access scope) in its own WHERE
clause, before ranking, so a narrow filter never leaves the top k empty or filled with chunks
the asker may not see.

Two statements in one transaction: the first sets the HNSW search options (set_config(...,
true) is SET LOCAL) and returns the ids of the versions the asker may see; the second returns
both candidate lists, filtered by ``version_id = ANY(<those ids>)``. The ids are passed as
values, not as a subquery, on purpose: only with the values in hand does the planner know how
many chunks pass the filter; with a subquery it guesses a few thousand rows and, on 100,000
chunks all visible, sorts every one of them by distance (about a second) instead of using the
index. (Which vector plan runs is now chosen here, see "Exact or index" below.) With pgvector's iterative index scans
(``hnsw.iterative_scan = relaxed_order``) the index keeps scanning until enough rows pass
the filter; ``relaxed_order`` may return them slightly out of order, so the list is
re-sorted by distance here.

Exact or index: the vector plan is chosen by the measured width of the filter, not left to the
planner. The same statement that returns the version ids sums those versions' searchable chunk
counts (table retrieval_versionchunkcount, kept by triggers on the chunk table): a fraction of a
millisecond for thousands of versions. When few chunks pass the filter (at most
sqrt(EXACT_SCAN_RATIO * n * searchable chunks): 13,500 of a million, 4,500 of 100,000; the
point where the two plans cost the same, measured), every vector list is exact: the distance
of each allowed chunk, sorted (recall 1 by construction, and faster than an HNSW scan that
must step over the many forbidden neighbours of each allowed one). Above it the HNSW iterative
scan serves, its budget of visited tuples (hnsw.max_scan_tuples, and the memory for them,
hnsw.scan_mem_multiplier) scaled to 1 / (the fraction of the index that passes the filter), so
that the narrowest filters it serves do not run out of budget before the list is full.
(At a million chunks and a 10 % filter the lists are full with the floor budget already; what
costs recall there is the graph: the unfiltered HNSW scan misses the same nearest chunks, see
bench/README.md.)

Audience lists: above the exact threshold, the asker's allowed chunks are split by audience
(the group set of their policy, column access_groups: retrieval/audience_indexes.py; the counts
per version and audience are kept by triggers, table retrieval_audiencechunkcount). When they
lie in at most SEARCH_AUDIENCE_MAX_LISTS audiences and each either has a valid partial HNSW
index (``WHERE searchable AND access_groups = '{3}'``) or holds few allowed chunks (those
sorted exactly, at most the exact threshold together), each vector list is one list per
audience, merged by distance: the partial index's graph holds only that audience, so the
version filter keeps almost every row the scan meets (the budget is scaled to allowed /
audience size, ~1) and recall is that of an unfiltered graph of the audience's size, not that
of the global graph under a 10 % filter (0.84 at a million chunks). Every list keeps the
version filter: the audience column picks the index, never the rows; a stale audience can
cost recall, never show a chunk. Otherwise (more audiences, or a large one without an index)
the global index serves as above.

A long question that tells a situation before it asks (``question_parts``) is searched with
three vectors in the same statement: the whole question, the ask and the situation (one more
HNSW scan each); the four lists are fused by RRF, the situation counting half as the text list
does. A short question is one vector, as before.
"""
from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.db import connection, transaction

from .access import VERSIONS_IN_FORCE_SQL, access_params, id_array
from .audience_indexes import (
    AUDIENCE_INDEXES_SQL,
    Audience,
    audience_literal,
    parse_audience,
    predicate_audience,
)
from .embedding import get_embedder
from .exact_threshold import EXACT_SCAN_RATIO, exact_max_rows  # noqa: F401 - re-exported
from .models import EMBEDDING_DIMENSIONS, Chunk
from .question_parts import QuestionParts, question_parts
from .rrf import reciprocal_rank_fusion
from .sources import LIVE_CHUNKS, ChunkSource

# Weights of the two candidate lists in the fusion. Questions are paraphrased more often than
# they repeat the policy's words, and an any-word full-text query ranks chunks full of a common
# word ("leave" in a leave policy) high, so the vector list counts double. Settings
# SEARCH_VECTOR_WEIGHT / SEARCH_TEXT_WEIGHT override these.
VECTOR_WEIGHT = 1.0
TEXT_WEIGHT = 0.5
# Weights of the extra vector lists of a split question, relative to VECTOR_WEIGHT: the ask
# weighs as the whole question, the situation as the text list.
PART_WEIGHTS = (1.0, 1.0, 0.5)  # whole, ask, situation

_WORD = re.compile(r"[\w][\w.,'-]*[\w]|[\w]", re.UNICODE)
_IDENTIFIER = re.compile(r"^[a-z_][a-z0-9_]*$")


@dataclass(frozen=True)
class SearchQuery:
    """A question ready to search: its parts (``question_parts``) and one vector per part text."""

    parts: QuestionParts
    vectors: tuple  # numpy vectors, aligned with parts.texts

    @property
    def question(self) -> str:
        return self.parts.whole

    @property
    def vector(self):
        return self.vectors[0]


def search_query(question: str, *, query_vector=None) -> SearchQuery:
    """Split the question and embed its parts (one encode call; none for a short question whose
    vector is given)."""
    parts = question_parts(question)
    texts = parts.texts
    if query_vector is not None:
        rest = list(get_embedder().encode(texts[1:])) if len(texts) > 1 else []
        return SearchQuery(parts, (query_vector, *rest))
    return SearchQuery(parts, tuple(get_embedder().encode(texts)))


@dataclass
class SearchHit:
    chunk: Chunk
    score: float
    similarity: float | None  # cosine similarity to the question, when a vector candidate
    vector_rank: int | None
    text_rank: int | None


def question_words(question: str) -> list[str]:
    """The question's words for the full-text query ("or", "and", "not" would be read as operators)."""
    return [w for w in _WORD.findall(question) if w.lower() not in ("or", "and", "not")]


def websearch_terms(question: str) -> str:
    """A websearch_to_tsquery string that matches any of the question's words (ranked by ts_rank_cd).

    Stop words are dropped by the 'english' configuration."""
    return " or ".join(question_words(question))


def vector_literal(vector) -> str:
    return "[" + ",".join(f"{float(x):.7f}" for x in vector) + "]"


# The full-text list ranks every allowed chunk that matches one of the question's words, and
# ts_rank_cd costs 10-30 microseconds a row: a question with a common word ("employee",
# "approval") would rank a good part of a large index. So the words are taken rarest first
# while the chunks they are expected to match (pg_stats' lexeme frequencies of the tsvector
# column, times the table's rows) stay within this bound; commoner words are left to the
# vector list (a crude inverse document frequency: they say little about which chunk is
# meant). On an index of fewer rows than the bound, or before the table was first
# analysed, every word is kept. Setting SEARCH_TEXT_MAX_MATCHES overrides it.
TEXT_MAX_MATCHES = 1000


def _vector_list_sql(table: str, index: int, *, exact: bool = False) -> str:
    name, param = ("vec", "qvec") if index == 0 else (f"vec{index}", f"qvec{index}")
    if exact:
        # OFFSET 0 keeps the subquery a subquery: the ORDER BY above it cannot be served by the
        # HNSW index, so every allowed row's distance is computed (read through the version index)
        return f"""{name} AS MATERIALIZED (
    SELECT allowed.id, allowed.value FROM (
        SELECT c.id, c.embedding <=> %({param})s::vector AS value
        FROM {table} c
        WHERE c.version_id = ANY(%(versions)s::bigint[]) AND c.searchable AND c.embedding IS NOT NULL
        OFFSET 0
    ) allowed
    ORDER BY allowed.value, allowed.id
    LIMIT %(n)s
)"""
    return f"""{name} AS MATERIALIZED (
    SELECT c.id, c.embedding <=> %({param})s::vector AS value
    FROM {table} c
    WHERE c.version_id = ANY(%(versions)s::bigint[]) AND c.searchable
    ORDER BY c.embedding <=> %({param})s::vector
    LIMIT %(n)s
)"""


def _audience_vector_list_sql(table: str, index: int, audiences: tuple[tuple[Audience, bool], ...]) -> str:
    """One vector list made of one list per audience (see "Audience lists"), merged by distance.
    An indexed audience's list is the scan of its partial HNSW index: its predicate (searchable
    AND access_groups = <the audience, written as a literal>) is in the WHERE clause, so the
    planner may prove it; an audience without an index is small and sorted exactly. Every list
    keeps the version filter: the audience column only picks the index, never the rows one may see."""
    name, param = ("vec", "qvec") if index == 0 else (f"vec{index}", f"qvec{index}")
    branches = []
    for audience, indexed in audiences:
        where = f"c.searchable AND c.access_groups = {audience_literal(audience)}"
        if indexed:
            # "+ 0": the version filter is applied row by row to what the partial index returns
            # (nearly every row of the audience passes it), so the version index offers the
            # planner no cheaper-looking path (its row estimate multiplies the two filters)
            branches.append(f"""(SELECT c.id, c.embedding <=> %({param})s::vector AS value
         FROM {table} c
         WHERE {where} AND c.version_id + 0 = ANY(%(versions)s::bigint[])
         ORDER BY c.embedding::halfvec({EMBEDDING_DIMENSIONS}) <=> %({param})s::halfvec({EMBEDDING_DIMENSIONS})
         LIMIT %(n)s)""")
        else:
            branches.append(f"""(SELECT allowed.id, allowed.value FROM (
             SELECT c.id, c.embedding <=> %({param})s::vector AS value
             FROM {table} c
             WHERE {where} AND c.version_id = ANY(%(versions)s::bigint[]) AND c.embedding IS NOT NULL
             OFFSET 0
         ) allowed
         ORDER BY allowed.value, allowed.id
         LIMIT %(n)s)""")
    union = "\n        UNION ALL\n        ".join(branches)
    return f"""{name} AS MATERIALIZED (
    SELECT merged.id, merged.value FROM (
        {union}
    ) merged
    ORDER BY merged.value, merged.id
    LIMIT %(n)s
)"""


@lru_cache(maxsize=64)
def candidates_sql(table: str = LIVE_CHUNKS.table, vectors: int = 1, *, exact: bool = False,
                   audiences: tuple[tuple[Audience, bool], ...] = ()) -> str:
    """The candidate query over a chunk table (a ChunkSource's: the live one, or an evaluation's).

    Parameters: versions (ids of the versions the asker may see, see ``prepare_search``), qvec
    (vector literal; qvec1, qvec2 for the further `vectors`), words (the question's words),
    max_matches, n (candidates per list).
    exact: the vector lists sort every allowed chunk by distance instead of scanning the HNSW
    index (``search_plan`` decides; the text list is the same either way).
    audiences: ((audience, indexed), ...): each vector list is one list per audience, through
    the audience's partial HNSW index when `indexed`, else sorted exactly (``SearchPlan.lists``).
    Rows: ('v', id, cosine distance) ('v1', 'v2' for the further vectors) and ('t', id, ts_rank_cd).
    """
    if not _IDENTIFIER.match(table):
        raise ValueError(f"not a plain table name: {table!r}")
    if not 1 <= vectors <= 3:
        raise ValueError(f"1 to 3 query vectors, not {vectors}")
    if audiences and exact:
        raise ValueError("an exact plan has no audience lists")
    if audiences:
        vector_lists = ",\n".join(_audience_vector_list_sql(table, i, audiences) for i in range(vectors))
    else:
        vector_lists = ",\n".join(_vector_list_sql(table, i, exact=exact) for i in range(vectors))
    extra_rows = "".join(f"\nUNION ALL\nSELECT 'v{i}' AS list, id, value FROM vec{i}" for i in range(1, vectors))
    return f"""
WITH stats AS MATERIALIZED (
    SELECT GREATEST(cl.reltuples, 0)::float8 AS n,
           s.most_common_elems::text::text[] AS elems,
           s.most_common_elem_freqs AS freqs
    FROM pg_class cl
    LEFT JOIN pg_stats s ON s.schemaname = cl.relnamespace::regnamespace::text
                        AND s.tablename = cl.relname AND s.attname = 'search_vector'
    WHERE cl.oid = '{table}'::regclass
),
words AS MATERIALIZED (
    SELECT w.word, w.ord,
           SUM(st.n * COALESCE(st.freqs[array_position(st.elems, l.lexeme)],
                               st.freqs[array_length(st.elems, 1) + 1], 0)) AS matches
    FROM unnest(%(words)s::text[]) WITH ORDINALITY AS w(word, ord)
    CROSS JOIN stats st
    CROSS JOIN LATERAL unnest(to_tsvector('english', w.word)) AS l
    GROUP BY w.word, w.ord
),
query AS MATERIALIZED (
    SELECT websearch_to_tsquery('english', string_agg(word, ' or ' ORDER BY ord)) AS query
    FROM (SELECT word, ord, SUM(matches) OVER (ORDER BY matches, ord ROWS UNBOUNDED PRECEDING) AS running
          FROM words) chosen
    WHERE running <= %(max_matches)s
),
{vector_lists},
fts AS MATERIALIZED (
    SELECT c.id, ts_rank_cd(c.search_vector, q.query) AS value
    FROM {table} c, query q
    WHERE c.search_vector @@ q.query
      -- "+ 0": filter the few GIN matches row by row; ANDing the GIN bitmap with a bitmap of
      -- every allowed chunk from the version index costs ~10 ms at 100,000 chunks
      AND c.version_id + 0 = ANY(%(versions)s::bigint[]) AND c.searchable
    ORDER BY value DESC, c.id
    LIMIT %(n)s
)
SELECT 'v' AS list, id, value FROM vec{extra_rows}
UNION ALL
SELECT 't' AS list, id, value FROM fts
"""


def ef_search_for(n: int) -> int:
    """hnsw.ef_search: the size of the HNSW candidate queue of each scan pass; never below the
    rows asked for. The setting's default (200) is tuned with bench/hnsw_recall.py: recall@10
    0.957 against exact search under a 10 % permission filter at 100,000 chunks (0.949 at 100,
    0.984 at 800 for about 5 ms more)."""
    return max(int(settings.HNSW_EF_SEARCH), n)


# pgvector's iterative scan stops when it has visited hnsw.max_scan_tuples tuples, or when the
# tuples it has visited fill work_mem times hnsw.scan_mem_multiplier (default 1: 4 MB, about
# 2,500 visited 384-dimension vectors). These are the floors; under a filter the budget grows
# with 1 / (the fraction of the index the filter keeps), see ``hnsw_options``.
SCAN_MEM_MULTIPLIER = 8
MAX_SCAN_TUPLES = 20_000
# Tuples visited per allowed row wanted, at a filter keeping a fraction f of the index: the scan
# must step over (1 - f) / f forbidden tuples for each allowed one, and allowed rows are not
# spread evenly (whole policies share an access group), so this is a safety factor over 1 / f.
# Measured with bench/hnsw_recall.py (setting HNSW_SCAN_TUPLES_PER_ROW).
SCAN_TUPLES_PER_ROW = 10
# Memory the iterative scan holds per visited tuple (a 384-dimension vector and its element):
# 4 MB of work_mem holds about 2,500, so about 1.7 KB.
SCAN_BYTES_PER_TUPLE = 1700
MAX_SCAN_MEM_MULTIPLIER = 1000  # pgvector's upper bound
# Exact or index: EXACT_SCAN_RATIO and exact_max_rows, in retrieval/exact_threshold.py (the
# audience index service sizes its indexes by the same threshold).
# Audience lists: at most this many audiences are searched one list each (setting
# SEARCH_AUDIENCE_MAX_LISTS); an asker reading more is served by the global index.
AUDIENCE_MAX_LISTS = 4
# hnsw.ef_search of the audience lists (setting AUDIENCE_EF_SEARCH). Measured with
# bench/hnsw_recall.py at a million chunks, a 10 % reader (one audience of 101,443 chunks):
# recall@10 0.968 at 200 (the global default), 0.995 at 400 for about 2 ms more.
AUDIENCE_EF_SEARCH = 400


def _setting(name: str, default):
    return type(default)(getattr(settings, name, default))


def hnsw_options(n: int, *, fraction: float = 1.0, work_mem: int = 4 * 1024 * 1024,
                 ef_search: int | None = None) -> dict[str, str]:
    """The HNSW options (SET LOCAL) of a scan for `n` rows under a filter that keeps `fraction`
    of the indexed vectors. hnsw.max_scan_tuples is at least SCAN_TUPLES_PER_ROW * n / fraction
    (never below the MAX_SCAN_TUPLES floor) and hnsw.scan_mem_multiplier large enough for that
    many tuples in work_mem (`work_mem`: its value in bytes). Settings HNSW_EF_SEARCH,
    HNSW_SCAN_MEM_MULTIPLIER, HNSW_MAX_SCAN_TUPLES (the floors) and HNSW_SCAN_TUPLES_PER_ROW
    override the constants."""
    fraction = min(max(fraction, 1e-6), 1.0)
    per_row = _setting("HNSW_SCAN_TUPLES_PER_ROW", SCAN_TUPLES_PER_ROW)
    tuples = max(_setting("HNSW_MAX_SCAN_TUPLES", MAX_SCAN_TUPLES), math.ceil(per_row * n / fraction))
    memory = max(_setting("HNSW_SCAN_MEM_MULTIPLIER", float(SCAN_MEM_MULTIPLIER)),
                 math.ceil(tuples * SCAN_BYTES_PER_TUPLE / max(work_mem, 64 * 1024)))
    return {
        "hnsw.iterative_scan": "relaxed_order",
        "hnsw.ef_search": str(max(ef_search, n) if ef_search else ef_search_for(n)),
        "hnsw.scan_mem_multiplier": f"{min(float(memory), MAX_SCAN_MEM_MULTIPLIER):g}",
        "hnsw.max_scan_tuples": str(int(tuples)),
    }


def _search_options(n: int) -> dict[str, str]:
    return hnsw_options(n)


@dataclass(frozen=True)
class AudienceList:
    """One audience of an asker's allowed chunks: how many of them are in it (`allowed`), how
    many searchable chunks it holds (`size`), and whether it has a valid partial HNSW index."""

    audience: Audience
    allowed: int
    size: int
    indexed: bool

    @property
    def fraction(self) -> float:
        return self.allowed / max(self.size, self.allowed, 1)


@dataclass(frozen=True)
class SearchPlan:
    """How the vector lists of one search run: the versions the asker may see, how many
    searchable chunks they hold (`allowed`) out of the vectors in the HNSW index (`indexed`),
    and whether the lists are exact (few allowed chunks) or HNSW scans (then `options`): of the
    global index, or, when `audiences` is set, one list per audience (partial indexes)."""

    versions: list[int]
    allowed: int
    indexed: int
    exact: bool
    options: dict[str, str]
    audiences: tuple[AudienceList, ...] = ()

    @property
    def fraction(self) -> float:
        return self.allowed / max(self.indexed, self.allowed, 1)

    @property
    def lists(self) -> tuple[tuple[Audience, bool], ...]:
        """The audience lists as ``candidates_sql`` takes them: ((audience, indexed), ...)."""
        return tuple((a.audience, a.indexed) for a in self.audiences)

    @property
    def kind(self) -> str:
        if self.exact:
            return "exact"
        if self.audiences:
            return "audience"
        return "hnsw"


def plan_sql(plan: SearchPlan, table: str = LIVE_CHUNKS.table, vectors: int = 1) -> str:
    """The candidate query of a plan."""
    return candidates_sql(table, vectors, exact=plan.exact, audiences=plan.lists)


def audience_lists(audiences: dict[Audience, tuple[int, int]] | None, indexed_audiences, *,
                   exact_budget: int) -> tuple[AudienceList, ...]:
    """The asker's audiences as lists, when they may be searched one list per audience: at most
    SEARCH_AUDIENCE_MAX_LISTS audiences, each with a valid partial index, or sorted exactly
    (the exactly sorted ones holding at most `exact_budget` allowed chunks together); else ().
    `audiences`: {audience: (allowed chunks in it, its searchable chunks)}."""
    mine = {a: counts for a, counts in (audiences or {}).items() if counts[0] > 0}
    if not mine or len(mine) > _setting("SEARCH_AUDIENCE_MAX_LISTS", AUDIENCE_MAX_LISTS):
        return ()
    lists = tuple(AudienceList(a, int(allowed), int(size), a in indexed_audiences)
                  for a, (allowed, size) in sorted(mine.items()))
    if not any(x.indexed for x in lists) or sum(x.allowed for x in lists if not x.indexed) > exact_budget:
        return ()
    return lists


def choose_plan(*, versions: list[int], allowed: int, indexed: int, n: int, work_mem: int,
                audiences: dict[Audience, tuple[int, int]] | None = None,
                indexed_audiences=frozenset()) -> SearchPlan:
    """Exact when at most ``exact_max_rows`` chunks pass the filter; else one list per audience
    when ``audience_lists`` allows it (`audiences`: {audience: (allowed, size)}, the audiences
    with a valid partial index in `indexed_audiences`); else an HNSW scan of the global index.
    The HNSW options are scaled to the narrowest filter a scan serves."""
    indexed = max(indexed, allowed, 1)
    threshold = exact_max_rows(n=n, indexed=indexed)
    if allowed <= threshold:
        return SearchPlan(versions, allowed, indexed, True, {})
    lists = audience_lists(audiences, indexed_audiences, exact_budget=threshold)
    if lists:
        fraction = min(x.fraction for x in lists if x.indexed)
        ef_search = getattr(settings, "AUDIENCE_EF_SEARCH", AUDIENCE_EF_SEARCH) or ef_search_for(n)
        options = hnsw_options(n, fraction=fraction, work_mem=work_mem, ef_search=int(ef_search))
        return SearchPlan(versions, allowed, indexed, False, options, audiences=lists)
    return SearchPlan(versions, allowed, indexed, False, hnsw_options(n, fraction=allowed / indexed, work_mem=work_mem))


@lru_cache(maxsize=16)
def _prepare_sql(table: str) -> str:
    """Sets the base HNSW options (set_config(..., true) is SET LOCAL) and returns the allowed
    version ids, their searchable chunks, all searchable chunks and work_mem in bytes. The
    live table's counts are sums of its per-version counts; a temporary evaluation table
    (small) is counted."""
    if not _IDENTIFIER.match(table):
        raise ValueError(f"not a plain table name: {table!r}")
    if table == LIVE_CHUNKS.table:
        count = "SELECT COALESCE(SUM(n.searchable), 0) FROM retrieval_versionchunkcount n WHERE n.version_id = ANY(a.ids)"
        # every version's searchable chunks: the vectors the HNSW index holds (a few thousand
        # rows summed; the index's own reltuples counts every row of the table, NULL vectors too)
        total = "SELECT COALESCE(SUM(n.searchable), 0) FROM retrieval_versionchunkcount n"
    else:
        count = f"SELECT count(*) FROM {table} c WHERE c.version_id = ANY(a.ids) AND c.searchable"
        total = f"SELECT count(*) FROM {table} c WHERE c.searchable"
    options = ", ".join(f"set_config('{name}', %({name.replace('.', '_')})s, true)" for name in _search_options(1))
    return f"""
WITH a AS MATERIALIZED (
    SELECT ARRAY(SELECT allowed.id FROM ({VERSIONS_IN_FORCE_SQL}) allowed ORDER BY allowed.id) AS ids
)
SELECT {options}, a.ids, ({count})::bigint, ({total})::bigint, pg_size_bytes(current_setting('work_mem'))
FROM a
"""


# The asker's audiences (searchable chunks of the allowed versions per audience, and each
# audience's size: sums of retrieval_audiencechunkcount, a few thousand rows hash-joined with the
# allowed ids) and the predicates of the valid partial audience indexes (pg_index, a handful of
# rows). Read only when the filter is too wide for the exact plan.
_AUDIENCES_SQL = f"""
WITH aud AS MATERIALIZED (
    SELECT n.access_groups AS g,
           COALESCE(SUM(n.searchable) FILTER (WHERE mine.id IS NOT NULL), 0) AS allowed,
           SUM(n.searchable) AS size
    FROM retrieval_audiencechunkcount n
    LEFT JOIN (SELECT DISTINCT unnest(%(versions)s::bigint[]) AS id) mine ON mine.id = n.version_id
    GROUP BY n.access_groups
)
SELECT (SELECT json_agg(json_build_array(aud.g, aud.allowed, aud.size)) FROM aud WHERE aud.allowed > 0),
       ARRAY(SELECT ix.predicate FROM ({AUDIENCE_INDEXES_SQL.replace("%", "%%")}) ix WHERE ix.valid)
"""


def search_plan(cursor, *, params: dict, n: int, table: str = LIVE_CHUNKS.table) -> SearchPlan:
    """In the current transaction: find the versions the asker may see on the date (params:
    as_of, all, groups; see retrieval/access.py) and how many chunks they hold, choose the
    vector plan, and SET LOCAL its HNSW options (one statement; when the filter is too wide for
    the exact plan, a second reads the asker's audiences and the valid audience indexes, and a
    third sets the options when the plan widens the scan budget)."""
    base = _search_options(n)
    cursor.execute(_prepare_sql(table), {**params, **{name.replace(".", "_"): v for name, v in base.items()}})
    row = cursor.fetchone()
    versions, allowed, indexed, work_mem = list(row[-4]), int(row[-3]), int(row[-2]), int(row[-1])
    plan = choose_plan(versions=versions, allowed=allowed, indexed=indexed, n=n, work_mem=work_mem)
    if not plan.exact and table == LIVE_CHUNKS.table:  # too wide for the exact plan: by audience?
        cursor.execute(_AUDIENCES_SQL, {"versions": id_array(versions)})
        by_audience, predicates = cursor.fetchone()
        audiences = {parse_audience(g): (int(a), int(size)) for g, a, size in (by_audience or [])}
        indexed_audiences = {a for a in map(predicate_audience, predicates or []) if a is not None}
        plan = choose_plan(versions=versions, allowed=allowed, indexed=indexed, n=n, work_mem=work_mem,
                           audiences=audiences, indexed_audiences=indexed_audiences)
    changed = {name: value for name, value in plan.options.items() if base.get(name) != value}
    if changed:
        cursor.execute(
            "SELECT " + ", ".join("set_config(%s, %s, true)" for _ in changed),
            [x for item in changed.items() for x in item],
        )
    return plan


def prepare_search(cursor, *, params: dict, n: int, table: str = LIVE_CHUNKS.table) -> list[int]:
    """``search_plan``'s version ids (the HNSW options set as the served query sets them)."""
    return search_plan(cursor, params=params, n=n, table=table).versions


def set_search_options(cursor, *, n: int, fraction: float = 1.0) -> None:
    """SET LOCAL the HNSW options only (for EXPLAIN and benchmarks)."""
    for name, value in hnsw_options(n, fraction=fraction).items():
        cursor.execute("SELECT set_config(%s, %s, true)", [name, value])


def query_params(*, versions: list[int], qvec: str, terms: str, n: int, more_qvecs: tuple[str, ...] = ()) -> dict:
    """The parameters of the candidate query; `terms` is the question (or its words)."""
    max_matches = int(getattr(settings, "SEARCH_TEXT_MAX_MATCHES", TEXT_MAX_MATCHES))
    params = {"versions": id_array(versions), "qvec": qvec, "words": question_words(terms), "max_matches": max_matches,
              "n": n}
    params.update({f"qvec{i}": vector for i, vector in enumerate(more_qvecs, start=1)})
    return params


def candidate_rows(
    *, params: dict, qvec: str, terms: str, n: int, chunk_source: ChunkSource = LIVE_CHUNKS,
    more_qvecs: tuple[str, ...] = (),
) -> list[tuple[str, int, float]]:
    """The candidate lists for a question, for the asker and date in `params` (access_params):
    one vector list per query vector (`qvec`, then `more_qvecs`) and the text list."""
    with transaction.atomic(), connection.cursor() as cursor:
        plan = search_plan(cursor, params=params, n=n, table=chunk_source.table)
        if not plan.versions:
            return []
        sql = plan_sql(plan, chunk_source.table, 1 + len(more_qvecs))
        cursor.execute(sql, query_params(versions=plan.versions, qvec=qvec, terms=terms, n=n, more_qvecs=more_qvecs))
        return cursor.fetchall()


def fuse_candidates(rows: list[tuple[str, int, float]]) -> tuple[list[tuple[int, float]], dict, dict, dict]:
    """RRF over the lists; returns (fused (id, score) best first, similarity to the whole
    question, vector rank, text rank)."""
    vector_weight = getattr(settings, "SEARCH_VECTOR_WEIGHT", VECTOR_WEIGHT)
    text_weight = getattr(settings, "SEARCH_TEXT_WEIGHT", TEXT_WEIGHT)
    by_distance = {
        name: sorted(((cid, value) for lst, cid, value in rows if lst == name), key=lambda r: (r[1], r[0]))
        for name in ("v", "v1", "v2")
    }
    vec_rows = by_distance["v"]
    text_rows = sorted(((cid, value) for lst, cid, value in rows if lst == "t"), key=lambda r: (-r[1], r[0]))
    vector_ranked = [cid for cid, _ in vec_rows]
    text_ranked = [cid for cid, _ in text_rows]
    rankings, weights = [vector_ranked, text_ranked], [vector_weight, text_weight]
    for index, name in ((1, "v1"), (2, "v2")):  # the ask's and the situation's lists of a split question
        if by_distance[name]:
            rankings.append([cid for cid, _ in by_distance[name]])
            weights.append(vector_weight * PART_WEIGHTS[index])
    fused = reciprocal_rank_fusion(*rankings, weights=weights)
    similarity = {cid: 1.0 - float(distance) for cid, distance in vec_rows}
    vrank = {cid: i for i, cid in enumerate(vector_ranked, start=1)}
    trank = {cid: i for i, cid in enumerate(text_ranked, start=1)}
    return fused, similarity, vrank, trank


def chunk_search_hybrid(
    *, question: str, user, as_of: dt.date | None = None, k: int = 5, candidates: int | None = None,
    query_vector=None, query: SearchQuery | None = None, chunk_source: ChunkSource = LIVE_CHUNKS,
) -> list[SearchHit]:
    """The k best searchable chunks of the source (default: the live table) for the question
    that the user may see on the date. `query`: the question already split and embedded
    (``search_query``); else it is done here (`query_vector`: the whole question's vector)."""
    n = max(candidates or settings.SEARCH_CANDIDATES, k)
    query = query or search_query(question, query_vector=query_vector)
    rows = candidate_rows(
        params=access_params(user, as_of), qvec=vector_literal(query.vector), terms=query.question, n=n,
        chunk_source=chunk_source, more_qvecs=tuple(vector_literal(v) for v in query.vectors[1:len(PART_WEIGHTS)]),
    )
    fused, similarity, vrank, trank = fuse_candidates(rows)
    fused = fused[:k]
    chunks = chunk_source.by_ids_with_sources([cid for cid, _ in fused], with_parent=True)
    return [
        SearchHit(chunk=chunks[cid], score=score, similarity=similarity.get(cid), vector_rank=vrank.get(cid), text_rank=trank.get(cid))
        for cid, score in fused
        if cid in chunks
    ]
