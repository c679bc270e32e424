"""Kill trials: a Celery worker killed (SIGKILL) in the middle of each ingestion step, then recovered.

    python bench/kill_trials.py [--stages convert,chunk,index] [--pages 50] [--recovery retry|resume]

First a clean run: the generated DOCX (bench/gen_corpus.py, seed 13) ingested by a fresh Celery
worker (prefork, concurrency 1, own queue, Redis db 9) into its own database
(``policypal_bench_kill`` on the embedded server, or BENCH_DATABASE_URL); its chunks are
recorded, then deleted (so that later runs embed for real instead of reusing its vectors).
Then for each stage: the same file as a new version with a fresh worker; the script polls the
version row until its ``running_step`` is that stage (for index: once some chunks are embedded),
kills the worker's whole process group with SIGKILL (parent, pool process, conversion fork
server and children), reads the state the version page shows (``version_progress_state``, and
the ``is_stopped`` flag of the version lists) right after the kill and until it turns
"stopped" (INGEST_HEARTBEAT_STALE_SECONDS=5 here, in the worker's and this process' settings),
starts a new worker and recovers as documented: ``policy_version_retry`` (the Retry button of
the version page) or ``policy_versions_resume`` (what ``make run`` does at start, via
seed_demo). It waits until the version is ready and compares its chunks with the clean run:
count, the multiset of content hashes and record ids, no record id twice, every searchable chunk
embedded; and that the stored progress never went down while it was polled.
Logs: var/bench/kill-worker-*.log. Not in ``make bench``.
"""
from __future__ import annotations

import argparse
import collections
import datetime as dt
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchdb import REPO, VAR_BENCH, heading, machine_line  # noqa: E402

QUEUE = "policypal-bench-kill"
REDIS = "redis://127.0.0.1:6379/9"
DATABASE = "policypal_bench_kill"
SEED = 13
STALE_SECONDS = 5
STEP_OF = {"convert": "converting", "chunk": "chunking", "index": "indexing"}
KEY_PREFIX = "bench-kill"


class TrialError(Exception):
    pass


# --- processes ---------------------------------------------------------------------------------

class Workers:
    """Every worker this script starts, each in its own session (process group = its pid)."""

    def __init__(self, env: dict) -> None:
        self.env = env
        self.procs: list[subprocess.Popen] = []
        self.logs: list = []

    def start(self, tag: str) -> subprocess.Popen:
        log_path = VAR_BENCH / f"kill-worker-{tag}.log"
        log = open(log_path, "w")
        self.logs.append(log)
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "policypal", "worker", "-Q", QUEUE, "--concurrency", "1",
             "--loglevel", "INFO", "--hostname", f"bench-kill-{tag}-{os.getpid()}@%h"],
            cwd=REPO, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        self.procs.append(proc)
        wait_for(lambda: "ready." in log_path.read_text() or proc.poll() is not None, 180, f"worker {tag}")
        if proc.poll() is not None:
            raise TrialError(f"worker {tag} exited at start; see {log_path}")
        return proc

    @staticmethod
    def tree(proc: subprocess.Popen) -> list[int]:
        import psutil

        try:
            return [proc.pid] + [c.pid for c in psutil.Process(proc.pid).children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def kill9(self, proc: subprocess.Popen) -> tuple[list[int], list[int]]:
        """SIGKILL the worker's process group; returns (pids killed, pids still alive after it)."""
        import psutil

        pids = self.tree(proc)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        time.sleep(0.5)
        alive = []
        for pid in pids:
            try:
                if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                    alive.append(pid)
            except psutil.NoSuchProcess:
                pass
        return pids, alive

    def stop(self, proc: subprocess.Popen) -> None:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        try:  # children left over (a conversion fork server) go too
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if proc.poll() is None:
            proc.wait(timeout=30)

    def stop_all(self) -> None:
        for proc in self.procs:
            try:
                self.stop(proc)
            except Exception as exc:  # noqa: BLE001
                print(f"  could not stop worker {proc.pid}: {exc}", flush=True)
        for log in self.logs:
            log.close()


def wait_for(predicate, timeout: float, what: str, every: float = 0.5) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TrialError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(every)


def redis_flush() -> None:
    import redis

    redis.Redis.from_url(REDIS).flushdb()


# --- database reads ----------------------------------------------------------------------------

class Watch:
    """Polls one version's row; keeps every stored progress value seen, in order."""

    def __init__(self, version_id: int) -> None:
        self.version_id = version_id
        self.progress: list[int] = []

    def row(self) -> dict:
        from policypal.policies.models import PolicyVersion

        row = PolicyVersion.objects.filter(pk=self.version_id).values(
            "status", "progress", "running_step", "progress_detail", "error", "heartbeat_at", "restarted_at").get()
        if not self.progress or self.progress[-1] != row["progress"]:
            self.progress.append(row["progress"])
        return row

    def went_back(self) -> list[tuple[int, int]]:
        return [(a, b) for a, b in zip(self.progress, self.progress[1:]) if b < a]


def embedded_count(version_id: int) -> int:
    from retrieval.models import Chunk

    return Chunk.objects.filter(version_id=version_id, embedding__isnull=False).count()


def chunk_summary(version_id: int) -> dict:
    from retrieval.models import Chunk

    rows = list(Chunk.objects.filter(version_id=version_id).values_list("content_hash", "record_id"))
    hashes = collections.Counter(r[0] for r in rows)
    records = collections.Counter(r[1] for r in rows)
    unembedded = Chunk.objects.filter(version_id=version_id, searchable=True, embedding__isnull=True).count()
    return {"count": len(rows), "hashes": hashes, "records": records, "unembedded": unembedded,
            "dup_records": sum(n - 1 for n in records.values() if n > 1)}


def page_state(version_id: int) -> tuple[str, bool, str, bool]:
    """What the version page shows: version_progress_state (key, retry offered, message), and the
    `is_stopped` flag the version lists compute in SQL."""
    from policypal.policies.models import PolicyVersion
    from policypal.policies.selectors import _with_stopped, version_get, version_progress_state

    version = version_get(version_id=version_id)
    state = version_progress_state(version=version)
    listed = _with_stopped(PolicyVersion.objects).filter(pk=version_id).values_list("is_stopped", flat=True).get()
    return state.key, state.can_retry, state.message, listed


def advisory_locks_held(version_id: int) -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 7301 AND objid = %s "
                       "AND granted", [version_id])
        return cursor.fetchone()[0]


