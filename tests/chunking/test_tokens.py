from chunking.tokens import TokenCounter


def test_max_tokens_is_model_sequence_length_minus_special_tokens(counter):
    assert counter.max_seq_length == 256
    assert counter.max_tokens == 254


def test_count_excludes_special_tokens(counter):
    assert counter.count("") == 0
    assert counter.count("hello") == 1
    assert counter.count("hello world") == 2


def test_count_is_not_truncated_or_padded_like_the_shipped_tokenizer_json(counter):
    # tokenizer.json in the model ships truncation/padding at 128: counts must ignore both
    assert counter.count("word " * 400) == 400
    assert counter.count("a") == 1


def test_count_uses_word_pieces_not_words(counter):
    assert counter.count("reimbursable") > 1


def test_missing_model_dir_is_a_clear_error(tmp_path):
    import pytest

    with pytest.raises(ValueError, match="model directory not found"):
        TokenCounter(tmp_path / "nope")


# --- speed paths: cached, batched, by lines; the counts must not change -------------------------

_TRICKY_TEXTS = [
    "Travel Policy > 6 Meals > 6.1 Meal allowance\nThe daily allowance is Rs. 1,500.",
    "line one\n\nline two\n- item\n| Grade | Metro |\n| --- | --- |\n| L4 | 1,500 |",
    "\n\nleading and trailing breaks\n\n",
    "accents: caf\u00e9 e\u0301\n\u0301 mark after a break\n\u03a3\u03c3\u03c2 sigma",
    "CJK \u4e2d\u6587\n\u6587\u5b57 and emoji \U0001f600\ncontrol \x00\x1c\x1f\ufffd\u200b zero width",
    "special tokens [SEP] [MASK]\n[MA\nSK] split across lines\r\nwindows line ends\r\n",
    "a" * 99 + "\n" + "b" * 101 + "\n" + "word " * 300,
    "",
    "\n",
]


def _whole_text_count(counter, text):
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(counter.model_dir / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return len(tokenizer.encode(text, add_special_tokens=False).ids)


def test_counts_equal_the_tokenizer_on_the_whole_text(counter):
    expected = [_whole_text_count(counter, text) for text in _TRICKY_TEXTS]
    counter.clear_cache()
    assert [counter.count(text) for text in _TRICKY_TEXTS] == expected
    counter.clear_cache()
    assert counter.count_many(_TRICKY_TEXTS) == expected
    assert counter.count_many(_TRICKY_TEXTS) == expected  # all cached now
    assert [counter.count(text) for text in reversed(_TRICKY_TEXTS)] == expected[::-1]


def test_the_bundled_tokenizer_is_counted_by_lines(counter):
    assert counter._by_lines  # BERT normaliser and pre-tokenizer: a line break always ends a word


def test_only_whitespace_splitting_tokenizers_are_counted_by_lines():
    from chunking.tokens import _splits_on_newlines

    bert = {"normalizer": {"type": "BertNormalizer"}, "pre_tokenizer": {"type": "BertPreTokenizer"}, "added_tokens": []}
    assert _splits_on_newlines(bert)
    assert _splits_on_newlines({**bert, "normalizer": None})
    assert _splits_on_newlines({**bert, "normalizer": {"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "Lowercase"}]}})
    assert not _splits_on_newlines({**bert, "pre_tokenizer": {"type": "ByteLevel"}})  # GPT-2: "\n" is a token
    assert not _splits_on_newlines({**bert, "pre_tokenizer": {"type": "Metaspace"}})
    assert not _splits_on_newlines({**bert, "pre_tokenizer": None})
    assert not _splits_on_newlines({**bert, "normalizer": {"type": "Replace"}})
    assert not _splits_on_newlines({**bert, "added_tokens": [{"content": "a\nb"}]})


def test_cache_is_bounded(counter, monkeypatch):
    from chunking import tokens

    monkeypatch.setattr(tokens, "_CACHE_MAX_CHARS", 50)
    counter.clear_cache()
    for i in range(20):
        text = f"line number {i} of a long text"
        assert counter.count(text) == _whole_text_count(counter, text)
        assert 0 < counter._cache_chars <= max(50, len(text))  # emptied before it would pass the bound
    counter.clear_cache()
    assert counter._cache_chars == 0


def test_chunker_output_does_not_depend_on_count_many(counter):
    from chunking.chunker import chunk_document
    from chunking.config import ChunkConfig
    from chunking.model import Block, Document, Table

    class CountOnly:  # the TokenCounterLike protocol: no count_many, no cache
        max_tokens = counter.max_tokens

        def count(self, text):
            return _whole_text_count(counter, text)

    blocks = [Block("b1", "heading", "Meals", level=1), Block("b2", "paragraph", "The allowance is paid daily. " * 40),
              Block("b3", "paragraph", "This does not apply to trainees."),
              Block("b4", "table", table=Table(header_rows=(("Grade", "Metro"),), rows=(("L4", "1,500"), ("L5", "2,000")))),
              Block("b5", "list", "As follows:", items=("one", "two")), Block("b6", "heading", "Lodging", level=1),
              Block("b7", "paragraph", "Hotels up to Rs. 6,000 a night.")]
    document = Document("Travel Policy", tuple(blocks))
    config = ChunkConfig(target_tokens=40, context={"Document type": "Travel policy"})
    counter.clear_cache()
    assert chunk_document(document, config=config, counter=counter) == chunk_document(document, config=config, counter=CountOnly())
