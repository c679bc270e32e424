"""A bounded load test over HTTP: N signed-in users asking questions while an admin uploads a policy.

    python bench/load.py [--users 50] [--seconds 60] [--chunks 10000] [--workers 2] [--threads 4]
                         [--pages 50] [--upload-wait 600]

Starts, on 127.0.0.1 only and on free ports / its own queue:
- a gunicorn server as scripts/run.sh starts it (``--workers`` processes, default 2 like
  WEB_WORKERS; ``--threads`` threads each, default 4; EMBEDDING_THREADS=1) on the synthetic index
  of bench/scale_corpus.py with ``--chunks`` searchable chunks (built or reused; at least 10,000),
  with ASK_LIMIT_PER_MINUTE=0 in its environment: the per-user question limit (30 a minute by
  default) is off for the test, otherwise most asks would be 429s;
- a Celery worker as scripts/run.sh starts it (prefork, concurrency 1) on its own queue
  (``policypal-bench-load``) and Redis database (14), so a development worker never takes the task.

Users ``load-user-000``... (password ``bench-load-user``, members of all the index's access groups,
like ``scale-all``) and the admin ``load-admin`` (group policy_admins) are created in the benchmark
database. Every user, in its own thread with its own requests.Session, signs in (GET /login/ for the
CSRF token, POST the credentials; all sign-ins happen before the clock starts) and then asks
questions from scale_corpus.questions() through POST /api/ask (JSON; the view is csrf_exempt) one
after another until ``--seconds`` are up (each request has a 120 s timeout; a request started
before the end is waited for). Meanwhile the admin uploads a generated 50-page DOCX (seed 13, none
of whose texts is in the index, so every chunk is embedded) through /manage/upload/ as a new policy
readable by group scale-g0; the script waits for that version to finish (at most ``--upload-wait``
seconds after the asks end) and reports its status and time from upload to ready; the policy is
deleted at the end, so the index stays as bench/scale_corpus.py built it.

Printed: requests, errors (non-2xx or exceptions, by reason, with the first few), latency
p50 / p95 / max, throughput, the upload's time to ready. Everything started is stopped at the end
(terminate, then kill). Logs: var/bench/load-web.log, var/bench/load-worker.log.
"""
from __future__ import annotations

import argparse
import collections
import datetime as dt
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchdb import REPO, VAR_BENCH, database_name, heading, machine_line, percentile, row  # noqa: E402

QUEUE = "policypal-bench-load"
REDIS = "redis://127.0.0.1:6379/14"
UPLOAD_SEED = 13  # not in the synthetic index: every chunk of the upload is embedded
POLICY_KEY = "bench-load-upload"
USER_PASSWORD = "bench-load-user"
ADMIN = ("load-admin", "bench-load-admin")
AS_OF = "2026-06-01"
REQUEST_TIMEOUT = 120


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


