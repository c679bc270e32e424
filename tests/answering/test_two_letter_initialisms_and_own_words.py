"""Two capitals the asker writes for a phrase the sources spell out ("the DM was off sick": the
duty manager), never a phrase read across two lines, cells or texts; and the asker's own word for
a defined thing ("a floating assault course" for an Inflatable session, "a floating inflatable
obstacle course"), which is no part the sources lack. Seen in the blind run of holdout48."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ROLE_DEFINITION, Evidence
from policypal.answering.initialisms import spelt_out

TEXTS = ["The duty manager must approve every closure.", "Duty manager; plant room technician"]


def test_two_capitals_are_read_as_the_phrase_the_sources_spell_out():
    assert spelt_out("I covered for the DM this afternoon", TEXTS) == "I covered for the duty manager this afternoon"


def test_two_capitals_after_a_number_or_before_one_are_no_initialism():
    assert spelt_out("Finish at 6 PM on Friday", ["Ask the pay manager."]) == "Finish at 6 PM on Friday"
    assert spelt_out("a DM2 grade", TEXTS) == "a DM2 grade"


def test_two_capitals_of_two_phrases_stay_as_written():
    assert spelt_out("the DM", TEXTS + ["A deputy manager may sign."]) == "the DM"


def test_no_phrase_is_read_across_lines_or_texts():
    # "Pay deduction" / "Management action" are two headers: no "deduction management"
    assert spelt_out("the DM", ["Pay deduction\nManagement action", "The duty manager signs."]) == "the duty manager"
    assert spelt_out("my ptm", ["Total pay\nTime missed"]) == "my ptm"


RULE = Evidence(key=1, breadcrumb="Pool Safety > 3.2 Sessions with equipment", rank=1, similarity=0.6,
                text="During an inflatable session, one extra lifeguard must be positioned at each end of the inflatable.")
DEFINITION = Evidence(key=2, breadcrumb="Pool Safety > 2 Definitions", rank=0, role=ROLE_DEFINITION,
                      text='- "Inflatable session" means any session in which a floating inflatable obstacle course '
                           "or play structure is in the water.")
QUESTION = "We're putting the big floating assault course in the main pool. Do we need more lifeguards?"


def test_the_askers_own_word_for_a_defined_thing_is_no_missing_part():
    answer = compose_answer(QUESTION, [RULE, DEFINITION], corpus_mentions={"assault": False},
                            about=["Inflatable session"])
    assert answer.outcome == "answered" and answer.missing == [], answer.text
    assert "one extra lifeguard" in answer.text


def test_without_the_definition_about_the_question_the_word_is_missing():
    answer = compose_answer(QUESTION, [RULE, DEFINITION], corpus_mentions={"assault": False})
    assert answer.outcome == "partly" and answer.missing == ["assault course"], answer.text


def test_workers_names_for_protective_equipment_and_first_aid_are_the_policys():
    from policypal.answering.coverage import decide

    hearing = [["Hearing protection must be worn in the Line 2 roll plant, where noise levels exceed 85 dB(A).", "PPE"]]
    absent = {"ear": False, "defend": False}  # no visible policy writes "ear" or "defenders"
    assert decide("Where do I have to wear ear defenders?", hearing, corpus_mentions=absent).outcome == "answered"
    assert decide("Where do I have to wear ear defenders?", [["Safety boots must be worn in the roll plant.", "PPE"]],
                  corpus_mentions=absent).outcome == "not_covered"
    rescue = [["A lifeguard who has made a rescue involving resuscitation must be taken off poolside for the rest of "
               "their shift.", "Incidents"]]
    assert decide("I had to do CPR on a swimmer. Do I have to go back on poolside?", rescue).outcome == "answered"
    assert decide("I had to do CPR on a swimmer. Do I have to go back on poolside?",
                  [["A lifeguard must be taken off poolside for the rest of their shift after a fall.", "Incidents"]],
                  corpus_mentions={"cpr": False}).outcome != "answered"


def test_a_wedding_ring_is_jewellery_and_popping_over_is_going():
    from policypal.answering.coverage import decide

    rule = [["No jewellery may be worn in a high-care area.", "Hygiene"]]
    decision = decide("Can I keep my wedding ring on in a high-care area?", rule, corpus_mentions={"ring": False, "wed": False})
    assert decision.outcome != "not_covered" and "ring" not in " ".join(decision.missing), decision.missing
    decision = decide("Can I keep my wedding ring on in a high-care area?", [["Hair nets must be worn in a high-care area.",
                                                                              "Hygiene"]], corpus_mentions={"ring": False, "wed": False})
    assert "wedding ring" in decision.missing
    whites = [["High-care whites must not be worn outside the high-care area, not even to the canteen.", "Hygiene"]]
    assert decide("Can I pop over to the canteen in my whites?", whites, corpus_mentions={"pop": False}).outcome == "answered"


def test_a_word_before_the_defined_words_is_still_asked():
    # "the probationary period": the definition holds "period" and "crew", never the probation asked about
    definition = Evidence(key=2, breadcrumb="Crew > 2 Definitions", rank=0, role=ROLE_DEFINITION,
                          text='- "Flight Duty Period" or "FDP" means the period from the time a crew member reports for '
                               'a duty until the final sector.')
    rule = Evidence(key=1, breadcrumb="Crew > 4 Duty limits", rank=1, similarity=0.5,
                    text="The maximum FDP for a cabin crew member is 13 hours.")
    answer = compose_answer("How long is the probationary period for new cabin crew?", [rule, definition],
                            corpus_mentions={"probationari": False}, about=["FDP"])
    assert answer.outcome == "partly" and answer.missing == ["probationary period"], answer.text


def test_a_verb_after_a_name_is_no_word_of_a_description():
    from policypal.answering.compose import _described_by_definitions

    definition = Evidence(key=2, breadcrumb="Data > 2 Definitions", rank=0, role=ROLE_DEFINITION,
                          text='- "Customer Data" means any data a Tessellate customer uploads or creates.')
    question = "How long does Tessellate keep Customer Data after a customer cancels their contract?"
    assert _described_by_definitions(question, ["Customer Data"], [definition]) == set()
    assert _described_by_definitions(QUESTION, ["Inflatable session"], [DEFINITION]) == {"assault"}


def test_words_a_definition_writes_apart_describe_nothing_together():
    from policypal.answering.compose import _described_by_definitions

    salary = Evidence(key=3, breadcrumb="Pay > 2 Definitions", rank=0, role=ROLE_DEFINITION,
                      text='- "Basic salary" means the annual salary for a grade and pay point, excluding any allowance, '
                           "enhancement, supplement or overtime pay.")
    assert _described_by_definitions("Is there enhanced maternity pay for keepers?", ["Basic salary"], [salary]) == set()
