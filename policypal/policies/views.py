"""Policy admin pages: list, upload, version detail with live progress, publish/retire/retry/cancel.

Every view here is for policy admins only (403 for anyone else); the check is the
`policy_admin_required` decorator, never a template condition.
"""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRefresh

from .forms import PolicyUploadForm
from .models import Policy, PolicyVersion
from .roles import is_policy_admin
from .selectors import (
    policy_list_with_versions,
    policy_versions_other,
    version_chunk_preview,
    version_get,
    version_progress_state,
)
from .services import (
    PolicyInputError,
    UploadedSource,
    policy_version_cancel,
    policy_version_publish,
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


@policy_admin_required
def policy_list(request):
    return render(
        request,
        "policies/policy_list.html",
        {"policies": policy_list_with_versions(), "today": timezone.localdate()},
    )


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
    if request.GET.get("partial") == "progress":
        if request.htmx and (version.is_finished or request.GET.get("actions", state.actions) != state.actions):
            # Finished, or stopped (Retry offered) while the admin watched: reload the whole
            # page, whose actions and chunk preview change with it.
            return HttpResponseClientRefresh()
        return render(request, "policies/version_detail.html#progress", {"version": version, "state": state})
    context = {
        "version": version,
        "policy": version.policy,
        "sources": list(version.sources.all()),
        "other_versions": policy_versions_other(version=version),
        "preview": version_chunk_preview(version=version) if version.status == PolicyVersion.Status.READY else None,
        "can_publish": version.status == PolicyVersion.Status.READY and not version.published,
        "can_retire": version.published,
        "state": state,
        "can_retry": state.can_retry,
        "can_cancel": state.can_cancel,
        "today": timezone.localdate(),
    }
    return render(request, "policies/version_detail.html", context)


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
