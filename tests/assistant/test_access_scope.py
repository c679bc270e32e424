"""A user outside a policy's groups never gets its chunks: not from ask, not from the chunk URL."""
import json

import pytest
from django.core.management import call_command

from retrieval.models import Chunk

pytestmark = pytest.mark.django_db

BONUS_QUESTION = "How is the manager bonus pool funded?"


def ask_json(question, user, as_of=None):
    from io import StringIO

    out = StringIO()
    args = [question, "--user", user, "--json", "--no-record"]
    if as_of:
        args += ["--as-of", as_of]
    call_command("ask", *args, stdout=out)
    return json.loads(out.getvalue())


def test_employee_never_gets_restricted_policy_chunks(employee):
    data = ask_json(BONUS_QUESTION, "employee")
    assert all(c["policy"] != "manager-compensation" for c in data["citations"])
    assert "12%" not in data["answer"]


def test_manager_in_group_gets_them(manager):
    data = ask_json(BONUS_QUESTION, "manager")
    assert data["covered"] is True
    assert data["citations"][0]["policy"] == "manager-compensation"
    assert "12%" in data["answer"]
    for citation in data["citations"]:
        assert set(citation) >= {"n", "chunk_id", "breadcrumb", "text", "policy", "policy_title", "version",
                                 "effective_from", "effective_to", "source", "pages"}


def test_restricted_chunk_url_is_not_found_for_outsider(client, employee, manager):
    chunk = Chunk.objects.filter(policy__key="manager-compensation", searchable=True).first()
    client.force_login(employee)
    assert client.get(f"/chunks/{chunk.pk}/").status_code in (403, 404)
    client.force_login(manager)
    response = client.get(f"/chunks/{chunk.pk}/")
    assert response.status_code == 200
    assert chunk.breadcrumb.split(" > ")[-1] in response.content.decode()


def test_restricted_source_file_is_not_found_for_outsider(client, employee):
    chunk = Chunk.objects.filter(policy__key="manager-compensation").first()
    client.force_login(employee)
    assert client.get(f"/sources/{chunk.source_id}/").status_code in (403, 404)


def test_search_never_returns_restricted_chunks_to_outsider(employee):
    from retrieval.search import chunk_search_hybrid

    hits = chunk_search_hybrid(question=BONUS_QUESTION + " salary band L5 midpoint", user=employee, k=20)
    assert hits, "open policies should still match something"
    assert all(h.chunk.policy.key != "manager-compensation" for h in hits)


def test_chat_page_never_shows_restricted_text_to_outsider(client, employee):
    client.force_login(employee)
    response = client.post("/", {"question": BONUS_QUESTION})
    assert response.status_code == 200
    page = response.content.decode()
    assert "12%" not in page
    assert "Manager Compensation" not in page


def test_api_ask_never_returns_restricted_chunks_to_outsider(client, employee):
    client.force_login(employee)
    response = client.post("/api/ask", {"question": BONUS_QUESTION}, content_type="application/json")
    assert response.status_code == 200
    assert all(c["policy"] != "manager-compensation" for c in response.json()["citations"])


def test_ask_refuses_an_over_long_question_as_the_page_does():
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match=r"Keep the question to 2000 characters or fewer \(it has 2001\)"):
        call_command("ask", "a" * 2001, "--user", "employee", "--no-record")
