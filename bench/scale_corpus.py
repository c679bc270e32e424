"""A large synthetic chunk index for the query benchmarks (10,000 and 100,000 searchable chunks).

    python bench/scale_corpus.py --chunks 100000      # build (or reuse) and print what is there

Embedding 100,000 real texts takes hours on two shared cores, so the index is made like this:
- a few generated handbooks (``gen_corpus.markdown_for_pages(50, seed)``, seeds 1..6) are
  converted and chunked by the real pipeline code: some 3,400 distinct searchable chunks with
  their sections, tables and row sentences, embedded once for real (cached in var/bench/);
- every policy of the index is a copy of one handbook with its numbers redrawn (amounts, days,
  percentages: the words stay policy-like, the texts differ) and each chunk's vector is the
  real vector of its original blended with the real vector of another, random chunk (own
  weight 0.65-0.9) plus Gaussian noise, normalised: copies spread around their original
  instead of forming tight 30-point clusters of near ties;
- the copies are spread over 10 access groups (policy i belongs to group i mod 10), so a user
  in one group may read 10 % of the chunks and a user in all groups all of them.
Rows are written with COPY (the triggers of retrieval/migrations/0003 set each row's audience,
access_groups, from its policy's groups); the HNSW and GIN indexes are rebuilt afterwards (as
after a bulk load) and the table analysed; then the partial HNSW index of every audience large
enough (retrieval/audience_indexes.py, the settings in force: by default every audience above
the exact-sort threshold, so the 10 groups' audiences, ~10,000 chunks each at 100,000 and
~100,000 at a million) is built, and its time printed, as is the loader's peak RSS. Database: ``policypal_bench_<N/1000>k`` on the embedded server
(policypal_bench_10k, policypal_bench_100k, policypal_bench_1000k; or BENCH_DATABASE_URL), never
the development data. A reused index gets its audience indexes built if they are missing.
"""
from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import random
import re
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchdb import VAR_BENCH  # noqa: E402

SEEDS = (1, 2, 3, 4, 5, 6)
GROUPS = 10
NOISE_SIGMA = 0.02  # per dimension (a noise vector of norm ~0.39)
OWN_WEIGHT = (0.65, 0.9)  # the chunk's own text's vector, blended with another chunk's
EFFECTIVE_FROM = dt.date(2025, 1, 1)
KEY_PREFIX = "scale-"
_FUNCTION_WORDS = {"is", "are", "at", "on", "their", "within", "of", "to", "for", "the", "a", "an", "and", "or",
                   "by", "with", "in", "be", "must", "may", "should", "from", "its", "that", "this", "it", "as"}
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def database_for(size: int) -> str:
    return f"policypal_bench_{size // 1000}k"


def setup(size: int = 100_000, *, migrate: bool = True) -> str:
    """Django on the benchmark database of an index of `size` chunks; returns its URL."""
    import os

    if not os.environ.get("BENCH_DATABASE_URL"):
        from policypal.embedded_db import embedded_database_url

        from bench.benchdb import REPO

        os.environ["BENCH_DATABASE_URL"] = embedded_database_url(REPO / "var", database_for(size))
    from bench.benchdb import setup_django

    return setup_django(migrate=migrate)


# ------------------------------------------------------------------ base texts


def base_records():
    """[(seed, records)] of the generated handbooks, chunked by the real chunker."""
    from bench import gen_corpus

    from chunking.convert import convert_file
    from policypal.policies.ingestion import chunk_records_for

    folder = VAR_BENCH / "scale"
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for seed in SEEDS:
        path = folder / f"handbook_seed{seed}.md"
        if not path.exists():
            markdown, _ = gen_corpus.markdown_for_pages(50, seed)
            path.write_text(markdown)
        out.append((seed, chunk_records_for(convert_file(str(path)), category="Operations")))
    return out


def base_vectors(records_by_seed):
    """{embed_text: vector} for every searchable base record, computed once and cached."""
    import numpy as np

    from retrieval.embedding import get_embedder

    texts = sorted({r.embed_text for _, records in records_by_seed for r in records if r.searchable})
    digest = hashlib.sha256("\x1f".join(texts).encode()).hexdigest()[:16]
    cache = VAR_BENCH / "scale" / f"vectors_{digest}.npy"
    if cache.exists():
        vectors = np.load(cache)
    else:
        start = time.perf_counter()
        vectors = get_embedder().encode(texts)
        np.save(cache, vectors)
        print(f"  embedded {len(texts)} distinct base texts in {time.perf_counter() - start:.0f} s (cached in {cache.name})")
    return dict(zip(texts, vectors))


# ------------------------------------------------------------------ building


