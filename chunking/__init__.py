"""PolicyPal chunking: a converted document tree in, linked chunk records out.

Pure Python: no Django, Celery or database import here. Converters (and the one
module that imports Docling) live beside this package's chunking modules and are
imported on their own.
"""
from .baseline import chunk_fixed_size
from .chunker import chunk_document, document_sections
from .config import ChunkConfig, InputLimits
from .lint import lint_chunk, lint_chunks
from .model import (
    BLOCK_KINDS,
    CHUNK_KINDS,
    CHUNK_LEVELS,
    Block,
    ChunkRecord,
    Document,
    Table,
)
from .preview import preview_rows
from .sections import Section, build_sections
from .sentences import split_sentences
from .tokens import TokenCounter, TokenCounterLike

__all__ = [
    "BLOCK_KINDS",
    "CHUNK_KINDS",
    "CHUNK_LEVELS",
    "Block",
    "ChunkConfig",
    "ChunkRecord",
    "Document",
    "InputLimits",
    "Section",
    "Table",
    "TokenCounter",
    "TokenCounterLike",
    "build_sections",
    "chunk_document",
    "chunk_fixed_size",
    "document_sections",
    "lint_chunk",
    "lint_chunks",
    "preview_rows",
    "split_sentences",
]
