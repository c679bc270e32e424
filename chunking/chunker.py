"""Structure-first chunking: Document -> document, section, block and table-row chunks.

One public entry point, ``chunk_document``. The steps:
sections (heading stack, tiny sections merged forward) -> whole-block items with
glue (rule + qualifier, introduction + list/table, carried heading + body) ->
greedy packing up to the target inside one section -> groups over the hard max
split into sentences / list items / table rows / code lines -> records with the
breadcrumb prefixed to embed_text -> lint warnings.

The input limits of ``config.limits`` are applied first (``chunking.limits``): a
document converted before a limit existed is refused (``ConversionError``) or has
its long paragraphs split, as conversion would do now. A table too wide for its
header and one row to fit the hard max is cut into column slices, label columns
repeated, for its pieces and its row sentences alike. Time is linear in the
length of the text, however long a paragraph is (see ``chunking.sentences``).
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from . import tables
from .config import ChunkConfig
from .limits import bound_document
from .lint import lint_chunks
from .model import Block, ChunkRecord, Document
from .packing import (
    GLUE_LEAD_IN,
    GLUE_QUALIFIER,
    Item,
    block_items,
    explode,
    pack,
    piece_kind,
    render,
    whole_block_item,
)
from .sections import Section, build_sections, merge_tiny_sections, pages_of
from .sentences import split_sentences
from .tokens import TokenCounterLike

WARN_SEPARATED_QUALIFIER = "rule separated from its qualifier"
WARN_SEPARATED_LEAD_IN = "introduction separated from what it introduces"
WARN_CODE_SPLIT = "code block split: longer than the token limit"
ELLIPSIS = "\u2026"


def chunk_document(
    document: Document, *, config: ChunkConfig, counter: TokenCounterLike
) -> list[ChunkRecord]:
    """Chunk a document into linked document / section / block / table-row records."""
    run = _Run(config=config, counter=counter, hard_max=config.hard_max(counter.max_tokens))
    document = bound_document(document, config.limits)
    _prefetch_counts(document, run)
    sections = document_sections(document, config=config, counter=counter)
    records = [_document_record(document, run)]
    for section in sections:
        records.extend(_section_records(section, records[0].id, run))
    records = [replace(record, ordinal=i) for i, record in enumerate(records)]
    return lint_chunks(records, max_tokens=run.hard_max)


def document_sections(
    document: Document, *, config: ChunkConfig, counter: TokenCounterLike
) -> list[Section]:
    """The sections the chunker works on (after tiny sections merged forward)."""

    def is_tiny(section: Section) -> bool:
        items = block_items(section.content_blocks)
        return not items or counter.count(render(items)) <= config.min_section_tokens

    return merge_tiny_sections(build_sections(document), is_tiny=is_tiny)


@dataclass
class _Run:
    config: ChunkConfig
    counter: TokenCounterLike
    hard_max: int
    used_ids: set[str] = field(default_factory=set)

    def mint_id(self, level: str, breadcrumb: tuple[str, ...], text: str, block_ids: Sequence[str]) -> str:
        base = "\x1f".join((level, " > ".join(breadcrumb), text, ",".join(block_ids)))
        candidate, n = _sha16(base), 1
        while candidate in self.used_ids:  # identical content twice (e.g. repeated table rows)
            candidate, n = _sha16(f"{base}\x1f#{n}"), n + 1
        self.used_ids.add(candidate)
        return candidate


def _sha16(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _prefetch_counts(document: Document, run: _Run) -> None:
    """Hand the counter, in one batch, the texts most counts are made of.

    Only speed: a counter with ``count_many`` (TokenCounter) tokenizes them in one call
    and caches the counts, so the many counts of pieces built from these texts are
    mostly cache hits. What the chunker produces does not depend on it.
    """
    count_many = getattr(run.counter, "count_many", None)
    if count_many is None:
        return
    texts = []
    for block in document.blocks:
        item = whole_block_item(block)
        if item is None:
            continue
        texts.append(item.text)
        if item.kind == "table" and run.config.row_sentences:
            texts.extend(sentence for _, sentence in tables.row_sentences(tables.normalised(block.table)))
    texts.extend(dict.fromkeys(_prefix_text(section.breadcrumb, run) for section in build_sections(document)))
    count_many(texts)


# ---------------------------------------------------------------- embed text


def embed_prefix(breadcrumb: tuple[str, ...], run: _Run) -> str:
    """Context line (if any) and breadcrumb, shortened if it would eat the budget."""
    budget = run.hard_max // 3
    for trail in _shortened_trails(breadcrumb):
        prefix = _prefix_text(trail, run)
        if run.counter.count(prefix) <= budget:
            return prefix
    return _cut_heading_prefix(breadcrumb[-1], budget, run)


def _cut_heading_prefix(heading: str, budget: int, run: _Run) -> str:
    """The context line and the start of a heading too long for the budget alone (a paragraph
    styled as a heading), cut after a space where there is one, ending in an ellipsis.
    Binary search on the length: a few counts, whatever the heading's length."""

    def prefix(length: int) -> str:
        return _prefix_text((f"{heading[:length].rstrip()} {ELLIPSIS}".lstrip(),), run)

    low, high = 0, len(heading)
    while low < high:
        middle = (low + high + 1) // 2
        if run.counter.count(prefix(middle)) <= budget:
            low = middle
        else:
            high = middle - 1
    space = heading.rfind(" ", 0, low + 1)
    return prefix(space if space > low * 4 // 5 else low)


def _prefix_text(trail: tuple[str, ...], run: _Run) -> str:
    return "\n".join(p for p in (run.config.context_line(), run.config.breadcrumb_separator.join(trail)) if p)


def _shortened_trails(breadcrumb: tuple[str, ...]):
    yield breadcrumb
    if len(breadcrumb) > 2:
        yield (breadcrumb[0], ELLIPSIS, breadcrumb[-1])
    yield (breadcrumb[-1],)


def _embed(prefix: str, text: str) -> str:
    return f"{prefix}\n{text}" if prefix else text


# ---------------------------------------------------------------- document record


def _document_record(document: Document, run: _Run) -> ChunkRecord:
    raw_sections = build_sections(document)
    title = raw_sections[0].breadcrumb[0] if raw_sections else (document.title.strip() or "Untitled document")
    text = "\n".join([title] + _contents_lines(raw_sections, run.config) or [title])
    breadcrumb = (title,)
    block_ids = tuple(block.id for block in document.blocks)
    return _record(
        run, level="document", kind="text", parent_id=None, breadcrumb=breadcrumb, text=text,
        prefix=embed_prefix(breadcrumb, run), block_ids=block_ids,
        pages=pages_of(document.blocks), searchable=False,
    )


def _contents_lines(sections: Sequence[Section], config: ChunkConfig) -> list[str]:
    headed = [s for s in sections if s.heading is not None and len(s.breadcrumb) > 1]
    if headed:
        return [config.breadcrumb_separator.join(s.breadcrumb[1:]) for s in headed]
    first_text = next((b.text for s in sections for b in s.content_blocks if b.text.strip()), "")
    return [" ".join(split_sentences(first_text)[:2])] if first_text else []


# ---------------------------------------------------------------- section records


def _section_records(section: Section, document_id: str, run: _Run) -> list[ChunkRecord]:
    items = block_items(section.blocks)
    if not items:
        return []
    prefix = embed_prefix(section.breadcrumb, run)
    section_record = _record(
        run, level="section", kind="text", parent_id=document_id, breadcrumb=section.breadcrumb,
        text=render(items), prefix=prefix, block_ids=section.block_ids, pages=section.pages,
        searchable=False,
    )
    pieces = _pack_section(items, prefix, run)
    return [section_record] + _block_records(pieces, section, section_record.id, prefix, run)


def _pack_section(items: list[Item], prefix: str, run: _Run) -> list[_Piece]:
    fits_target = _fits(prefix, run, run.config.target_tokens)
    fits_max = _fits(prefix, run, run.hard_max)

    def split_glued_group(group: list[Item]) -> list[list[Item]]:
        if len(group) == 1:
            return [group]
        return pack(group, fits_target=fits_target, fits_max=fits_max,
                    overflow=lambda g: [g], respect_glue=False)

    def split_into_atoms(group: list[Item]) -> list[list[Item]]:
        atoms = [atom for item in group for atom in explode(item, fits_max)]
        return pack(atoms, fits_target=fits_target, fits_max=fits_max,
                    overflow=split_glued_group, isolate_tables=False)

    fits_intro = _fits(prefix, run, run.config.target_tokens // 2)
    packed = pack(items, fits_target=fits_target, fits_max=fits_max, overflow=split_into_atoms,
                  fits_intro=fits_intro)
    pieces = [_Piece(items=p, warnings=_separation_warnings(p, i)) for i, p in enumerate(packed)]
    if run.config.overlap_blocks:
        pieces = _with_overlap(pieces, run.config.overlap_blocks, fits_max)
    return pieces


@dataclass(frozen=True)
class _Piece:
    items: list[Item]
    warnings: tuple[str, ...] = ()


def _fits(prefix: str, run: _Run, limit: int):
    def fits(items: Sequence[Item]) -> bool:
        return run.counter.count(_embed(prefix, render(items))) <= limit

    return fits


def _separation_warnings(items: list[Item], index: int) -> tuple[str, ...]:
    warnings = []
    if index > 0 and items[0].glue == GLUE_QUALIFIER:
        warnings.append(WARN_SEPARATED_QUALIFIER)
    if index > 0 and items[0].glue == GLUE_LEAD_IN:
        warnings.append(WARN_SEPARATED_LEAD_IN)
    if any(item.kind == "code" and not item.whole for item in items):
        warnings.append(WARN_CODE_SPLIT)
    return tuple(warnings)


def _with_overlap(pieces: list[_Piece], count: int, fits_max) -> list[_Piece]:
    """Repeat the last `count` items of a text piece at the start of the next one."""
    out = [pieces[0]]
    for previous, piece in zip(pieces, pieces[1:]):
        carried = previous.items[-count:]
        if _is_text_piece(previous) and _is_text_piece(piece) and fits_max(carried + piece.items):
            kept = tuple(w for w in piece.warnings if w not in (WARN_SEPARATED_QUALIFIER, WARN_SEPARATED_LEAD_IN))
            piece = _Piece(items=carried + piece.items, warnings=kept)
        out.append(piece)
    return out


def _is_text_piece(piece: _Piece) -> bool:
    return all(item.kind != "table" for item in piece.items)


# ---------------------------------------------------------------- block and row records


def _block_records(
    pieces: list[_Piece], section: Section, section_id: str, prefix: str, run: _Run
) -> list[ChunkRecord]:
    last_piece_of_table = {
        item.block.id: index
        for index, piece in enumerate(pieces)
        for item in piece.items
        if item.kind == "table"
    }
    first_record_of_table: dict[str, str] = {}
    records: list[ChunkRecord] = []
    for index, piece in enumerate(pieces):
        record = _piece_record(piece, section, section_id, prefix, run)
        records.append(record)
        for item in piece.items:
            if item.kind == "table":
                first_record_of_table.setdefault(item.block.id, record.id)
        if run.config.row_sentences:
            for block in _tables_ending_here(piece, index, last_piece_of_table):
                records.extend(_row_records(block, first_record_of_table[block.id], section, prefix, run))
    return records


def _piece_record(piece: _Piece, section: Section, section_id: str, prefix: str, run: _Run) -> ChunkRecord:
    blocks = _unique_blocks(piece.items)
    text = render(piece.items)
    tokens = run.counter.count(_embed(prefix, text))
    warnings = piece.warnings + _oversize_warning(piece.items, tokens, run.hard_max)
    return _record(
        run, level="block", kind=piece_kind(piece.items), parent_id=section_id,
        breadcrumb=section.breadcrumb, text=text, prefix=prefix,
        block_ids=tuple(b.id for b in blocks), pages=pages_of(blocks), searchable=True,
        warnings=warnings, token_count=tokens,
    )


def _tables_ending_here(piece: _Piece, index: int, last_piece_of_table: dict[str, int]) -> list[Block]:
    return [
        block
        for block in _unique_blocks(piece.items)
        if block.kind == "table" and last_piece_of_table.get(block.id) == index
    ]


def _row_records(block: Block, parent_id: str, section: Section, prefix: str, run: _Run) -> list[ChunkRecord]:
    records = []
    for sentence in _row_sentences(block, prefix, run):
        tokens = run.counter.count(_embed(prefix, sentence))
        warnings = ()
        if tokens > run.hard_max:
            warnings = (f"oversized: a single table row of {tokens} tokens exceeds the "
                        f"{run.hard_max}-token limit; kept whole",)
        records.append(_record(
            run, level="block", kind="table_row", parent_id=parent_id, breadcrumb=section.breadcrumb,
            text=sentence, prefix=prefix, block_ids=(block.id,), pages=block.pages,
            searchable=True, warnings=warnings, token_count=tokens,
        ))
    return records


def _row_sentences(block: Block, prefix: str, run: _Run) -> list[str]:
    """One sentence per body row; for a table cut into column slices, one per row and slice
    (row by row), each naming the row by its labels."""
    table = tables.normalised(block.table)  # type: ignore[arg-type]
    fits_max = _fits(prefix, run, run.hard_max)
    parts = tables.column_slices(table, lambda probe: fits_max([Item(tables.render_table(probe), "table", block)]))
    if len(parts) == 1:
        return [sentence for _, sentence in tables.row_sentences(table)]
    keyed = [(row, n, sentence) for n, part in enumerate(parts) for row, sentence in tables.row_sentences(part)]
    return [sentence for _, _, sentence in sorted(keyed, key=lambda k: k[:2])]


def _oversize_warning(items: Sequence[Item], tokens: int, limit: int) -> tuple[str, ...]:
    if tokens <= limit:
        return ()
    if len(items) == 1:
        what = {"text": "sentence", "table": "table row", "list": "list item", "code": "code line"}
        unit = "block" if items[0].whole else what.get(items[0].kind, "unit")
        return (f"oversized: a single {unit} of {tokens} tokens exceeds the {limit}-token limit; kept whole",)
    return (f"oversized: {tokens} tokens exceeds the {limit}-token limit",)


def _unique_blocks(items: Sequence[Item]) -> list[Block]:
    seen: dict[str, Block] = {}
    for item in items:
        seen.setdefault(item.block.id, item.block)
    return list(seen.values())


def _record(
    run: _Run, *, level: str, kind: str, parent_id: str | None, breadcrumb: tuple[str, ...],
    text: str, prefix: str, block_ids: tuple[str, ...], pages: tuple[int, ...],
    searchable: bool, warnings: tuple[str, ...] = (), token_count: int | None = None,
) -> ChunkRecord:
    embed_text = _embed(prefix, text)
    return ChunkRecord(
        id=run.mint_id(level, breadcrumb, text, block_ids),
        level=level,
        kind=kind,
        parent_id=parent_id,
        ordinal=0,
        breadcrumb=breadcrumb,
        text=text,
        embed_text=embed_text,
        token_count=run.counter.count(embed_text) if token_count is None else token_count,
        pages=pages,
        block_ids=block_ids,
        searchable=searchable,
        warnings=warnings,
    )
