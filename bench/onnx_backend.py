"""ONNX Runtime embedding backends against sentence-transformers on torch (fp32).

    python bench/onnx_backend.py [--repeat 3] [--texts 600]

Exports the bundled model locally (retrieval/onnx_export.py: torch.onnx export, ONNX Runtime's
transformer graph fusion, and for int8 ``quantize_dynamic`` with per-channel, reduced-range
int8 weights; nothing downloaded), then for torch fp32, ONNX fp32 and ONNX int8:
- encoding speed over the same chunk texts (the sample policies' chunks and the generated
  50-page handbook's, when the ingestion benchmark has put it in the benchmark database),
  batch 32, best of ``--repeat`` interleaved runs, and single-question latency (median of 60);
- cosine of each backend's embeddings to torch fp32's (mean and minimum);
- all-evidence@5 (and recall@5) on the shipped question set with each backend: the sample
  policies' chunks re-embedded with the backend into an evaluation chunk table, questions embedded
  with it too.
Adoption rule (issue 4): the ONNX backend becomes the default if it is at least 1.5x faster and
all-evidence@5 drops by at most 1 point.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchdb import REPO, database_name, heading, machine_line, row, setup_django  # noqa: E402

SAMPLE_KEYS = ("travel", "leave", "refunds", "manager-compensation", "it-security")


def ensure_samples() -> None:
    from policypal.policies.demo import demo_users_ensure
    from policypal.policies.ingestion import version_ingest_inline
    from policypal.policies.samples import sample_manifest, samples_ingest

    demo_users_ensure()
    for version in samples_ingest(sample_manifest(), enqueue=False):
        version_ingest_inline(version_id=version.pk)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--texts", type=int, default=600, help="chunk texts timed (default 600)")
    args = parser.parse_args()
    url = setup_django()
    import numpy as np
    from django.conf import settings

    from retrieval.embedding import Embedder
    from retrieval.evaluation import evaluate_questions, questions_load
    from retrieval.models import Chunk
    from retrieval.onnx_export import OnnxEncoder, export_onnx
    from retrieval.strategies import chunk_table_of

    print(f"ONNX Runtime backends, database {database_name(url)}")
    print(machine_line())
    ensure_samples()

    heading("one-off: export from the bundled model (no download)")
    for quantized in (False, True):
        start = time.perf_counter()
        path = export_onnx(settings.EMBEDDING_MODEL, quantized=quantized, root=settings.ONNX_DIR)
        row(f"{'int8' if quantized else 'fp32'} file ({path.stat().st_size / 1e6:.0f} MB)",
            f"{time.perf_counter() - start:.1f} s", "(0 s when exported already)")

    torch_model = Embedder(settings.EMBEDDING_MODEL, backend="torch").model
    backends = {
        "torch fp32": torch_model,
        "onnx fp32": OnnxEncoder(settings.EMBEDDING_MODEL, quantized=False),
        "onnx int8": OnnxEncoder(settings.EMBEDDING_MODEL, quantized=True),
    }

    def encode(model, texts):
        return model.encode(texts, batch_size=32, normalize_embeddings=True, convert_to_numpy=True,
                            show_progress_bar=False).astype(np.float32)

    texts = list(Chunk.objects.filter(searchable=True).order_by("id").values_list("embed_text", flat=True))
    step = max(1, len(texts) // args.texts)
    texts = texts[::step][: args.texts]
    from retrieval.embedding import get_token_counter

    counter = get_token_counter()
    tokens = sum(min(counter.count(t), counter.max_tokens) for t in texts)
    questions = questions_load(REPO / "samples" / "eval" / "questions.jsonl")
    question_texts = list(dict.fromkeys(q.question for q in questions))[:60]

    for model in backends.values():
        encode(model, texts[:16])
    seconds = {name: [] for name in backends}
    for _ in range(args.repeat):
        for name, model in backends.items():
            start = time.perf_counter()
            encode(model, texts)
            seconds[name].append(time.perf_counter() - start)
    single = {}
    for name, model in backends.items():
        samples = []
        for question in question_texts:
            start = time.perf_counter()
            encode(model, [question])
            samples.append(time.perf_counter() - start)
        single[name] = statistics.median(samples)
    vectors = {name: encode(model, texts) for name, model in backends.items()}

    heading(f"speed: {len(texts)} chunk texts, {tokens:,} tokens, best of {args.repeat} interleaved runs")
    base = min(seconds["torch fp32"])
    for name in backends:
        best = min(seconds[name])
        row(f"{name}: tokens/s", f"{tokens / best:,.0f}", f"{base / best:.2f}x torch  (runs: "
            + ", ".join(f"{s:.1f}" for s in seconds[name]) + " s)")
    for name in backends:
        row(f"{name}: one question, median", f"{single[name] * 1000:.1f} ms")

    heading("embeddings against torch fp32 (cosine)")
    for name in list(backends)[1:]:
        cos = (vectors[name] * vectors["torch fp32"]).sum(axis=1)
        row(f"{name}", f"mean {cos.mean():.4f}", f"min {cos.min():.4f}")

    heading("shipped question set, each backend end to end (chunks and questions embedded with it)")
    live = list(
        Chunk.objects.filter(searchable=True, version__policy__key__in=SAMPLE_KEYS, version__published=True)
        .select_related("version__policy")
    )
    results = {}
    for name, model in backends.items():
        chunk_vectors = encode(model, [c.embed_text for c in live])
        for chunk, vector in zip(live, chunk_vectors):
            chunk.embedding = vector  # in memory only, never saved
        question_vectors = dict(zip([q.question for q in questions], encode(model, [q.question for q in questions])))
        with chunk_table_of(live, name=name.replace(" ", "_")) as chunk_source:
            metrics = evaluate_questions(questions, k=5, budget=None, chunk_source=chunk_source, vectors=question_vectors,
                                         strategy=name).metrics
        results[name] = metrics
        row(f"{name}", f"all-ev@5 {metrics.all_evidence_at_k:.3f}",
            f"recall@5 {metrics.recall_at_k:.3f}  MRR@5 {metrics.mrr_at_k:.3f}")

    heading("adoption (at least 1.5x faster and all-evidence@5 down by at most 1 point)")
    base_ae = results["torch fp32"].all_evidence_at_k
    for name in list(backends)[1:]:
        speedup = base / min(seconds[name])
        change = (results[name].all_evidence_at_k - base_ae) * 100
        verdict = "ADOPT" if speedup >= 1.5 and change >= -1.0 else "keep torch"
        row(f"{name}", f"{speedup:.2f}x faster", f"all-evidence@5 {change:+.1f} pt: {verdict}")
    answerable = results["torch fp32"].answerable or 1
    print(f"  (one question of the {answerable} with evidence is {100 / answerable:.1f} points: changes of that "
          "size are near ties flipping, not a real gain or loss)")


if __name__ == "__main__":
    main()
