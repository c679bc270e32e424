"""Reciprocal rank fusion over ranked id lists (pure)."""
from __future__ import annotations

from collections.abc import Hashable, Sequence

RRF_K = 60


def reciprocal_rank_fusion(
    *rankings: Sequence[Hashable], k: int = RRF_K, weights: Sequence[float] | None = None
) -> list[tuple[Hashable, float]]:
    """Fuse rankings (best first) into (id, score) pairs, best first; ties keep first-seen order.

    score(id) = sum over rankings of weight / (k + rank), rank counted from 1. ``weights``
    (one per ranking, default all 1.0) lets one list count more than another.
    """
    if k < 0:
        raise ValueError(f"k must be >= 0, got {k}")
    if weights is None:
        weights = [1.0] * len(rankings)
    if len(weights) != len(rankings):
        raise ValueError(f"{len(weights)} weights for {len(rankings)} rankings")
    scores: dict[Hashable, float] = {}
    for weight, ranking in zip(weights, rankings):
        seen: set[Hashable] = set()
        for rank, item in enumerate(ranking, start=1):
            if item in seen:
                continue  # a duplicate inside one ranking counts once, at its best rank
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])