# --- the runs ----------------------------------------------------------------------------------

def new_version(path: Path, key: str):
    from policypal.policies.models import Policy
    from policypal.policies.services import UploadedSource, policy_upsert, policy_version_create

    Policy.objects.filter(key=key).delete()
    policy = policy_upsert(key=key, title=f"Kill trial handbook ({key})", category="Operations")
    return policy_version_create(policy=policy, sources=[UploadedSource(name=path.name, content=path.read_bytes())],
                                 effective_from=dt.date(2025, 1, 1), note="kill trial", enqueue=True)


def wait_ready(watch: Watch, timeout: float) -> dict:
    result = {}

    def done() -> bool:
        row = watch.row()
        result.update(row)
        return row["status"] in ("ready", "failed", "cancelled")

    wait_for(done, timeout, "the version to finish", every=0.2)
    return result


def clean_run(workers: Workers, path: Path, timeout: float) -> dict:
    worker = workers.start("clean")
    start = time.perf_counter()
    version = new_version(path, f"{KEY_PREFIX}-clean")
    watch = Watch(version.pk)
    false_stops: list[str] = []

    def done() -> bool:
        row = watch.row()
        if row["status"] not in ("ready", "failed", "cancelled"):
            key, _, message, _ = page_state(version.pk)
            if key == "stopped":
                false_stops.append(f"{row['progress']}% {row['status']}/{row['running_step']}: {message[:70]}")
        return row["status"] in ("ready", "failed", "cancelled")

    wait_for(done, timeout, "the clean run", every=0.2)
    row = watch.row()
    elapsed = time.perf_counter() - start
    workers.stop(worker)
    summary = chunk_summary(version.pk)
    summary.update(status=row["status"], error=row["error"], seconds=elapsed, went_back=watch.went_back(),
                   false_stops=false_stops)
    return summary


