"""Source files have one download view (/sources/<pk>/; the version page's old /manage/sources/<pk>/
redirects there, for policy admins only). Who gets a file: anyone who may read its version (ready,
published now or before, a policy open to them); a policy admin, the file of any version in any
state, as the version page shows it; nobody else, whatever the address."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from policypal.policies.models import Policy, PolicyVersion
from policypal.policies.roles import POLICY_ADMINS

from .test_pages import make_version

pytestmark = pytest.mark.django_db

# A version's state: (status, published, retired)
STATES = {
    "published": (PolicyVersion.Status.READY, True, False),
    "retired": (PolicyVersion.Status.READY, False, True),
    "ready, not published": (PolicyVersion.Status.READY, False, False),
    "chunking": (PolicyVersion.Status.CHUNKING, False, False),
    "failed": (PolicyVersion.Status.FAILED, False, False),
}
READABLE_STATES = {"published", "retired"}


@pytest.fixture
def people(django_user_model):
    scope = Group.objects.create(name="download-managers")
    member = django_user_model.objects.create_user("download-member")
    member.groups.add(scope)
    admin = django_user_model.objects.create_user("download-admin")  # a policy admin outside the scope
    admin.groups.add(Group.objects.get_or_create(name=POLICY_ADMINS)[0])
    return {"outsider": django_user_model.objects.create_user("download-outsider"), "member": member,
            "admin": admin, "scope": scope}


@pytest.fixture
def sources(people, settings, tmp_path):
    """One source per (policy open to all or restricted to the scope, version state)."""
    from django.utils import timezone

    settings.MEDIA_ROOT = tmp_path
    out = {}
    for restricted in (False, True):
        policy = Policy.objects.create(key=f"download-{restricted}", title="Bonus Policy")
        if restricted:
            policy.groups.add(people["scope"])
        for number, (state, (status, published, retired)) in enumerate(STATES.items(), start=1):
            version = make_version(policy, number=number, status=status, published=published,
                                   source_bytes=f"# Bonus {number}".encode())
            if retired:
                PolicyVersion.objects.filter(pk=version.pk).update(retired_at=timezone.now())
            out[(restricted, state)] = version.sources.get()
    return out


def may_download(who: str, restricted: bool, state: str) -> bool:
    if who == "admin":
        return True
    return state in READABLE_STATES and (not restricted or who == "member")


@pytest.mark.parametrize("who", ["outsider", "member", "admin"])
def test_the_file_is_served_exactly_to_those_who_may_read_its_version(client, people, sources, who):
    client.force_login(people[who])
    for (restricted, state), source in sources.items():
        response = client.get(f"/sources/{source.pk}/")
        expected = may_download(who, restricted, state)
        assert response.status_code == (200 if expected else 404), (who, restricted, state)
        if expected:
            assert b"".join(response.streaming_content) == source.file.open("rb").read()


@pytest.mark.parametrize("who", ["outsider", "member"])
def test_the_admin_address_is_refused_to_everyone_but_policy_admins(client, people, sources, who):
    client.force_login(people[who])
    for source in sources.values():
        assert client.get(f"/manage/sources/{source.pk}/").status_code == 403


def test_the_admin_address_redirects_a_policy_admin_to_the_one_download_view(client, people, sources):
    client.force_login(people["admin"])
    source = sources[(True, "chunking")]
    response = client.get(f"/manage/sources/{source.pk}/")
    assert response.status_code == 302 and response["Location"] == f"/sources/{source.pk}/"


def test_both_addresses_send_anonymous_visitors_to_sign_in(client, sources):
    source = sources[(False, "published")]
    for url in (f"/sources/{source.pk}/", f"/manage/sources/{source.pk}/"):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_the_version_page_links_its_files_to_the_one_download_view(client, people, sources):
    client.force_login(people["admin"])
    source = sources[(True, "failed")]
    html = client.get(f"/manage/versions/{source.version_id}/").content.decode()
    assert f'href="/sources/{source.pk}/"' in html and "/manage/sources/" not in html


def test_a_missing_stored_file_is_404(client, people, sources):
    source = sources[(False, "published")]
    source.file.storage.delete(source.file.name)
    client.force_login(people["member"])
    assert client.get(f"/sources/{source.pk}/").status_code == 404
