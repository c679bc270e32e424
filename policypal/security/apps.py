from django.apps import AppConfig


class SecurityConfig(AppConfig):
    name = "policypal.security"
    label = "security"
    verbose_name = "Security"

    def ready(self):
        from . import checks  # noqa: F401  (registers the deploy check)
