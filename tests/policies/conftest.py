"""Fixtures shared by the policy admin tests."""
import pytest
import redis
from django.contrib.auth.models import Group

from policypal.policies.models import Policy
from policypal.policies.roles import POLICY_ADMINS


@pytest.fixture
def make_policy_admin(django_user_model):
    """A user in the policy admins group, with the given name."""

    def make(username: str):
        user = django_user_model.objects.create_user(username, password="pw-admin-123")
        user.groups.add(Group.objects.get_or_create(name=POLICY_ADMINS)[0])
        return user

    return make


@pytest.fixture
def only_this_tests_policies(db):
    """Only the policies a test makes: the sample corpus, which other tests keep in the
    database, is removed inside the test's transaction (and back when it is rolled back)."""
    Policy.objects.all().delete()


@pytest.fixture
def broker_queue(settings):
    """The tests' Celery queue in the tests' Redis database, emptied before and after: (client, name)."""
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    name = settings.CELERY_TASK_DEFAULT_QUEUE
    client.delete(name)
    yield client, name
    client.delete(name)
