"""Exact look-ups beside the ranked search, all under the same access and date filter:

- chunks holding an identifier the question names ("B14", "EX-101"): facts to match, which the
  fused ranking may bury under rows that the embedding cannot tell apart;
- whether the visible policies mention a word at all (or a synonym of it), which tells a
  question about something the policies do not have from one the search missed;
- chunks that use a defined term, and the section a rule refers to ("see 4.2");
- every row and piece of a table, to answer the row a question names.
"""
from __future__ import annotations

import datetime as dt
import re
import threading
import uuid

import numpy as np
from django.core.cache import cache
from django.db import connection, transaction

from .access import VERSIONS_IN_FORCE_SQL, access_params, id_array
from .chunk_rows import chunks_by_id
from .models import DEFINING_CHUNKS, HEAVY_FIELDS, Chunk, chunks_with_sources
from .search import vector_literal


def visible_versions(user, as_of: dt.date | None) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT ARRAY(SELECT allowed.id FROM ({VERSIONS_IN_FORCE_SQL}) allowed)", access_params(user, as_of))
        return list(cursor.fetchone()[0])


# policy_titles is asked for on every question with every visible version (1,750 of them at a
# million chunks: a 2 ms query), and its answer changes only when a policy is saved or a policy
# or version deleted (a version never changes policy). So each process keeps the answers it has
# read, under a generation token held in the shared cache (Django's cache, Redis): those saves
# and deletions, in any process, draw a new token (retrieval/apps.py connects the signals), and
# every process's entries under the old one are no longer read. The token is drawn again when
# the saving transaction commits, so that titles read by another process in between (still the
# old ones) are not kept. A QuerySet.update() of titles sends no signal: call
# forget_policy_titles() after one.
TITLES_GENERATION_KEY = "retrieval:policy-titles:generation"
_TITLES_CACHE_SIZE = 64
_titles_cache: dict[tuple[str, tuple[int, ...]], list[str]] = {}
_titles_lock = threading.Lock()


def _titles_generation() -> str:
    generation = cache.get(TITLES_GENERATION_KEY)
    if generation is None:
        cache.add(TITLES_GENERATION_KEY, uuid.uuid4().hex, timeout=None)
        generation = cache.get(TITLES_GENERATION_KEY) or ""
    return generation


def forget_policy_titles(**_signal_kwargs) -> None:
    """Make every process read policy titles afresh (a new generation token), now and when the
    current transaction commits (at once outside one)."""
    _new_titles_generation()
    transaction.on_commit(_new_titles_generation)


def _new_titles_generation() -> None:
    cache.set(TITLES_GENERATION_KEY, uuid.uuid4().hex, timeout=None)
    with _titles_lock:
        _titles_cache.clear()


def policy_titles(versions: list[int]) -> list[str]:
    """The titles of the policies of these versions (cached, see TITLES_GENERATION_KEY)."""
    if not versions:
        return []
    key = (_titles_generation(), tuple(sorted(versions)))
    titles = _titles_cache.get(key)
    if titles is None:
        titles = _read_policy_titles(versions)
        with _titles_lock:
            if len(_titles_cache) >= _TITLES_CACHE_SIZE:
                _titles_cache.clear()
            _titles_cache[key] = titles
    return list(titles)


def _read_policy_titles(versions: list[int]) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT p.title FROM policies_policyversion v JOIN policies_policy p ON p.id = v.policy_id "
            "WHERE v.id = ANY(%s::bigint[])", [id_array(versions)],
        )
        return [row[0] for row in cursor.fetchall()]


