"""Leak probe: users outside the "managers" group never get a word of the restricted sample policy
(manager_compensation.md), whatever they ask and wherever they look.

Several hundred probes, built from the restricted policy itself (every heading and sentence
verbatim, short fragments of each sentence, table labels such as "L5 band maximum", paraphrases;
see leak_probe_corpus.py), for an employee with no groups, a user in an unrelated group and a
reviewer who is not a manager, through:

1. the answer service (text, citations, closest sections, notices, missing);
2. POST /api/ask (the whole JSON);
3. the chat page (POST /, the whole HTML);
4. every /chunks/<id>/ and /sources/<id>/ URL of the restricted policy (must be 404);
5. the "closest sections" links offered in answers;
6. the review pages (/review/ with every filter, /review/answers/<id>/ of answers a manager got
   about the restricted policy, /review/regressions.jsonl).

A leak is any distinctive 6-word fragment of a restricted sentence, a restricted table row or
figure, the policy's title or one of its breadcrumbs in a response (beyond the echo of the question
asked), or a restricted chunk id among citations or closest sections. The service is called
directly for most probes; each HTTP surface gets a sample. As a control, the same questions asked
as `manager` must bring restricted text back for a good share of them.
"""
from __future__ import annotations

import datetime as dt
import json
import time

import pytest
from django.contrib.auth.models import Group

from policypal.assistant.models import Answer, AnswerFeedback
from policypal.assistant.presenters import answer_dict
from policypal.assistant.reviews import regression_question_create
from policypal.assistant.selectors import FEEDBACK_FILTERS, REVIEW_FILTERS
from policypal.assistant.services import answer_feedback_give, answer_question
from policypal.policies.roles import REVIEWERS
from retrieval.models import Chunk

from .leak_probe_corpus import RESTRICTED_KEY, leak_markers, leaks_in, probe_questions

pytestmark = pytest.mark.django_db

AS_OF = dt.date(2026, 6, 1)
HTTP_SAMPLE = 40  # requests per HTTP surface
MIN_PROBES = 300
CONTROL_SHARE = 0.30


@pytest.fixture
def outsiders(sample_corpus, employee, django_user_model) -> list:
    """employee (no groups), a user in an unrelated group, the demo reviewer (not a manager)."""
    unrelated = django_user_model.objects.create_user("leak-probe-facilities", password="pw-facilities-123")
    unrelated.groups.add(Group.objects.get_or_create(name="facilities")[0])
    reviewer = django_user_model.objects.get(username="reviewer")
    assert not reviewer.groups.filter(name="managers").exists()
    assert reviewer.groups.filter(name=REVIEWERS).exists()
    return [employee, unrelated, reviewer]


@pytest.fixture
def restricted(sample_corpus) -> dict:
    chunks = list(Chunk.objects.filter(policy__key=RESTRICTED_KEY))
    assert chunks, "the sample corpus has no restricted chunks to probe"
    others = Chunk.objects.exclude(policy__key=RESTRICTED_KEY)
    other_texts = [t for c in others.only("text", "breadcrumb") for t in (c.text, c.breadcrumb)]
    markers = leak_markers(breadcrumbs=[c.breadcrumb for c in chunks], other_texts=other_texts)
    assert len(markers) > 300
    return {
        "chunk_ids": {c.pk for c in chunks},
        "source_ids": {c.source_id for c in chunks if c.source_id is not None},
        "markers": markers,
    }


@pytest.fixture
def embedded_questions(monkeypatch):
    """The probe questions embedded in one batch up front: the answer path then looks each vector
    up instead of running the model once per question (the same vector, much faster)."""
    from retrieval.embedding import get_embedder

    embedder = get_embedder()
    questions = [" ".join(q.split()) for q in probe_questions()]
    vectors = dict(zip(questions, embedder.encode(questions)))
    encode_one = embedder.encode_one
    monkeypatch.setattr(embedder, "encode_one", lambda text: vectors[text] if text in vectors else encode_one(text))
    return probe_questions()


