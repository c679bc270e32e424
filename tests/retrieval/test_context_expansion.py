"""Parent expansion and the token budget, on a small hand-made chunk tree (no database).

Tree: document 1 > section 10 (blocks 11, 12 overlapping by one paragraph, table 13 with
rows 14 and 15) and section 20 (block 21).
"""
from hypothesis import given, settings
from hypothesis import strategies as st

from retrieval.context import ChunkFamily, context_fit, row_in_table_text
from retrieval.models import Chunk
from retrieval.search import SearchHit

TABLE = "Table 1: Caps\n| Grade | Cap |\n| --- | --- |\n| L1 | 100 |\n| L2 | 200 |"


def _chunk(pk, level, kind, text, parent, tokens, block_ids=()):
    return Chunk(
        id=pk, version_id=1, policy_id=1, source_id=1, parent_id=parent, level=level, kind=kind, ordinal=pk,
        breadcrumb="Policy > Section", text=text, embed_text=f"Policy > Section\n{text}", token_count=tokens,
        block_ids=list(block_ids), searchable=level == "block",
    )


def tree(section_tokens=120):
    chunks = [
        _chunk(1, "document", "text", "Policy", None, 10),
        _chunk(10, "section", "text", "P1.\n\nP2.\n\nP3.\n\n" + TABLE, 1, section_tokens),
        _chunk(11, "block", "text", "P1.\n\nP2.", 10, 20, ["b1", "b2"]),
        _chunk(12, "block", "text", "P2.\n\nP3.", 10, 20, ["b2", "b3"]),
        _chunk(13, "block", "table", TABLE, 10, 40, ["t1"]),
        _chunk(14, "block", "table_row", "Table 1: Caps: Grade L1, Cap: 100", 13, 15, ["t1"]),
        _chunk(15, "block", "table_row", "Table 1: Caps: Grade L2, Cap: 200", 13, 15, ["t1"]),
        _chunk(20, "section", "text", "Other.", 1, 30),
        _chunk(21, "block", "text", "Other.", 20, 25, ["c1"]),
    ]
    return {c.pk: c for c in chunks}


class MemoryChunks:
    """A chunk source held in memory: the two reads ChunkFamily makes of a ChunkSource."""

    def __init__(self, chunks: dict[int, Chunk]) -> None:
        self.chunks = chunks

    def by_ids(self, ids):
        return {pk: self.chunks[pk] for pk in ids if pk in self.chunks}

    def table_chunks(self, *, version_id, source_id, table_block_id):
        return sorted(
            (c for c in self.chunks.values() if c.version_id == version_id and c.source_id == source_id
             and c.level == "block" and c.kind == "table" and table_block_id in c.block_ids),
            key=lambda c: c.ordinal,
        )


def hits_of(chunks, order):
    return [SearchHit(chunks[pk], 1.0 / (i + 1), 0.5, i + 1, None) for i, pk in enumerate(order)]


def fit(order, *, budget=None, expand=True, section_tokens=120, section_share=0.5):
    chunks = tree(section_tokens)
    family = ChunkFamily(MemoryChunks(chunks))
    return context_fit(hits_of(chunks, order), budget=budget, expand=expand, family=family,
                       section_share=section_share).chunks


def ids(items):
    return [item.chunk.pk for item in items]


def test_without_expansion_the_ranked_chunks_come_back_in_order():
    assert ids(fit([14, 11, 21], expand=False)) == [14, 11, 21]


def test_a_ranked_row_brings_its_whole_table_when_it_fits():
    items = fit([14], budget=100, section_tokens=1000)
    assert ids(items) == [13]
    assert items[0].expanded_from == [14]


def test_a_row_stays_alone_when_its_table_does_not_fit():
    assert ids(fit([14], budget=30, section_tokens=1000)) == [14]


def test_a_second_row_of_a_table_already_in_is_not_repeated():
    items = fit([14, 15], budget=100, section_tokens=1000)
    assert ids(items) == [13]
    assert items[0].expanded_from == [14, 15]


def test_a_row_taken_first_is_replaced_when_its_table_ranks_later():
    items = fit([14, 21, 13], budget=100, expand=False)
    assert ids(items) == [13, 21]  # the table takes the row's place
    assert items[0].rank == 3 and items[0].expanded_from == [13, 14]


def test_a_ranked_block_brings_its_section_and_its_siblings_are_not_repeated():
    items = fit([11, 21, 12, 14], budget=1000)
    assert ids(items) == [10, 20]
    assert sorted(items[0].expanded_from) == [11, 12, 14]


