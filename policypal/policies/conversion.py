"""Conversion of one uploaded file in a child process, under a memory limit and a time limit.

Docling runs on files that anyone with the policy admin role uploads: a broken or hostile file
can make it allocate without bound or never finish, and in the worker itself that takes the
worker down (or holds it forever) with the version shown as busy. So a file is converted in a
child process whose address space is capped with RLIMIT_AS and which is killed once the
wall-clock limit passes; the child also ends itself when the process that asked for it ends (a
worker killed mid-conversion) and at its own alarm. The version fails with a reason that names
the limit.

The children come from a fork server (multiprocessing's "forkserver" start method) that imports
the converter once. `spawn` per file would pay Docling's import (4-6 s: it pulls in torch) for
every file; forking the worker itself would copy its database connection and threads. The server
starts with the first conversion in a process; each file then costs one fork (about 0.1 s).
"""
from __future__ import annotations

import functools
import multiprocessing
import os
import resource
import select
import signal
import threading
import time
import traceback
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import wait
from pathlib import Path

from chunking.errors import ConversionError

# What the fork server imports before forking children: the converter and what it loads lazily.
_PRELOAD = [
    "policypal.policies.conversion",
    "chunking.convert",
    "chunking.serialize",
    "chunking.docling_adapter",
    "chunking.html_main",
    "chunking.pdf_plain",
    "docling.datamodel.base_models",
    "docling.document_converter",
]
_WAIT_TICK = 0.5  # seconds between the parent's checks (heartbeat, cancel) while the child works
_ALARM_GRACE = 5  # seconds the child's own alarm adds to the limit, for the parent to act first


@dataclass(frozen=True)
class ConversionLimits:
    memory_mb: int  # address space of the child; 0 for no limit
    timeout_seconds: float


@dataclass(frozen=True)
class Converted:
    tree: dict  # chunking.serialize.document_to_dict of the converted document
    title: str
    page_count: int


class ConversionStopped(Exception):
    """The child was stopped at a limit, or died; the message says which, for the policy admin."""


def convert_in_child(
    path: str | Path,
    *,
    name: str,
    pdf_artifacts_path: str | None,
    limits: ConversionLimits,
    on_wait: Callable[[], None] | None = None,
    convert_options: dict | None = None,
) -> Converted:
    """Convert the file at `path` (shown to the admin as `name`) in a child process, with
    chunking.convert.convert_file (`convert_options`: its other keyword arguments, picklable).

    `on_wait` is called about every half second while the child works (a heartbeat, a cancel
    check); whatever it raises stops the child and propagates. Raises ConversionError for a file
    the converter rejects, ConversionStopped at a limit, RuntimeError for any other failure."""
    if on_wait is not None:
        on_wait()  # beat before the first start, which waits for the fork server's imports (seconds)
    context = _context()
    receiver, sender = context.Pipe(duplex=False)
    memory_bytes = limits.memory_mb * 1024 * 1024 if limits.memory_mb > 0 else 0
    with _as_plain_process():
        child = context.Process(
            target=_child_main,
            args=(sender, os.getpid(), str(path), pdf_artifacts_path, convert_options or {}, memory_bytes,
                  limits.timeout_seconds),
            name=f"convert {name}",
        )
        child.start()  # the first start in a process also starts the fork server (its imports excluded)
    deadline = time.monotonic() + limits.timeout_seconds
    sender.close()
    result = None
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ConversionStopped(_timeout_message(name, limits))
            ready = wait([receiver, child.sentinel], timeout=min(_WAIT_TICK, remaining))
            if receiver in ready:
                try:
                    result = receiver.recv()
                except EOFError:
                    result = None
                break
            if child.sentinel in ready:
                break
            if on_wait is not None:
                on_wait()
    finally:
        if child.is_alive():
            child.kill()
        child.join(timeout=10)
        receiver.close()
    return _outcome(result, name=name, limits=limits, exitcode=child.exitcode)


def _outcome(result, *, name: str, limits: ConversionLimits, exitcode: int | None) -> Converted:
    if result is None:
        raise ConversionStopped(_died_message(name, limits, exitcode))
    kind, payload = result
    if kind == "ok":
        return Converted(**payload)
    if kind == "conversion_error":
        raise ConversionError(payload["message"], reason=payload["reason"])
    if kind == "memory":
        raise ConversionStopped(
            f"{name}: conversion needed more than the {limits.memory_mb} MB memory limit "
            "(CONVERT_MEMORY_LIMIT_MB) and was stopped. Split the file, or raise the limit."
        )
    error = RuntimeError(payload["error"])
    error.child_traceback = payload["traceback"]  # for the worker's log
    raise error


def _timeout_message(name: str, limits: ConversionLimits) -> str:
    return (
        f"{name}: conversion took longer than the {limits.timeout_seconds:g} s time limit "
        "(CONVERT_TIMEOUT_SECONDS) and was stopped. Split the file, or raise the limit."
    )