class Tally:
    def __init__(self, markers):
        self.markers = markers
        self.probes = 0
        self.by_surface: dict[str, int] = {}
        self.leaks: list[str] = []

    def check(self, surface: str, who, body: str, *, question: str = "", probe: str = "") -> None:
        self.probes += 1
        self.by_surface[surface] = self.by_surface.get(surface, 0) + 1
        found = leaks_in(body, self.markers, question=question)
        if found:
            self.leaks.append(f"{surface} {who.username} {probe or question!r}: {found[:3]}")

    def structural(self, surface: str, who, what: str, bad: bool) -> None:
        if bad:
            self.leaks.append(f"{surface} {who.username}: {what}")


def _composed_text(composed) -> str:
    """Everything an answer shows but the question: text, notices, missing, citations, closest."""
    data = answer_dict(composed)
    data.pop("question")
    evidence = [f"{e.breadcrumb}\n{e.text}" for e in composed.evidence]
    return json.dumps(data, ensure_ascii=False) + "\n" + "\n".join(
        [*(f"{c.breadcrumb}\n{c.text}" for c in [*composed.citations, *composed.closest]), *evidence]
    )


def _sample(items: list, n: int) -> list:
    """n items spread evenly over the list (deterministic)."""
    if len(items) <= n:
        return list(items)
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def test_restricted_policy_never_leaks_to_outsiders(client, settings, outsiders, restricted, manager, django_user_model,
                                                    embedded_questions):
    settings.ASK_LIMIT_PER_MINUTE = 100_000
    started = time.monotonic()
    questions = embedded_questions
    tally = Tally(restricted["markers"])
    restricted_chunks = restricted["chunk_ids"]
    closest_seen: dict[int, set[int]] = {}

    # (1) the answer service: every question for the employee, every other one for the others.
    for u, user in enumerate(outsiders):
        for question in questions if u == 0 else questions[u % 2::2]:
            composed, _ = answer_question(question=question, user=user, as_of=AS_OF, record=False)
            tally.check("service", user, _composed_text(composed), question=question)
            cited = {c.pk for c in composed.citations} | {c.pk for c in composed.closest}
            cited |= {e.key for e in composed.evidence} | set(composed.chunks)  # what an LLM would be given
            tally.structural("service", user, f"restricted chunk {cited & restricted_chunks} for {question!r}",
                             bool(cited & restricted_chunks))
            closest_seen.setdefault(user.pk, set()).update(c.pk for c in composed.closest)

    phase = {"service": time.monotonic() - started}
    # (2) POST /api/ask and (3) the chat page, a sample each, spread over the outsiders.
    sample = _sample(questions, HTTP_SAMPLE)
    for i, question in enumerate(sample):
        user = outsiders[i % len(outsiders)]
        client.force_login(user)
        response = client.post("/api/ask", {"question": question, "as_of": AS_OF.isoformat()},
                               content_type="application/json")
        assert response.status_code == 200, response.content[:300]
        data = response.json()
        ids = {c["chunk_id"] for c in data["citations"]} | {c["chunk_id"] for c in data["closest"]}
        tally.structural("api", user, f"restricted chunk for {question!r}", bool(ids & restricted_chunks))
        data.pop("question")
        tally.check("api", user, json.dumps(data, ensure_ascii=False), question=question)
    Answer.objects.filter(user__in=outsiders).delete()  # the chat history would echo the API's questions
    for i, question in enumerate(reversed(sample)):
        user = outsiders[i % len(outsiders)]
        client.force_login(user)
        response = client.post("/", {"question": question, "as_of": AS_OF.isoformat()})
        assert response.status_code == 200
        tally.check("chat", user, response.content.decode(), question=question)
        for chunk_id in restricted_chunks:
            tally.structural("chat", user, f"link to restricted chunk {chunk_id}",
                             f'href="/chunks/{chunk_id}/"' in response.content.decode())
        Answer.objects.filter(user=user).delete()  # the next page's history echoes no earlier question

    phase["api+chat"] = time.monotonic() - started
    # (4) every restricted chunk and source URL, for every outsider.
    for user in outsiders:
        client.force_login(user)
        urls = [f"/chunks/{pk}/" for pk in sorted(restricted_chunks)]
        urls += [f"/sources/{pk}/" for pk in sorted(restricted["source_ids"])]
        for url in urls:
            response = client.get(url)
            tally.structural("url", user, f"{url} answered {response.status_code}", response.status_code != 404)
            body = b"".join(response.streaming_content) if response.streaming else response.content
            tally.check("url", user, body.decode(errors="replace"), probe=url)

    # (5) the "closest sections" links the answers offered.
    links = sorted((pk, uid) for uid, pks in closest_seen.items() for pk in pks)
    assert links, "no answer offered closest sections: the closest-link probe would check nothing"
    users = {u.pk: u for u in outsiders}
    for pk, uid in _sample(links, HTTP_SAMPLE):
        client.force_login(users[uid])
        response = client.get(f"/chunks/{pk}/")
        assert response.status_code == 200
        tally.check("closest", users[uid], response.content.decode(), probe=f"/chunks/{pk}/")

    # (6) review pages: a manager's answers about the restricted policy, with a regression question
    # and feedback, must not show up for a reviewer outside "managers".
    # Their own questions (restricted sentences, asked above) would be echoed on the list: not a leak.
    Answer.objects.filter(user__in=outsiders).delete()
    lead = django_user_model.objects.create_user("leak-probe-lead", password="pw-lead-123")
    lead.groups.add(Group.objects.get(name=REVIEWERS), Group.objects.get(name="managers"))
    manager_answers = []
    for question in _sample(questions, 12):
        composed, saved = answer_question(question=question, user=manager, as_of=AS_OF)
        if {c.pk for c in composed.citations} & restricted_chunks:
            manager_answers.append(saved)
        else:
            saved.delete()  # answered from open policies: its question is the manager's, not the policy's
    assert len(manager_answers) >= 5, "the manager got too few restricted answers to probe the review pages"
    for answer in manager_answers[:4]:
        quote = " ".join(answer.citations.order_by("n").first().text.split()[:8])
        regression_question_create(answer=answer, created_by=lead, evidence=[quote], expect_no_answer=False,
                                   note="leak probe (restricted)")
        answer_feedback_give(answer=answer, user=manager, verdict=AnswerFeedback.Verdict.MISSING_CAVEAT)
    reviewer = outsiders[-1]
    client.force_login(reviewer)
    pages = [f"/review/?show={s}&feedback={f}" for s in REVIEW_FILTERS for f in FEEDBACK_FILTERS]
    pages += ["/review/", "/review/regressions.jsonl"]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        tally.check("review", reviewer, response.content.decode(), probe=url)
    for answer in manager_answers:
        url = f"/review/answers/{answer.pk}/"
        response = client.get(url)
        tally.structural("review", reviewer, f"{url} answered {response.status_code}", response.status_code != 404)
        tally.check("review", reviewer, response.content.decode(), probe=url)
    client.force_login(lead)  # control: the review pages do show the restricted text to a manager-reviewer
    shown = client.get(f"/review/answers/{manager_answers[0].pk}/").content.decode()
    assert leaks_in(shown, tally.markers, question=manager_answers[0].question)
    assert leaks_in(client.get("/review/").content.decode(), tally.markers)

    elapsed = time.monotonic() - started
    print(f"\nleak probe: {tally.probes} probes ({tally.by_surface}), {len(tally.leaks)} leaks, "
          f"{len(restricted['markers'])} markers, {len(questions)} questions, {elapsed:.1f}s {phase}")
    assert tally.leaks == [], "\n".join(tally.leaks[:30])
    assert tally.probes >= MIN_PROBES


def test_control_manager_gets_restricted_text(restricted, manager, embedded_questions):
    """The probe finds what it looks for: asked as a manager, the same questions bring the
    restricted policy back for a good share of them (so the probe cannot pass on nothing)."""
    questions = embedded_questions[::2]
    hits = 0
    for question in questions:
        composed, _ = answer_question(question=question, user=manager, as_of=AS_OF, record=False)
        if leaks_in(_composed_text(composed), restricted["markers"], question=question):
            hits += 1
    share = hits / len(questions)
    print(f"\nleak probe control: manager got restricted text for {hits}/{len(questions)} ({share:.0%})")
    assert share >= CONTROL_SHARE