def version_titles(versions: list[int]) -> list[tuple[int, str]]:
    """(version id, its policy's title) for these versions, to find the document a rule names."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT v.id, p.title FROM policies_policyversion v JOIN policies_policy p ON p.id = v.policy_id "
            "WHERE v.id = ANY(%s::bigint[]) ORDER BY v.id", [id_array(versions)],
        )
        return [(row[0], row[1]) for row in cursor.fetchall()]


def texts_holding(*, versions: list[int], phrase: str, per_version: int = 3) -> list[tuple[int, str]]:
    """(version, chunk text) for the first chunks (in document order, `per_version` at most) of each
    of these versions that hold the phrase as written, any case: one full-text query."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT version_id, text FROM (SELECT c.version_id, c.text, "
            "row_number() OVER (PARTITION BY c.version_id ORDER BY c.ordinal) AS n FROM retrieval_chunk c "
            "WHERE c.version_id = ANY(%s::bigint[]) AND c.search_vector @@ phraseto_tsquery('english', %s) "
            "AND strpos(upper(c.text), upper(%s)) > 0) holding WHERE n <= %s ORDER BY version_id",
            [id_array(versions), phrase, phrase, per_version],
        )
        return [(row[0], row[1]) for row in cursor.fetchall()]


def chunks_with_identifier(*, versions: list[int], forms: list[str], limit: int = 3) -> list[Chunk]:
    """Searchable chunks holding one identifier in any of the forms it may be written in ("NC-06",
    "NC06", "NC 6"), table rows first: one query for all of them."""
    forms = [f for f in forms if f.strip()]
    if not forms:
        return []
    any_form = " || ".join(["phraseto_tsquery('english', %s)"] * len(forms))
    return _rows_first_matching(f"({any_form})", forms, versions=versions, limit=limit)


def chunks_with_initial(*, versions: list[int], letter: str, number: int, limit: int = 3) -> list[Chunk]:
    """Searchable chunks where a word beginning with `letter` stands right before `number`
    ("g9" written by an asker for "Grade 9"), table rows first."""
    if not re.fullmatch(r"[a-z]", letter.lower()):
        return []
    return _rows_first_matching("to_tsquery('simple', %s)", [f"{letter.lower()}:* <-> {int(number)}"],
                                versions=versions, limit=limit)



def _chunks_in_order(ids: list[int]) -> list[Chunk]:
    """The chunk rows of the ids, with their sources, in the order of the ids (one query)."""
    found = chunks_by_id(ids)
    return [found[i] for i in ids if i in found]


