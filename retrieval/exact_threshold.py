"""Exact or index: the number of allowed chunks up to which a vector list sorts every allowed
chunk by distance instead of scanning an HNSW index (retrieval/search.py, "Exact or index"). The
audience index service (retrieval/audience_indexes.py) uses the same threshold: an audience
smaller than it is sorted exactly anyway, so it gets no index of its own."""
from __future__ import annotations

import math

from django.conf import settings

# Exact or index. Sorting the allowed chunks costs about e per allowed chunk (3.5 us at a
# million: each vector is read from TOAST); the HNSW scan under a filter keeping a fraction f of
# the T indexed chunks visits about n / f tuples for n rows, so costs about h * n * T / allowed.
# The exact sort is the faster while allowed^2 <= (h / e) * n * T. Measured with
# bench/hnsw_recall.py --crossover (n = 40, one vector): the two meet at about 5,300 allowed of
# 100,475 and 13,500 of 1,000,048 chunks, h / e = 7.0 and 4.6: so exact while
# allowed <= sqrt(EXACT_SCAN_RATIO * n * T). Setting SEARCH_EXACT_RATIO overrides the ratio;
# SEARCH_EXACT_MAX_ROWS, when set, replaces the rule by a fixed number of allowed chunks.
EXACT_SCAN_RATIO = 5.0


def exact_max_rows(*, n: int, indexed: int) -> int:
    """The most allowed chunks for which the vector lists are exact (see EXACT_SCAN_RATIO)."""
    fixed = getattr(settings, "SEARCH_EXACT_MAX_ROWS", None)
    if fixed is not None:
        return int(fixed)
    ratio = float(getattr(settings, "SEARCH_EXACT_RATIO", EXACT_SCAN_RATIO))
    return int(math.sqrt(max(ratio, 0.0) * max(n, 1) * max(indexed, 1)))