def trial(workers: Workers, path: Path, stage: str, recovery: str, clean: dict, timeout: float,
          convert_delay: float) -> dict:
    from policypal.policies.models import PolicyVersion
    from policypal.policies.services import policy_version_retry, policy_versions_resume

    step = STEP_OF[stage]
    out = {"stage": stage, "recovery": recovery, "notes": []}
    worker = workers.start(f"{stage}-1")
    version = new_version(path, f"{KEY_PREFIX}-{stage}")
    out["version"] = version.pk
    watch = Watch(version.pk)

    def at_stage() -> bool:
        row = watch.row()
        if row["status"] in ("ready", "failed", "cancelled"):
            raise TrialError(f"the version finished ({row['status']}) before {step} was seen running")
        if row["running_step"] != step:
            return False
        if stage == "convert":
            return row["status"] == "converting"
        if stage == "index":
            return row["status"] == "indexing" and (row["progress"] > 45 or embedded_count(version.pk) > 0)
        return True

    wait_for(at_stage, timeout, f"running_step = {step}", every=0.02)
    if stage == "convert" and convert_delay:
        time.sleep(convert_delay)  # inside Docling's conversion (the fork server / its child)
    pids, alive = workers.kill9(worker)
    killed_at = time.perf_counter()
    row = watch.row()
    out["killed_at"] = f"{row['progress']}% {row['status']}/{row['running_step'] or '-'}"
    out["embedded_at_kill"] = embedded_count(version.pk)
    out["chunks_at_kill"] = chunk_summary(version.pk)["count"]
    if alive:
        out["notes"].append(f"processes alive after SIGKILL of the group: {alive}")
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    out["killed_pids"] = len(pids)
    key0, retry0, _, listed0 = page_state(version.pk)
    out["state_right_after"] = f"{key0}{' (retry)' if retry0 else ''}"
    # until the heartbeat is stale: the page should say stopped and offer Retry
    seen: dict = {}

    def stopped() -> bool:
        watch.row()
        key, retry, message, listed = page_state(version.pk)
        seen.update(key=key, retry=retry, message=message, listed=listed)
        return key == "stopped" and retry

    try:
        wait_for(stopped, STALE_SECONDS + 30, "the page to show stopped", every=0.25)
        out["stopped_after"] = time.perf_counter() - killed_at
    except TrialError:
        out["notes"].append(f"page never showed stopped+retry: {seen}")
        out["stopped_after"] = None
    if not seen.get("listed"):
        out["notes"].append("the version lists' is_stopped flag was false while the page said stopped")
    out["message"] = seen.get("message", "")
    row = watch.row()
    out["state_seen"] = (f"{seen.get('key')}{', retry offered' if seen.get('retry') else ''} "
                         f"({row['status']}/{row['running_step'] or '-'} {row['progress']}%)")
    locks = advisory_locks_held(version.pk)
    if locks:
        out["notes"].append(f"{locks} advisory lock(s) of the version still held after the kill")
    # recover
    workers.start(f"{stage}-2")
    start = time.perf_counter()
    if recovery == "retry":
        policy_version_retry(version=PolicyVersion.objects.get(pk=version.pk))
    else:
        resumed = policy_versions_resume()
        out["notes"].append(f"resume queued {len(resumed)} version(s)")
    final = wait_ready(watch, timeout)
    out["to_ready"] = time.perf_counter() - start
    out["final"] = final["status"]
    if final["error"]:
        out["notes"].append(f"error: {final['error'][:200]}")
    out["restarted"] = final["restarted_at"] is not None
    summary = chunk_summary(version.pk)
    out["summary"] = summary
    out["went_back"] = watch.went_back()
    out["progress_seen"] = watch.progress
    same = (summary["count"] == clean["count"] and summary["hashes"] == clean["hashes"]
            and summary["records"] == clean["records"])
    out["equal"] = same and summary["dup_records"] == clean["dup_records"] and summary["unembedded"] == 0
    if not same:
        out["notes"].append(
            f"chunks {summary['count']} vs clean {clean['count']}; hashes only here "
            f"{sum((summary['hashes'] - clean['hashes']).values())}, only in clean "
            f"{sum((clean['hashes'] - summary['hashes']).values())}")
    if summary["dup_records"] != clean["dup_records"]:
        out["notes"].append(f"duplicate record ids: {summary['dup_records']} (clean {clean['dup_records']})")
    if summary["unembedded"]:
        out["notes"].append(f"{summary['unembedded']} searchable chunks without a vector")
    if out["went_back"]:
        out["notes"].append(f"progress went back as stored: {out['went_back']}")
    return out


