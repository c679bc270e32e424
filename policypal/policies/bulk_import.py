"""Bulk import: a folder, an archive or a file of policy documents, each a policy or a new version.

Two steps, so that a dry run and a real run show the same thing:
- `import_plan` reads every file once (checksum, cheap title), settles each file's key, title,
  category, groups and effective date (manifest, then the command's defaults, then what the
  path and the document say) and compares it with the policy of that key: new, new version,
  unchanged (sha256 equal to the latest version's file), or invalid with its reasons. It writes
  nothing.
- `import_apply` queues the new policies and versions through the same services as
  `manage.py ingest` and the upload page (`policy_upload`: the policy and its version in one
  transaction, the pipeline enqueued on commit), one file at a time, so a file that fails is
  listed and never stops the rest.
`import_wait` then polls the versions' statuses until the workers finish them.

Keys. A file's key is its slugified path ("People/Leave Policy.docx" -> "people-leave-policy"),
so a re-run finds the same policies. A key longer than the 80 characters a key may have keeps its
last parts (the file's name first) and ends in six characters of the path's hash. Two paths with
one key ("travel.md", "travel.docx") keep it for the one whose name the policy's latest version
already has (even when that file is refused this time), else the first valid one by path; the
other ends in its path's hash. A key set by the manifest
is the key: given to two files, both are refused. Derived values only name new policies: an
existing policy keeps its title, category and groups unless the manifest or the command sets them.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import PurePosixPath

from django.db import DatabaseError
from django.utils.text import slugify

from .doc_titles import document_title, title_from_file_name
from .import_files import FileReadError, FolderFiles, FoundFile, ZipFiles
from .import_manifest import Manifest, limits
from .models import Policy, PolicyVersion
from .services import PolicyInputError, UploadedSource, policy_upsert, source_problem
from .uploads import policy_upload

HASH_CHARS = 6
NAME_MAX_CHARS = 200  # a stored file name (SourceDocument.original_name allows 255)
# progress(stage, done, total): stage is "read", "queued" or "processing".
Progress = Callable[[str, int, int], None]


class Action(str, Enum):
    NEW = "new"
    NEW_VERSION = "new version"
    UNCHANGED = "unchanged"
    INVALID = "invalid"


@dataclass(frozen=True)
class ImportDefaults:
    """What the command line sets for every file the manifest does not set it for."""

    effective_from: dt.date
    category: str | None = None
    groups: tuple[str, ...] | None = None


@dataclass(frozen=True)
class PlannedFile:
    path: str
    action: Action
    key: str = ""
    title: str = ""
    category: str | None = None  # None: not set (a new policy has none; an existing one keeps its own)
    groups: tuple[str, ...] | None = None  # None: not set (a new policy is open to everyone)
    effective_from: dt.date | None = None
    checksum: str = ""
    size: int = 0
    reasons: tuple[str, ...] = ()  # why the file is invalid
    updates: tuple[str, ...] = ()  # fields of an existing policy that this import changes
    title_given: bool = False  # by the manifest (else derived: it names a new policy only)
    key_line: int | None = None  # the manifest line that set the key
    caution: str = ""  # a new version by a derived key of a policy the file may not belong to

    @property
    def name(self) -> str:
        return PurePosixPath(self.path).name


@dataclass(frozen=True)
class ImportPlan:
    source: str
    files: tuple[PlannedFile, ...]
    problems: tuple[str, ...] = ()  # manifest entries that match no file

    def having(self, action: Action) -> list[PlannedFile]:
        return [f for f in self.files if f.action == action]

    @property
    def ok(self) -> bool:
        return not self.problems and not self.having(Action.INVALID)


@dataclass(frozen=True)
class AppliedFile:
    planned: PlannedFile
    version_id: int | None = None
    error: str = ""


@dataclass
class ImportOutcome:
    applied: list[AppliedFile] = field(default_factory=list)

    @property
    def queued(self) -> list[AppliedFile]:
        return [a for a in self.applied if a.version_id is not None]

    @property
    def failed(self) -> list[AppliedFile]:
        return [a for a in self.applied if a.error]


@dataclass(frozen=True)
class WaitOutcome:
    ready: tuple[int, ...]
    failed: tuple[tuple[int, str], ...]  # (version id, reason), cancelled ones included
    unfinished: tuple[int, ...]


# --- plan ------------------------------------------------------------------------------------------


def import_plan(
    *, files: FolderFiles | ZipFiles, defaults: ImportDefaults, manifest: Manifest | None = None,
    progress: Progress | None = None,
) -> ImportPlan:
    """What an import of `files` would do, file by file; reads the files and the policies, writes nothing."""
    found = files.list()
    entries = manifest.entries if manifest else ()
    matched_lines: set[int] = set()
    planned: list[PlannedFile] = []
    for index, item in enumerate(found, start=1):
        planned.append(_plan_one(item, files=files, defaults=defaults, manifest=manifest, matched_lines=matched_lines))
        if progress:
            progress("read", index, len(found))
    planned = _settle_keys(planned, manifest)
    planned = _compare_with_policies(planned)
    problems = []
    for entry in entries:
        if entry.line not in matched_lines:  # its own problems, else that it is unused (a misspelt folder?)
            problems.extend(entry.problems or [f"{manifest.where(entry.line)}: path {entry.pattern!r} matches no file"])
    problems = tuple(dict.fromkeys(problems))
    return ImportPlan(source=files.label, files=tuple(sorted(planned, key=lambda f: f.path)), problems=problems)


def _plan_one(
    item: FoundFile, *, files: FolderFiles | ZipFiles, defaults: ImportDefaults, manifest: Manifest | None,
    matched_lines: set[int],
) -> PlannedFile:
    relative = item.relative
    settings: dict = {"effective_from": defaults.effective_from, "category": defaults.category, "groups": defaults.groups}
    reasons: list[str] = []
    key_line = None
    for entry in manifest.entries if manifest else ():
        if not entry.pattern or not entry.matches(relative):
            continue
        matched_lines.add(entry.line)
        reasons.extend(entry.problems)
        for name in ("title", "key", "category", "effective_from", "groups"):
            if (value := getattr(entry, name)) is not None:
                settings[name] = value
                if name == "key":
                    key_line = entry.line
    problem = item.problem or source_problem(name=relative, size=item.size)
    if problem:
        return PlannedFile(path=relative, action=Action.INVALID, size=item.size, reasons=(problem, *reasons))
    try:
        content = files.read(relative)
    except FileReadError as exc:
        return PlannedFile(path=relative, action=Action.INVALID, size=item.size, reasons=(str(exc), *reasons))
    if problem := source_problem(name=relative, size=len(content)):  # an archive may state a wrong size
        return PlannedFile(path=relative, action=Action.INVALID, size=len(content), reasons=(problem, *reasons))
    title = settings.get("title") or document_title(name=relative, content=content)
    return PlannedFile(
        path=relative,
        action=Action.INVALID if reasons else Action.NEW,
        key=settings.get("key") or "",
        title=_bounded_title(title or title_from_file_name(relative)),
        category=settings["category"],
        groups=settings["groups"],
        effective_from=settings["effective_from"],
        checksum=hashlib.sha256(content).hexdigest(),
        size=len(content),
        reasons=tuple(reasons),
        key_line=key_line,
        title_given=bool(settings.get("title")),
    )


def _bounded_title(title: str) -> str:
    limit = limits()["title"]
    return title if len(title) <= limit else title[: limit - 1].rstrip() + "…"


def path_key(relative: str) -> str:
    """The readable key of a path: its slugified parts joined by '-', at most 80 characters (the
    last parts kept, a hash of the path added, when longer)."""
    limit = limits()["key"]
    path = PurePosixPath(relative)
    parts = [slugify(part) for part in (*path.parent.parts, path.stem)]
    parts = [part for part in parts if part]
    if not parts:
        return f"policy-{_path_hash(relative)}"
    key = "-".join(parts)
    if len(key) <= limit:
        return key
    budget = limit - 1 - HASH_CHARS
    kept: list[str] = []
    for part in reversed(parts):
        if len("-".join([part, *kept])) > budget:
            if not kept:  # the file's own name is too long: keep its beginning
                kept = [part[:budget].rstrip("-_")]
            break
        kept.insert(0, part)
    return f"{'-'.join(kept)}-{_path_hash(relative)}"


def _path_hash(relative: str, chars: int = HASH_CHARS) -> str:
    return hashlib.sha256(relative.encode()).hexdigest()[:chars]


def _with_hash(key: str, relative: str, chars: int = HASH_CHARS) -> str:
    limit = limits()["key"]
    return f"{key[: limit - 1 - chars].rstrip('-_')}-{_path_hash(relative, chars)}"


def _settle_keys(planned: list[PlannedFile], manifest: Manifest | None) -> list[PlannedFile]:
    """Every file a key of its own: the manifest's keys as given (refused when two files share
    one), derived keys made unique with a hash of the path."""
    by_path = {f.path: f for f in planned}
    explicit: dict[str, list[PlannedFile]] = {}
    for f in planned:
        if f.key:
            explicit.setdefault(f.key, []).append(f)
    for key, holders in explicit.items():
        if len(holders) > 1:
            where = f"{manifest.where(holders[0].key_line)}: " if manifest and holders[0].key_line else ""
            names = ", ".join(h.path for h in holders[:5]) + (", ..." if len(holders) > 5 else "")
            for h in holders:
                reason = f"{where}key {key!r} is given to {len(holders)} files ({names}); a key names one policy"
                by_path[h.path] = replace(h, action=Action.INVALID, reasons=(*h.reasons, reason))
    used = set(explicit)
    derived: dict[str, list[PlannedFile]] = {}
    for f in planned:
        if not f.key:
            derived.setdefault(path_key(f.path), []).append(f)
    latest_names = _latest_source_names(list(derived))
    for key, claimants in sorted(derived.items()):
        claimants = sorted(claimants, key=lambda f: f.path)
        # The file the policy was made from keeps its key, even when refused this time (a file
        # that is empty today must not hand its policy to another); else the first valid one.
        owner = next((c for c in claimants if c.name == latest_names.get(key)), None)
        owner = owner or next((c for c in claimants if c.action != Action.INVALID), claimants[0])
        for claimant in [owner, *(c for c in claimants if c is not owner)]:
            candidate, chars = key, HASH_CHARS
            if claimant is not owner or candidate in used:
                candidate = _with_hash(key, claimant.path, chars)
            while candidate in used:
                chars += 2
                candidate = _with_hash(key, claimant.path, chars)
            used.add(candidate)
            by_path[claimant.path] = replace(by_path[claimant.path], key=candidate)
    return list(by_path.values())


def _latest_source_names(keys: list[str]) -> dict[str, str]:
    """key -> the file name of the policy's latest version (its first file)."""
    latest = _latest_versions(keys)
    return {key: version.sources.all()[0].original_name for key, version in latest.items() if version.sources.all()}


