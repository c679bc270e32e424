"""Answered questions and their citations, kept for reviewers."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class Answer(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="answers")
    question = models.TextField()
    as_of = models.DateField()
    text = models.TextField()
    covered = models.BooleanField()
    notices = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.question[:80]


class Citation(models.Model):
    """A snapshot of what was cited, so a later re-index cannot change what the reviewer checks."""

    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="citations")
    n = models.PositiveSmallIntegerField()
    chunk = models.ForeignKey("retrieval.Chunk", null=True, on_delete=models.SET_NULL, related_name="citations")
    breadcrumb = models.TextField()
    text = models.TextField()

    class Meta:
        ordering = ["answer", "n"]
        constraints = [models.UniqueConstraint(fields=["answer", "n"], name="unique_citation_number")]
