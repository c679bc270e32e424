"""manage.py reindex (--all | --policy KEY | --recover-stale)

Chunk and embed again every ready, unretired version (of every policy, or of one), after a change
of the chunking settings or the embedding model, in this process, one version after the other,
printing progress. Each version keeps answering from its previous index until its new chunks, all
embedded, replace the old ones in one transaction.

--recover-stale: queue again, for the workers, the pending re-indexes that lost their message (no
sign of life for REINDEX_STALE_SECONDS), or clear those requeued REINDEX_MAX_REQUEUES times already;
what each worker does as it starts, for a cron job where no beat process runs.
"""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from policypal.policies.ingestion import version_reindex_inline
from policypal.policies.models import AuditEvent, Policy, PolicyVersion
from policypal.policies.services import (
    PolicyInputError,
    audit_event_record,
    policy_version_reindex,
    policy_versions_reindex_recover,
)


class Command(BaseCommand):
    help = "Re-index ready policy versions (chunk and embed again); each keeps answering until its new index is complete."

    def add_arguments(self, parser):
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--all", action="store_true", help="every policy")
        which.add_argument("--policy", metavar="KEY", help="one policy, by its key")
        which.add_argument("--recover-stale", action="store_true",
                           help="queue again the pending re-indexes whose message was lost (for the workers)")

    def handle(self, *args, **options):
        if options["recover_stale"]:
            self._recover()
            return
        versions = PolicyVersion.objects.filter(status=PolicyVersion.Status.READY, retired_at__isnull=True)
        if options["policy"]:
            if not Policy.objects.filter(key=options["policy"]).exists():
                raise CommandError(f"No policy with key {options['policy']!r}.")
            versions = versions.filter(policy__key=options["policy"])
        versions = list(versions.select_related("policy").order_by("policy__key", "number"))
        if not versions:
            self.stdout.write("No ready version to re-index.")
            return
        failed = 0
        for index, version in enumerate(versions, start=1):
            label = f"[{index}/{len(versions)}] {version.policy.key} v{version.number}"
            self.stdout.write(f"{label}: re-indexing (answering from the previous index meanwhile)")
            try:
                policy_version_reindex(version=version, enqueue=False)
            except PolicyInputError as exc:
                failed += 1
                self.stdout.write(f"{label}: skipped: {exc}")
                continue
            version = version_reindex_inline(version_id=version.pk)
            if version.reindex_requested_at is None and version.reindex_progress == 100:
                audit_event_record(actor=None, action=AuditEvent.Action.REINDEX, target=f"{version.policy.key} v{version.number}",
                                   policy=version.policy, version=version, detail="manage.py reindex")
            else:
                failed += 1
            self.stdout.write(f"{label}: {version.reindex_detail}")
        self.stdout.write(f"Re-indexed {len(versions) - failed} of {len(versions)} versions.")
        if failed:
            raise CommandError(f"{failed} version(s) not re-indexed; see above.")

    def _recover(self) -> None:
        done = policy_versions_reindex_recover()
        for version in PolicyVersion.objects.filter(pk__in=done).select_related("policy").order_by("policy__key", "number"):
            self.stdout.write(f"{version.policy.key} v{version.number}: {version.reindex_detail}")
        requeued = sum(1 for outcome in done.values() if outcome == "requeued")
        self.stdout.write(f"Queued again: {requeued}; cleared: {len(done) - requeued}.")
