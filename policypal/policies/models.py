"""Policies, their versions and the source files each version was made from; the audit trail of
admin actions; the zip uploads of the admin import page."""
from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.auth.models import Group
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.utils import timezone


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
        indexes = [models.Index(fields=["category"], name="policy_category")]

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
    # A re-index in progress (after a chunking or embedding change): the version stays ready and
    # answers from its old chunks until the new ones, all embedded, replace them in one transaction.
    reindex_requested_at = models.DateTimeField(null=True, blank=True)
    reindex_progress = models.PositiveSmallIntegerField(default=0, help_text="0-100, of the re-index in progress.")
    reindex_detail = models.CharField(max_length=300, blank=True)
    # The re-index's liveness: when its latest message was sent to the workers, and how many times
    # it was sent again because no worker showed progress for REINDEX_STALE_SECONDS (a lost message).
    reindex_queued_at = models.DateTimeField(null=True, blank=True)
    reindex_requeues = models.PositiveSmallIntegerField(default=0)
    # The version's headings (the distinct parts of its chunks' breadcrumbs, one a line), stored
    # when it turns ready, for the admin list's search; words indexed without stemming or stop
    # words, so that a prefix of any word finds it ("allow" finds "Meal allowance").
    headings = models.TextField(blank=True, editable=False)
    headings_search = models.GeneratedField(
        expression=SearchVector("headings", config="simple"),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    class Meta:
        ordering = ["policy", "-number"]
        constraints = [models.UniqueConstraint(fields=["policy", "number"], name="unique_version_number")]
        indexes = [
            models.Index(fields=["published", "status", "effective_from"]),
            GinIndex(fields=["headings_search"], name="version_headings_search"),
        ]

    def __str__(self) -> str:
        return f"{self.policy.title} v{self.number}"

    @property
    def is_reindexing(self) -> bool:
        return self.status == self.Status.READY and self.reindex_requested_at is not None

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


class AuditEvent(models.Model):
    """One admin action on one policy or version (or one zip import): who, what, when."""

    class Action(models.TextChoices):
        PUBLISH = "publish", "Published"
        RETIRE = "retire", "Retired"
        REINDEX = "reindex", "Re-indexed"
        GROUPS = "groups", "Changed groups"
        IMPORT = "import", "Imported"
        REINDEX_RECOVER = "reindex_recover", "Re-index recovered"

    at = models.DateTimeField(default=timezone.now)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    actor_name = models.CharField(max_length=150, help_text="The username, kept when the account is deleted.")
    action = models.CharField(max_length=16, choices=Action.choices)
    target = models.CharField(max_length=300, help_text="What was acted on, e.g. 'travel v3'.")
    policy = models.ForeignKey(Policy, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit_events")
    version = models.ForeignKey(PolicyVersion, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    detail = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        # The audit log page's filters, each newest first (selectors.audit_events_list).
        indexes = [
            models.Index(fields=["-at"], name="audit_at"),
            models.Index(fields=["policy", "-at"], name="audit_policy_at"),
            models.Index(fields=["actor_name", "-at"], name="audit_actor_at"),
            models.Index(fields=["action", "-at"], name="audit_action_at"),
        ]

    def __str__(self) -> str:
        return f"{self.actor_name} {self.action} {self.target}"


class ImportBatch(models.Model):
    """A zip uploaded on the admin import page: stored (through the default storage) until it is
    confirmed or discarded, then the outcome of each of its files."""

    class Status(models.TextChoices):
        PLANNED = "planned", "Waiting for confirmation"
        APPLYING = "applying", "Queuing the files"
        APPLIED = "applied", "Queued"
        DISCARDED = "discarded", "Discarded"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    file_name = models.CharField(max_length=255)
    stored_name = models.CharField(max_length=500, blank=True, help_text="The zip's name in the default storage.")
    size_bytes = models.PositiveBigIntegerField(default=0)
    effective_from = models.DateField()
    category = models.CharField(max_length=120, blank=True)
    groups = models.JSONField(null=True, blank=True, help_text="Group names for the files the manifest does not set; null: not set.")
    publish_when_ready = models.BooleanField(default=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLANNED)
    applied_at = models.DateTimeField(null=True, blank=True)
    # {"files": [{"path", "action", "key", "title", "version_id", "reasons", "error"}], "problems": [...]}
    results = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.file_name