def stop(proc: subprocess.Popen | None, grace: float) -> None:
    """Terminate the process (graceful shutdown), then kill its whole process group if it lingers."""
    if proc is None:
        return
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
    try:  # started with start_new_session: its group id is its pid; children left over go too
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def ensure_users(count: int):
    """load-user-NNN (all access groups of the index) and load-admin (policy_admins), known passwords."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import Group

    from bench import scale_corpus
    from policypal.policies.roles import POLICY_ADMINS

    User = get_user_model()
    groups = [Group.objects.get_or_create(name=f"scale-g{i}")[0] for i in range(scale_corpus.GROUPS)]
    hashed = make_password(USER_PASSWORD)  # hashed once (PBKDF2 is slow on purpose), shared by all
    names = [f"load-user-{i:03d}" for i in range(count)]
    for name in names:
        user, created = User.objects.get_or_create(username=name)
        if created or not user.check_password(USER_PASSWORD):
            user.password = hashed
            user.is_active = True
            user.save()
        user.groups.set(groups)
    admin, _ = User.objects.get_or_create(username=ADMIN[0])
    if not admin.check_password(ADMIN[1]):
        admin.set_password(ADMIN[1])
        admin.save()
    admin.groups.set([Group.objects.get_or_create(name=POLICY_ADMINS)[0]])
    return names


def sign_in(base: str, username: str, password: str):
    import requests

    s = requests.Session()
    s.get(f"{base}/login/", timeout=REQUEST_TIMEOUT)
    r = s.post(f"{base}/login/", data={"username": username, "password": password,
                                       "csrfmiddlewaretoken": s.cookies.get("csrftoken", "")},
               headers={"Referer": f"{base}/login/"}, timeout=REQUEST_TIMEOUT, allow_redirects=False)
    if "sessionid" not in s.cookies:
        raise RuntimeError(f"sign-in of {username} failed: HTTP {r.status_code}")
    return s


class Results:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[float] = []  # successful (2xx) asks
        self.all_latencies: list[float] = []
        self.errors: collections.Counter = collections.Counter()
        self.first_errors: list[str] = []

    def add(self, seconds: float, error: str | None) -> None:
        with self.lock:
            self.all_latencies.append(seconds)
            if error is None:
                self.latencies.append(seconds)
            else:
                self.errors[error] += 1
                if len(self.first_errors) < 5:
                    self.first_errors.append(error)


def asker(session, base: str, questions: list[str], start: threading.Event, deadline: list[float],
          results: Results) -> None:
    import requests

    start.wait()
    i = 0
    while time.monotonic() < deadline[0]:
        question = questions[i % len(questions)]
        i += 1
        t0 = time.perf_counter()
        error = None
        try:
            r = session.post(f"{base}/api/ask", data=json.dumps({"question": question, "as_of": AS_OF}),
                             headers={"Content-Type": "application/json"}, timeout=REQUEST_TIMEOUT)
            if not 200 <= r.status_code < 300:
                error = f"HTTP {r.status_code}: {r.text[:120]!r}"
        except requests.RequestException as exc:
            error = f"{type(exc).__name__}: {str(exc)[:120]}"
        results.add(time.perf_counter() - t0, error)


def upload(base: str, path: Path, start: threading.Event, state: dict, deadline: list[float],
           upload_wait: float) -> None:
    """The admin: sign in, then upload the handbook through the upload form once the asks run."""
    try:
        s = sign_in(base, *ADMIN)
        s.get(f"{base}/manage/upload/", timeout=REQUEST_TIMEOUT)
        start.wait()
        time.sleep(2)  # the asks are under way

        with path.open("rb") as handle:
            t0 = time.perf_counter()
            r = s.post(f"{base}/manage/upload/",
                       data={"csrfmiddlewaretoken": s.cookies.get("csrftoken", ""), "key": POLICY_KEY,
                             "title": "Load-test handbook", "category": "Operations",
                             "effective_from": "2025-01-01", "new_groups": "scale-g0",
                             "publish_when_ready": "on", "note": "bench/load.py"},
                       files={"files": (path.name, handle,
                                        "application/vnd.openxmlformats-officedocument.wordprocessingml.document")},
                       headers={"Referer": f"{base}/manage/upload/"}, timeout=REQUEST_TIMEOUT,
                       allow_redirects=False)
        state["upload_request_seconds"] = time.perf_counter() - t0
        state["uploaded_at"] = t0
        match = re.search(r"/manage/versions/(\d+)/", r.headers.get("Location", ""))
        if r.status_code != 302 or not match:
            state["error"] = f"upload refused: HTTP {r.status_code} {r.text[:200]!r}"
            return
        state["version_id"] = int(match.group(1))
        watch(state, deadline, upload_wait)
    except Exception as exc:  # noqa: BLE001 - reported at the end
        state["error"] = f"{type(exc).__name__}: {exc}"


def watch(state: dict, deadline: list[float], upload_wait: float) -> None:
    """Poll the version (database, twice a second) while the asks run and at most `upload_wait`
    seconds after they end; note when it is finished."""
    from django.db import connection

    from policypal.policies.models import PolicyVersion

    try:
        while True:
            version = PolicyVersion.objects.get(pk=state["version_id"])
            state["status"] = f"{version.status} ({version.progress} %)"
            if version.is_finished:
                state["finished_at"] = time.perf_counter()
                if version.error:
                    state["status"] += f": {version.error[:100]}"
                return
            if time.monotonic() > deadline[0] + upload_wait:
                return
            time.sleep(0.5)
    finally:
        connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--chunks", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes (scripts/run.sh: WEB_WORKERS=2)")
    parser.add_argument("--threads", type=int, default=4, help="gunicorn threads per worker (scripts/run.sh: 4)")
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--upload-wait", type=float, default=600,
                        help="seconds to wait for the upload to finish after the asks end")
    args = parser.parse_args()
    if args.chunks < 10_000:
        parser.error("--chunks: at least 10000")
    if not 1 <= args.users <= 500 or not 1 <= args.seconds <= 3600:
        parser.error("--users 1..500, --seconds 1..3600")

    import requests

    from bench import scale_corpus
    from bench.ingest_throughput import corpus_file

    VAR_BENCH.mkdir(parents=True, exist_ok=True)
    os.environ["CELERY_QUEUE"] = QUEUE
    os.environ["REDIS_URL"] = REDIS
    url = scale_corpus.setup(args.chunks)
    built = scale_corpus.build(args.chunks)
    path = corpus_file(args.pages, UPLOAD_SEED, "docx")
    names = ensure_users(args.users)

    from django.db import connections

    from policypal.policies.models import Policy

    Policy.objects.filter(key=POLICY_KEY).delete()  # a fresh policy: its chunks are not in the index yet
    questions = scale_corpus.questions(max(200, args.users * 20), seed=43)
    connections.close_all()

    print(f"Load test: {args.users} users for {args.seconds:.0f} s, database {database_name(url)} "
          f"({built['searchable']:,} searchable chunks), upload {path.relative_to(REPO)}")
    print(machine_line())
    env = {**os.environ, "DATABASE_URL": url, "HF_HUB_OFFLINE": "1", "LOG_LEVEL": "WARNING",
           "ASK_LIMIT_PER_MINUTE": "0", "EMBEDDING_THREADS": "1", "CELERY_QUEUE": QUEUE, "REDIS_URL": REDIS}
    print(f"gunicorn: {args.workers} workers x {args.threads} threads (gthread), timeout 120, keep-alive 30 s, EMBEDDING_THREADS=1, "
          f"ASK_LIMIT_PER_MINUTE=0 (question rate limit off); Celery: prefork, concurrency 1, queue {QUEUE}")

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    web_log = open(VAR_BENCH / "load-web.log", "w")
    worker_log_path = VAR_BENCH / "load-worker.log"
    worker_log = open(worker_log_path, "w")
    server = worker = None
    celery = [sys.executable, "-m", "celery", "-A", "policypal"]
    try:
        subprocess.run(celery + ["purge", "-f", "-Q", QUEUE], cwd=REPO, env=env, capture_output=True, timeout=120)
        worker = subprocess.Popen(celery + ["worker", "-Q", QUEUE, "--concurrency", "1", "--loglevel", "INFO",
                                            "--hostname", f"bench-load-{os.getpid()}@%h"],
                                  cwd=REPO, env=env, stdout=worker_log, stderr=subprocess.STDOUT, start_new_session=True)
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "policypal.wsgi:application", "--bind", f"127.0.0.1:{port}",
             "--workers", str(args.workers), "--threads", str(args.threads), "--timeout", "120", "--keep-alive", "30",
             "--access-logfile", "-", "--error-logfile", "-"],
            cwd=REPO, env=env, stdout=web_log, stderr=subprocess.STDOUT, start_new_session=True,
        )

        def answers() -> bool:
            if server.poll() is not None:
                raise SystemExit("gunicorn exited; see var/bench/load-web.log")
            try:
                return requests.get(f"{base}/login/", timeout=2).status_code == 200
            except requests.RequestException:
                return False

        wait_for(answers, 120, "gunicorn")
        wait_for(lambda: "ready." in worker_log_path.read_text(), 180, "the Celery worker")

        # Sign everyone in before the clock starts (PBKDF2 makes each sign-in cost CPU).
        t0 = time.perf_counter()
        sessions: list = [None] * len(names)
        failures: list[str] = []

        def sign_in_one(i: int) -> None:
            try:
                sessions[i] = sign_in(base, names[i], USER_PASSWORD)
            except Exception as exc:  # noqa: BLE001
                failures.append(str(exc))

        signers = [threading.Thread(target=sign_in_one, args=(i,)) for i in range(len(names))]
        for t in signers:
            t.start()
        for t in signers:
            t.join()
        if failures:
            raise SystemExit(f"{len(failures)} sign-ins failed, first: {failures[0]}")
        sign_in_seconds = time.perf_counter() - t0
        for s in sessions[: args.workers * 2]:  # warm up each worker's model and connections
            s.post(f"{base}/api/ask", json={"question": "warm up", "as_of": AS_OF}, timeout=REQUEST_TIMEOUT)

        results = Results()
        go = threading.Event()
        deadline = [0.0]
        upload_state: dict = {}
        threads = [threading.Thread(target=asker, args=(s, base, questions[i::len(sessions)] or questions, go,
                                                        deadline, results))
                   for i, s in enumerate(sessions)]
        admin = threading.Thread(target=upload, args=(base, path, go, upload_state, deadline, args.upload_wait), daemon=True)
        for t in threads:
            t.start()
        admin.start()
        time.sleep(0.5)
        load_start = time.monotonic()
        load_start_perf = time.perf_counter()
        deadline[0] = load_start + args.seconds
        go.set()
        for t in threads:
            t.join(timeout=args.seconds + REQUEST_TIMEOUT + 30)
        elapsed = time.monotonic() - load_start
        # The upload: its thread polls the version until it is finished (bounded by --upload-wait).
        admin.join(timeout=REQUEST_TIMEOUT + args.upload_wait + 30)
        version_id = upload_state.get("version_id")
        finished_at = upload_state.get("finished_at")
        status = upload_state.get("status", "not uploaded")

        heading(f"asks: {args.users} users, {elapsed:.1f} s (asked until {args.seconds:.0f} s, then waited for "
                f"the requests under way)")
        row("sign-in of all users (before the clock)", f"{sign_in_seconds:.1f} s")
        total = len(results.all_latencies)
        errors = total - len(results.latencies)
        row("requests", f"{total:,}")
        row("errors (non-2xx or exceptions)", f"{errors:,}", f"{100 * errors / total:.1f} %" if total else "")
        for reason, count in results.errors.most_common(5):
            print(f"    {count:>6} x {reason}")
        if results.first_errors:
            print("    first errors:")
            for reason in results.first_errors:
                print(f"      {reason}")
        ok = results.latencies
        row("latency of successful asks p50 / p95 / max",
            f"{percentile(ok, 50) * 1000:.0f} / {percentile(ok, 95) * 1000:.0f} / "
            f"{(max(ok) if ok else float('nan')) * 1000:.0f} ms")
        if errors:
            every = results.all_latencies
            row("latency of all requests p50 / p95 / max",
                f"{percentile(every, 50) * 1000:.0f} / {percentile(every, 95) * 1000:.0f} / {max(every) * 1000:.0f} ms")
        row("throughput (successful asks / s)", f"{len(ok) / elapsed:.1f}")
        heading(f"upload: {path.name} ({args.pages} pages) through /manage/upload/ by {ADMIN[0]}")
        if "error" in upload_state:
            row("upload", "FAILED", upload_state["error"][:200])
        else:
            started = upload_state.get("uploaded_at")
            row("upload request (POST, file stored, task queued)", f"{upload_state.get('upload_request_seconds', 0):.1f} s",
                f"version {version_id}, {started - load_start_perf:.1f} s into the asks" if started else "")
            if finished_at is not None:
                row("time from upload to finished", f"{finished_at - started:.1f} s", status)
            else:
                row("not finished: status at the end", status,
                    f"after {time.perf_counter() - started:.0f} s" if started else "")
        print(machine_line())
    finally:
        stop(server, 30)
        stop(worker, 60)
        web_log.close()
        worker_log.close()
        try:  # leave the index as scale_corpus built it: the uploaded policy goes (users stay)
            Policy.objects.filter(key=POLICY_KEY).delete()
            connections.close_all()
        except Exception as exc:  # noqa: BLE001
            print(f"could not delete the uploaded policy {POLICY_KEY}: {exc}")
        try:  # drop anything left on the benchmark queue
            subprocess.run(celery + ["purge", "-f", "-Q", QUEUE], cwd=REPO, env=env, capture_output=True, timeout=60)
        except (subprocess.SubprocessError, NameError):
            pass


if __name__ == "__main__":
    main()
