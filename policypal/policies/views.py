"""Policy admin pages: the policy list (search, filters, sorting, pages, bulk actions), upload,
version detail with live progress, publish/retire/retry/cancel/re-index, the zip import (upload,
plan, confirm, progress of the whole batch), and the audit log.

Every view here is for policy admins only (403 for anyone else); the check is the
`policy_admin_required` decorator, never a template condition. The one exception, the diff
between two versions, is for reviewers too (`may_compare_versions`).
"""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRefresh

from .bulk_actions import (
    BULK_ACTIONS,
    BULK_MAX_POLICIES,
    GROUP_MODES,
    BulkOutcome,
    bulk_plan,
    bulk_policies,
    policies_groups_change,
    policies_publish,
    policies_reindex,
    policies_retire,
)
from .forms import AuditLogForm, BulkActionForm, ImportUploadForm, PolicyListForm, PolicyUploadForm
from .import_upload import (
    ImportUploadError,
    import_batch_apply,
    import_batch_create,
    import_batch_discard,
    import_batch_plan,
    import_batch_progress,
    import_batches_recent,
    import_zip_max_bytes,
)
from .models import ImportBatch, Policy, PolicyVersion
from .roles import is_policy_admin
from .selectors import (
    AUDIT_PAGE_SIZE,
    POLICY_PAGE_SIZE,
    POLICY_SORTS,
    PolicyFilters,
    audit_actor_names,
    audit_events_list,
    may_compare_versions,
    policy_filter_choices,
    policy_rows,
    policy_version_diff,
    policy_version_previous_ready,
    policy_versions_other,
    version_chunk_preview,
    version_get,
    version_progress_state,
    version_reindex_message,
)
from .selectors import policy_list as policies_filtered
from .services import (
    PolicyInputError,
    UploadedSource,
    policy_version_cancel,
    policy_version_publish,
    policy_version_reindex_ask,
    policy_version_retire,
    policy_version_retry,
)
from .uploads import policy_upload


def policy_admin_required(view):
    @login_required
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not is_policy_admin(request.user):
            raise PermissionDenied("Only policy admins can manage policies.")
        return view(request, *args, **kwargs)

    return wrapper


def _version_or_404(pk: int) -> PolicyVersion:
    version = version_get(version_id=pk)
    if version is None:
        raise Http404("No such version.")
    return version


def _query(params: QueryDict, **changes) -> str:
    """The list's query string without its page, with `changes` (None removes a parameter)."""
    query = params.copy()
    query.pop("page", None)
    for name, value in changes.items():
        query.pop(name, None)
        if value is not None:
            query[name] = value
    return query.urlencode()


def _sort_links(params: QueryDict, current: str) -> dict[str, dict]:
    """For each sortable column: the link that sorts by it (or reverses it), and its direction."""
    links = {}
    for name in POLICY_SORTS:
        direction = "asc" if current == name else "desc" if current == f"-{name}" else ""
        following = f"-{name}" if direction == "asc" else name
        if not direction and name in ("updated", "effective"):
            following = f"-{name}"  # dates: the newest first, on the first click
        links[name] = {"url": "?" + _query(params, sort=following), "direction": direction}
    return links


