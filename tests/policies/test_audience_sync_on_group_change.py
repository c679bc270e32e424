"""A change of who may read a policy moves its chunks to another audience (database triggers keep
each chunk's audience), so it queues the audience index sync (retrieval/audience_indexes.py) in
the real broker queue once the change commits, like the end of an indexing run; a save that
leaves the groups as they were queues nothing."""
from __future__ import annotations

import base64
import datetime as dt
import json

import pytest
from django.contrib.auth.models import Group

from policypal.policies.bulk_actions import GroupChange, policies_groups_change
from policypal.policies.models import Policy, PolicyVersion
from policypal.policies.services import policy_upsert
from retrieval.audience_indexes import AUDIENCE_INDEXES_TASK

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_other_policies(only_this_tests_policies):
    """Only this test's policies."""


def _queued_tasks(queue) -> list[str]:
    client, name = queue
    return [json.loads(raw)["headers"]["task"] for raw in client.lrange(name, 0, -1)]


def _policy_with_a_version(key: str, groups: tuple[str, ...]) -> Policy:
    policy = Policy.objects.create(key=key, title=key.title())
    policy.groups.set([Group.objects.get_or_create(name=name)[0] for name in groups])
    PolicyVersion.objects.create(policy=policy, number=1, effective_from=dt.date(2025, 1, 1),
                                 status=PolicyVersion.Status.READY, published=True)
    return policy


def test_new_groups_through_the_upsert_queue_the_sync_after_commit(broker_queue, django_capture_on_commit_callbacks):
    _policy_with_a_version("payroll", ("finance",))
    with django_capture_on_commit_callbacks(execute=True):
        policy_upsert(key="payroll", title="Payroll", group_names=["finance", "people-team"])
    assert _queued_tasks(broker_queue) == [AUDIENCE_INDEXES_TASK]


def test_the_same_groups_or_a_policy_without_versions_queue_nothing(broker_queue, django_capture_on_commit_callbacks):
    _policy_with_a_version("payroll", ("finance",))
    with django_capture_on_commit_callbacks(execute=True):
        policy_upsert(key="payroll", title="Payroll renamed", group_names=["finance"])
        policy_upsert(key="brand-new", title="Brand New", group_names=["finance"])
    assert _queued_tasks(broker_queue) == []


def test_a_bulk_group_change_queues_one_sync_for_the_whole_selection(
    broker_queue, django_capture_on_commit_callbacks, make_policy_admin
):
    first = _policy_with_a_version("payroll", ("finance",))
    second = _policy_with_a_version("pensions", ())
    restricted = Group.objects.create(name="restricted")
    with django_capture_on_commit_callbacks(execute=True):
        outcome = policies_groups_change(actor=make_policy_admin("sync-admin"), policy_ids=[first.pk, second.pk],
                                         change=GroupChange(mode="add", groups=(restricted,)))
    assert len(outcome.done) == 2
    assert _queued_tasks(broker_queue) == [AUDIENCE_INDEXES_TASK]


def test_a_bulk_change_that_changes_nothing_queues_nothing(broker_queue, django_capture_on_commit_callbacks,
                                                            make_policy_admin):
    policy = _policy_with_a_version("payroll", ("finance",))
    with django_capture_on_commit_callbacks(execute=True):
        outcome = policies_groups_change(actor=make_policy_admin("sync-admin"), policy_ids=[policy.pk],
                                         change=GroupChange(mode="add", groups=(Group.objects.get(name="finance"),)))
    assert outcome.done == []
    assert _queued_tasks(broker_queue) == []


def test_no_sync_is_queued_when_the_setting_is_off(broker_queue, django_capture_on_commit_callbacks, settings):
    settings.AUDIENCE_INDEX_SYNC_AFTER_INDEXING = False
    _policy_with_a_version("payroll", ("finance",))
    with django_capture_on_commit_callbacks(execute=True):
        policy_upsert(key="payroll", title="Payroll", group_names=[])
    assert _queued_tasks(broker_queue) == []


def test_the_queued_message_is_a_real_celery_message(broker_queue, django_capture_on_commit_callbacks):
    _policy_with_a_version("payroll", ())
    with django_capture_on_commit_callbacks(execute=True):
        policy_upsert(key="payroll", title="Payroll", group_names=["finance"])
    client, name = broker_queue
    message = json.loads(client.lrange(name, 0, -1)[0])
    args, kwargs, _ = json.loads(base64.b64decode(message["body"]))
    assert (message["headers"]["task"], args, kwargs) == (AUDIENCE_INDEXES_TASK, [], {})