def _selected_chunks(sql: str, params) -> list[Chunk]:
    """The chunks whose ids the query selects, in its order (one query for the ids, one for the
    rows)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ids = [row[0] for row in cursor.fetchall()]
    return _chunks_in_order(ids)

def _rows_first_matching(tsquery_sql: str, params: list, *, versions: list[int], limit: int) -> list[Chunk]:
    """Searchable chunks of the versions whose text matches the full-text query, table rows
    first, with their sources (one query for the ids, one for the rows)."""
    if not versions:
        return []
    return _selected_chunks(
        f"SELECT c.id FROM retrieval_chunk c WHERE c.search_vector @@ {tsquery_sql} "
        "AND c.version_id + 0 = ANY(%s::bigint[]) AND c.searchable "
        "ORDER BY (c.kind = 'table_row') DESC, c.id LIMIT %s",
        [*params, id_array(versions), limit],
    )


def terms_mentioned(*, versions: list[int], alternatives: dict[str, list[str]]) -> dict[str, bool]:
    """For each key, whether any visible chunk holds one of its alternative words or phrases."""
    if not alternatives:
        return {}
    if not versions:
        return {key: False for key in alternatives}
    keys = [key for key in alternatives if alternatives[key]]
    allowed = id_array(versions)
    parts = []
    params: list = []
    for key in keys:
        # the query is an expression of constants, so the planner folds it and uses the GIN
        # index (a tsquery built by a subquery made it scan every chunk: seconds at 1M chunks)
        query = " || ".join(["phraseto_tsquery('english', %s)"] * len(alternatives[key]))
        parts.append(
            f"EXISTS (SELECT 1 FROM retrieval_chunk c WHERE c.search_vector @@ ({query}) "
            "AND c.version_id + 0 = ANY(%s::bigint[]))"
        )
        params += [*alternatives[key], allowed]
    if not keys:
        return {key: False for key in alternatives}
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts), params)
        row = cursor.fetchone()
    found = dict(zip(keys, row))
    return {key: bool(found.get(key)) for key in alternatives}


def chunks_using_phrase(*, versions: list[int], phrase: str | list[str], query_vector, exclude: list[int],
                        limit: int = 2) -> list[Chunk]:
    """Searchable block chunks of these versions holding the phrase (or any of the phrases: a
    term and its abbreviation), nearest the question first; without a question vector, in
    document order (a policy defines its terms before it uses them: where to look for the
    definition another policy refers to)."""
    phrases = [phrase] if isinstance(phrase, str) else list(phrase)
    if not versions or not phrases:
        return []
    query = " || ".join(["phraseto_tsquery('english', %s)"] * len(phrases))
    if query_vector is None:
        order, order_params = "c.version_id, c.ordinal", []
    else:
        order, order_params = "c.embedding <=> %s::vector", [vector_literal(query_vector)]
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.id FROM retrieval_chunk c "
            f"WHERE c.search_vector @@ ({query}) AND c.version_id = ANY(%s::bigint[]) "
            "AND c.searchable AND c.level = 'block' AND NOT (c.id = ANY(%s::bigint[])) "
            f"ORDER BY {order} LIMIT %s",
            [*phrases, id_array(versions), exclude or [0], *order_params, limit],
        )
        ids = [row[0] for row in cursor.fetchall()]
    return _chunks_in_order(ids)


# the chunks that define something, as the partial index chunk_defining states it
# (retrieval/migrations/0005): the planner uses that index only for this very predicate
DEFINES_SQL = DEFINING_CHUNKS.format(c="c.")


DEFINING = ("means", "shall mean", "refers to", "to refer to", "is defined as", "has the meaning")


def chunks_defining(*, terms: dict[str, list[int]], limit: int = 8) -> list[Chunk]:
    """Block chunks that hold "<term> means" (or "refers to", "is defined as" ...) for any of
    the terms, each looked for in its own versions, in one query (one full-text match over the
    versions of all the terms, then each chunk kept only for its own term's versions)."""
    if not terms:
        return []
    phrases = [f"{term} {verb}" for term in terms for verb in DEFINING]
    versions = sorted({v for vs in terms.values() for v in vs})
    query = " || ".join(["phraseto_tsquery('english', %s)"] * len(phrases))
    return _selected_chunks(
        f"SELECT c.id FROM retrieval_chunk c WHERE c.search_vector @@ ({query}) "
        f"AND c.version_id = ANY(%s::bigint[]) AND {DEFINES_SQL} ORDER BY c.ordinal LIMIT %s",
        [*phrases, id_array(versions), limit],
    )


def glossary_chunks(*, versions: list[int], limit: int = 12) -> list[Chunk]:
    """The block chunks of these versions that define something (their definitions sections and
    defining sentences), in document order, at most `limit`: a policy's glossary, to read which
    of its terms a rule uses, however it writes them ("during an inflatable session")."""
    if not versions:
        return []
    return _selected_chunks(
        f"SELECT c.id FROM retrieval_chunk c WHERE c.version_id = ANY(%s::bigint[]) AND {DEFINES_SQL} "
        "ORDER BY c.version_id, c.ordinal LIMIT %s",
        [id_array(versions), limit],
    )


def section_blocks(*, version_id: int, number: str, query_vector, limit: int = 1) -> list[Chunk]:
    """Block chunks of the version's section numbered `number` ("4.2"), nearest first: the section
    whose heading carries the number, else the block holding the paragraph that opens with it
    (many policies number their clauses in the text, "6.4 Late recording. The ...", under a heading
    "6. Bonus")."""
    escaped = number.replace(".", r"\.")
    last_part = r"(^|> )" + escaped + r"(\.)?\s"
    opening = r"(^|\n)\s*(\*\*)?" + escaped + r"\.?(\*\*)?\s"
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.id FROM retrieval_chunk c WHERE c.version_id = %s AND c.level = 'block' AND c.searchable "
            "AND c.kind <> 'table_row' AND c.breadcrumb ~ (%s || '[^>]*$') "
            "ORDER BY c.embedding <=> %s::vector LIMIT %s",
            [version_id, last_part, vector_literal(query_vector), limit],
        )
        ids = [row[0] for row in cursor.fetchall()]
        if not ids:
            cursor.execute(
                "SELECT c.id FROM retrieval_chunk c WHERE c.version_id = %s AND c.level = 'block' AND c.searchable "
                "AND c.kind <> 'table_row' AND c.text ~ %s ORDER BY c.ordinal LIMIT %s",
                [version_id, opening, limit],
            )
            ids = [row[0] for row in cursor.fetchall()]
    return _chunks_in_order(ids)


