"""The sample policy set shipped in samples/: load its manifest and ingest what is missing."""
from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from .models import PolicyVersion, SourceDocument
from .services import UploadedSource, policy_upsert, policy_version_create

SAMPLES_DIR = Path(settings.BASE_DIR) / "samples"


@dataclass(frozen=True)
class SampleEntry:
    path: Path
    policy: str
    title: str
    category: str
    effective_from: dt.date
    groups: tuple[str, ...]


def sample_manifest(manifest_path: Path | None = None) -> list[SampleEntry]:
    manifest_path = manifest_path or SAMPLES_DIR / "manifest.json"
    base = manifest_path.parent
    return [
        SampleEntry(
            path=base / item["path"],
            policy=item["policy"],
            title=item["title"],
            category=item.get("category", ""),
            effective_from=dt.date.fromisoformat(item["effective_from"]),
            groups=tuple(item.get("groups", [])),
        )
        for item in json.loads(manifest_path.read_text())
    ]


def samples_ingest(entries: list[SampleEntry], *, enqueue: bool = True) -> list[PolicyVersion]:
    """Queue a version for every sample file not ingested yet (matched by checksum); returns them."""
    queued = []
    for entry in entries:
        content = entry.path.read_bytes()
        checksum = hashlib.sha256(content).hexdigest()
        if SourceDocument.objects.filter(version__policy__key=entry.policy, checksum=checksum).exclude(
            version__status__in=[PolicyVersion.Status.FAILED, PolicyVersion.Status.CANCELLED]
        ).exists():
            continue
        policy = policy_upsert(key=entry.policy, title=entry.title, category=entry.category, group_names=list(entry.groups))
        queued.append(
            policy_version_create(
                policy=policy,
                sources=[UploadedSource(name=entry.path.name, content=content)],
                effective_from=entry.effective_from,
                note="sample policy",
                enqueue=enqueue,
            )
        )
    return queued
