"""The forms of the policy admin pages: upload, the policy list's filters and bulk actions, the
zip import, the audit log's filters."""
from __future__ import annotations

from django import forms
from django.contrib.auth.models import Group
from django.core.validators import validate_slug
from django.utils import timezone

from .bulk_actions import BULK_ACTIONS, GROUP_MODES, GroupChange
from .import_manifest import FieldValueError, field_value
from .models import AuditEvent, Policy, PolicyVersion
from .selectors import POLICY_SORTS, POLICY_STATES, AuditFilters, FilterChoices, PolicyFilters
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


# --- the policy list ---------------------------------------------------------------------------

class PolicyListForm(forms.Form):
    """The list's GET parameters. A value that is not one of the choices is ignored (a stale
    bookmark still opens the list), never an error."""

    q = forms.CharField(required=False, max_length=200, label="Search",
                        widget=forms.TextInput(attrs={"type": "search", "placeholder": "Title, key or heading",
                                                      "autocomplete": "off"}))
    status = forms.ChoiceField(required=False, label="Latest version")
    group = forms.ChoiceField(required=False, label="Readable by")
    category = forms.ChoiceField(required=False, label="Category")
    state = forms.ChoiceField(required=False, label="Publication")
    sort = forms.ChoiceField(required=False, label="Sort by")

    def __init__(self, data, *, choices: FilterChoices):
        super().__init__(data)
        self.fields["status"].choices = [("", "Any status"), ("processing", "Processing (any step)"),
                                         *PolicyVersion.Status.choices]
        self.fields["group"].choices = [("", "Anyone"), ("everyone", "Everyone signed in (no group)"),
                                        *((str(g.pk), g.name) for g in choices.groups)]
        self.fields["category"].choices = [("", "Any category"), *((c, c) for c in choices.categories)]
        self.fields["state"].choices = [("", "Any"), *POLICY_STATES.items()]
        self.fields["sort"].choices = [
            choice for key, label in POLICY_SORTS.items()
            for choice in ((key, f"{label}, A to Z" if key in ("title", "key") else f"{label}, oldest first"),
                           (f"-{key}", f"{label}, Z to A" if key in ("title", "key") else f"{label}, newest first"))
        ]

    def filters(self) -> PolicyFilters:
        self.is_valid()
        values = {name: self.cleaned_data.get(name, "") for name in self.fields if name not in self.errors}
        values = {name: (value or "").strip() for name, value in values.items()}
        return PolicyFilters(**{**values, "sort": values.get("sort") or "title"})


def _ids(raw: list[str]) -> list[int]:
    """Policy ids from checkboxes (one per field) or one comma-separated field."""
    ids = []
    for value in raw:
        ids.extend(int(part) for part in value.split(",") if part.strip().isdigit())
    return list(dict.fromkeys(ids))


class BulkActionForm(forms.Form):
    action = forms.ChoiceField(choices=[("", "Choose an action…"), *BULK_ACTIONS.items()], required=True,
                               error_messages={"required": "Choose an action for the selected policies."})
    scope = forms.ChoiceField(choices=[("selected", "The selected policies"), ("matching", "Every policy matching the filters")],
                              required=False)
    group_mode = forms.ChoiceField(choices=list(GROUP_MODES.items()), required=False, label="Change")
    groups = forms.ModelMultipleChoiceField(queryset=Group.objects.order_by("name"), required=False, label="Groups",
                                            widget=forms.CheckboxSelectMultiple)
    query = forms.CharField(required=False, widget=forms.HiddenInput)  # the list's filters, to go back to

    def __init__(self, data=None, *, groups: list[Group] | None = None, **kwargs):
        super().__init__(data, **kwargs)
        self.selected_ids = _ids(data.getlist("ids")) if data is not None else []
        if groups is not None:  # the list's own query of them, reused
            self.fields["groups"].queryset = Group.objects.filter(pk__in=[g.pk for g in groups]).order_by("name")

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("scope") != "matching" and not self.selected_ids:
            raise forms.ValidationError("Select at least one policy (tick its box), or every policy matching the filters.")
        if cleaned.get("action") == "groups":
            if not cleaned.get("group_mode"):
                self.add_error("group_mode", "Choose whether to add, remove or replace groups.")
            elif not cleaned.get("groups") and cleaned["group_mode"] != "set":
                self.add_error("groups", "Choose the groups to add or remove.")
        return cleaned

    def group_change(self) -> GroupChange | None:
        if self.cleaned_data.get("action") != "groups":
            return None
        return GroupChange(mode=self.cleaned_data["group_mode"], groups=tuple(self.cleaned_data["groups"]))


