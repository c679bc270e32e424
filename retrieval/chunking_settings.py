"""The chunker as the settings configure it: what ingestion and evaluation chunk with.

``chunking/`` is pure code that takes its configuration as arguments; this module turns the
settings (CHUNK_TARGET_TOKENS, CHUNK_OVERLAP_BLOCKS, INPUT_MAX_*) into that configuration.
"""
from __future__ import annotations

from django.conf import settings

from chunking.config import ChunkConfig, InputLimits


def input_limits() -> InputLimits:
    """What one uploaded file may hold, checked while converting and again by the chunker."""
    return InputLimits(
        max_document_chars=settings.INPUT_MAX_DOCUMENT_CHARS,
        max_paragraph_chars=settings.INPUT_MAX_PARAGRAPH_CHARS,
        max_cell_chars=settings.INPUT_MAX_CELL_CHARS,
        max_table_columns=settings.INPUT_MAX_TABLE_COLUMNS,
        max_pdf_pages=settings.INPUT_MAX_PDF_PAGES,
        max_unpacked_bytes=settings.INPUT_MAX_UNPACKED_MB * 1_000_000,
        max_compression_ratio=settings.INPUT_MAX_COMPRESSION_RATIO,
    )


def chunk_config(*, category: str = "", overlap_blocks: int | None = None) -> ChunkConfig:
    """The structure-aware chunker's configuration for a policy of this category (its document
    type goes before the breadcrumb); overlap_blocks overrides CHUNK_OVERLAP_BLOCKS."""
    return ChunkConfig(
        target_tokens=settings.CHUNK_TARGET_TOKENS,
        overlap_blocks=settings.CHUNK_OVERLAP_BLOCKS if overlap_blocks is None else overlap_blocks,
        context={"Document type": category} if category else {},
        limits=input_limits(),
    )