@policy_admin_required
def policy_list(request):
    choices = policy_filter_choices()
    form = PolicyListForm(request.GET, choices=choices)
    filters = form.filters()
    paginator = Paginator(policies_filtered(user=request.user, filters=filters), POLICY_PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    context = {
        "form": form,
        "filters": filters,
        "filtered": filters != PolicyFilters(sort=filters.sort),
        "page": page,
        "rows": policy_rows(policies=page.object_list),
        "query": _query(request.GET),
        "sort_links": _sort_links(request.GET, filters.sort),
        "bulk_actions": BULK_ACTIONS,
        "group_modes": GROUP_MODES,
        "groups": choices.groups,
        "today": timezone.localdate(),
    }
    if request.htmx and request.htmx.target == "policy-results":
        return render(request, "policies/policy_list.html#results", context)
    return render(request, "policies/policy_list.html", context)


_BULK_SERVICES = {"publish": policies_publish, "retire": policies_retire, "reindex": policies_reindex}
_BULK_DONE = {"publish": "Published", "retire": "Retired", "reindex": "Queued for re-indexing",
              "groups": "Changed who may read"}


def _bulk_message(action: str, outcome: BulkOutcome) -> str:
    changed = len(outcome.done)
    text = f"{_BULK_DONE[action]}: {changed} {'policy' if changed == 1 else 'policies'}."
    if outcome.skipped:
        shown = "; ".join(f"{key}: {reason}" for key, reason in outcome.skipped[:5])
        more = f"; and {len(outcome.skipped) - 5} more" if len(outcome.skipped) > 5 else ""
        text += f" Left as they were: {len(outcome.skipped)} ({shown}{more})."
    return text


@policy_admin_required
@require_POST
def policy_bulk(request):
    """A bulk action on the list's selection: first a confirm page saying what it does to each
    policy, then (confirm=yes) the action, and back to the list with its filters."""
    choices = policy_filter_choices()
    form = BulkActionForm(request.POST, groups=choices.groups)
    query = request.POST.get("query", "")
    back = reverse("policies:policy_list") + (f"?{query}" if query else "")
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect(back)
    action = form.cleaned_data["action"]
    ids = form.selected_ids
    if form.cleaned_data.get("scope") == "matching":
        filters = PolicyListForm(QueryDict(query), choices=choices).filters()
        matching = policies_filtered(user=request.user, filters=filters)
        count = matching.count()
        if count > BULK_MAX_POLICIES:
            messages.error(request, f"{count:,} policies match these filters; a bulk action takes at most "
                                    f"{BULK_MAX_POLICIES:,}. Narrow the filters.")
            return redirect(back)
        ids = list(matching.values_list("pk", flat=True))
    if request.POST.get("confirm") == "yes":
        if action == "groups":
            outcome = policies_groups_change(actor=request.user, policy_ids=ids, change=form.group_change())
        else:
            outcome = _BULK_SERVICES[action](actor=request.user, policy_ids=ids)
        (messages.success if outcome.done else messages.warning)(request, _bulk_message(action, outcome))
        return redirect(back)
    items = bulk_plan(action=action, policies=bulk_policies(user=request.user, policy_ids=ids),
                      group_change=form.group_change())
    changing = [item for item in items if not item.skip]
    return render(request, "policies/bulk_confirm.html", {
        "form": form, "action": action, "action_label": BULK_ACTIONS[action], "items": items[:500],
        "more": max(0, len(items) - 500), "changing": len(changing), "skipping": len(items) - len(changing),
        "ids": ",".join(str(item.policy.pk) for item in items), "query": query, "back": back,
        "group_change": form.group_change(),
    })


@policy_admin_required
@require_http_methods(["GET", "POST"])
def version_upload(request):
    if request.method == "POST":
        form = PolicyUploadForm(request.POST, request.FILES)
        if form.is_valid():
            arguments = form.upload_arguments()
            sources = [UploadedSource(name=f.name, file=f) for f in form.cleaned_data["files"]]
            try:
                version = policy_upload(**arguments, sources=sources, created_by=request.user)
            except PolicyInputError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(
                    request,
                    f"Uploaded {version.policy.title} version {version.number}; processing has started.",
                )
                return redirect("policies:version_detail", pk=version.pk)
    else:
        form = PolicyUploadForm(initial=_upload_initial(request.GET.get("policy")))
    return render(request, "policies/upload.html", {"form": form})


def _upload_initial(policy_id: str | None) -> dict:
    policy = Policy.objects.filter(pk=policy_id).prefetch_related("groups").first() if (policy_id or "").isdigit() else None
    if policy is None:
        return {}
    return {"policy": policy, "groups": list(policy.groups.all()), "category": policy.category}


@policy_admin_required
def version_detail(request, pk: int):
    version = _version_or_404(pk)
    state = version_progress_state(version=version)
    reindex_stale = version_reindex_message(version=version)
    if request.GET.get("partial") == "progress":
        finished = version.is_finished and not version.is_reindexing
        if request.htmx and (finished or request.GET.get("actions", state.actions) != state.actions):
            # Finished (or its re-index done), or stopped (Retry offered) while the admin watched:
            # reload the whole page, whose actions and chunk preview change with it.
            return HttpResponseClientRefresh()
        return render(request, "policies/version_detail.html#progress",
                      {"version": version, "state": state, "reindex_stale": reindex_stale})
    context = {
        "version": version,
        "policy": version.policy,
        "sources": list(version.sources.all()),
        "other_versions": policy_versions_other(version=version),
        "preview": version_chunk_preview(version=version) if version.status == PolicyVersion.Status.READY else None,
        "can_publish": version.status == PolicyVersion.Status.READY and not version.published,
        "can_retire": version.published,
        "state": state,
        "reindex_stale": reindex_stale,
        "can_retry": state.can_retry,
        "can_cancel": state.can_cancel,
        "previous_ready": policy_version_previous_ready(version=version),
        "today": timezone.localdate(),
    }
    return render(request, "policies/version_detail.html", context)


def _version_number(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


@login_required
def version_diff(request, key: str):
    """Section by section, what changed from version ?from=N to ?to=M of a policy (by default the
    latest ready version against the ready one before it)."""
    if not may_compare_versions(request.user):
        raise PermissionDenied("Only policy admins and reviewers can compare versions.")
    result = policy_version_diff(user=request.user, policy_key=key, from_number=_version_number(request.GET.get("from")),
                                 to_number=_version_number(request.GET.get("to")))
    if result is None:
        raise Http404("No two ready versions of this policy to compare.")
    return render(request, "policies/version_diff.html", {
        "result": result, "policy": result.policy, "diff": result.diff, "old": result.old, "new": result.new,
        "can_manage": is_policy_admin(request.user),
    })


def _version_action(service, done: str):
    @policy_admin_required
    @require_POST
    def view(request, pk: int):
        version = _version_or_404(pk)
        try:
            service(version=version)
        except PolicyInputError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, done.format(version=version))
        return redirect("policies:version_detail", pk=version.pk)

    return view


version_publish = _version_action(policy_version_publish, "Published version {version.number}.")
version_retire = _version_action(policy_version_retire, "Retired version {version.number}: it no longer answers questions.")
version_retry = _version_action(policy_version_retry, "Version {version.number} is queued again.")


@policy_admin_required
@require_POST
def version_reindex(request, pk: int):
    """Queue a ready version's re-index; one already pending is queued again only when it is
    stale (its message lost), else left to the worker that has it."""
    version = _version_or_404(pk)
    try:
        outcome = policy_version_reindex_ask(version=version, actor=request.user)
    except PolicyInputError as exc:
        messages.error(request, str(exc))
    else:
        if outcome == "pending":
            messages.info(request, f"The re-index of version {version.number} is already queued; a worker shows its progress here.")
        else:
            messages.success(request, f"Queued the re-index of version {version.number}{' again' if outcome == 'requeued' else ''}; "
                                      "it keeps answering from its previous index meanwhile.")
    return redirect("policies:version_detail", pk=version.pk)


@policy_admin_required
@require_POST
def version_cancel(request, pk: int):
    """Cancel processing; the page asks first (the confirm button sends confirm=yes)."""
    version = _version_or_404(pk)
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Nothing was cancelled: confirm the cancellation with its button.")
    else:
        try:
            version = policy_version_cancel(version=version, cancelled_by=request.user)
        except PolicyInputError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, f"Cancelled processing of version {version.number}.")
    return redirect("policies:version_detail", pk=version.pk)


