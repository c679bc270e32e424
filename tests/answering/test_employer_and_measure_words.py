"""Words of a question that name no topic: the employer called by its kind ("the bank", "the
council", as the policies write "the Bank"), and a measure before "of" ("a glass of wine", "a bit
of spread betting"). Seen in the blind runs of holdout11 and holdout12: "bank" carried by a
purpose statement answered a pension question; "glass" and "bit" made answerable questions
unmentioned topics."""
from policypal.answering.compose import compose_answer
from policypal.answering.coverage import decide
from policypal.answering.evidence import ANSWERED, NOT_COVERED, Evidence
from policypal.answering.terms import as_the_company, key_terms, organisation_short_names

POLICY_TEXTS = [
    'This policy applies to all employees of Calder & Wyre Bank plc and its subsidiaries (together, "the Bank").',
    "The Bank will reimburse reasonable costs. Bank Holidays are paid as normal working days.",
    "Where the Bank requires a second approver, the claim waits.",
]


def test_the_kind_of_organisation_the_policies_call_the_employer_is_read_as_the_company():
    names = organisation_short_names(POLICY_TEXTS)
    assert names == ["bank"]
    assert as_the_company("Will the bank pay for my visa?", names) == "Will the company pay for my visa?"
    assert as_the_company("What does the bank contribute to my pension?", names) == "What does the company contribute to my pension?"
    # before a noun it is another thing: "the bank holiday"; and a verb "bank" is no employer
    assert as_the_company("Is the bank holiday paid?", names) == "Is the bank holiday paid?"
    assert as_the_company("Can I bank my hours?", names) == "Can I bank my hours?"


def test_a_defined_term_or_a_title_case_phrase_is_no_organisation_kind():
    assert organisation_short_names(['the Scheme applies.', 'Under the Scheme, the Approver must sign.']) == []
    assert organisation_short_names(['the Council Tax is due.', 'the Council Tax band']) == []  # "the X Y": a name, not X


def test_the_employers_kind_carries_nothing():
    purpose = Evidence(key=1, breadcrumb="Expenses > 1 Purpose", rank=1, similarity=0.4,
                       text="1.1 This policy explains what the Bank will pay for when colleagues travel on business.")
    question = as_the_company("What does the bank contribute to my pension?", organisation_short_names(POLICY_TEXTS))
    answer = compose_answer(question, [purpose], corpus_mentions={"pension": False})
    assert answer.outcome == NOT_COVERED


def _terms(question):
    return {t.word for t in key_terms(question)}


def test_a_measure_before_of_is_no_term():
    assert {"wine", "dinner"} <= _terms("Will the company pay for a glass of wine with my dinner?")
    assert "glass" not in _terms("Will the company pay for a glass of wine with my dinner?")
    assert _terms("Am I allowed to do a bit of spread betting?") >= {"spread", "betting"}
    assert "bit" not in _terms("Am I allowed to do a bit of spread betting?")
    assert "bit" not in _terms("Can I bag up a bit to get it tested?")
    assert "box" not in _terms("a client offered me a box of chocolates") and "chocolates" in _terms("a client offered me a box of chocolates")
    assert "pair" not in _terms("do I get a pair of safety boots?")
    assert "bit" in _terms("which bit of the form do I sign?")  # a noun of its own, not a measure


def test_wine_with_dinner_is_carried_by_the_alcohol_rule():
    rule = "6.3 Alcohol is not reimbursed when an employee is dining alone, unless the meal is a team event."
    decision = decide("Will the company pay for a glass of wine with my dinner?", [[rule]], corpus_mentions={})
    assert decision.outcome == ANSWERED


def test_a_plain_quality_before_a_noun_is_no_topic_the_policies_lack():
    # no policy says "quick", but a quick lunch is a lunch; a dress code is still a thing of its own
    units = [["A lunch with a client may be claimed as Hospitality up to GBP 50 per person."]]
    decision = decide("Can I take a client out for a quick lunch?", units, corpus_mentions={"quick": False})
    assert decision.outcome == ANSWERED and decision.missing == []
    dress = decide("Is there a dress code for the office?", [["Use expense code EX-101 for the office."]],
                   corpus_mentions={"dress": False})
    assert dress.outcome == NOT_COVERED and dress.missing == ["dress code"]


def test_is_that_fine_asks_whether_it_is_allowed_not_about_a_fine():
    assert "fine" not in _terms("I want to take a councillor out for lunch. Is that fine?")
    assert "fine" in _terms("Can I claim back a parking fine?")


def test_keeping_track_of_something_is_monitoring_it():
    buddy = "Buddy: the colleague who is responsible for monitoring a Lone Worker's Check-ins during a session."
    decision = decide("I'm the person keeping track of the check-ins today", [[buddy]], corpus_mentions={})
    assert decision.outcome == ANSWERED


def test_home_wifi_is_broadband_and_full_timers_are_full_time_staff():
    rule = "6.4 The Firm does not reimburse home broadband, electricity or heating costs."
    assert decide("Will the company pay for my home wifi?", [[rule]], corpus_mentions={}).outcome == ANSWERED
    target = "5.3 The target of a part-time Fee Earner is reduced in proportion to their contracted hours against full-time hours."
    decision = decide("Is my hours target lower than the full-timers'?", [[target]], corpus_mentions={})
    assert not any("timer" in m for m in decision.missing)
