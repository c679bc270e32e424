"""Policy first, then sections: the pure steps of retrieval/packing.py on hand-made scored rows
(no database, no model).

Version 1, "Leave": section 10 (3.3 Carry forward) and 20 (3.4 Encashment) under "3 Earned
leave", section 30 (4.1 Sick leave), section 40 (5 Parental leave, long: three blocks and a
table with a row sentence). Version 2, "Travel": section 50.
"""
from hypothesis import given, settings
from hypothesis import strategies as st

from retrieval import packing
from retrieval.packing import (
    PartRanking, ScoredChunk, choose_policies, lexical_scores, pack_sections, part_rankings, policy_coverage,
    section_order, unit_key,
)

LEAVE, TRAVEL = 1, 2


def row(cid, version, section, breadcrumb, *, tokens=40, section_tokens=None, holder=None, holder_tokens=None,
        distances=(0.5,), stems=(), length=20, ordinal=None):
    return ScoredChunk(
        id=cid, version_id=version, section_id=section, holder_id=holder or cid, ordinal=ordinal or cid,
        token_count=tokens, holder_tokens=holder_tokens or tokens, section_tokens=section_tokens or tokens,
        breadcrumb=breadcrumb, distances=tuple(distances), stems=frozenset(stems), length=length,
    )


def corpus(distances=None):
    d = distances or {}
    return [
        row(11, LEAVE, 10, "Leave > 3 Earned leave > 3.3 Carry forward", tokens=60, distances=d.get(11, (0.2,))),
        row(21, LEAVE, 20, "Leave > 3 Earned leave > 3.4 Encashment", tokens=50, distances=d.get(21, (0.3,))),
        row(31, LEAVE, 30, "Leave > 4 Sick leave > 4.1 Reporting", tokens=45, distances=d.get(31, (0.6,))),
        row(41, LEAVE, 40, "Leave > 5 Parental leave", tokens=80, section_tokens=420, distances=d.get(41, (0.25,))),
        row(42, LEAVE, 40, "Leave > 5 Parental leave", tokens=90, section_tokens=420, distances=d.get(42, (0.7,))),
        row(43, LEAVE, 40, "Leave > 5 Parental leave", tokens=150, section_tokens=420, distances=d.get(43, (0.8,))),
        row(45, LEAVE, 40, "Leave > 5 Parental leave", tokens=30, section_tokens=420, holder=43, holder_tokens=150,
            distances=d.get(45, (0.22,))),
        row(51, TRAVEL, 50, "Travel > 2 Booking", tokens=70, distances=d.get(51, (0.4,))),
    ]


def rankings_by_distance(rows, weight=1.0):
    """One part ranked by distance only (no stems)."""
    return part_rankings(rows, [frozenset()], weights=(weight,))


def test_lexical_scores_weigh_rare_stems_and_hold_each_once():
    rows = [row(1, 1, 1, "P > A", stems=("leav", "encash"), length=20),
            row(2, 1, 1, "P > A", stems=("leav",), length=20),
            row(3, 1, 1, "P > A", stems=("leav",), length=20),
            row(4, 1, 1, "P > A", stems=(), length=20)]
    scores = lexical_scores(rows, frozenset({"leav", "encash"}))
    assert set(scores) == {1, 2, 3}  # only chunks holding a stem score
    assert scores[1] > scores[2] == scores[3]  # the rare stem adds more than the common one
    long_row = row(5, 1, 1, "P > A", stems=("leav", "encash"), length=200)
    scores = lexical_scores(rows + [long_row], frozenset({"encash"}))
    assert scores[5] < scores[1]  # the same stem in a longer chunk counts less


def test_a_part_with_few_stems_weighs_its_lexical_ranking_less():
    rows = [row(1, 1, 1, "P > A", distances=(0.1,), stems=()), row(2, 1, 2, "P > B", distances=(0.5,), stems=("x",))]
    one_stem = part_rankings(rows, [frozenset({"x"})])[0]
    many = frozenset({"x"} | {f"w{i}" for i in range(packing.LEXICAL_FULL_STEMS)})
    full = part_rankings(rows, [many])[0]
    assert full.chunk_scores[2] > one_stem.chunk_scores[2]
    assert full.chunk_scores[1] == one_stem.chunk_scores[1]  # its cosine rank counts the same


def test_the_best_covering_policy_is_chosen_and_a_second_only_when_alike():
    assert choose_policies({LEAVE: 1.0, TRAVEL: 0.5}) == [LEAVE]
    assert choose_policies({LEAVE: 1.0, TRAVEL: 0.95}, alike=0.9) == [LEAVE, TRAVEL]
    assert choose_policies({TRAVEL: 1.2, LEAVE: 1.0, 3: 1.19}, alike=0.9) == [TRAVEL, 3]  # two at most
    assert choose_policies({}) == []