def _died_message(name: str, limits: ConversionLimits, exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            how = f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            how = f"killed by signal {-exitcode}"
    else:
        how = f"exit code {exitcode}"
    memory = (
        f"; it most likely needed more than the {limits.memory_mb} MB memory limit (CONVERT_MEMORY_LIMIT_MB)"
        if limits.memory_mb > 0 else ""
    )
    return f"{name}: the conversion process stopped without a result ({how}){memory}."


@contextmanager
def _as_plain_process():
    """Start the child as if from a plain process, even from a Celery pool process.

    Celery's prefork pool (billiard) makes its pool process multiprocessing's current process,
    and two of its settings stop multiprocessing from starting a child: it is daemonic (a
    daemonic process may not have children, as it is ended without waiting for them), and its
    authentication key is billiard's, which refuses to be pickled for the fork server. The child
    cannot outlive its use (the parent kills it past the limit, and it ends itself when this
    process ends, or at its alarm), so for the start only the flag is lifted and the key passed
    as multiprocessing's own type, with the same bytes."""
    config = multiprocessing.current_process()._config
    saved = dict(config)
    config.pop("daemon", None)
    if "authkey" in config:
        config["authkey"] = multiprocessing.process.AuthenticationString(bytes(config["authkey"]))
    try:
        yield
    finally:
        config.clear()
        config.update(saved)


@functools.cache
def _context():
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(_PRELOAD)
    return context


# --- in the child ------------------------------------------------------------------------------

def _child_main(
    sender, owner_pid: int, path: str, pdf_artifacts_path: str | None, convert_options: dict, memory_bytes: int,
    timeout_seconds: float,
) -> None:
    signal.alarm(int(timeout_seconds) + _ALARM_GRACE)  # SIGALRM's default action ends the process
    _end_with(owner_pid)  # before the memory limit: the watcher's thread needs a stack
    try:
        if memory_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        result = ("ok", _convert(path, pdf_artifacts_path, convert_options))
    except BaseException as exc:  # noqa: BLE001 - everything goes back to the parent as a message
        result = failure_result(exc, memory_bytes=memory_bytes, peak_bytes=_address_space_peak())
    try:
        sender.send(result)
    finally:
        sender.close()


def _end_with(owner_pid: int) -> None:
    """End this process as soon as the process that asked for the conversion ends. Its parent is
    the fork server, which lives as long as any of its children, so only the owner's end tells."""

    def watch() -> None:
        try:
            pidfd = os.pidfd_open(owner_pid)  # Linux 5.3+: readable once the process has ended
        except (AttributeError, OSError):
            pidfd = None
        if pidfd is not None:
            select.select([pidfd], [], [])
        else:
            while _alive(owner_pid):
                time.sleep(1)
        os._exit(1)

    threading.Thread(target=watch, name="owner-watch", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _convert(path: str, pdf_artifacts_path: str | None, convert_options: dict) -> dict:
    from chunking.convert import convert_file
    from chunking.serialize import document_to_dict

    document = convert_file(path, pdf_artifacts_path=pdf_artifacts_path, **convert_options)
    return {"tree": document_to_dict(document), "title": document.title, "page_count": document.page_count}


# A failure is put down to the memory limit when the child's address space came this close to it:
# an allocation refused by RLIMIT_AS inside Docling is often caught there and reported as an
# unreadable file (its MemoryError, whose message is empty, is lost), so the chain alone misses it.
MEMORY_HEADROOM_BYTES = 64 * 1024 * 1024
MEMORY_HEADROOM_SHARE = 0.10


def failure_result(exc: BaseException, *, memory_bytes: int, peak_bytes: int | None) -> tuple[str, dict]:
    """What the child sends back for a conversion that raised: memory when a MemoryError is in the
    chain, or when a limit is set and the peak address space reached it less the headroom (so a
    file refused as damaged under memory pressure is not blamed on the file); else the
    conversion error as it was raised, or any other error with its traceback."""
    if _caused_by_memory(exc) or (memory_bytes and peak_bytes is not None and _near_limit(peak_bytes, memory_bytes)):
        return ("memory", {})
    if isinstance(exc, ConversionError):
        return ("conversion_error", {"message": str(exc), "reason": exc.reason})
    error = str(exc) if isinstance(exc, RuntimeError) else f"{type(exc).__name__}: {exc}"
    return ("error", {"error": error, "traceback": "".join(traceback.format_exception(exc))})


def _near_limit(peak_bytes: int, memory_bytes: int) -> bool:
    headroom = max(MEMORY_HEADROOM_BYTES, int(memory_bytes * MEMORY_HEADROOM_SHARE))
    return peak_bytes >= memory_bytes - headroom


def _address_space_peak() -> int | None:
    """The peak virtual memory of this process (VmPeak, what RLIMIT_AS bounds), in bytes."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmPeak:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _caused_by_memory(exc: BaseException | None) -> bool:
    """Whether a MemoryError is anywhere in the chain (Docling wraps one in a RuntimeError)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, MemoryError):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False
