"""Demo users for a first run: an employee, a manager, a policy admin and a reviewer."""
from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from .roles import POLICY_ADMINS, REVIEWERS

MANAGERS = "managers"

DEMO_USERS = (
    ("employee", "Asha", "Employee", ()),
    ("manager", "Ravi", "Manager", (MANAGERS,)),
    ("admin", "Priya", "Policy admin", (POLICY_ADMINS, MANAGERS)),
    ("reviewer", "Sam", "Reviewer", (REVIEWERS,)),
)


@dataclass(frozen=True)
class CreatedUser:
    username: str
    password: str
    groups: tuple[str, ...]


@transaction.atomic
def demo_users_ensure() -> list[CreatedUser]:
    """Create the demo users that do not exist yet; returns them with their new passwords."""
    User = get_user_model()
    created = []
    for username, first, last, groups in DEMO_USERS:
        if User.objects.filter(username=username).exists():
            continue
        password = secrets.token_urlsafe(9)
        user = User.objects.create_user(username=username, password=password, first_name=first, last_name=last)
        user.groups.set([Group.objects.get_or_create(name=name)[0] for name in groups])
        created.append(CreatedUser(username, password, groups))
    return created