def _latest_versions(keys: list[str]) -> dict[str, PolicyVersion]:
    versions = (
        PolicyVersion.objects.filter(policy__key__in=keys)
        .select_related("policy")
        .prefetch_related("sources", "policy__groups")
        .order_by("policy_id", "-number")
        .distinct("policy_id")
    )
    return {v.policy.key: v for v in versions}


def _compare_with_policies(planned: list[PlannedFile]) -> list[PlannedFile]:
    latest = _latest_versions([f.key for f in planned if f.key and f.action != Action.INVALID])
    policies = {p.key: p for p in Policy.objects.filter(key__in=[f.key for f in planned if f.key]).prefetch_related("groups")}
    out = []
    for f in planned:
        policy = policies.get(f.key)
        if f.action == Action.INVALID or policy is None:
            out.append(f)
            continue
        updates = _policy_updates(f, policy)
        title = f.title if "title" in updates else policy.title
        version = latest.get(f.key)
        unchanged = (
            version is not None
            and [s.checksum for s in version.sources.all()] == [f.checksum]
            and version.status not in (PolicyVersion.Status.FAILED, PolicyVersion.Status.CANCELLED)
        )
        action = Action.UNCHANGED if unchanged else Action.NEW_VERSION
        caution = _other_policy_caution(f, policy, version) if action == Action.NEW_VERSION else ""
        out.append(replace(f, action=action, title=title, updates=updates, caution=caution))
    return out