@policy_admin_required
def source_download(request, pk: int):
    """The version page's old address of a source file: the one download view serves it now."""
    return redirect("assistant:source", pk=pk)


# --- zip import ----------------------------------------------------------------------------------

def _batch_or_404(pk) -> ImportBatch:
    return get_object_or_404(ImportBatch.objects.select_related("created_by"), pk=pk)


@policy_admin_required
@require_http_methods(["GET", "POST"])
def import_upload(request):
    if request.method == "POST":
        form = ImportUploadForm(request.POST, request.FILES)
        if form.is_valid():
            data = form.cleaned_data
            try:
                batch = import_batch_create(
                    upload=data["archive"], effective_from=data["effective_from"], category=data["category"],
                    groups=form.group_names(), publish_when_ready=data["publish_when_ready"], created_by=request.user,
                )
            except ImportUploadError as exc:
                form.add_error("archive", str(exc))
            else:
                return redirect("policies:import_review", pk=batch.pk)
    else:
        form = ImportUploadForm()
    return render(request, "policies/import_upload.html", {
        "form": form, "recent": import_batches_recent(), "max_bytes": import_zip_max_bytes(),
    })


@policy_admin_required
@require_http_methods(["GET", "POST"])
def import_review(request, pk):
    """The plan of an uploaded zip (recomputed from the stored file), and its confirmation."""
    batch = _batch_or_404(pk)
    notice = ""
    if batch.status == ImportBatch.Status.DISCARDED:
        messages.info(request, f"The upload of {batch.file_name} was discarded; upload it again to import it.")
        return redirect("policies:import_upload")
    if batch.status != ImportBatch.Status.PLANNED:
        return redirect("policies:import_progress", pk=batch.pk)
    if request.method == "POST":
        result = import_batch_apply(batch=batch, actor=request.user, fingerprint=request.POST.get("fingerprint", ""))
        if result.applied:
            messages.success(request, f"{batch.file_name}: the files are queued for processing.")
            return redirect("policies:import_progress", pk=batch.pk)
        if result.changed is None:  # confirmed already (another click, another admin) or discarded
            return redirect("policies:import_review", pk=batch.pk)
        planned = result.changed
        notice = ("Nothing was imported: the plan changed since it was shown (another upload or import touched "
                  "these policies). Check the plan below and confirm again.") if planned.plan else ""
    else:
        planned = import_batch_plan(batch=batch)
    rows = []
    if planned.plan:
        order = {"invalid": 0, "new": 1, "new version": 2, "unchanged": 3}
        rows = sorted(planned.plan.files, key=lambda f: (order[f.action.value], f.path))
    return render(request, "policies/import_plan.html", {
        "batch": batch, "planned": planned, "rows": rows[:1000], "more": max(0, len(rows) - 1000), "notice": notice,
    })


