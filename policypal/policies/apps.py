from django.apps import AppConfig


class PoliciesConfig(AppConfig):
    name = "policypal.policies"
    label = "policies"
    verbose_name = "Policies"
