"""Policies, their versions and the source files each version was made from."""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import Group
from django.db import models


class Policy(models.Model):
    key = models.SlugField(max_length=80, unique=True, help_text="Stable key, e.g. 'travel'.")
    title = models.CharField(max_length=300)
    category = models.CharField(max_length=120, blank=True)
    groups = models.ManyToManyField(
        Group, blank=True, related_name="policies", help_text="Who may read it; empty means every signed-in user."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["title"]
        verbose_name_plural = "policies"

    def __str__(self) -> str:
        return self.title


class PolicyVersion(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        CONVERTING = "converting", "Converting"
        CHUNKING = "chunking", "Chunking"
        INDEXING = "indexing", "Indexing"
        READY = "ready", "Ready"
        FAILED = "failed", "Failed"
        CANCELLED = "cancelled", "Cancelled"

    policy = models.ForeignKey(Policy, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    effective_from = models.DateField()
    effective_to = models.DateField(null=True, blank=True, help_text="Derived: the next published version's start.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0, help_text="0-100, for the admin page.")
    progress_detail = models.CharField(max_length=300, blank=True)
    error = models.TextField(blank=True)
    published = models.BooleanField(default=False)
    publish_when_ready = models.BooleanField(default=True)
    retired_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=300, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Liveness of the pipeline: the step a worker is running now (empty while the version waits
    # in the queue), and when that worker last showed it was alive (every few seconds of work).
    running_step = models.CharField(max_length=16, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # When a worker took over a step that an earlier worker started and never finished.
    restarted_at = models.DateTimeField(null=True, blank=True)
    # The Celery task ids of the queued pipeline, so that cancelling can revoke them.
    task_ids = models.JSONField(default=list, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["policy", "-number"]
        constraints = [models.UniqueConstraint(fields=["policy", "number"], name="unique_version_number")]
        indexes = [models.Index(fields=["published", "status", "effective_from"])]

    def __str__(self) -> str:
        return f"{self.policy.title} v{self.number}"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.READY, self.Status.FAILED, self.Status.CANCELLED)


class SourceDocument(models.Model):
    """One uploaded file of a version, with its checksum and converted tree."""

    version = models.ForeignKey(PolicyVersion, on_delete=models.CASCADE, related_name="sources")
    ordinal = models.PositiveSmallIntegerField(default=0)
    file = models.FileField(upload_to="policies/%Y/%m/")
    original_name = models.CharField(max_length=255)
    checksum = models.CharField(max_length=64, help_text="sha256 of the uploaded bytes")
    size_bytes = models.PositiveBigIntegerField(default=0)
    document_title = models.CharField(max_length=300, blank=True)
    page_count = models.PositiveIntegerField(default=0)
    tree = models.JSONField(null=True, blank=True, help_text="The converted document (our block tree).")

    class Meta:
        ordering = ["version", "ordinal"]

    def __str__(self) -> str:
        return self.original_name

    @property
    def is_pdf(self) -> bool:
        return self.original_name.lower().endswith(".pdf")
