"""Answered questions and their citations, kept for reviewers."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class Answer(models.Model):
    class Outcome(models.TextChoices):
        ANSWERED = "answered", "Answered"
        PARTLY = "partly", "Partly answered"
        NOT_COVERED = "not_covered", "Not covered"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="answers")
    question = models.TextField()
    as_of = models.DateField()
    text = models.TextField()
    covered = models.BooleanField()
    outcome = models.CharField(max_length=12, choices=Outcome.choices, default=Outcome.ANSWERED)
    # Sections offered to read when the question is not covered: [{"chunk_id", "breadcrumb", "policy_title"}].
    closest = models.JSONField(default=list, blank=True)
    # For answers written by a language model: each sentence, its [n] citations and whether they support it.
    claims = models.JSONField(null=True, blank=True)
    answered_by = models.CharField(max_length=12, default="extractive")  # extractive | llm
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
    # The cited chunk's policy, copied at record time: the chunk may be deleted later (a re-chunk,
    # a removed version), but who may read the quoted text must still be known. Null (a policy
    # removed, or a citation recorded before this field) hides the answer from reviewers who are
    # not superusers.
    policy = models.ForeignKey(
        "policies.Policy", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    breadcrumb = models.TextField()
    text = models.TextField()

    class Meta:
        ordering = ["answer", "n"]
        constraints = [models.UniqueConstraint(fields=["answer", "n"], name="unique_citation_number")]


class Review(models.Model):
    """A reviewer's current verdict on an answer: one per answer and reviewer, updated in place."""

    class Verdict(models.TextChoices):
        CORRECT = "correct", "Correct"
        WRONG = "wrong", "Wrong"
        MISSING_CAVEAT = "missing_caveat", "Missing caveat"
        WRONG_VERSION = "wrong_version", "Wrong version"

    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="reviews")
    # SET_NULL, not CASCADE: removing a reviewer's account must not take their verdicts with it.
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="reviews")
    verdict = models.CharField(max_length=20, choices=Verdict.choices)
    comment = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        constraints = [
            models.UniqueConstraint(fields=["answer", "reviewer"], name="one_review_per_answer_and_reviewer"),
            models.CheckConstraint(
                condition=models.Q(verdict__in=["correct", "wrong", "missing_caveat", "wrong_version"]),
                name="review_verdict_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_verdict_display()}: {self.answer}"


class AnswerFeedback(models.Model):
    """What the employee who asked thinks of the answer: one per answer and user, updated in place."""

    class Verdict(models.TextChoices):
        HELPFUL = "helpful", "Helpful"
        WRONG = "wrong", "Wrong"
        MISSING_CAVEAT = "missing_caveat", "Missing caveat"

    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="feedback")
    # SET_NULL: a deleted account's feedback stays with the answer for reviewers.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="answer_feedback")
    verdict = models.CharField(max_length=20, choices=Verdict.choices)
    comment = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        constraints = [
            models.UniqueConstraint(fields=["answer", "user"], name="one_feedback_per_answer_and_user"),
            models.CheckConstraint(
                condition=models.Q(verdict__in=["helpful", "wrong", "missing_caveat"]),
                name="answer_feedback_verdict_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_verdict_display()}: {self.answer}"


class RegressionQuestion(models.Model):
    """A question to re-run with `manage.py evaluate`: exported as one line of JSONL."""

    question = models.TextField()
    username = models.CharField(max_length=150, blank=True, help_text="who asked; the evaluation runs as this user")
    as_of = models.DateField(null=True, blank=True)
    evidence = models.JSONField(default=list, blank=True, help_text="strings that must all be retrieved")
    expect_no_answer = models.BooleanField(default=False)
    note = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="regression_questions"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    source_answer = models.ForeignKey(
        Answer, null=True, blank=True, on_delete=models.SET_NULL, related_name="regression_questions"
    )

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return self.question[:80]