def table_parts(tables: list[Chunk]) -> dict[tuple[int, str], tuple[list[Chunk], list[Chunk]]]:
    """For each table (version, table block id) that the given table or row chunks belong to:
    its pieces (table chunks, document order) and its row sentence chunks (document order), in
    one query. A table chunk may also hold the paragraph before its table: the table's block is
    the one its row sentences name."""
    candidates = {(c.version_id, b) for c in tables for b in (c.block_ids[:1] if c.kind == Chunk.Kind.TABLE_ROW else c.block_ids)}
    if not candidates:
        return {}
    versions = sorted({v for v, _ in candidates})
    block_ids = sorted({b for _, b in candidates})
    chunks = list(
        chunks_with_sources().filter(version_id__in=versions, level=Chunk.Level.BLOCK,
                                     kind__in=[Chunk.Kind.TABLE, Chunk.Kind.TABLE_ROW], block_ids__overlap=block_ids)
        .order_by("ordinal")
    )
    out: dict[tuple[int, str], tuple[list[Chunk], list[Chunk]]] = {}
    for chunk in chunks:
        if chunk.kind == Chunk.Kind.TABLE_ROW and chunk.block_ids and (chunk.version_id, chunk.block_ids[0]) in candidates:
            out.setdefault((chunk.version_id, chunk.block_ids[0]), ([], []))[1].append(chunk)
    for chunk in chunks:
        if chunk.kind == Chunk.Kind.TABLE:
            for block in chunk.block_ids:
                if (chunk.version_id, block) in out:
                    out[(chunk.version_id, block)][0].append(chunk)
    return out


def texts_naming(*, version_id: int, names: list[str], headers: list[str], limit: int = 6) -> list[str]:
    """Texts of the version's block chunks that hold one of the names (places) and one of the
    column headers: the notes that send a place to a column ("Metro city: Mumbai, ... Pune",
    "the capital city cap also applies to New York"), wherever the policy writes them."""
    names = [n for n in names if n.strip()]
    headers = [h for h in headers if h.strip()]
    if not names or not headers:
        return []
    any_of = " || ".join(["phraseto_tsquery('english', %s)"] * len(names))
    any_header = " || ".join(["phraseto_tsquery('english', %s)"] * len(headers))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT c.text FROM retrieval_chunk c WHERE c.version_id = %s AND c.level = 'block' "
            f"AND c.kind IN ('text', 'list') AND c.search_vector @@ ({any_of}) AND c.search_vector @@ ({any_header}) "
            "ORDER BY c.ordinal LIMIT %s",
            [version_id, *names, *headers, limit],
        )
        return [row[0] for row in cursor.fetchall()]


