from django.apps import AppConfig


class RetrievalConfig(AppConfig):
    name = "retrieval"
    verbose_name = "Retrieval"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from policypal.policies.models import Policy, PolicyVersion

        from .lookup import forget_policy_titles

        # The cached policy titles (retrieval/lookup.py) are keyed by the version ids asked
        # about, and a version never changes policy: only a policy's save (its title) or a
        # deletion changes an answer. A version's own saves (progress, heartbeats: every few
        # seconds while it is ingested) leave them alone.
        post_save.connect(forget_policy_titles, sender=Policy, dispatch_uid="retrieval-titles-policy-save")
        post_delete.connect(forget_policy_titles, sender=Policy, dispatch_uid="retrieval-titles-policy-delete")
        post_delete.connect(forget_policy_titles, sender=PolicyVersion, dispatch_uid="retrieval-titles-version-delete")