def test_coverage_counts_the_best_few_chunks_of_each_policy():
    rows = corpus()
    coverage = policy_coverage(rows, rankings_by_distance(rows))
    assert coverage[LEAVE] > coverage[TRAVEL]  # leave's best three are nearer than travel's one


def test_sections_come_round_robin_over_the_parts():
    rows = corpus({11: (0.1, 0.9), 21: (0.2, 0.8), 31: (0.9, 0.1), 41: (0.3, 0.95), 42: (0.9, 0.9), 43: (0.9, 0.9),
                   45: (0.9, 0.9), 51: (0.5, 0.5)})
    rankings = part_rankings(rows, [frozenset(), frozenset()], weights=(1.0, 0.5))
    order = section_order(rows, rankings, [LEAVE])
    assert order[:3] == [10, 30, 20]  # part 1's best, part 2's best, part 1's second
    assert 50 not in order  # another policy's section
    assert section_order(rows, rankings, [LEAVE], rounds=(0, 1)) == [10, 30]


def test_small_sections_whole_siblings_in_one_unit_in_document_order():
    rows = corpus()
    rankings = rankings_by_distance(rows)
    packed = pack_sections(rows, rankings, [20, 30, 10], budget=1000)
    assert [(p.chunk_id, p.unit, p.whole_section) for p in packed.pieces] == [(10, 1, True), (20, 1, True), (30, 2, True)]
    assert packed.token_count == 60 + 50 + 45


def test_a_long_section_is_packed_by_its_ranking_blocks_a_row_by_its_table():
    rows = corpus()
    rankings = rankings_by_distance(rows)
    packed = pack_sections(rows, rankings, [40], budget=1000)  # 420 tokens > a quarter of 1000
    pieces = [(p.chunk_id, p.whole_section) for p in packed.pieces]
    assert (41, False) in pieces and (43, False) in pieces  # block 41 and the table (for its row 45)
    assert all(p.chunk_id != 45 for p in packed.pieces)  # a row is shown by its table piece
    assert [p.ordinal for p in packed.pieces] == sorted(p.ordinal for p in packed.pieces)
    assert packed.left_out and packed.left_out[0].reason == "partly"


def test_the_budget_and_the_units_are_respected_and_what_is_left_out_is_named():
    rows = corpus()
    rankings = rankings_by_distance(rows)
    packed = pack_sections(rows, rankings, [10, 30, 50, 20], budget=120, whole_share=1.0)
    assert packed.token_count <= 120
    assert [p.chunk_id for p in packed.pieces] == [10, 30]
    assert {(o.section_id, o.reason) for o in packed.left_out} >= {(50, "budget"), (20, "budget")}
    limited = pack_sections(rows, rankings, [10, 30, 50, 20], budget=1000, max_units=1)
    assert [p.chunk_id for p in limited.pieces] == [10, 20]  # the sibling joins the first unit
    assert {o.section_id for o in limited.left_out if o.reason == "units"} == {30, 50}


def test_units_group_below_the_headings_every_section_shares():
    assert unit_key("Leave > 3 Earned > 3.3 Carry", 1, 10, 1) == unit_key("Leave > 3 Earned > 3.4 Cash", 1, 20, 1)
    assert unit_key("Leave > 1 Purpose", 1, 10, 1) != unit_key("Leave > 2 Scope", 1, 20, 1)
    # a heading that wraps the whole document is no unit of its own
    assert unit_key("Page > Apply > How", 1, 10, 2) != unit_key("Page > Apply > Who", 1, 20, 2)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 6), st.integers(10, 300), st.floats(0.0, 1.0)), min_size=1, max_size=25),
    st.integers(50, 1500), st.one_of(st.none(), st.integers(1, 6)),
)
def test_packing_invariants(spec, budget, max_units):
    """Never over the budget or the units; no chunk twice; document order inside a unit."""
    rows = [row(i + 1, 1, 100 + section, f"P > {section // 3} > {section}", tokens=tokens, distances=(distance,),
                section_tokens=sum(t for s, t, _ in spec if s == section), ordinal=i + 1)
            for i, (section, tokens, distance) in enumerate(spec)]
    rankings = rankings_by_distance(rows)
    order = section_order(rows, rankings, [1])
    packed = pack_sections(rows, rankings, order, budget=budget, max_units=max_units)
    assert packed.token_count <= budget
    ids = [p.chunk_id for p in packed.pieces]
    assert len(ids) == len(set(ids))
    units = [p.unit for p in packed.pieces]
    assert units == sorted(units)
    if max_units is not None:
        assert len(set(units)) <= max_units
    for unit in set(units):
        ordinals = [p.ordinal for p in packed.pieces if p.unit == unit]
        assert ordinals == sorted(ordinals)
    assert isinstance(rankings[0], PartRanking)
