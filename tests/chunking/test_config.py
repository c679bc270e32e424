import pytest

from chunking.config import ChunkConfig, InputLimits


def test_defaults_are_valid():
    config = ChunkConfig()
    assert config.target_tokens == 180
    assert config.overlap_blocks == 0
    assert config.row_sentences is True
    assert config.hard_max(254) == 254


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"target_tokens": 0}, "target_tokens"),
        ({"target_tokens": "180"}, "target_tokens"),
        ({"max_tokens": 100, "target_tokens": 180}, "max_tokens"),
        ({"overlap_blocks": -1}, "overlap_blocks"),
        ({"min_section_tokens": -3}, "min_section_tokens"),
        ({"row_sentences": "yes"}, "row_sentences"),
        ({"context": {"": "x"}}, "context label"),
        ({"context": 5}, "context"),
        ({"breadcrumb_separator": " "}, "breadcrumb_separator"),
    ],
)
def test_invalid_values_raise_clear_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ChunkConfig(**kwargs)


def test_max_tokens_is_clamped_to_what_the_model_reads():
    assert ChunkConfig(max_tokens=1000).hard_max(254) == 254
    assert ChunkConfig(max_tokens=200).hard_max(254) == 200


def test_target_above_the_counter_limit_is_rejected_when_resolved():
    with pytest.raises(ValueError, match="exceeds the hard maximum"):
        ChunkConfig(target_tokens=300).hard_max(254)


def test_context_is_normalised_ordered_and_hashable():
    config = ChunkConfig(context={"Document type": "Travel  policy", "Effective from": "2024-04-01", "Empty": ""})
    assert config.context == (("Document type", "Travel policy"), ("Effective from", "2024-04-01"))
    assert config.context_line() == "Document type: Travel policy | Effective from: 2024-04-01"
    hash(config)
    with pytest.raises(AttributeError):
        config.target_tokens = 10  # frozen


def test_input_limit_defaults():
    limits = ChunkConfig().limits
    assert limits == InputLimits()
    assert (limits.max_document_chars, limits.max_paragraph_chars, limits.max_cell_chars) == (2_000_000, 10_000, 10_000)
    assert (limits.max_table_columns, limits.max_pdf_pages) == (200, 1_000)
    assert (limits.max_unpacked_bytes, limits.max_compression_ratio) == (200_000_000, 200)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"max_document_chars": 10}, "max_document_chars must be >= 1000, got 10"),
        ({"max_paragraph_chars": 50}, "max_paragraph_chars must be >= 200, got 50"),
        ({"max_cell_chars": "big"}, "max_cell_chars must be an int, got 'big'"),
        ({"max_table_columns": 1}, "max_table_columns must be >= 2, got 1"),
        ({"max_pdf_pages": 0}, "max_pdf_pages must be >= 1, got 0"),
        ({"max_unpacked_bytes": 1.5e8}, "max_unpacked_bytes must be an int"),
        ({"max_compression_ratio": True}, "max_compression_ratio must be an int"),
    ],
)
def test_invalid_input_limits_raise_clear_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        InputLimits(**kwargs)


def test_limits_must_be_input_limits():
    with pytest.raises(ValueError, match="limits must be an InputLimits"):
        ChunkConfig(limits={"max_table_columns": 10})
