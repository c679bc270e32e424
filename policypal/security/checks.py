"""`manage.py check --deploy`: the SECRET_KEY is not the development default or a placeholder.

Django's own security.W009 only flags short or "django-insecure-" keys; our development default is
long enough to pass it, so this check names it."""
from django.conf import settings
from django.core import checks

from .keys import secret_key_problem


@checks.register(checks.Tags.security, deploy=True)
def check_secret_key(app_configs=None, **kwargs):
    problem = secret_key_problem(getattr(settings, "SECRET_KEY", ""))
    if problem is None:
        return []
    return [
        checks.Error(
            f"SECRET_KEY {problem}.",
            hint="Set the SECRET_KEY environment variable to a long random value, e.g. the output of "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'.",
            id="policypal.E001",
        )
    ]
