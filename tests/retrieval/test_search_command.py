"""manage.py search: the JSON shape outside tools rely on, rank order, the token budget, --batch."""
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

pytestmark = pytest.mark.django_db

MEALS = "What is the daily meal allowance in Mumbai for grade L4?"
KEYS = {"chunk_id", "breadcrumb", "text", "score", "policy", "version", "level", "kind", "token_count"}


def search(*args) -> list[dict]:
    out = StringIO()
    call_command("search", *args, "--json", stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]


def test_json_shape_and_rank_order(employee):
    [data] = search(MEALS, "--user", "employee", "--as-of", "2026-11-29", "--k", "5")
    assert data["question"] == MEALS
    # five distinct chunks; a row whose table ranked above it is shown by that table, not
    # repeated, and the next hit takes its place
    assert len(data["chunks"]) == 5
    assert len({c["chunk_id"] for c in data["chunks"]}) == 5
    assert sum(len(c["expanded_from"]) for c in data["chunks"]) > 5
    for chunk in data["chunks"]:
        assert KEYS <= set(chunk)
        assert chunk["level"] == "block"
        assert chunk["text"].strip()
    scores = [c["score"] for c in data["chunks"]]
    assert scores == sorted(scores, reverse=True)
    assert data["chunks"][0]["policy"] == "travel" and data["chunks"][0]["version"] == 1
    assert "1,800" in data["chunks"][0]["text"]
    assert any("1 April 2027" in n["message"] for n in data["notices"])


@pytest.mark.parametrize("budget", [120, 300, 1000])
def test_budget_is_respected_after_parent_expansion(employee, budget):
    [data] = search(MEALS, "--user", "employee", "--as-of", "2026-11-29", "--k", "5", "--budget", str(budget))
    assert data["chunks"], "something fits"
    assert sum(c["token_count"] for c in data["chunks"]) <= budget
    assert data["token_count"] <= budget
    ids = [c["chunk_id"] for c in data["chunks"]]
    assert len(ids) == len(set(ids))


def test_a_ranked_table_row_brings_its_table_when_the_budget_allows(employee):
    [data] = search(MEALS, "--user", "employee", "--as-of", "2026-11-29", "--k", "3", "--budget", "600")
    first = data["chunks"][0]
    # the row's whole table (header included), alone or inside its section when more of the
    # section ranked too
    assert first["kind"] == "table" or first["level"] == "section"
    assert "| L4 | 1,800 |" in first["text"] and "Metro city" in first["text"]
    assert "daily meal allowance" in first["breadcrumb"].lower()


SCENARIO = ("I'm a developer in Pune and I've got 38 days of earned leave in PeopleHub because I was stuck on a client "
            "go-live all year. My manager says everything over 30 disappears on 31 March - is there any way to keep the "
            "extra days for a while? And if I resign in May instead, would they be paid out?")


def test_budget_packs_the_policys_sections_in_units_and_names_what_is_left_out(employee):
    [data] = search(SCENARIO, "--user", "employee", "--as-of", "2026-11-29", "--k", "5", "--budget", "1000")
    assert data["budget"] == 1000 and data["token_count"] <= 1000
    units = [c["unit"] for c in data["chunks"]]
    assert units == sorted(units) and 1 <= len(set(units)) <= 5
    assert {c["policy"] for c in data["chunks"]} == {"leave"}  # policy first
    text = " ".join(c["text"] for c in data["chunks"])
    assert "lapses on 31 March" in text and "CHRO has approved an extension" in text  # the rule with its exception
    assert "paid at the basic salary rate in the final settlement" in text  # the second section the question needs
    carry = next(c for c in data["chunks"] if "Carry forward" in c["breadcrumb"])
    assert carry["level"] == "section"  # a small section, whole
    assert data["left_out"], "the leave policy does not fit in 1,000 tokens: sections are left out"
    for item in data["left_out"]:
        assert {"chunk_id", "breadcrumb", "policy", "token_count", "reason"} <= set(item)
        assert item["reason"] in ("budget", "units", "partly") and item["token_count"] > 0
    assert not {o["chunk_id"] for o in data["left_out"] if o["reason"] != "partly"} & {c["chunk_id"] for c in data["chunks"]}


def test_batch_prints_one_object_per_line_with_each_lines_user(employee, manager, tmp_path):
    batch = tmp_path / "questions.jsonl"
    question = "How is the manager bonus pool funded?"
    batch.write_text(
        json.dumps({"question": question, "user": "employee"}) + "\n\n"
        + json.dumps({"question": question, "user": "manager", "as_of": "2026-11-29"}) + "\n"
    )
    as_employee, as_manager = search("--batch", str(batch), "--k", "3")
    assert as_employee["user"] == "employee" and as_manager["user"] == "manager"
    assert as_employee["chunks"], "the employee gets chunks of the policies they may read"
    assert all(c["policy"] != "manager-compensation" for c in as_employee["chunks"])
    assert as_manager["chunks"][0]["policy"] == "manager-compensation"


def test_unknown_user_and_missing_question_are_clear_errors(employee):
    with pytest.raises(CommandError, match="No user named"):
        search(MEALS, "--user", "nobody")
    with pytest.raises(CommandError, match="question"):
        search("--user", "employee")