def searchable_count() -> int:
    from retrieval.models import Chunk

    return Chunk.objects.filter(policy__key__startswith=KEY_PREFIX, searchable=True).count()


def ensure_users():
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    User = get_user_model()
    groups = [Group.objects.get_or_create(name=f"scale-g{i}")[0] for i in range(GROUPS)]
    users = {}
    for name, member_of in (("scale-all", groups), ("scale-one", groups[:1])):
        user, created = User.objects.get_or_create(username=name)
        if created:
            user.set_password("bench-" + name)
            user.save()
        user.groups.set(member_of)
        users[name] = user
    return users


def build(target: int, *, log=print) -> dict:
    """Make the index hold `target` searchable synthetic chunks (adding policies as needed)."""
    import numpy as np
    from django.contrib.auth.models import Group
    from django.db import connection

    from policypal.policies.models import Policy, PolicyVersion
    from retrieval.audience_indexes import audience_indexes
    from retrieval.models import Chunk

    ensure_users()
    have = searchable_count()
    if have >= target:
        audiences = audience_indexes_build(log=log)
        return {"searchable": have, "built": False, **audiences}
    records_by_seed = base_records()
    vectors = base_vectors(records_by_seed)
    base_list = list(vectors.values())
    per_copy = [sum(r.searchable for r in records) for _, records in records_by_seed]
    existing = Policy.objects.filter(key__startswith=KEY_PREFIX).count()
    groups = [Group.objects.get(name=f"scale-g{i}") for i in range(GROUPS)]
    start = time.perf_counter()
    rng = np.random.default_rng(existing + 1)
    rows = []
    with connection.cursor() as cursor:
        cursor.execute("SELECT COALESCE(MAX(id), 0) FROM retrieval_chunk")
        next_id = cursor.fetchone()[0] + 1
    n = existing
    added = 0
    while have + added < target:
        seed_index = n % len(records_by_seed)
        seed, records = records_by_seed[seed_index]
        policy = Policy.objects.create(key=f"{KEY_PREFIX}{n:05d}", title=f"Operations Handbook copy {n} (seed {seed})",
                                       category="Operations")
        policy.groups.set([groups[n % GROUPS]])
        version = PolicyVersion.objects.create(policy=policy, number=1, effective_from=EFFECTIVE_FROM,
                                               status=PolicyVersion.Status.READY, published=True, progress=100)
        text_rng = random.Random(n)
        ids = {}
        for ordinal, record in enumerate(records):
            ids[record.id] = next_id
            text = _redraw_numbers(record.text, text_rng)
            prefix = record.embed_text[: len(record.embed_text) - len(record.text)]
            embed_text = prefix + text
            vector = None
            if record.searchable:
                base = vectors[record.embed_text]
                other = base_list[rng.integers(len(base_list))]
                weight = rng.uniform(*OWN_WEIGHT)
                mixed = weight * base + (1 - weight) * other
                mixed += rng.normal(0.0, NOISE_SIGMA, size=base.shape).astype(np.float32)
                vector = mixed / np.linalg.norm(mixed)
            rows.append((
                next_id, version.pk, policy.pk, ids.get(record.parent_id) if record.parent_id else None,
                record.level, record.kind, ordinal, " > ".join(record.breadcrumb), text, embed_text,
                record.token_count, record.searchable, f"synthetic-{next_id}", record.id,
                None if vector is None else "[" + ",".join(f"{x:.6f}" for x in vector) + "]",
            ))
            next_id += 1
        added += per_copy[seed_index]
        n += 1
    log(f"  writing {len(rows):,} rows ({added:,} searchable) for {n - existing} policy copies")
    with connection.cursor() as cursor:
        cursor.execute("DROP INDEX IF EXISTS chunk_embedding_hnsw")
        cursor.execute("DROP INDEX IF EXISTS chunk_search_vector_gin")
        for index in audience_indexes(cursor):  # rebuilt after the load, as the others
            cursor.execute(f"DROP INDEX IF EXISTS {index.name}")
        with cursor.copy(
            "COPY retrieval_chunk (id, version_id, policy_id, parent_id, level, kind, ordinal, breadcrumb, text, "
            "embed_text, token_count, searchable, content_hash, record_id, embedding, pages, block_ids, warnings) "
            "FROM STDIN"
        ) as copy:
            for r in rows:
                copy.write_row(r + ("{}", "{}", "{}"))
        cursor.execute("SELECT setval('retrieval_chunk_id_seq', (SELECT MAX(id) FROM retrieval_chunk))")
        log(f"  rows written in {time.perf_counter() - start:.0f} s; rebuilding indexes")
        index_start = time.perf_counter()
        cursor.execute("SET maintenance_work_mem = '1GB'")
        cursor.execute("SET max_parallel_maintenance_workers = 1")
        cursor.execute("CREATE INDEX chunk_embedding_hnsw ON retrieval_chunk USING hnsw (embedding vector_cosine_ops) "
                       "WITH (m = 16, ef_construction = 64)")
        hnsw_seconds = time.perf_counter() - index_start
        cursor.execute("CREATE INDEX chunk_search_vector_gin ON retrieval_chunk USING gin (search_vector)")
        cursor.execute("ANALYZE retrieval_chunk")
        cursor.execute("ANALYZE policies_policyversion")
        cursor.execute("RESET maintenance_work_mem")
    log(f"  indexes rebuilt in {time.perf_counter() - index_start:.0f} s (HNSW {hnsw_seconds:.0f} s)")
    assert Chunk.objects.filter(embedding__isnull=True, searchable=True, policy__key__startswith=KEY_PREFIX).count() == 0
    audiences = audience_indexes_build(log=log)
    return {"searchable": searchable_count(), "built": True, "seconds": time.perf_counter() - start, **audiences}