# --- the zip import ----------------------------------------------------------------------------

class ImportUploadForm(forms.Form):
    archive = forms.FileField(
        label="Zip archive",
        help_text="A .zip of policy documents, in folders or not, with a manifest.yaml or manifest.csv at its root or not.",
        widget=forms.ClearableFileInput(attrs={"accept": ".zip,application/zip"}),
        error_messages={"required": "Choose a .zip file to upload.", "empty": "The file is empty.",
                        "invalid": "No file was received; choose the .zip again."},
    )
    effective_from = forms.DateField(
        label="Effective from",
        help_text="For every new version the manifest gives no date.",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={"required": "Give the date the new versions take effect.", "invalid": "Enter the date as YYYY-MM-DD."},
    )
    category = forms.CharField(required=False, max_length=120,
                               help_text="Optional, for the files the manifest sets none for; an existing policy keeps its own otherwise.")
    groups = forms.ModelMultipleChoiceField(queryset=Group.objects.order_by("name"), required=False, label="Who may read them",
                                            widget=forms.CheckboxSelectMultiple)
    new_groups = forms.CharField(required=False, label="Other groups",
                                 help_text="Comma-separated group names; missing groups are created.")
    publish_when_ready = forms.BooleanField(required=False, initial=True, label="Publish when ready",
                                            help_text="Each version answers questions as soon as it is processed (from its effective date).")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["effective_from"].initial = timezone.localdate()

    def clean_category(self):
        try:
            return field_value("category", self.cleaned_data["category"], label="Category") or ""
        except FieldValueError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean_new_groups(self):
        try:
            return list(field_value("groups", self.cleaned_data["new_groups"], label="Other groups") or ())
        except FieldValueError as exc:
            raise forms.ValidationError(str(exc)) from None

    def group_names(self) -> list[str] | None:
        """The groups for files the manifest sets none for; None: not set (a new policy is open to
        everyone, an existing one keeps its groups)."""
        names = [g.name for g in self.cleaned_data["groups"]] + self.cleaned_data["new_groups"]
        return list(dict.fromkeys(names)) or None


# --- the audit log -------------------------------------------------------------------------------

class _DayInput(forms.DateInput):
    input_type = "date"

    def __init__(self):
        super().__init__(format="%Y-%m-%d")


class AuditLogForm(forms.Form):
    """The audit log's GET parameters. A date that cannot be read, or a range that ends before it
    starts, is reported above the log and that filter left out; the others still apply."""

    actor = forms.CharField(required=False, max_length=150, label="Who",
                            widget=forms.TextInput(attrs={"list": "audit-actors", "placeholder": "Any user",
                                                          "autocomplete": "off"}))
    action = forms.ChoiceField(required=False, label="Action",
                               choices=[("", "Any action"), *AuditEvent.Action.choices])
    policy = forms.CharField(required=False, max_length=80, label="Policy key",
                             widget=forms.TextInput(attrs={"placeholder": "e.g. travel", "autocomplete": "off"}))
    date_from = forms.DateField(required=False, label="From", widget=_DayInput(), input_formats=["%Y-%m-%d"],
                                error_messages={"invalid": "Enter a date as YYYY-MM-DD."})
    date_to = forms.DateField(required=False, label="To", widget=_DayInput(), input_formats=["%Y-%m-%d"],
                              error_messages={"invalid": "Enter a date as YYYY-MM-DD."})

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("date_from"), cleaned.get("date_to")
        if start and end and end < start:
            self.add_error("date_to", f"The range ends ({end:%Y-%m-%d}) before it starts ({start:%Y-%m-%d}).")
        return cleaned

    def filters(self) -> AuditFilters:
        self.is_valid()
        values = {name: self.cleaned_data.get(name) for name in self.fields if name not in self.errors}
        return AuditFilters(
            actor=(values.get("actor") or "").strip(),
            action=values.get("action") or "",
            policy=(values.get("policy") or "").strip(),
            date_from=values.get("date_from"),
            date_to=values.get("date_to"),
        )
