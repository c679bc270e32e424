"""Word vectors for synonym decisions do not depend on what the process looked up before: the
int8 model quantises activations over a whole batch, so a word embedded beside others came out
different (by up to 0.05 in cosine terms), and the same question could be answered on one run and
refused on the next."""
import numpy as np

from retrieval.lookup import WordVectors


def test_a_words_nearness_is_the_same_whatever_was_looked_up_before():
    others = {"resignation", "leaver", "holiday", "notice"}
    fresh = WordVectors().related("resign", others)
    warmed = WordVectors()
    warmed.related("counterbalance", {"forklift", "tachograph", "a", "departmental", "sleeper", "warehouse"})
    warmed.related("grandmother", {"bereavement", "funeral", "relative"})
    assert warmed.related("resign", others) == fresh


def test_a_cached_vector_is_the_words_own_vector():
    from retrieval.embedding import get_embedder

    vectors = WordVectors()
    vectors.related("overtime", {"premium", "multiplier", "shift"})
    assert np.array_equal(vectors._vectors["premium"], get_embedder().encode(["premium"])[0])
