"""The policy upload form."""
from __future__ import annotations

from django import forms
from django.contrib.auth.models import Group
from django.core.validators import validate_slug
from django.utils import timezone

from .models import Policy
from .services import ACCEPTED_EXTENSIONS, ACCEPTED_LABEL, source_problem


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """A file field that takes several files; cleans to a list."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ",".join(ACCEPTED_EXTENSIONS)}))
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        files = [f for f in (data if isinstance(data, (list, tuple)) else [data]) if f]
        if not files:
            if self.required:
                raise forms.ValidationError(self.error_messages["required"], code="required")
            return []
        return [super(MultipleFileField, self).clean(f, initial) for f in files]


class PolicyUploadForm(forms.Form):
    files = MultipleFileField(
        label="Files",
        help_text=f"{ACCEPTED_LABEL}. Several files together make one version.",
        error_messages={"required": "Choose at least one file to upload."},
    )
    policy = forms.ModelChoiceField(
        queryset=Policy.objects.order_by("title"),
        required=False,
        label="Existing policy",
        empty_label="New policy (fill in key and title)",
        help_text="Pick a policy to add a new version to it.",
    )
    key = forms.CharField(
        required=False,
        max_length=80,
        label="New policy key",
        help_text="Short stable key, letters, digits, - or _, e.g. travel.",
    )
    title = forms.CharField(required=False, max_length=300, label="New policy title")
    category = forms.CharField(required=False, max_length=120, help_text="Optional, e.g. HR policy.")
    effective_from = forms.DateField(
        label="Effective from",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={"required": "Give the date this version takes effect.", "invalid": "Enter the date as YYYY-MM-DD."},
    )
    groups = forms.ModelMultipleChoiceField(
        queryset=Group.objects.order_by("name"),
        required=False,
        label="Who may read it",
        widget=forms.CheckboxSelectMultiple,
    )
    new_groups = forms.CharField(
        required=False,
        label="Other groups",
        help_text="Comma-separated group names; missing groups are created.",
    )
    publish_when_ready = forms.BooleanField(
        required=False,
        initial=True,
        label="Publish when ready",
        help_text="Answer questions from this version as soon as processing finishes (from its effective date).",
    )
    note = forms.CharField(required=False, max_length=300, label="Note", help_text="Optional, e.g. what changed.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["effective_from"].initial = timezone.localdate()

    def clean_files(self):
        files = self.cleaned_data["files"]
        for upload in files:
            if problem := source_problem(name=upload.name, size=upload.size):
                raise forms.ValidationError(problem)
        return files

    def clean_key(self):
        key = self.cleaned_data["key"].strip()
        if key:
            validate_slug(key)
        return key

    def clean_new_groups(self):
        names = [name.strip() for name in self.cleaned_data["new_groups"].split(",") if name.strip()]
        for name in names:
            if len(name) > 150:
                raise forms.ValidationError(f"Group name too long (150 characters at most): {name[:40]}...")
        return names

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("policy") is None and "key" in cleaned and "title" in cleaned:
            existing = Policy.objects.filter(key=cleaned["key"]).first() if cleaned["key"] else None
            if existing is not None:
                # A known key adds a version to that policy, as `manage.py ingest --policy KEY` does.
                cleaned["policy"] = existing
            elif not cleaned["key"]:
                self.add_error("key", "Choose an existing policy, or give a key for a new one.")
            if existing is None and not cleaned["title"].strip():
                self.add_error("title", "A new policy needs a title.")
        return cleaned

    def upload_arguments(self) -> dict:
        """Keyword arguments for policy_upload (without sources and user)."""
        data = self.cleaned_data
        policy = data["policy"]
        names = [g.name for g in data["groups"]] + [n for n in data["new_groups"] if n not in {g.name for g in data["groups"]}]
        return {
            "key": policy.key if policy else data["key"],
            "title": policy.title if policy else data["title"].strip(),
            "category": data["category"].strip(),
            # An existing policy keeps its groups unless some are given; a new one with none is open to all.
            "group_names": names if (names or policy is None) else None,
            "effective_from": data["effective_from"],
            "publish_when_ready": data["publish_when_ready"],
            "note": data["note"].strip(),
        }
