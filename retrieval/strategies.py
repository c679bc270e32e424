"""Chunking strategies for evaluation: the visible versions' documents chunked another way,
into a temporary chunk table (``sources.temporary_chunk_table``) that search, the answer
context and the evaluation read exactly as they read the live one.

Strategies:
- ``default``: the live table, what questions are answered from (no table is built);
- ``structure``: the structure-aware chunker with the current settings, re-run now;
- ``overlap``: the structure-aware chunker repeating one block from the previous chunk;
- ``fixed``: the fixed-size character baseline: windows as long, in characters, as the live
  table's searchable chunks of the same documents are on average (so the top k of both holds
  about as much text), with 20 % overlap, no headings, no structure;
- ``fixed256``: the common fixed-size set-up: windows of 256 embedding-model tokens with 32
  repeated, cut between words, no headings, no structure;
- ``heading``: a heading-aware splitter: split at every heading (the heading trail embedded
  with each piece), then to 256 tokens at paragraph, line, sentence or word breaks; no
  structure rules (tables cut between rows, rules from their exceptions).

The structure-aware chunkings (``default``, ``structure``, ``overlap``) are answered from the
packed context (policy first, then sections: ``packing.py``); the baselines (``fixed``,
``fixed256``, ``heading``) have no sections and are answered from their ranked chunks of the
same hybrid search (``PACKED``).

Rows are written and embedded by the same services as ingestion (``chunk_rows_write``,
``chunks_embed``): vectors the live table holds for the same text are reused.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from django.db.models import Avg
from django.db.models.functions import Length

from chunking.baseline import chunk_by_headings, chunk_fixed_size, chunk_fixed_tokens
from chunking.chunker import chunk_document
from chunking.serialize import document_from_dict

from .access import versions_visible
from .chunking_settings import chunk_config
from .embedding import get_token_counter
from .models import Chunk
from .services import chunk_rows_write, chunks_embed
from .sources import ChunkSource, chunk_table_analyze, temporary_chunk_table

LIVE = "default"
STRATEGIES = ("default", "structure", "overlap", "fixed", "fixed256", "heading")
PACKED = frozenset({"default", "structure", "overlap"})  # answered from the packed context (sections)
FIXED_SIZE_CHARS = 800  # when there is no live chunk to measure: about CHUNK_TARGET_TOKENS word pieces
FIXED_OVERLAP_SHARE = 0.2
FIXED_MIN_CHARS = 200


def strategy_records(strategy: str, document, *, category: str = "", fixed_size: int = FIXED_SIZE_CHARS):
    """Chunk records of one converted document under a strategy."""
    counter = get_token_counter()
    if strategy == "structure":
        return chunk_document(document, config=chunk_config(category=category), counter=counter)
    if strategy == "overlap":
        return chunk_document(document, config=chunk_config(category=category, overlap_blocks=1), counter=counter)
    if strategy == "fixed":
        overlap = int(fixed_size * FIXED_OVERLAP_SHARE)
        return chunk_fixed_size(document, counter=counter, size=fixed_size, overlap=overlap)
    if strategy == "fixed256":
        return chunk_fixed_tokens(document, counter=counter)
    if strategy == "heading":
        return chunk_by_headings(document, counter=counter)
    raise ValueError(f"unknown chunking strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")


def live_mean_chunk_chars(versions) -> int:
    """Mean text length of the live searchable chunks of these versions (the default strategy)."""
    mean = Chunk.objects.filter(version__in=versions, searchable=True).aggregate(chars=Avg(Length("text")))["chars"]
    return max(FIXED_MIN_CHARS, int(round(mean))) if mean else FIXED_SIZE_CHARS


@contextmanager
def strategy_chunk_table(*, strategy: str, on_progress: Callable[[str], None] | None = None) -> Iterator[ChunkSource]:
    """A temporary chunk table of every visible version's documents chunked by the strategy,
    embedded and analysed; dropped on exit."""
    if strategy not in STRATEGIES or strategy == LIVE:
        choices = ", ".join(s for s in STRATEGIES if s != LIVE)
        raise ValueError(f"a strategy table needs one of {choices}, not {strategy!r}")
    versions = list(
        versions_visible().select_related("policy").prefetch_related("sources").order_by("policy_id", "number")
    )
    fixed_size = live_mean_chunk_chars(versions) if strategy == "fixed" else FIXED_SIZE_CHARS
    with temporary_chunk_table(name=strategy) as chunk_source:
        written = sum(
            chunk_rows_write(chunk_source=chunk_source, version=version,
                             records_by_source=_records_by_source(version, strategy, fixed_size=fixed_size))
            for version in versions
        )
        if on_progress:
            size = f" (windows of {fixed_size} characters)" if strategy == "fixed" else ""
            on_progress(f"{strategy}: {written} chunks{size}")
        chunks_embed(chunk_source=chunk_source)
        chunk_table_analyze(chunk_source)
        yield chunk_source


def _records_by_source(version, strategy: str, *, fixed_size: int) -> list[tuple[object, list]]:
    """The version's converted documents chunked by the strategy, per source document."""
    return [
        (source, strategy_records(strategy, document_from_dict(source.tree), category=version.policy.category,
                                  fixed_size=fixed_size))
        for source in version.sources.all()
        if source.tree is not None
    ]


@contextmanager
def chunk_table_of(chunks: Iterable[Chunk], *, name: str) -> Iterator[ChunkSource]:
    """A temporary chunk table holding copies of the given chunks, with the vectors they carry
    in memory (e.g. the live chunks re-embedded by another backend); dropped on exit."""
    with temporary_chunk_table(name=name) as chunk_source:
        model = chunk_source.model
        columns = [f.attname for f in model._meta.concrete_fields if not f.generated]
        model._default_manager.bulk_create([model(**{c: getattr(chunk, c) for c in columns}) for chunk in chunks])
        chunk_table_analyze(chunk_source)
        yield chunk_source
