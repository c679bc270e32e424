"""The Celery application; tasks live in each app's tasks.py."""
import os
import sys

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "policypal.settings")

app = Celery("policypal")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.celeryd_init.connect
def _library_defaults(**_) -> None:
    """A worker sets the libraries' environment defaults before it loads anything (here, not at
    import: every Django process imports this module, and importing the settings writes nothing)."""
    from policypal.library_env import library_defaults_set

    library_defaults_set()


@signals.worker_init.connect
def _stop_without_a_database(**_) -> None:
    """A worker without its database would fail every task it takes: say why in one line and stop."""
    from policypal.embedded_db import database_problem

    if problem := database_problem():
        print(problem, file=sys.stderr)
        raise SystemExit(1)
