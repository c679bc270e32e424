"""Token counting with the embedding model's own tokenizer.

The counter is built from a local model directory (no hub access). Counts exclude
the special tokens; ``max_tokens`` is the model's sequence limit minus the two
special tokens ([CLS] and [SEP]) the model adds around every input.

Speed: the chunker asks for the count of many overlapping texts (a piece as it
grows block by block, then the same piece as a record, the section around it).
Counts are cached, and ``count_many`` tokenizes what is not cached yet in one
batch call. For tokenizers that split words on whitespace and normalise one
character at a time (BERT's WordPiece set-up, see ``_splits_on_newlines``), a
line break always ends a word and disappears, so the count of a text is exactly
the sum of the counts of its lines: the cache then holds lines, and a text
built from lines already seen costs dictionary look-ups only. Any other
tokenizer is counted whole text by whole text (still cached).
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol

SPECIAL_TOKENS_PER_INPUT = 2  # [CLS] ... [SEP]
_FALLBACK_MAX_SEQ_LENGTH = 512
# Cached texts are dropped all at once when their total length passes this (a
# long-lived worker counts many documents; the chunker needs one document's worth).
_CACHE_MAX_CHARS = 2_000_000

# Parts of a tokenizer.json under which a line break always separates two words and
# yields no token of its own, so that count(a + "\n" + b) == count(a) + count(b).
# Normalizers here work character by character (BertNormalizer: control characters
# dropped, whitespace mapped to spaces, CJK characters spaced, accents stripped,
# lower case); the pre-tokenizers split on whitespace (dropping it) and punctuation.
_LOCAL_NORMALIZERS = {"BertNormalizer", "Lowercase", "StripAccents", "NFD", "NFKD", "NFC", "NFKC"}
_WHITESPACE_PRE_TOKENIZERS = {"BertPreTokenizer", "Whitespace", "WhitespaceSplit"}


class TokenCounterLike(Protocol):
    """What the chunker needs from a token counter (it also uses ``count_many`` when there)."""

    @property
    def max_tokens(self) -> int: ...

    def count(self, text: str) -> int: ...


class TokenCounter:
    """Counts word pieces exactly as the embedding model sees them."""

    def __init__(self, model_dir: str | os.PathLike[str]) -> None:
        self.model_dir = Path(model_dir)
        if not self.model_dir.is_dir():
            raise ValueError(f"model directory not found: {self.model_dir}")
        self._encode_many, self._by_lines = _load_encoder(self.model_dir)
        self._max_seq_length = _read_max_seq_length(self.model_dir)
        self._cache: dict[str, int] = {}
        self._cache_chars = 0

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
        units = text.split("\n") if self._by_lines else (text,)
        cache = self._cache
        total = 0
        for unit in units:
            known = cache.get(unit)
            if known is None:
                return sum(self._counts(units))
            total += known
        return total

    def count_many(self, texts: Iterable[str]) -> list[int]:
        """The counts of several texts; what is not cached yet is tokenized in one batch."""
        texts = list(texts)
        if not self._by_lines:
            return self._counts(texts)
        lines = [text.split("\n") for text in texts]
        flat = self._counts([line for parts in lines for line in parts])
        counts, start = [], 0
        for parts in lines:
            counts.append(sum(flat[start : start + len(parts)]))
            start += len(parts)
        return counts

    def clear_cache(self) -> None:
        """Forget the cached counts (benchmarks use it to start each run cold)."""
        self._cache.clear()
        self._cache_chars = 0

    def _counts(self, units: Sequence[str]) -> list[int]:
        """Counts of units (lines when counting by lines, else whole texts), cached."""
        cache = self._cache
        found: dict[str, int] = {}
        todo: list[str] = []
        for unit in units:
            if unit and unit not in found:
                known = cache.get(unit)
                if known is None:
                    todo.append(unit)
                    found[unit] = 0
                else:
                    found[unit] = known
        if todo:
            counts = self._encode_many(todo)
            found.update(zip(todo, counts))
            added = sum(map(len, todo))
            if self._cache_chars + added > _CACHE_MAX_CHARS:
                cache.clear()
                self._cache_chars = 0
            cache.update(zip(todo, counts))
            self._cache_chars += added
        return [found[unit] if unit else 0 for unit in units]

    def __repr__(self) -> str:
        return f"TokenCounter({str(self.model_dir)!r}, max_tokens={self.max_tokens})"


def _load_encoder(model_dir: Path):
    """(texts -> numbers of word pieces without special tokens, whether counts add up by lines)."""
    tokenizer_json = model_dir / "tokenizer.json"
    if tokenizer_json.is_file():
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(tokenizer_json))
        # The shipped tokenizer.json truncates and pads to 128: counting must see everything.
        tokenizer.no_truncation()
        tokenizer.no_padding()
        encode_batch = getattr(tokenizer, "encode_batch_fast", tokenizer.encode_batch)  # fast: no offsets

        def encode_many(texts: list[str]) -> list[int]:
            return [len(encoding.ids) for encoding in encode_batch(texts, add_special_tokens=False)]

        config = json.loads(tokenizer_json.read_text(encoding="utf-8"))
        return encode_many, _splits_on_newlines(config)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)

    def encode_many_slow(texts: list[str]) -> list[int]:
        encoded = tokenizer(texts, add_special_tokens=False, truncation=False, verbose=False)["input_ids"]
        return [len(ids) for ids in encoded]

    return encode_many_slow, False


def _splits_on_newlines(config: dict) -> bool:
    """Whether a line break in the input always ends a word and yields no token."""

    def kinds(part) -> list[str] | None:
        if part is None:
            return []
        if not isinstance(part, dict):
            return None
        if part.get("type") == "Sequence":
            inner = [kinds(p) for p in part.get("normalizers", part.get("pretokenizers", []))]
            return None if any(k is None for k in inner) else [k for ks in inner for k in ks]
        return [part.get("type")]

    normalizers = kinds(config.get("normalizer"))
    pre_tokenizers = kinds(config.get("pre_tokenizer"))
    if normalizers is None or pre_tokenizers is None or not pre_tokenizers:
        return False
    if not set(normalizers) <= _LOCAL_NORMALIZERS or not set(pre_tokenizers) <= _WHITESPACE_PRE_TOKENIZERS:
        return False
    # An added token containing a line break could match across two lines.
    return not any("\n" in token.get("content", "") for token in config.get("added_tokens") or [])


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
