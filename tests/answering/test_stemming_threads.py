"""Word stems are the same when many threads stem at once (the web server answers questions on
several threads; a snowball stemmer shared between them mixes their words up or raises)."""
import threading

from policypal.answering.terms import _stem

WORDS = [f"{base}{suffix}" for base in ("allowanc", "reimburs", "approv", "vehicl", "employ", "certif", "schedul", "travel")
         for suffix in ("es", "ing", "ed", "ements", "ations", "ingly", "ers", "ness")] * 120


def test_stems_are_the_same_from_many_threads():
    stem_uncached = _stem.__wrapped__
    expected = {w: stem_uncached(w) for w in set(WORDS)}
    errors, wrong = [], []

    def work(offset):
        try:
            for w in WORDS[offset:] + WORDS[:offset]:
                if stem_uncached(w) != expected[w]:
                    wrong.append(w)
        except Exception as exc:  # noqa: BLE001 - the assertion below reports it
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i * 97,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and not wrong


def test_accents_fold_so_a_cafe_is_a_cafe():
    from policypal.answering.terms import stem

    assert stem("Café") == stem("cafe") and stem("Zürich") == stem("zurich")
    assert stem("Москва") == "москва"  # a letter of another script stays
