"""Citation markers: "[n]" in an answer is cut out by one function (policypal/assistant/markers.py)
and drawn by one template (assistant/_segments.html), on the chat page and the review page alike."""
from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string

from policypal.assistant.markers import answer_paragraphs, marker_segments

CITED = {
    1: {"n": 1, "marker_url": "/chunks/11/", "chunk_id": 11, "breadcrumb": "Travel > 5 Meals"},
    2: {"n": 2, "marker_url": "#citation-2", "breadcrumb": "Travel > 6 Hotels"},  # a review card: no chunk id
}


def test_markers_are_cut_out_and_an_unknown_number_stays_text():
    segments = marker_segments("L4 gets 1,800 a day [1]. Hotels [2][9] are capped.", CITED)
    assert segments == [
        {"text": "L4 gets 1,800 a day "}, {"citation": CITED[1]}, {"text": ". Hotels "}, {"citation": CITED[2]},
        {"text": "[9] are capped."},
    ]
    assert marker_segments("No markers here.", CITED) == [{"text": "No markers here."}]


def test_paragraphs_are_split_at_blank_lines():
    assert answer_paragraphs("First [1].\n\n  \nSecond\nline [2].\n\n") == ["First [1].", "Second\nline [2]."]


def test_one_template_draws_a_marker_with_its_link_number_chunk_and_breadcrumb():
    html = render_to_string("assistant/_segments.html", {"segments": marker_segments("<b>Pay</b> [1] or [2]", CITED)})
    assert html == (
        "&lt;b&gt;Pay&lt;/b&gt; "
        '<a class="cite-marker" href="/chunks/11/" data-citation="1" data-chunk-id="11" title="Travel &gt; 5 Meals">[1]</a>'
        " or "
        '<a class="cite-marker" href="#citation-2" data-citation="2" title="Travel &gt; 6 Hotels">[2]</a>'
    )


def test_no_other_template_draws_a_marker():
    templates = Path(settings.BASE_DIR) / "templates"
    drawing = sorted(p.relative_to(templates).as_posix() for p in templates.rglob("*.html") if "cite-marker" in p.read_text())
    assert drawing == ["assistant/_segments.html"]