def delete_policies(key: str | None = None) -> None:
    from policypal.policies.models import Policy

    qs = Policy.objects.filter(key=key) if key else Policy.objects.filter(key__startswith=KEY_PREFIX)
    qs.delete()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stages", default="convert,chunk,index")
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--recovery", choices=("retry", "resume"), default="retry",
                        help="retry: policy_version_retry (the page's Retry button); resume: policy_versions_resume "
                             "(what make run does at start)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds to wait for each phase")
    parser.add_argument("--convert-delay", type=float, default=1.0,
                        help="seconds after the convert step is seen running before the kill (into the conversion)")
    args = parser.parse_args()
    stages = [s.strip() for s in args.stages.split(",") if s.strip()]
    for stage in stages:
        if stage not in STEP_OF:
            raise SystemExit(f"unknown stage {stage!r}: use convert, chunk, index")
    VAR_BENCH.mkdir(parents=True, exist_ok=True)

    os.environ["CELERY_QUEUE"] = QUEUE
    os.environ["REDIS_URL"] = REDIS
    os.environ["INGEST_HEARTBEAT_STALE_SECONDS"] = str(STALE_SECONDS)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if not os.environ.get("BENCH_DATABASE_URL"):
        from policypal.embedded_db import embedded_database_url

        os.environ["BENCH_DATABASE_URL"] = embedded_database_url(
            Path(os.environ.get("POLICYPAL_VAR_DIR", REPO / "var")), DATABASE)
    from bench.benchdb import database_name, setup_django
    from bench.ingest_throughput import corpus_file

    url = setup_django()
    env = {**os.environ, "DATABASE_URL": url, "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO")}
    path = corpus_file(args.pages, SEED, "docx")
    print(f"Kill trials: {path.name}, database {database_name(url)}, queue {QUEUE}, {REDIS}, "
          f"INGEST_HEARTBEAT_STALE_SECONDS={STALE_SECONDS}, recovery {args.recovery}")
    print(machine_line())
    from django.db import connection

    workers = Workers(env)
    results = []
    try:
        redis_flush()
        delete_policies()
        heading("clean run")
        clean = clean_run(workers, path, args.timeout)
        print(f"  {clean['status']} in {clean['seconds']:.1f} s: {clean['count']} chunks, "
              f"{len(clean['hashes'])} distinct content hashes, {clean['dup_records']} duplicate record ids, "
              f"{clean['unembedded']} unembedded; page said 'stopped' during it {len(clean['false_stops'])} time(s) "
              f"{clean['false_stops']}"
              + (f"; progress went back {clean['went_back']}" if clean["went_back"] else ""), flush=True)
        if clean["status"] != "ready":
            raise SystemExit(f"the clean run did not finish: {clean['error']}")
        delete_policies(f"{KEY_PREFIX}-clean")  # its vectors would be reused by the trials
        for stage in stages:
            heading(f"kill during {stage}")
            try:
                result = trial(workers, path, stage, args.recovery, clean, args.timeout, args.convert_delay)
            except Exception as exc:  # noqa: BLE001 - report it, go on with the other stages
                result = {"stage": stage, "recovery": args.recovery, "error": f"{type(exc).__name__}: {exc}"}
            finally:
                for proc in list(workers.procs):
                    workers.stop(proc)
                redis_flush()
            results.append(result)
            if "error" in result:
                print(f"  trial failed: {result['error']}", flush=True)
            else:
                print(f"  killed at {result['killed_at']} ({result['killed_pids']} processes; "
                      f"{result['chunks_at_kill']} chunks, {result['embedded_at_kill']} embedded at the kill); "
                      f"right after: {result['state_right_after']}; then {result['state_seen']}"
                      + (f" after {result['stopped_after']:.1f} s" if result["stopped_after"] is not None else ""),
                      flush=True)
                print(f"  message: {result['message']}", flush=True)
                print(f"  {result['recovery']} -> {result['final']} in {result['to_ready']:.1f} s; restarted_at set: "
                      f"{result['restarted']}; {result['summary']['count']} chunks; progress as stored: "
                      f"{result['progress_seen']}", flush=True)
                for note in result["notes"]:
                    print(f"  NOTE: {note}", flush=True)
            delete_policies(f"{KEY_PREFIX}-{stage}")
    finally:
        workers.stop_all()
        try:
            redis_flush()
        except Exception:  # noqa: BLE001
            pass
        connection.close()

    heading("results")
    header = f"{'stage':<8} {'killed at (progress)':<28} {'state seen after the kill':<62} {'recovery':<8} " \
             f"{'to ready':>9}  {'chunks equal to clean':<21}"
    print(header)
    print("-" * len(header))
    for r in results:
        if "error" in r:
            print(f"{r['stage']:<8} {'-':<28} {'-':<62} {r['recovery']:<8} {'-':>9}  no ({r['error'][:80]})")
            continue
        state = r["state_right_after"] + " -> " + r["state_seen"]
        ready = f"{r['to_ready']:.1f} s" if r["final"] == "ready" else r["final"]
        print(f"{r['stage']:<8} {r['killed_at']:<28} {state:<62} {r['recovery']:<8} {ready:>9}  "
              f"{'yes' if r['equal'] else 'no'}")
    problems = [r for r in results if "error" in r or not r["equal"] or r["notes"]]
    sys.exit(1 if any("error" in r or not r["equal"] for r in problems) else 0)


if __name__ == "__main__":
    main()
