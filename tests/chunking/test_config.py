import pytest

from chunking.config import ChunkConfig


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
