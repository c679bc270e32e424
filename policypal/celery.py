"""The Celery application; tasks live in each app's tasks.py."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "policypal.settings")

app = Celery("policypal")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