def test_a_section_replaces_the_parts_of_it_already_taken_at_the_best_rank():
    # the row brings the table first; then block 11 brings the section, which holds the table
    items = fit([14, 21, 11], budget=300, section_tokens=150)
    assert ids(items) == [10, 20]
    assert items[0].rank == 3  # brought by the hit at rank 3 ...
    assert sorted(items[0].expanded_from) == [11, 14]  # ... standing for ranks 1 and 3


def test_a_section_over_its_share_of_the_budget_is_not_taken():
    items = fit([11], budget=200, section_tokens=150, section_share=0.5)
    assert ids(items) == [11]


def test_overlapping_blocks_are_trimmed_not_repeated():
    items = fit([11, 12], budget=200, section_tokens=1000)
    assert ids(items) == [11, 12]
    assert items[1].text == "P3."
    assert items[1].token_count < 20
    items = fit([12, 11], budget=200, section_tokens=1000)
    assert items[1].text == "P1."


def test_chunks_that_do_not_fit_are_skipped_and_smaller_ones_still_come():
    items = fit([13, 21, 14], budget=45, expand=False)
    assert ids(items) == [13]  # 40 tokens; 25 does not fit; the row (15) is in the table already
    items = fit([13, 21, 12], budget=62, expand=False)
    assert ids(items) == [13, 12]


def fifteen_blocks():
    """One section of 15 blocks, 20 tokens each: 15 hits that each make their own context chunk."""
    chunks = [_chunk(1, "document", "text", "Policy", None, 10), _chunk(2, "section", "text", "S.", 1, 300)]
    chunks += [_chunk(pk, "block", "text", f"Rule {pk}.", 2, 20, [f"b{pk}"]) for pk in range(100, 115)]
    return {c.pk: c for c in chunks}


def test_the_hits_read_are_those_the_first_k_context_chunks_stand_for():
    chunks = fifteen_blocks()
    hits = hits_of(chunks, list(range(100, 115)))
    for k in (1, 5):
        fitted = context_fit(hits, budget=None, expand=False, family=ChunkFamily(MemoryChunks(chunks)), limit=k)
        assert ids(fitted.chunks) == list(range(100, 100 + k))
        assert fitted.hits_read == k  # not the tokens taken (20 per chunk): k=1 read one hit, k=5 five


def test_hits_folded_into_a_context_chunk_count_as_read():
    chunks = tree(1000)
    fitted = context_fit(hits_of(chunks, [14, 15, 21, 11]), budget=None, expand=False,
                         family=ChunkFamily(MemoryChunks(chunks)), limit=2)
    assert ids(fitted.chunks) == [14, 15] and fitted.hits_read == 2  # no expansion: each row stays on its own
    fitted = context_fit(hits_of(chunks, [13, 14, 15, 21, 11]), budget=None, expand=False,
                         family=ChunkFamily(MemoryChunks(chunks)), limit=2)
    assert ids(fitted.chunks) == [13, 21]
    assert fitted.hits_read == 4  # rows 14 and 15 fold into table 13, then 21 is the second chunk


def test_row_in_table_text_matches_body_rows_only():
    assert row_in_table_text("Table 1: Caps: Grade L2, Cap: 200", TABLE)
    assert not row_in_table_text("Table 1: Caps: Grade L3, Cap: 300", TABLE)
    assert not row_in_table_text("Grade Cap", TABLE)  # the header line is not a row


@settings(max_examples=300, deadline=None)
@given(
    order=st.permutations([11, 12, 13, 14, 15, 21]).flatmap(lambda p: st.integers(1, 6).map(lambda n: p[:n])),
    budget=st.one_of(st.none(), st.integers(10, 400)),
    expand=st.booleans(),
    section_tokens=st.sampled_from([60, 120, 1000]),
)
def test_invariants(order, budget, expand, section_tokens):
    items = fit(list(order), budget=budget, expand=expand, section_tokens=section_tokens)
    if budget is not None:
        assert sum(item.token_count for item in items) <= budget
    assert len(set(ids(items))) == len(items), "a chunk twice"
    included = set(ids(items))
    for item in items:
        chunk = item.chunk
        if chunk.level == "block":
            assert chunk.parent_id not in included or chunk.kind != "table_row", "a row beside its whole table"
            assert chunk.parent_id not in included or chunk.kind == "table_row", "a block beside its section"
            assert not (chunk.kind == "table_row" and 10 in included), "a row beside its section"
    stands_for = [pk for item in items for pk in item.expanded_from]
    assert len(stands_for) == len(set(stands_for)), "a ranked chunk counted twice"
    assert set(stands_for) <= set(order)
    if budget is None:
        assert set(stands_for) == set(order), "with no budget every ranked chunk is in the context"
    ranks = [min(order.index(pk) for pk in item.expanded_from) for item in items]
    assert ranks == sorted(ranks), "context in the order of the best hit each item stands for"
