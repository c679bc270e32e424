"""manage.py evaluate on the shipped question sets: the recall floor CI holds, the structure-aware
default against the fixed-size baseline, the permission questions, the question file checks; and
on the scenario set (long questions whose evidence spans two or three sections of one policy) the
packed context (policy first, then sections) against the 256-token and heading-aware baselines."""
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from retrieval.evaluation import QuestionFileError, normalise, question_from_dict, questions_load

QUESTIONS = Path(__file__).resolve().parents[2] / "samples" / "eval" / "questions.jsonl"
SCENARIOS = Path(__file__).resolve().parents[2] / "samples" / "eval" / "scenarios.jsonl"

# Measured on the shipped set (148 questions, 136 with evidence; 63 of them written for the hard
# cases: rules with their exceptions, table cells by row and column, list items with their
# intro, paraphrases), the top 5 being the first 5 units of the answer context within 500 tokens:
# the live default (packed) recall@5 0.939, all-evidence@5 0.934, MRR@5 0.895, all-evidence
# within 500 tokens 0.934; the fixed-size baseline, in windows as long as the default's chunks
# are on average (266 characters), 0.714 / 0.551 / 0.668 / 0.684 (onnx-int8 embeddings). The
# floors and the margins sit well below those figures.
RECALL_FLOOR = 0.90
ALL_EVIDENCE_FLOOR = 0.90
TOP_K_MARGIN = 0.15  # measured 0.32 (the default's top 5 holds more tokens: whole tables and lists)
BUDGET_MARGIN = 0.10  # measured 0.24 within 500 tokens, the same amount of text for both


@pytest.fixture(scope="module")
def report(django_db_setup, django_db_blocker, sample_corpus):
    out = StringIO()
    with django_db_blocker.unblock():
        call_command("evaluate", str(QUESTIONS), "--k", "5", "--budget", "500", "--strategy", "default,fixed",
                     "--json", stdout=out, stderr=StringIO())
    return json.loads(out.getvalue())


def test_recall_floor_on_the_shipped_set(report):
    metrics = report["strategies"]["default"]["metrics"]
    assert report["questions"] >= 40
    assert metrics["recall_at_k"] >= RECALL_FLOOR
    assert metrics["all_evidence_at_k"] >= ALL_EVIDENCE_FLOOR
    assert metrics["mrr_at_k"] >= 0.75


def test_default_beats_the_fixed_size_baseline_by_a_wide_margin(report):
    """Structure-aware chunks carry whole rules with their exceptions, tables with their headers
    and lists with their intro; windows of the same mean length cut them apart, so in the top 5
    the default finds all the evidence of far more questions."""
    default = report["strategies"]["default"]["metrics"]
    fixed = report["strategies"]["fixed"]["metrics"]
    assert default["answerable"] >= 120
    assert default["all_evidence_at_k"] >= fixed["all_evidence_at_k"] + TOP_K_MARGIN, (
        f"default {default['all_evidence_at_k']:.3f} vs fixed {fixed['all_evidence_at_k']:.3f} in the top 5"
    )
    assert fixed["mean_top_k_tokens"] > 0  # reported, so the reader can weigh the top 5 of each


def test_default_beats_the_baseline_at_the_same_budget(report):
    """The same amount of text for both (500 tokens each): the margin is still wide."""
    default = report["strategies"]["default"]["metrics"]
    fixed = report["strategies"]["fixed"]["metrics"]
    assert report["budget"] == 500
    assert default["all_evidence_in_budget"] >= 0.9
    assert default["all_evidence_in_budget"] >= fixed["all_evidence_in_budget"] + BUDGET_MARGIN, (
        f"default {default['all_evidence_in_budget']:.3f} vs fixed {fixed['all_evidence_in_budget']:.3f} "
        f"within {report['budget']} tokens"
    )
    assert fixed["mean_budget_tokens"] >= 0.85 * default["mean_budget_tokens"]


def test_no_answer_questions_pass_and_nothing_leaks(report):
    for name in ("default", "fixed"):
        metrics = report["strategies"][name]["metrics"]
        assert metrics["no_answer_questions"] >= 5
        assert metrics["no_answer_passed"] == metrics["no_answer_questions"]
        assert metrics["leaks"] == 0


def test_misses_list_the_chunks_that_ranked_instead(report):
    misses = report["strategies"]["fixed"]["misses"]
    assert misses, "the fixed-size baseline misses some questions"
    for miss in misses:
        assert miss["question"] and miss["top_k"]["chunks"]
        assert {"rank", "chunk_id", "breadcrumb", "text", "evidence"} <= set(miss["top_k"]["chunks"][0])