def _other_policy_caution(f: PlannedFile, policy: Policy, version: PolicyVersion | None) -> str:
    """When a key derived from the path lands on a policy made from a file of another name, or
    one whose title the document's heading does not have ("leave.md" of a new handbook against the
    "leave" policy of another team), the new version may replace an unrelated policy: say so in
    the plan (a key set by the manifest is the admin's choice)."""
    if f.key_line is not None or version is None:
        return ""
    sources = list(version.sources.all())
    made_from = sources[0].original_name if sources else ""
    other_name = bool(made_from) and PurePosixPath(made_from).name.lower() != f.name.lower()
    other_title = not f.title_given and f.title.strip().lower() != policy.title.strip().lower()
    if not other_name and not other_title:
        return ""
    why = (f"was made from {made_from}" if other_name else f"is titled \u201c{policy.title}\u201d, this document \u201c{f.title}\u201d")
    return (f"policy {policy.key!r} {why}: check that this file is its new version, or give the file "
            "another key in the manifest")


def _policy_updates(f: PlannedFile, policy: Policy) -> tuple[str, ...]:
    """The fields of an existing policy that the manifest or the command set to something else."""
    updates = []
    if f.title_given and f.title != policy.title:
        updates.append("title")
    if f.category is not None and f.category != policy.category:
        updates.append("category")
    if f.groups is not None and set(f.groups) != {g.name for g in policy.groups.all()}:
        updates.append("groups")
    return tuple(updates)


