"""The sign-in page: Django's LoginView, refused with 429 during a lockout (services.py says when)."""
from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.utils import timezone

from .services import login_failure_record, login_lockout_get, login_success_record
from .throttle import seconds_in_words


def client_ip(request) -> str:
    """The client's address: REMOTE_ADDR, or with TRUSTED_PROXIES = n reverse proxies in front,
    the address the outermost of them saw (the n-th entry of X-Forwarded-For from the right).
    Entries further left are whatever the client wrote, so they are never used."""
    proxies = settings.TRUSTED_PROXIES
    if proxies > 0:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "")


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"

    def post(self, request, *args, **kwargs):
        wait = login_lockout_get(username=request.POST.get("username", ""), ip=client_ip(request))
        if wait:
            return self._locked_out(wait)  # the password is not even checked
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        wait = login_failure_record(username=self.request.POST.get("username", ""), ip=client_ip(self.request))
        if wait:
            return self._locked_out(wait)
        return super().form_invalid(form)

    def form_valid(self, form):
        login_success_record(username=self.request.POST.get("username", ""))
        return super().form_valid(form)

    def _locked_out(self, wait: int):
        # An unbound form: a bound one would check the password again when the page shows its errors.
        form = self.get_form_class()(self.request, initial={"username": self.request.POST.get("username", "")})
        context = self.get_context_data(
            form=form,
            locked_out={"wait": seconds_in_words(wait), "until": timezone.now() + dt.timedelta(seconds=wait)},
        )
        response = self.render_to_response(context, status=429)
        response["Retry-After"] = str(wait)
        return response