def audience_indexes_build(*, log=print) -> dict:
    """The partial HNSW index of every large audience (retrieval/audience_indexes.py, with the
    settings in force); nothing to do (two small reads) when they are in place."""
    from django.db import connection

    from retrieval.audience_indexes import audience_indexes_sync

    start = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '1GB'")
        cursor.execute("SET max_parallel_maintenance_workers = 1")
        plan = audience_indexes_sync(log=lambda message: log("  " + message))
        cursor.execute("RESET maintenance_work_mem")
        cursor.execute("RESET max_parallel_maintenance_workers")
    seconds = time.perf_counter() - start
    if plan.create or plan.drop:
        log(f"  audience indexes: {len(plan.create)} built, {len(plan.drop)} dropped in {seconds:.0f} s; "
            f"{len(plan.keep) + len(plan.create)} in place")
    return {"audience_indexes_built": len(plan.create), "audience_index_seconds": seconds}


def _redraw_numbers(text: str, rng: random.Random) -> str:
    """Other amounts, days and percentages, same shapes: '1,800' -> '2,350', '12.50' -> '9.75'."""
    def redraw(match: re.Match) -> str:
        token = match.group(0)
        if sum(c.isdigit() for c in token) <= 1:
            return token  # leave "1", "4" (list numbers, "No. 4", headings) alone
        digits = [str(rng.randrange(10)) if c.isdigit() else c for c in token]
        digits[0] = str(rng.randrange(1, 10))
        return "".join(digits)
    return _NUMBER.sub(redraw, text)


def questions(count: int, *, seed: int = 11) -> list[str]:
    """Questions an employee might ask of the handbooks: about a section's heading, or about a
    phrase of one of its paragraphs."""
    rng = random.Random(seed)
    records = [r for _, rs in base_records() for r in rs if r.searchable and r.kind in ("text", "list")]
    out = []
    while len(out) < count:
        record = rng.choice(records)
        heading = re.sub(r"^[\d.]+\s*", "", record.breadcrumb[-1]).strip().lower()
        topic = re.sub(r"^[\d.]+\s*", "", record.breadcrumb[1]).split(":")[0].strip().lower() if len(record.breadcrumb) > 1 else ""
        if rng.random() < 0.5 and heading and topic and topic not in heading and heading not in topic:
            out.append(rng.choice(("What are the {} for {}?", "Where do I find the {} of the {} policy?",
                                   "Can you explain the {} in {}?")).format(heading, topic))
            continue
        words = [w.strip(".,;:()") for w in record.text.replace("\n", " ").split()]
        starts = [i for i, w in enumerate(words[:-6]) if w.lower() in ("the", "a", "an", "any", "each")]
        if not starts:
            continue
        start = rng.choice(starts) + 1
        phrase = words[start : start + rng.randrange(3, 6)]
        while phrase and phrase[-1].lower() in _FUNCTION_WORDS:
            phrase.pop()
        if len(phrase) < 2:
            continue
        phrase = " ".join(phrase).lower()
        out.append(rng.choice(("What does the policy say about {}?", "Who approves {}?", "What is the limit for {}?",
                               "When do I need approval for {}?", "Is there a deadline for {}?")).format(phrase))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    args = parser.parse_args()
    setup(args.chunks)
    result = build(args.chunks)
    print(f"searchable synthetic chunks: {result['searchable']:,} ({'built now' if result['built'] else 'reused'})")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 / 1024  # KB on Linux
    print(f"peak RSS of this loader: {peak:.1f} GB")


if __name__ == "__main__":
    main()
