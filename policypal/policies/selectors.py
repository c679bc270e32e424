"""Reads for the policy admin pages (callers check is_policy_admin first)."""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch, QuerySet

from chunking.preview import first_and_last_sentence
from retrieval.models import Chunk

from .models import Policy, PolicyVersion

# Over this many embedding-model word pieces the model silently ignores the rest.
MODEL_MAX_TOKENS = 256


def policy_list_with_versions() -> QuerySet[Policy]:
    versions = PolicyVersion.objects.annotate(
        source_count=Count("sources", distinct=True), chunk_count=Count("chunks", distinct=True)
    ).order_by("-number")
    return Policy.objects.prefetch_related("groups", Prefetch("versions", queryset=versions)).order_by("title")


def version_get(*, version_id: int) -> PolicyVersion | None:
    return (
        PolicyVersion.objects.select_related("policy", "created_by")
        .prefetch_related("sources", "policy__groups")
        .filter(pk=version_id)
        .first()
    )


def policy_versions_other(*, version: PolicyVersion) -> QuerySet[PolicyVersion]:
    return PolicyVersion.objects.filter(policy_id=version.policy_id).exclude(pk=version.pk).order_by("-number")


@dataclass(frozen=True)
class ChunkPreviewRow:
    id: int
    parent_id: int | None
    level: str
    kind: str
    breadcrumb: str
    token_count: int
    searchable: bool
    pages: list[int]
    first_sentence: str
    last_sentence: str
    warnings: list[str]
    text: str

    @property
    def over_limit(self) -> bool:
        return self.token_count > MODEL_MAX_TOKENS


@dataclass(frozen=True)
class ChunkPreview:
    rows: list[ChunkPreviewRow]
    by_level: dict[str, int]
    max_tokens: int
    warning_count: int
    over_limit_count: int


def version_chunk_preview(*, version: PolicyVersion) -> ChunkPreview:
    """The chunk preview table of a version: the Chunk rows in reading order."""
    rows = []
    for chunk in Chunk.objects.filter(version=version).defer("embedding", "embed_text").order_by("ordinal", "id"):
        first, last = first_and_last_sentence(chunk)
        rows.append(
            ChunkPreviewRow(
                id=chunk.pk,
                parent_id=chunk.parent_id,
                level=chunk.level,
                kind=chunk.kind,
                breadcrumb=chunk.breadcrumb,
                token_count=chunk.token_count,
                searchable=chunk.searchable,
                pages=list(chunk.pages),
                first_sentence=first,
                last_sentence=last if last != first else "",
                warnings=list(chunk.warnings),
                text=chunk.text,
            )
        )
    by_level: dict[str, int] = {}
    for row in rows:
        by_level[row.level] = by_level.get(row.level, 0) + 1
    return ChunkPreview(
        rows=rows,
        by_level=by_level,
        max_tokens=max((r.token_count for r in rows), default=0),
        warning_count=sum(1 for r in rows if r.warnings),
        over_limit_count=sum(1 for r in rows if r.over_limit),
    )
