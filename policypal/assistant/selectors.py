"""Reads for the assistant pages. Every read of chunk text or source files goes through the
user's access scope here, so no view can forget it."""
from __future__ import annotations

from django.db.models import Q, QuerySet

from policypal.policies.models import Policy, PolicyVersion, SourceDocument
from retrieval.access import policy_visible_q
from retrieval.models import Chunk

from .models import Answer

# A version whose text employees may read: processed, and published now or in the past
# (a retired version stays readable so that old answers and reviews can be checked).
_READABLE_VERSION = Q(status=PolicyVersion.Status.READY) & (Q(published=True) | Q(retired_at__isnull=False))


def _visible_policies(*, user) -> QuerySet[Policy]:
    return Policy.objects.filter(policy_visible_q(user))


def readable_versions(*, user) -> QuerySet[PolicyVersion]:
    return PolicyVersion.objects.filter(_READABLE_VERSION, policy__in=_visible_policies(user=user))


def chunk_get_for_user(*, chunk_id: int, user) -> Chunk | None:
    """The chunk, when the user may read its policy and its version is ready; else None."""
    if user is None or not user.is_authenticated:
        return None
    return (
        Chunk.objects.select_related("version", "policy", "source", "parent")
        .filter(pk=chunk_id, policy__in=_visible_policies(user=user), version__in=readable_versions(user=user))
        .first()
    )


def source_get_for_user(*, source_id: int, user) -> SourceDocument | None:
    """The uploaded file, under the same rule as its chunks."""
    if user is None or not user.is_authenticated:
        return None
    return (
        SourceDocument.objects.select_related("version", "version__policy")
        .filter(pk=source_id, version__in=readable_versions(user=user))
        .first()
    )


def answer_list_for_user(*, user, limit: int = 15) -> list[Answer]:
    """The user's most recent questions, newest first."""
    if user is None or not user.is_authenticated:
        return []
    return list(
        Answer.objects.filter(user=user)
        .only("id", "question", "as_of", "covered", "created_at")
        .order_by("-created_at")[:limit]
    )
