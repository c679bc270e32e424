"""manage.py seed_demo: demo users (passwords printed once) and the sample policy set."""
from __future__ import annotations

from django.core.management.base import BaseCommand

from policypal.policies.demo import demo_users_ensure
from policypal.policies.samples import sample_manifest, samples_ingest
from policypal.policies.services import policy_versions_resume


class Command(BaseCommand):
    help = "Create the demo users and queue the sample policies that are not ingested yet."

    def add_arguments(self, parser):
        parser.add_argument("--no-samples", action="store_true")

    def handle(self, *args, **options):
        resumed = policy_versions_resume()
        if resumed:
            self.stdout.write(f"Resumed {len(resumed)} unfinished policy versions.")
        created = demo_users_ensure()
        if created:
            self.stdout.write(self.style.SUCCESS("Demo users (passwords are shown only this once):"))
            for user in created:
                roles = ", ".join(user.groups) or "employee"
                self.stdout.write(f"  {user.username:<10} {user.password:<16} ({roles})")
        else:
            self.stdout.write("Demo users exist already (reset a password with: manage.py changepassword NAME).")
        if options["no_samples"]:
            return
        queued = samples_ingest(sample_manifest())
        if queued:
            self.stdout.write(f"Queued {len(queued)} sample policy versions; the worker is processing them.")
        else:
            self.stdout.write("Sample policies are already ingested.")
