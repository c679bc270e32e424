"""Reciprocal rank fusion is a small pure function: check it by hand-computed scores."""
import pytest

from retrieval.rrf import RRF_K, reciprocal_rank_fusion


def test_scores_are_sums_of_reciprocal_ranks():
    fused = dict(reciprocal_rank_fusion(["a", "b", "c"], ["c", "a"]))
    assert fused["a"] == pytest.approx(1 / (RRF_K + 1) + 1 / (RRF_K + 2))
    assert fused["b"] == pytest.approx(1 / (RRF_K + 2))
    assert fused["c"] == pytest.approx(1 / (RRF_K + 3) + 1 / (RRF_K + 1))


def test_best_first_and_found_in_both_lists_beats_one_list():
    fused = reciprocal_rank_fusion(["x", "y"], ["y", "z"])
    assert [item for item, _ in fused] == ["y", "x", "z"]


def test_ties_keep_first_seen_order():
    fused = reciprocal_rank_fusion(["a"], ["b"])
    assert [item for item, _ in fused] == ["a", "b"]
    assert fused[0][1] == fused[1][1]


def test_weights_scale_each_list():
    fused = dict(reciprocal_rank_fusion(["a"], ["b"], weights=[1.0, 0.5]))
    assert fused["a"] == pytest.approx(1 / (RRF_K + 1))
    assert fused["b"] == pytest.approx(0.5 / (RRF_K + 1))
    assert reciprocal_rank_fusion(["a"], ["b"], weights=[0.5, 1.0])[0][0] == "b"


def test_duplicates_inside_one_list_count_once():
    assert dict(reciprocal_rank_fusion(["a", "a", "b"]))["a"] == pytest.approx(1 / (RRF_K + 1))


def test_empty_and_k_parameter():
    assert reciprocal_rank_fusion() == []
    assert reciprocal_rank_fusion([], []) == []
    assert dict(reciprocal_rank_fusion(["a"], k=0))["a"] == pytest.approx(1.0)


def test_bad_arguments_are_rejected():
    with pytest.raises(ValueError):
        reciprocal_rank_fusion(["a"], ["b"], weights=[1.0])
    with pytest.raises(ValueError):
        reciprocal_rank_fusion(["a"], k=-1)
