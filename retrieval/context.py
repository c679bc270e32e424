"""The answer context: what the answerer sees for a question, plus notices of newer versions
announced but not yet in force.

Without a token budget: the k best ranked chunks, distinct (a row sentence whose table is
already shown folds into it; ``context_fit`` without expansion).

With a token budget: policy first, then sections (``packing.py``): the best-covering policy
(two when they cover alike), its most relevant sections whole or by their ranking blocks, in
units of sections under one heading, in document order inside a unit, at most k units, within
the budget; ``left_out`` lists what ranked but did not fit.

``context_fit`` also offers parent expansion (``expand=True``) over ranked hits, which the
evaluation uses for the baseline chunkings, in rank order:
- a ranked table row brings its whole table (every piece of it, header included) when the
  table fits in what is left of the budget; otherwise the row stays on its own;
- a ranked block brings its section when the section fits in what is left of the budget
  and takes at most ``section_share`` of the whole budget; otherwise the block stays;
- nothing is repeated: a chunk whose section or table is already in the context is not
  added again (it is recorded in ``expanded_from``); when a section comes in, the blocks of
  it already taken are replaced by it, at the place of the best of them; a block that
  repeats paragraphs of a block already taken (chunking with overlap) is trimmed to what is
  new.
The budget counts embedding-model tokens (the chunks' ``token_count``: breadcrumb and text).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db import connection

from chunking.pipe_tables import read_tables
from chunking.tables import sentence_holds_row
from policypal.policies.models import PolicyVersion

from .access import VISIBLE_VERSION_SQL, id_array, today
from .embedding import get_token_counter
from .models import Chunk
from .packing import Packing, pack, packed_chunks, section_ranking
from .search import SearchHit, SearchQuery, chunk_search_hybrid, search_query, vector_literal
from .sources import LIVE_CHUNKS, ChunkSource

SECTION_SHARE = 0.5  # an expanded section may take at most this share of the budget
HITS_PER_CONTEXT_CHUNK = 3  # hits ranked per context chunk wanted (row sentences fold into tables)
PARAGRAPH = "\n\n"


@dataclass
class ContextChunk:
    chunk: Chunk
    score: float
    similarity: float | None
    rank: int  # rank of the hit that brought it in (1 = best)
    expanded_from: list[int] = field(default_factory=list)  # ids of ranked chunks it stands for
    text: str = ""  # the text given to the answerer: chunk.text, less paragraphs already in the context
    token_count: int = 0  # tokens of breadcrumb + text, as counted for the budget
    unit: int = 0  # packed context: the unit (sections under one heading) it belongs to, from 1; 0: its own

    def __post_init__(self) -> None:
        if not self.text:
            self.text = self.chunk.text
        if not self.token_count:
            self.token_count = self.chunk.token_count

    @property
    def trimmed(self) -> bool:
        return self.text != self.chunk.text


@dataclass
class VersionNotice:
    policy_title: str
    version: PolicyVersion
    candidates: list[Chunk]  # the upcoming version's chunks nearest the question, best first

    @property
    def chunk(self) -> Chunk | None:
        return self.candidates[0] if self.candidates else None

    @property
    def message(self) -> str:
        date = self.version.effective_from.strftime("%-d %B %Y")
        where = f" (see {self.chunk.breadcrumb})" if self.chunk else ""
        return f"A new version (v{self.version.number}) of {self.policy_title} takes effect on {date}{where}."


@dataclass(frozen=True)
class LeftOutSection:
    """A section that ranked for the question but is not (or only partly) in the packed context."""

    chunk_id: int  # the section chunk
    breadcrumb: str
    policy: str
    token_count: int  # tokens left out
    reason: str  # "budget": it did not fit; "units": beyond the k units; "partly": some of its blocks did not fit


@dataclass
class AnswerContext:
    question: str
    as_of: dt.date
    chunks: list[ContextChunk]
    notices: list[VersionNotice]  # of the policies of every ranked hit
    hits: list[SearchHit]  # every ranked hit, best first: the answer layer also reads past the chunks shown
    hits_read: int = 0  # how many of the hits, best first, the chunks stand for
    left_out: list[LeftOutSection] = field(default_factory=list)  # packed context: what ranked but did not fit
    budget: int | None = None

    @property
    def token_count(self) -> int:
        return sum(c.token_count for c in self.chunks)

    @property
    def hits_shown(self) -> list[SearchHit]:
        """The ranked hits the chunks stand for (each one shown by a chunk, or folded into one)."""
        return self.hits[: self.hits_read]

    @property
    def units(self) -> list[list[ContextChunk]]:
        """The chunks by unit, best unit first (each chunk its own unit when not packed)."""
        out: dict[int, list[ContextChunk]] = {}
        for position, item in enumerate(self.chunks):
            out.setdefault(item.unit or -1 - position, []).append(item)
        return list(out.values())


def answer_context(
    *, question: str, user, as_of: dt.date | None = None, k: int | None = 5, budget: int | None = None,
    candidates: int | None = None, query_vector=None, query: SearchQuery | None = None, notices: bool = True,
    chunk_source: ChunkSource = LIVE_CHUNKS,
) -> AnswerContext:
    """Search the chunk source (default: the live table) and build the answer context.

    budget: None: the k best distinct chunks. A number of embedding-model tokens: policy-first
        packing within it, at most k units (k None: as many as fit).
    query: the question already split and embedded (``search.search_query``); else done here
        (query_vector: the whole question's vector, when the caller has it).
    """
    as_of = as_of or today()
    query = query or search_query(question, query_vector=query_vector)
    # Row sentences fold into their table and blocks into their section, so k hits can make
    # fewer than k context chunks: rank more, and keep the first k distinct ones.
    hits = chunk_search_hybrid(
        question=question, user=user, as_of=as_of, k=(k or 5) * HITS_PER_CONTEXT_CHUNK, candidates=candidates,
        query=query, chunk_source=chunk_source,
    )
    left_out: list[LeftOutSection] = []
    if budget is None:
        fitted = context_fit(hits, budget=None, expand=False, family=ChunkFamily(chunk_source), limit=k)
        chunks, hits_read = fitted.chunks, fitted.hits_read
    else:
        packing = pack(section_ranking(query=query, hits=hits, chunk_source=chunk_source), budget=budget, max_units=k)
        chunks, left_out = packed_context(packing, hits, chunk_source=chunk_source)
        hits_read = _leading_hits_shown(hits, chunks)
    upcoming = _upcoming_versions(hits, as_of=as_of, vector=query.vector, chunk_source=chunk_source) if notices else []
    return AnswerContext(question=question, as_of=as_of, chunks=chunks, notices=upcoming, hits=hits,
                         hits_read=hits_read, left_out=left_out, budget=budget)


def packed_context(packing: Packing, hits: list[SearchHit], *, chunk_source: ChunkSource = LIVE_CHUNKS
                   ) -> tuple[list[ContextChunk], list[LeftOutSection]]:
    """A packing's pieces as context chunks (one query for their rows), and what it left out."""
    rows = packed_chunks(packing, chunk_source)
    similarity = {h.chunk.pk: h.similarity for h in hits}
    chunks = []
    for piece in packing.pieces:
        chunk = rows.get(piece.chunk_id)
        if chunk is None:
            continue
        best = next((similarity[i] for i in piece.expanded_from if similarity.get(i) is not None), None)
        chunks.append(ContextChunk(chunk, piece.score, best, piece.unit, list(piece.expanded_from),
                                   token_count=piece.token_count, unit=piece.unit))
    policies = {h.chunk.version_id: h.chunk.version.policy.key for h in hits}
    policies.update({c.chunk.version_id: c.chunk.version.policy.key for c in chunks})
    left_out = [LeftOutSection(chunk_id=o.section_id, breadcrumb=o.breadcrumb, policy=policies.get(o.version_id, ""),
                               token_count=o.token_count, reason=o.reason) for o in packing.left_out]
    return chunks, left_out


def _leading_hits_shown(hits: list[SearchHit], chunks: list[ContextChunk]) -> int:
    """How many of the hits, best first, the packed chunks all stand for."""
    shown = {pk for c in chunks for pk in c.expanded_from} | {c.chunk.pk for c in chunks}
    count = 0
    for hit in hits:
        if hit.chunk.pk not in shown:
            break
        count += 1
    return count


# --------------------------------------------------------------------------- chunk relations


class ChunkFamily:
    """Parents and table pieces of chunks, read from a chunk source and cached."""

    def __init__(self, chunk_source: ChunkSource = LIVE_CHUNKS) -> None:
        self.chunk_source = chunk_source
        self._by_id: dict[int, Chunk | None] = {}

    def prefetch(self, chunks: list[Chunk]) -> None:
        """Load the parents and grandparents of the chunks in two queries, not one per chunk."""
        level = [c for c in chunks if c.level == Chunk.Level.BLOCK]
        for _ in range(2):  # block -> (table piece ->) section
            for chunk in level:
                if chunk.parent_id and chunk.parent_id not in self._by_id and _parent_loaded(chunk):
                    self._by_id[chunk.parent_id] = chunk.parent
            wanted = {c.parent_id for c in level if c.parent_id and c.parent_id not in self._by_id}
            if wanted:
                self._by_id.update(self.chunk_source.by_ids(wanted))
            level = [self._by_id[c.parent_id] for c in level if c.parent_id in self._by_id]
            level = [c for c in level if c is not None and c.level == Chunk.Level.BLOCK]
            if not level:
                return

    def parent(self, chunk: Chunk) -> Chunk | None:
        if chunk.parent_id is None:
            return None
        if chunk.parent_id not in self._by_id:
            self._by_id[chunk.parent_id] = (
                chunk.parent if _parent_loaded(chunk) else self.chunk_source.by_ids([chunk.parent_id]).get(chunk.parent_id)
            )
        return self._by_id[chunk.parent_id]

    def ancestors(self, chunk: Chunk) -> list[Chunk]:
        """Parent, grandparent, ... up to and including the section (the document is never needed)."""
        out = []
        current = chunk if chunk.level != Chunk.Level.SECTION else None
        while current is not None and current.level != Chunk.Level.SECTION and len(out) < 4:
            current = self.parent(current)
            if current is not None:
                out.append(current)
        return out

    def section_of(self, chunk: Chunk) -> Chunk | None:
        return next((c for c in self.ancestors(chunk) if c.level == Chunk.Level.SECTION), None)

    def table_pieces(self, row: Chunk) -> list[Chunk]:
        """Every block chunk holding the row's table, in document order (one when it fits whole)."""
        if not row.block_ids:
            parent = self.parent(row)
            return [parent] if parent is not None and parent.kind == Chunk.Kind.TABLE else []
        return self.chunk_source.table_chunks(
            version_id=row.version_id, source_id=row.source_id, table_block_id=row.block_ids[0]
        )


def _parent_loaded(chunk: Chunk) -> bool:
    """Whether the chunk's parent came with it (search loads it in the same query)."""
    return chunk._meta.get_field("parent").is_cached(chunk)


# --------------------------------------------------------------------------- fitting


@dataclass
class _Entry:
    item: ContextChunk
    order: float  # rank of the best hit it stands for; ties keep insertion order


@dataclass
class FittedContext:
    chunks: list[ContextChunk]
    hits_read: int  # ranked hits looked at, best first: the hits the chunks stand for


def context_fit(
    hits: list[SearchHit], *, budget: int | None, expand: bool, family: ChunkFamily | None = None,
    section_share: float = SECTION_SHARE, limit: int | None = None,
) -> FittedContext:
    """Ranked hits -> context chunks in rank order, expanded and merged, within the budget.

    limit: stop once this many context chunks are taken (the hits after are not read)."""
    family = family or ChunkFamily()
    family.prefetch([hit.chunk for hit in hits])
    entries: list[_Entry] = []
    section_cap = None if budget is None else int(budget * section_share)
    hits_read = 0
    for rank, hit in enumerate(hits, start=1):
        if limit is not None and len(entries) >= limit:
            break
        hits_read = rank
        holder = next((e for e in entries if _holds(e.item.chunk, e.item.text, hit.chunk, family)), None)
        if holder is not None:
            holder.item.expanded_from.append(hit.chunk.pk)
            holder.order = min(holder.order, rank)
        else:
            _take(hit, rank, entries, budget=budget, expand=expand, section_cap=section_cap, family=family)
    entries.sort(key=lambda e: e.order)  # stable: pieces of one table stay in document order
    return FittedContext(chunks=[e.item for e in entries], hits_read=hits_read)


def _take(hit: SearchHit, rank: int, entries: list[_Entry], *, budget: int | None, expand: bool,
          section_cap: int | None, family: ChunkFamily) -> None:
    """Add to the entries the first of the hit's options (its table, its section, itself) that
    fits the budget; the entries that option holds already leave the context for it."""
    chunk = hit.chunk
    for option in _options(chunk, expand=expand, section_cap=section_cap, family=family, entries=entries):
        items = [ContextChunk(c, hit.score, hit.similarity, rank, [chunk.pk]) for c in option]
        if len(option) == 1 and option[0].pk == chunk.pk:
            trimmed = _trimmed(items[0], entries, family)
            if trimmed is None:  # every paragraph of it is in the context already
                return
            items = [trimmed]
        held = [e for e in entries if any(_holds(c, c.text, e.item.chunk, family) for c in option)]
        tokens_kept = sum(e.item.token_count for e in entries) - sum(e.item.token_count for e in held)
        if budget is not None and tokens_kept + sum(i.token_count for i in items) > budget:
            continue
        order = min([rank] + [e.order for e in held])
        for e in held:
            entries.remove(e)
            items[0].expanded_from.extend(pk for pk in e.item.expanded_from if pk not in items[0].expanded_from)
        entries.extend(_Entry(item, order) for item in items)
        return


def _options(chunk: Chunk, *, expand: bool, section_cap: int | None, family: ChunkFamily, entries: list[_Entry]):
    """What a ranked chunk may bring, best first: its table or its section, then itself."""
    if expand and chunk.kind == Chunk.Kind.TABLE_ROW:
        pieces = [p for p in family.table_pieces(chunk) if not any(e.item.chunk.pk == p.pk for e in entries)]
        if pieces:
            yield pieces
    elif expand:
        section = family.section_of(chunk)
        if section is not None and (section_cap is None or section.token_count <= section_cap):
            yield [section]
    yield [chunk]


def _holds(holder: Chunk, holder_text: str, chunk: Chunk, family: ChunkFamily) -> bool:
    """Whether context showing `holder` (as `holder_text`) already shows all of `chunk`: the
    same chunk, its section, or (for a table row) a piece of its table showing that row."""
    if holder.pk == chunk.pk:
        return True
    if holder.level == Chunk.Level.SECTION:
        return any(a.pk == holder.pk for a in family.ancestors(chunk))
    if chunk.kind == Chunk.Kind.TABLE_ROW and holder.kind == Chunk.Kind.TABLE:
        same_table = set(chunk.block_ids) & set(holder.block_ids) if chunk.block_ids else holder.pk == chunk.parent_id
        return bool(same_table) and row_in_table_text(chunk.text, holder_text)
    return False


def row_in_table_text(row_text: str, table_text: str) -> bool:
    """Whether a rendered table (Markdown pipes) holds the row a row sentence was made from."""
    return any(sentence_holds_row(row_text, row) for table in read_tables(table_text) for row in table.rows)


def _trimmed(item: ContextChunk, entries: list[_Entry], family: ChunkFamily) -> ContextChunk | None:
    """Drop leading and trailing paragraphs that a chunk of the same section already gives."""
    chunk = item.chunk
    section = family.section_of(chunk)
    if section is None:
        return item
    seen = set()
    for entry in entries:
        other = entry.item.chunk
        if other.level == Chunk.Level.BLOCK and family.section_of(other) is not None \
                and family.section_of(other).pk == section.pk:
            seen.update(_paragraphs(entry.item.text))
    if not seen:
        return item
    paragraphs = chunk.text.split(PARAGRAPH)
    start, end = 0, len(paragraphs)
    while start < end and _norm(paragraphs[start]) in seen:
        start += 1
    while end > start and _norm(paragraphs[end - 1]) in seen:
        end -= 1
    if start == end:
        return None
    if (start, end) == (0, len(paragraphs)):
        return item
    text = PARAGRAPH.join(paragraphs[start:end])
    prefix = chunk.embed_text[: len(chunk.embed_text) - len(chunk.text)] if chunk.embed_text.endswith(chunk.text) else ""
    item.text = text
    item.token_count = get_token_counter().count(prefix + text)
    return item


def _paragraphs(text: str) -> set[str]:
    return {_norm(p) for p in text.split(PARAGRAPH) if p.strip()}


def _norm(text: str) -> str:
    return " ".join(text.split())


# --------------------------------------------------------------------------- version notices


def _upcoming_versions(hits: list[SearchHit], *, as_of: dt.date, vector, chunk_source: ChunkSource) -> list[VersionNotice]:
    """Newer visible versions, not yet in force, of the policies the hits come from. Access is
    granted per policy and every hit passed the access filter, so the user may read these
    policies: no second permission query."""
    policy_ids = list(dict.fromkeys(h.chunk.policy_id for h in hits))
    if not policy_ids:
        return []
    # most policies have no announced version: one plain query finds whether any has, and only
    # then are the versions loaded through the ORM (whose query costs more to build than to run)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT v.id FROM policies_policyversion v WHERE {VISIBLE_VERSION_SQL} "
            "AND v.policy_id = ANY(%s::bigint[]) AND v.effective_from > %s",
            [id_array(policy_ids), as_of],
        )
        ids = [row[0] for row in cursor.fetchall()]
    if not ids:
        return []
    upcoming = (
        PolicyVersion.objects.filter(pk__in=ids)  # (visible: the query above states the rule)
        .select_related("policy")
        .order_by("policy_id", "effective_from")
    )
    notices = []
    seen = set()
    for version in upcoming:
        if version.policy_id in seen:
            continue
        seen.add(version.policy_id)
        notices.append(VersionNotice(version.policy.title, version, _nearest_chunks_in(version, vector, chunk_source)))
    return notices


def _nearest_chunks_in(version: PolicyVersion, vector, chunk_source: ChunkSource, limit: int = 8) -> list[Chunk]:
    table = connection.ops.quote_name(chunk_source.table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id FROM {table} WHERE version_id = %s AND searchable AND embedding IS NOT NULL "
            "ORDER BY embedding <=> %s::vector LIMIT %s",
            [version.pk, vector_literal(vector), limit],
        )
        ids = [row[0] for row in cursor.fetchall()]
    found = chunk_source.by_ids_with_sources(ids)
    return [found[i] for i in ids if i in found]