@policy_admin_required
@require_POST
def import_discard(request, pk):
    batch = _batch_or_404(pk)
    if import_batch_discard(batch=batch):
        messages.info(request, f"Discarded the upload of {batch.file_name}; nothing was imported.")
        return redirect("policies:import_upload")
    return redirect("policies:import_review", pk=batch.pk)


@policy_admin_required
def import_progress(request, pk):
    """One progress view for the whole batch; the progress card polls itself while work remains."""
    batch = _batch_or_404(pk)
    if batch.status in (ImportBatch.Status.PLANNED, ImportBatch.Status.DISCARDED):
        return redirect("policies:import_review", pk=batch.pk)
    progress = import_batch_progress(batch=batch) if batch.status == ImportBatch.Status.APPLIED else None
    context = {"batch": batch, "progress": progress, "today": timezone.localdate()}
    if request.GET.get("partial") == "progress":
        return render(request, "policies/import_progress.html#progress", context)
    return render(request, "policies/import_progress.html", context)


# --- audit log -----------------------------------------------------------------------------------

@policy_admin_required
def audit_log(request):
    """Who did what to which policy, newest first, with filters and pages; the filter form
    updates the results in place (htmx) and works as a plain GET form without JavaScript."""
    form = AuditLogForm(request.GET)
    filters = form.filters()
    paginator = Paginator(audit_events_list(user=request.user, filters=filters), AUDIT_PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    context = {
        "form": form,
        "filters": filters,
        "page": page,
        "query": _query(request.GET),
        "query_but_actor": _query(request.GET, actor=None),
        "query_but_policy": _query(request.GET, policy=None),
        "actors": audit_actor_names,  # called by the full page only (the datalist), not by the partial
    }
    if request.htmx and request.htmx.target == "audit-results":
        return render(request, "policies/audit_log.html#results", context)
    return render(request, "policies/audit_log.html", context)
