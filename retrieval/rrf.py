"""Reciprocal rank fusion over ranked id lists (pure)."""
from __future__ import annotations

from collections.abc import Hashable, Sequence

RRF_K = 60


def reciprocal_rank_fusion(*rankings: Sequence[Hashable], k: int = RRF_K) -> list[tuple[Hashable, float]]:
    """Fuse rankings (best first) into (id, score) pairs, best first; ties keep first-seen order."""
    scores: dict[Hashable, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])
