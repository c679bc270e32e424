"""Small helpers shared by management commands."""
from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError


def parse_date(value: str | None, *, option: str) -> dt.date | None:
    if value in (None, ""):
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"{option} must be a date as YYYY-MM-DD, got {value!r}") from None


def get_user(username: str):
    User = get_user_model()
    try:
        return User.objects.get(username=username)
    except User.DoesNotExist:
        known = ", ".join(User.objects.order_by("username").values_list("username", flat=True)[:20])
        raise CommandError(f"No user named {username!r}. Known users: {known or 'none'}.") from None
