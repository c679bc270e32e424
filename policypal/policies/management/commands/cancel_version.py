"""manage.py cancel_version VERSION_ID [--user NAME]

Stop a queued or running version, as the Cancel button of its admin page does: it is marked
cancelled, its chunks are removed, its queued tasks revoked, and a step already running stops at
its next heartbeat.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from policypal.policies.models import PolicyVersion
from policypal.policies.services import PolicyInputError, policy_version_cancel


class Command(BaseCommand):
    help = "Cancel the processing of a queued or running policy version."

    def add_arguments(self, parser):
        parser.add_argument("version_id", type=int, help="the version id (shown by `ingest` and in the version page's URL)")
        parser.add_argument("--user", default=None, help="record this user as the one who cancelled (default: the command line)")

    def handle(self, *args, **options):
        version = PolicyVersion.objects.select_related("policy").filter(pk=options["version_id"]).first()
        if version is None:
            raise CommandError(f"No version with id {options['version_id']}.")
        user = None
        if options["user"]:
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"No user named {options['user']!r}.")
        try:
            version = policy_version_cancel(version=version, cancelled_by=user)
        except PolicyInputError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"Cancelled {version.policy.key} v{version.number} (version id {version.pk}).")