class WordVectors:
    """Single-word vectors from the embedding model, cached for the process (the corpus's
    vocabulary is bounded), for reading two words as synonyms."""

    def __init__(self, limit: int = 50_000) -> None:
        self._vectors: dict[str, np.ndarray] = {}
        self._limit = limit

    def related(self, word: str, others) -> float:
        from .embedding import get_embedder

        others = [w for w in others if w.isalpha() and len(w) > 2 and w != word]
        wanted = [w for w in dict.fromkeys([word, *others]) if w not in self._vectors]
        if wanted:
            if len(self._vectors) + len(wanted) > self._limit:
                self._vectors.clear()
            # one word per call: the int8 model's activations are quantised over the whole batch, so a
            # word's vector batched with others depends on them (by up to 0.05 here), and a synonym
            # decision on what the process happened to look up before
            embedder = get_embedder()
            for w in wanted:
                self._vectors[w] = embedder.encode([w])[0]
        if not others:
            return 0.0
        matrix = np.stack([self._vectors[w] for w in others])
        return float((matrix @ self._vectors[word]).max())


word_vectors = WordVectors()


def definitions_carrying(*, versions: list[int], words: list[str], min_words: int, limit: int = 6,
                         scan: int = 200) -> list[Chunk]:
    """Block chunks of these versions that define something ("... means ...", "is defined as",
    "we use X to refer to ...", or anything under a definitions or glossary heading) and hold at
    least `min_words` of the words (any word form), the most words first. No vector is read (a definition is found by the words that describe it); at most `scan` chunks are
    weighed."""
    if not versions or not words:
        return []
    queries = [f"phraseto_tsquery('english', %(w{i})s)" for i in range(len(words))]
    carried = " + ".join(f"(c.search_vector @@ {q})::int" for q in queries)
    sql = (
        f"SELECT id FROM (SELECT c.id, {carried} AS carried FROM retrieval_chunk c "
        f"WHERE c.version_id = ANY(%(versions)s::bigint[]) AND {DEFINES_SQL} "
        f"AND c.search_vector @@ ({' || '.join(queries)}) LIMIT %(scan)s) m "
        "WHERE carried >= %(min)s ORDER BY carried DESC, id LIMIT %(limit)s"
    )
    params = {f"w{i}": w for i, w in enumerate(words)}
    params.update(versions=id_array(versions), scan=scan, min=min_words, limit=limit)
    return _selected_chunks(sql, params)


def chunks_carrying(*, versions: list[int], words: list[str], min_words: int, query_vector,
                    exclude: list[int], limit: int = 2, scan: int = 300) -> list[tuple[Chunk, float]]:
    """Searchable block chunks of these versions holding at least `min_words` of the words (any
    word form), the most words first, then the nearest to the question; with their cosine.
    At most `scan` matching chunks are weighed, so a common word cannot make it slow."""
    if not versions or not words:
        return []
    queries = [f"phraseto_tsquery('english', %(w{i})s)" for i in range(len(words))]
    carried = " + ".join(f"(c.search_vector @@ {q})::int" for q in queries)
    sql = (
        f"SELECT id, sim FROM (SELECT c.id, 1 - (c.embedding <=> %(qvec)s::vector) AS sim, {carried} AS carried "
        f"FROM retrieval_chunk c WHERE c.version_id = ANY(%(versions)s::bigint[]) AND c.searchable AND c.level = 'block' "
        f"AND c.search_vector @@ ({' || '.join(queries)}) AND NOT (c.id = ANY(%(exclude)s::bigint[])) LIMIT %(scan)s) m "
        "WHERE carried >= %(min)s ORDER BY carried DESC, sim DESC LIMIT %(limit)s"
    )
    params = {f"w{i}": w for i, w in enumerate(words)}
    params.update(qvec=vector_literal(query_vector), versions=id_array(versions), exclude=exclude or [0], scan=scan,
                  min=min_words, limit=limit)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    found = chunks_by_id([r[0] for r in rows])
    return [(found[i], float(sim)) for i, sim in rows if i in found]
