"""What a question names that the evidence must carry before it answers: an adjective that says
which costs ("broadband costs"), a phrase of generic words that names a thing ("a second job"),
an allowance (not the verb "allows"), the week or month a "which weeks" asks for, the thing a
how-question measures ("How long does a pupil's passport need to be valid?"), the amount a
"what's the maximum amount we may charge" asks for; and a glossary read as the rule using a
term gives only its entries that name it."""
from policypal.answering.compose import compose_answer
from policypal.answering.coverage import asked_verb, decide, missing_value, question_terms
from policypal.answering.evidence import ANSWERED, Evidence

from .row_helpers import ranked_rows, table

HYBRID = Evidence(
    key=1, breadcrumb="Location Allowance Policy > 4. Hybrid working", rank=1, similarity=0.5, policy="location",
    text="Employees on a hybrid working agreement are paid the allowance for the site named in their contract, "
         "unless their contract names their home as their place of work.",
)


def test_an_adjective_before_a_generic_noun_names_what_is_asked():
    # no policy speaks of broadband: the allowance and the home are not the answer
    answer = compose_answer("Is there an allowance towards broadband costs for staff working from home?", [HYBRID],
                            corpus_mentions={"broadband": False})
    assert answer.outcome != ANSWERED
    assert "broadband" in answer.text


def test_an_adjective_of_time_or_quality_names_nothing_the_policies_must_have():
    rule = [["An employee who becomes unfit to work, through illness, must tell the Roster Owner so that the "
             "on-call availability payment stops from the time the employee hands over.",
             "On-Call Policy > 7. Fitness"]]
    # "mid-week" says when; the policies never write "mid", and that is no missing topic
    decision = decide("Does my weekly availability payment stop if I hand over on call mid-week?", rule,
                      corpus_mentions={"mid": False})
    assert "mid" not in {t.stem for a in decision.asks for t in a.unmentioned}


def test_a_second_job_is_a_thing_but_the_second_of_a_series_is_not():
    assert {"second", "job"} <= {t.word for t in question_terms("Am I allowed to have a second job while working here?")}
    assert "job" not in {t.word for t in question_terms("If the second job starts 30 minutes after I finished the first?")}
    store = [["This policy explains how Kestrel pays colleagues who work in its stores.", "Pay Policy > 1. Scope"]]
    decision = decide("Am I allowed to have a second job while working at a Kestrel store?", store,
                      corpus_mentions={"second": True, "job": True})
    assert decision.outcome != ANSWERED


def test_an_allowance_is_not_carried_by_the_verb_allows():
    van = [["Class L vans are heavier than a standard car licence allows and may only be driven by employees "
            "whose licence includes category C1.", "Vans Policy > 4. Company vans"]]
    decision = decide("Can I take a car allowance instead of having a company van?", van, corpus_mentions={})
    assert decision.outcome != ANSWERED
    assert any("allowance" in m for m in decision.missing)
    paid = [["Employees who use their own car get a car allowance of £250 a month instead of a company van.",
             "Vans Policy > 6. Car allowance"]]
    assert decide("Can I take a car allowance instead of having a company van?", paid, corpus_mentions={}).outcome == ANSWERED


def test_which_weeks_asks_for_weeks_named_not_counted():
    counted = "A boost week is announced at least 14 days in advance. There are no more than five boost weeks in a financial year."
    assert missing_value("Which weeks are the boost weeks this year", counted) == "which weeks"
    assert missing_value("Which weeks are the boost weeks this year", "The boost weeks are the first week of December and week 12.") == ""
    assert missing_value("What month does the leave year start", "The leave year runs from 1 April.") == ""


def test_the_thing_a_how_question_measures_must_be_one_the_policies_speak_of():
    deadlines = table(["Type of Visit", "Proposal submitted to EVC", "Approved by"],
                      [["Day trip", "15 school days before the visit", "Educational Visits Coordinator"],
                       ["Residential 1-3 nights", "8 weeks before departure", "Headteacher"],
                       ["Residential 4+ nights", "12 weeks before departure", "Headteacher"],
                       ["Overseas", "26 weeks before departure", "Trust CEO"]],
                      caption="Table 1: Approval deadlines by type of Visit")
    evidence = ranked_rows("Visits Policy > 4. Approval", deadlines, rows=[deadlines.rows[3]])
    question = "How long does a pupil's passport need to be valid for an overseas trip?"
    assert compose_answer(question, evidence, corpus_mentions={"passport": False}).outcome != ANSWERED
    # the same look-up with a thing the policies know is the row's answer
    asked = "How long before departure does the proposal for an overseas trip need to be submitted?"
    assert compose_answer(asked, evidence, corpus_mentions={}).outcome == ANSWERED


def test_the_maximum_amount_we_may_charge_asks_for_an_amount():
    consent = "Written parental consent is required for every Residential Visit and every Overseas Visit."
    assert missing_value("What's the maximum amount we're allowed to charge parents for a residential trip", consent) == "how much"
    assert missing_value("What's the maximum amount we're allowed to charge parents for a residential trip",
                         "Parents may be charged no more than £450 for a residential visit.") == ""


def test_a_glossary_using_a_term_lends_only_its_entries_that_name_it():
    card = Evidence(key=1, breadcrumb="Discount Policy > 2. Definitions", rank=1, similarity=0.5, policy="discount",
                    text='- "Discount card" means the Colleague Card that must be scanned for the discount to apply.\n'
                         '- "Household member" means one adult nominated by the colleague.')
    other = Evidence(key=2, breadcrumb="Discount Policy > 2. Definitions", rank=2, similarity=0.5, policy="discount",
                     text='- "Discounted spend" means the full shelf price of goods bought with the discount card.\n'
                          '- "Lost property" means any item handed in to a store and not claimed within 30 days.\n'
                          '- "Replacement" means a new item given for a faulty one.')
    answer = compose_answer("Is there a fee to replace a lost colleague discount card?", [card, other], corpus_mentions={})
    assert answer.outcome != ANSWERED
    assert "replace" in " ".join(answer.missing)


def test_ringing_in_is_telephoning():
    reporting = [["Sickness absence, first day: notify the Cover Manager by telephone by 6.45am on the first day.",
                  "Attendance Policy > 4. Reporting absence"]]
    decision = decide("I have flu, what time do I have to ring in by?", reporting, corpus_mentions={"ring": False})
    assert decision.outcome == ANSWERED


def test_the_participle_of_a_passive_yes_no_question_is_what_it_asks():
    assert asked_verb("Can my earned leave be transferred to my spouse?") == "transferred"
    assert asked_verb("Can the allowance be backdated?") == "backdated"
    table_of_leave = [["Leave entitlements: Earned leave, 24 working days a year; Marriage leave for an employee or "
                       "their spouse, 3 days.", "Leave Policy > 2. Entitlements"]]
    decision = decide("Can my earned leave be transferred to my spouse?", table_of_leave, corpus_mentions={})
    assert decision.outcome != ANSWERED
    assert any("transferred" in m for m in decision.missing)
