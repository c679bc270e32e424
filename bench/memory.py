"""Peak resident memory of the web process and of the Celery worker while they serve.

    python bench/memory.py [--requests 80] [--clients 4] [--pages 50]

Web: a gunicorn server as scripts/run.sh starts it (here 1 worker process, 4 threads) on the
100,000-chunk synthetic index of bench/scale_corpus.py (build it first, or this script does),
answering ``--requests`` POST /api/ask calls from ``--clients`` concurrent signed-in clients.
Worker: a Celery worker as scripts/run.sh starts it (prefork, concurrency 1) on its own queue
and Redis database, ingesting a generated 50-page handbook (DOCX: convert, chunk, embed,
index; seed 13, whose texts are not in the database yet, so every chunk is embedded) in the
benchmark database. Reported: peak RSS (VmHWM) of the gunicorn worker process
and its master, and of the Celery pool process and its parent, read from /proc while they
still run; plus the HTTP latency of the asks for information.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchdb import REPO, VAR_BENCH, heading, machine_line, percentile, row  # noqa: E402

QUEUE = "policypal-bench-memory"
MEMORY_SEED = 13
REDIS = "redis://127.0.0.1:6379/14"


def vm_hwm_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.5)


def children(pid: int) -> list[int]:
    import psutil

    return [c.pid for c in psutil.Process(pid).children(recursive=True)]


def web(args, env: dict) -> None:
    import requests

    from bench import scale_corpus

    questions = scale_corpus.questions(args.requests, seed=41)
    port = free_port()
    log = open(VAR_BENCH / "memory-web.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "policypal.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", "1", "--threads", "4", "--timeout", "300"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _answers(f"{base}/login/"), 120, "gunicorn")
        sessions = []
        for _ in range(args.clients):
            s = requests.Session()
            s.get(f"{base}/login/", timeout=60)
            r = s.post(f"{base}/login/", data={"username": "scale-all", "password": "bench-scale-all",
                                                "csrfmiddlewaretoken": s.cookies["csrftoken"]},
                       headers={"Referer": f"{base}/login/"}, timeout=60)
            if "sessionid" not in s.cookies:
                raise SystemExit(f"login failed ({r.status_code}); see var/bench/memory-web.log")
            sessions.append(s)
        workers = children(server.pid)
        sessions[0].post(f"{base}/api/ask", json={"question": "warm up", "as_of": "2026-06-01"}, timeout=300)
        latencies, errors = [], []
        lock = threading.Lock()

        def client(s, mine):
            for q in mine:
                start = time.perf_counter()
                r = s.post(f"{base}/api/ask", data=json.dumps({"question": q, "as_of": "2026-06-01"}),
                           headers={"Content-Type": "application/json"}, timeout=300)
                with lock:
                    (latencies if r.status_code == 200 else errors).append(time.perf_counter() - start)

        threads = [threading.Thread(target=client, args=(s, questions[i::args.clients])) for i, s in enumerate(sessions)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        heading(f"web: gunicorn (1 worker, 4 threads), {len(latencies)} asks from {args.clients} clients, 100k-chunk index")
        for pid in workers:
            row(f"gunicorn worker process {pid}: peak RSS", f"{vm_hwm_mb(pid):.0f} MB")
        row(f"gunicorn master {server.pid}: peak RSS", f"{vm_hwm_mb(server.pid):.0f} MB")
        row("HTTP ask latency p50 / p95 (information)",
            f"{percentile(latencies, 50) * 1000:.0f} / {percentile(latencies, 95) * 1000:.0f} ms",
            f"{len(errors)} errors")
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def _answers(url: str) -> bool:
    import requests

    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False


def worker(args, env: dict) -> None:
    import datetime as dt

    from bench.ingest_throughput import corpus_file
    from policypal.policies.models import Policy, PolicyVersion
    from policypal.policies.services import UploadedSource, policy_upsert, policy_version_create

    path = corpus_file(args.pages, MEMORY_SEED, "docx")  # not seed 7: its vectors are in the database already
    log_path = VAR_BENCH / "memory-worker.log"
    log = open(log_path, "w")
    celery = [sys.executable, "-m", "celery", "-A", "policypal"]
    subprocess.run(celery + ["purge", "-f", "-Q", QUEUE], cwd=REPO, env=env, capture_output=True)
    proc = subprocess.Popen(celery + ["worker", "-Q", QUEUE, "--concurrency", "1", "--loglevel", "INFO",
                                      "--hostname", f"bench-memory-{os.getpid()}@%h"],
                            cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: "ready." in log_path.read_text(), 120, "the Celery worker")
        Policy.objects.filter(key="bench-memory").delete()
        policy = policy_upsert(key="bench-memory", title="Benchmark handbook (memory)", category="Operations")
        start = time.perf_counter()
        version = policy_version_create(policy=policy, sources=[UploadedSource(name=path.name, content=path.read_bytes())],
                                        effective_from=dt.date(2025, 1, 1), note="memory benchmark", enqueue=True)
        peak_children = {}

        def finished() -> bool:
            for pid in children(proc.pid):
                try:
                    peak_children[pid] = vm_hwm_mb(pid)
                except OSError:
                    pass
            return PolicyVersion.objects.get(pk=version.pk).is_finished

        wait_for(finished, 1800, "the ingestion")
        version.refresh_from_db()
        heading(f"worker: Celery prefork, concurrency 1, ingesting {path.name} ({args.pages} pages)")
        row("ingestion", f"{version.status} in {time.perf_counter() - start:.0f} s", version.error[:60])
        for pid, mb in peak_children.items():
            row(f"pool process {pid}: peak RSS", f"{mb:.0f} MB")
        row(f"worker parent {proc.pid}: peak RSS", f"{vm_hwm_mb(proc.pid):.0f} MB")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=80)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--skip-web", action="store_true")
    parser.add_argument("--skip-worker", action="store_true")
    parser.add_argument("--backend", choices=("torch", "onnx", "onnx-int8"), default=None,
                        help="EMBEDDING_BACKEND of the web process and the worker")
    args = parser.parse_args()
    if args.backend:
        os.environ["EMBEDDING_BACKEND"] = args.backend
    VAR_BENCH.mkdir(parents=True, exist_ok=True)
    if not args.skip_web:
        print(f"Peak resident memory while serving (EMBEDDING_BACKEND={os.environ.get('EMBEDDING_BACKEND', 'onnx-int8, the default')})")
        print(machine_line())
    os.environ["CELERY_QUEUE"] = QUEUE
    os.environ["REDIS_URL"] = REDIS
    given_bench_url = os.environ.get("BENCH_DATABASE_URL")
    if not args.skip_web:
        from bench import scale_corpus

        scale_url = scale_corpus.setup(100_000)
        scale_corpus.build(100_000)
        from django.db import connections

        connections.close_all()
        web(args, {**os.environ, "DATABASE_URL": scale_url, "HF_HUB_OFFLINE": "1", "LOG_LEVEL": "WARNING"})
    if not args.skip_worker:
        if not args.skip_web:  # Django points at the scale database here: ingest from a fresh process
            env = {k: v for k, v in os.environ.items() if k not in ("BENCH_DATABASE_URL", "DATABASE_URL")}
            if given_bench_url:
                env["BENCH_DATABASE_URL"] = given_bench_url
            extra = ["--backend", args.backend] if args.backend else []
            subprocess.run([sys.executable, __file__, "--skip-web", "--pages", str(args.pages), *extra], cwd=REPO,
                           env=env, check=True)
            return
        from bench.benchdb import setup_django

        url = setup_django()
        worker(args, {**os.environ, "DATABASE_URL": url, "HF_HUB_OFFLINE": "1"})


if __name__ == "__main__":
    main()