@pytest.mark.django_db
def test_table_output_and_floor_exit(sample_corpus, tmp_path):
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"question": "What is the daily meal allowance in Mumbai for grade L4?",
                                     "evidence": ["1,800"], "as_of": "2026-11-29"}) + "\n")
    out = StringIO()
    call_command("evaluate", str(questions), stdout=out, stderr=StringIO())
    assert "recall@5" in out.getvalue() and "default" in out.getvalue()
    questions.write_text(json.dumps({"question": "Where is the staff canteen?", "evidence": ["no such text anywhere"]}))
    with pytest.raises(CommandError, match="recall"):
        call_command("evaluate", str(questions), "--min-recall", "0.5", stdout=StringIO(), stderr=StringIO())


def test_question_file_errors_name_the_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "ok", "evidence": ["x"]}\n{"question": ""}\n')
    with pytest.raises(QuestionFileError, match=":2:"):
        questions_load(bad)
    with pytest.raises(QuestionFileError, match="evidence"):
        question_from_dict({"question": "q"}, where="x")
    with pytest.raises(QuestionFileError, match="as_of"):
        question_from_dict({"question": "q", "evidence": ["e"], "as_of": "1 May"}, where="x")
    assert question_from_dict({"question": "q", "expect_no_answer": True}, where="x").answerable is False


def test_matching_ignores_case_whitespace_and_typography():
    assert normalise("Employees  in GRADE\nL4") == normalise("employees in grade l4")
    assert normalise("the employee\u2019s \u201cline\u201d manager") == normalise("the employee's \"line\" manager")
    assert normalise("**Metro city**: 1,800") == normalise("Metro city: 1,800")


# Scenario set (80 long questions, 2-4 evidence strings from 2-3 sections of one policy), within
# 1,000 tokens, top 5 units. Measured: default 0.912 / 0.977 / 0.950 (all evidence in the top 5
# units / evidence recall within 1,000 tokens / all evidence within 1,000 tokens); fixed256
# 0.550 / 0.779 / 0.550; heading 0.525 / 0.849 / 0.662; fixed 0.150 / 0.746 / 0.412. The issue's
# targets are 0.85 / 0.97 / 0.90; the floors leave a little room for the corpus to change.
SCENARIO_FLOORS = {"all_evidence_at_k": 0.85, "recall_in_budget": 0.95, "all_evidence_in_budget": 0.88}
SCENARIO_MARGINS = {"all_evidence_at_k": 0.20, "recall_in_budget": 0.08, "all_evidence_in_budget": 0.15}


@pytest.fixture(scope="module")
def scenario_report(django_db_setup, django_db_blocker, sample_corpus):
    out = StringIO()
    with django_db_blocker.unblock():
        call_command("evaluate", str(SCENARIOS), "--k", "5", "--budget", "1000",
                     "--strategy", "default,fixed256,heading,fixed", "--json", stdout=out, stderr=StringIO())
    return json.loads(out.getvalue())


def test_scenarios_meet_the_floors_with_the_packed_context(scenario_report):
    metrics = scenario_report["strategies"]["default"]["metrics"]
    assert scenario_report["budget"] == 1000 and scenario_report["k"] == 5
    assert metrics["answerable"] >= 60
    for name, floor in SCENARIO_FLOORS.items():
        assert metrics[name] >= floor, f"default {name} {metrics[name]:.3f} < {floor}"
    assert metrics["mean_budget_tokens"] <= 1000 and metrics["mean_top_k_tokens"] <= 1000
    assert metrics["leaks"] == 0


@pytest.mark.parametrize("baseline", ["fixed256", "heading"])
def test_scenarios_packed_context_beats_each_baseline_on_the_three_columns(scenario_report, baseline):
    """The same hybrid search over each baseline's chunks, the same budget: the packed context
    (the best policy's relevant sections, whole) holds all the evidence far more often."""
    default = scenario_report["strategies"]["default"]["metrics"]
    other = scenario_report["strategies"][baseline]["metrics"]
    assert scenario_report["strategies"][baseline]["chunks"] > 0
    for name, margin in SCENARIO_MARGINS.items():
        assert default[name] >= other[name] + margin, f"{name}: default {default[name]:.3f} vs {baseline} {other[name]:.3f}"
    assert other["mean_budget_tokens"] >= 0.5 * default["mean_budget_tokens"]  # the baselines read their budget too
