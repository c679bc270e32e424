"""Chunking configuration: validated at construction, immutable afterwards."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

DEFAULT_TARGET_TOKENS = 180
# The compression ratio of an archive member is checked once it has inflated this far.
RATIO_CHECKED_FROM_BYTES = 1_000_000


@dataclass(frozen=True)
class InputLimits:
    """What one uploaded file may hold; past a limit the file is refused with a
    ``ConversionError`` (reason "too_large") naming the limit and the value found
    (``chunking/limits.py`` checks them), except the paragraph limit, which splits.

    max_document_chars: characters of text in the converted document (every paragraph,
        heading, list item, table cell and caption).
    max_paragraph_chars: a longer paragraph (or list item, or heading, which then becomes a
        paragraph) is not refused: it is split at sentence ends, else between words, else
        anywhere, into pieces of at most this many characters.
    max_cell_chars: characters in one table cell (and in a table caption).
    max_table_columns: columns of one table. Below it, a table too wide for one chunk is
        split by columns (the chunker's job, bounded by the model's token limit).
    max_pdf_pages: pages of a PDF, checked before any page is read.
    max_unpacked_bytes: bytes a DOCX, XLSX or PPTX (a ZIP archive) may inflate to, all
        members together, counted while inflating (the sizes its header declares are not
        trusted); also the largest Markdown, HTML or CSV file converted.
    max_compression_ratio: inflated size over compressed size of one archive member, checked
        once the member has inflated past ``RATIO_CHECKED_FROM_BYTES`` (small parts of
        repetitive XML compress far better than 100 to 1 and are harmless).
    """

    max_document_chars: int = 2_000_000
    max_paragraph_chars: int = 10_000
    max_cell_chars: int = 10_000
    max_table_columns: int = 200
    max_pdf_pages: int = 1_000
    max_unpacked_bytes: int = 200_000_000
    max_compression_ratio: int = 200

    def __post_init__(self) -> None:
        _require_int("max_document_chars", self.max_document_chars, minimum=1_000)
        _require_int("max_paragraph_chars", self.max_paragraph_chars, minimum=200)
        _require_int("max_cell_chars", self.max_cell_chars, minimum=100)
        _require_int("max_table_columns", self.max_table_columns, minimum=2)
        _require_int("max_pdf_pages", self.max_pdf_pages, minimum=1)
        _require_int("max_unpacked_bytes", self.max_unpacked_bytes, minimum=10_000)
        _require_int("max_compression_ratio", self.max_compression_ratio, minimum=10)


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
    limits: the input limits; the chunker applies them too (a document converted before a
        limit existed is refused or bounded the same way when it is chunked again).
    """

    target_tokens: int = DEFAULT_TARGET_TOKENS
    max_tokens: int | None = None
    overlap_blocks: int = 0
    row_sentences: bool = True
    min_section_tokens: int = 8
    context: Mapping[str, str] | tuple[tuple[str, str], ...] = field(default=())
    breadcrumb_separator: str = " > "
    limits: InputLimits = field(default_factory=InputLimits)

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
        if not isinstance(self.limits, InputLimits):
            raise ValueError(f"limits must be an InputLimits, got {self.limits!r}")
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
