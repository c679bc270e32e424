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
