"""Chunking configuration: validated at construction, immutable afterwards."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

DEFAULT_TARGET_TOKENS = 180


@dataclass(frozen=True)
class ChunkConfig:
    """How the chunker sizes and labels chunks.

    target_tokens: soft size of a block chunk's embed_text; blocks are packed up to it.
    max_tokens: hard ceiling; ``None`` means the token counter's ``max_tokens``
        (a larger value is clamped to the counter's, the model cannot read more).
    overlap_blocks: blocks repeated at the start of the next piece of a long section.
    row_sentences: also emit one "table_row" chunk per table body row.
    min_section_tokens: a section whose body is at most this many tokens merges forward.
    context: extra labels put before the breadcrumb in embed_text, e.g.
        {"Document type": "Travel policy", "Effective from": "2024-04-01"}.
        Stored as a tuple of (label, value) pairs so the config stays hashable.
    breadcrumb_separator: joins breadcrumb parts in embed_text.
    """

    target_tokens: int = DEFAULT_TARGET_TOKENS
    max_tokens: int | None = None
    overlap_blocks: int = 0
    row_sentences: bool = True
    min_section_tokens: int = 8
    context: Mapping[str, str] | tuple[tuple[str, str], ...] = field(default=())
    breadcrumb_separator: str = " > "

    def __post_init__(self) -> None:
        _require_int("target_tokens", self.target_tokens, minimum=16)
        if self.max_tokens is not None:
            _require_int("max_tokens", self.max_tokens, minimum=16)
            if self.max_tokens < self.target_tokens:
                raise ValueError(
                    f"max_tokens ({self.max_tokens}) must be >= target_tokens ({self.target_tokens})"
                )
        _require_int("overlap_blocks", self.overlap_blocks, minimum=0)
        _require_int("min_section_tokens", self.min_section_tokens, minimum=0)
        if not isinstance(self.row_sentences, bool):
            raise ValueError("row_sentences must be a bool")
        if not isinstance(self.breadcrumb_separator, str) or not self.breadcrumb_separator.strip():
            raise ValueError("breadcrumb_separator must be a non-blank string")
        object.__setattr__(self, "context", _normalise_context(self.context))

    def hard_max(self, counter_max_tokens: int) -> int:
        """The ceiling actually used: never above what the model reads."""
        if self.max_tokens is None:
            limit = counter_max_tokens
        else:
            limit = min(self.max_tokens, counter_max_tokens)
        if limit < self.target_tokens:
            raise ValueError(
                f"target_tokens ({self.target_tokens}) exceeds the hard maximum ({limit}) "
                "of the token counter"
            )
        return limit

    def context_line(self) -> str:
        """"Label: value | Label: value" for embed_text, or "" without context."""
        return " | ".join(f"{label}: {value}" for label, value in self.context)


def _require_int(name: str, value: object, *, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an int, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")


def _normalise_context(context: object) -> tuple[tuple[str, str], ...]:
    if context is None:
        return ()
    items = context.items() if isinstance(context, Mapping) else context
    try:
        pairs = tuple((label, value) for label, value in items)  # type: ignore[misc]
    except (TypeError, ValueError):
        raise ValueError("context must be a mapping of label -> value") from None
    cleaned = []
    for label, value in pairs:
        if not isinstance(label, str) or not label.strip():
            raise ValueError(f"context label must be a non-blank string, got {label!r}")
        if value is None or str(value).strip() == "":
            continue  # an absent value is simply not shown
        cleaned.append((label.strip(), " ".join(str(value).split())))
    return tuple(cleaned)