# --- apply -----------------------------------------------------------------------------------------


def import_apply(
    *, plan: ImportPlan, files: FolderFiles | ZipFiles, created_by=None, publish_when_ready: bool = True,
    progress: Progress | None = None,
) -> ImportOutcome:
    """Queue every new policy and new version of the plan; apply the manifest's changes to the
    policies of unchanged files. A file that fails now is kept with its reason; the rest go on."""
    outcome = ImportOutcome()
    work = [f for f in plan.files if f.action in (Action.NEW, Action.NEW_VERSION) or (f.action == Action.UNCHANGED and f.updates)]
    for index, planned in enumerate(work, start=1):
        try:
            if planned.action == Action.UNCHANGED:
                _policy_details_update(planned)
                outcome.applied.append(AppliedFile(planned=planned))
            else:
                version = _version_create(planned, files=files, created_by=created_by, publish_when_ready=publish_when_ready)
                outcome.applied.append(AppliedFile(planned=planned, version_id=version.pk))
        except (PolicyInputError, FileReadError) as exc:
            outcome.applied.append(AppliedFile(planned=planned, error=str(exc)))
        except DatabaseError as exc:
            outcome.applied.append(AppliedFile(planned=planned, error=f"{planned.path}: the database refused it ({exc})".strip()))
        if progress:
            progress("queued", index, len(work))
    return outcome


def _version_create(
    planned: PlannedFile, *, files: FolderFiles | ZipFiles, created_by, publish_when_ready: bool,
) -> PolicyVersion:
    content = files.read(planned.path)
    if hashlib.sha256(content).hexdigest() != planned.checksum:
        raise PolicyInputError(f"{planned.path} changed while it was being imported; run the import again")
    return policy_upload(
        key=planned.key,
        title=planned.title,
        category=planned.category or "",
        group_names=list(planned.groups) if planned.groups is not None else None,
        sources=[UploadedSource(name=_stored_name(planned.name), content=content)],
        effective_from=planned.effective_from,
        created_by=created_by,
        publish_when_ready=publish_when_ready,
        note=f"bulk import: {planned.path}"[:300],
    )


def _policy_details_update(planned: PlannedFile) -> None:
    policy_upsert(
        key=planned.key,
        title=planned.title,
        category=planned.category or "",
        group_names=list(planned.groups) if "groups" in planned.updates else None,
    )


def _stored_name(name: str) -> str:
    if len(name) <= NAME_MAX_CHARS:
        return name
    suffix = PurePosixPath(name).suffix
    return name[: NAME_MAX_CHARS - len(suffix)] + suffix


# --- wait ------------------------------------------------------------------------------------------


def import_wait(
    *, version_ids: list[int], timeout: float, poll_seconds: float = 1.0, progress: Progress | None = None,
) -> WaitOutcome:
    """Poll the versions until each is ready, failed or cancelled, or until `timeout` seconds."""
    finished = {PolicyVersion.Status.READY, PolicyVersion.Status.FAILED, PolicyVersion.Status.CANCELLED}
    deadline = time.monotonic() + timeout
    while True:
        rows = list(PolicyVersion.objects.filter(pk__in=version_ids).values_list("pk", "status", "error"))
        done = [row for row in rows if row[1] in finished]
        if progress:
            progress("processing", len(done), len(version_ids))
        if len(done) == len(version_ids) or time.monotonic() >= deadline:
            break
        time.sleep(poll_seconds)
    return WaitOutcome(
        ready=tuple(pk for pk, status, _ in rows if status == PolicyVersion.Status.READY),
        failed=tuple(
            (pk, error or "cancelled") for pk, status, error in rows
            if status in (PolicyVersion.Status.FAILED, PolicyVersion.Status.CANCELLED)
        ),
        unfinished=tuple(pk for pk, status, _ in rows if status not in finished),
    )
