"""Token counting with the embedding model's own tokenizer.

The counter is built from a local model directory (no hub access). Counts exclude
the special tokens; ``max_tokens`` is the model's sequence limit minus the two
special tokens ([CLS] and [SEP]) the model adds around every input.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Protocol

SPECIAL_TOKENS_PER_INPUT = 2  # [CLS] ... [SEP]
_FALLBACK_MAX_SEQ_LENGTH = 512


class TokenCounterLike(Protocol):
    """What the chunker needs from a token counter."""

    @property
    def max_tokens(self) -> int: ...

    def count(self, text: str) -> int: ...


class TokenCounter:
    """Counts word pieces exactly as the embedding model sees them."""

    def __init__(self, model_dir: str | os.PathLike[str]) -> None:
        self.model_dir = Path(model_dir)
        if not self.model_dir.is_dir():
            raise ValueError(f"model directory not found: {self.model_dir}")
        self._encode = _load_encoder(self.model_dir)
        self._max_seq_length = _read_max_seq_length(self.model_dir)

    @property
    def max_seq_length(self) -> int:
        return self._max_seq_length

    @property
    def max_tokens(self) -> int:
        """Largest text length (without special tokens) the model reads in full."""
        return self._max_seq_length - SPECIAL_TOKENS_PER_INPUT

    def count(self, text: str) -> int:
        if not text:
            return 0
        return self._encode(text)

    def __repr__(self) -> str:
        return f"TokenCounter({str(self.model_dir)!r}, max_tokens={self.max_tokens})"


def _load_encoder(model_dir: Path):
    """Return a function text -> number of word pieces (no special tokens)."""
    tokenizer_json = model_dir / "tokenizer.json"
    if tokenizer_json.is_file():
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(tokenizer_json))
        # The shipped tokenizer.json truncates and pads to 128: counting must see everything.
        tokenizer.no_truncation()
        tokenizer.no_padding()
        return lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
    return lambda text: len(
        tokenizer(text, add_special_tokens=False, truncation=False, verbose=False)["input_ids"]
    )


def _read_max_seq_length(model_dir: Path) -> int:
    """sentence_bert_config.json's max_seq_length, else the tokenizer's model_max_length."""
    for name, key in (
        ("sentence_bert_config.json", "max_seq_length"),
        ("tokenizer_config.json", "model_max_length"),
    ):
        value = _json_int(model_dir / name, key)
        if value is not None:
            return value
    return _FALLBACK_MAX_SEQ_LENGTH


def _json_int(path: Path, key: str) -> int | None:
    if not path.is_file():
        return None
    value = json.loads(path.read_text(encoding="utf-8")).get(key)
    if isinstance(value, int) and 0 < value < 1_000_000:
        return value
    return None
