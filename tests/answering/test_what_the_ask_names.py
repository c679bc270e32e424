"""The asking sentence says what a table must give; the sentences before it set the scene. A row
that the scene names (the asker's airport, a word of a column) is no answer when the ask names a
thing the table does not give ("Can I claim a taxi?" of a table of standby allowances), nor when
the thing asked is one no policy mentions."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import Evidence
from tests.answering.row_helpers import table

ALLOWANCES = table(
    ["Airport", "Season", "Winter standby allowance (per shift)", "Snow clearance call-out"],
    [["Manchester", "1 November - 31 March", "£14.20", "£52.00"],
     ["Bristol", "15 November - 15 March", "£12.90", "£48.00"],
     ["Cork", "1 December - 28 February", "€13.50", "€50.00"]],
    caption="Table 3: Winter allowances by airport")
EARLY_START = ("For an Early Start, where no public transport reaches the airport at least 15 minutes before the "
               "start time, the company reimburses a taxi from home up to £30.")
TAXI_QUESTION = "My shift starts at 04:30 at Bristol and the first bus doesn't get there until 05:15. Can I claim a taxi?"


def _evidence(*pieces):
    out = []
    for n, (breadcrumb, item) in enumerate(pieces, start=1):
        if isinstance(item, str):
            out.append(Evidence(key=n, breadcrumb=breadcrumb, text=item, rank=n, similarity=0.55))
        else:
            out.append(Evidence(key=n, breadcrumb=breadcrumb, text=item.caption, kind="table", rank=n,
                                similarity=0.6, table=item))
    return out


def test_a_row_the_scene_names_is_no_answer_to_an_ask_the_table_lacks():
    evidence = _evidence(("Winter > 4.1 Allowances by airport", ALLOWANCES), ("Working time > 3.5 Early starts", EARLY_START))
    answer = compose_answer(TAXI_QUESTION, evidence, corpus_mentions={})
    assert "reimburses a taxi from home" in answer.text
    assert "£12.90" not in answer.text


def test_a_scene_the_table_holds_does_not_make_it_the_answer_to_another_ask():
    evidence = _evidence(("Winter > 4.1 Allowances by airport", ALLOWANCES), ("Working time > 3.5 Early starts", EARLY_START))
    answer = compose_answer("I'm on winter standby at Bristol this season. Can I claim a taxi?", evidence, corpus_mentions={})
    assert "15 November" not in answer.text and "£12.90" not in answer.text
    assert "reimburses a taxi from home" in answer.text


def test_the_row_is_still_the_answer_when_the_ask_names_its_column():
    evidence = _evidence(("Winter > 4.1 Allowances by airport", ALLOWANCES), ("Working time > 3.5 Early starts", EARLY_START))
    answer = compose_answer("I'm on an early shift at Bristol tomorrow. What's the winter standby allowance?",
                            evidence, corpus_mentions={})
    assert answer.outcome == "answered" and "£12.90" in answer.text and "£14.20" not in answer.text
    # and when the ask names nothing but the scene's row
    answer = compose_answer("I'm based at Bristol. How much is the snow clearance call-out?", evidence, corpus_mentions={})
    assert "£48.00" in answer.text


TRONC = table(
    ["Job role", "Tronc points", "Minimum service before participation"],
    [["Server", "10", "5 weeks"], ["Chef de partie", "12", "6 weeks"], ["Kitchen porter", "8", "4 weeks"]],
    caption="Table 1: Tronc points and minimum service by job role")
DUTIES = table(
    ["Code", "Duty", "Unit", "UK rate (GBP)", "KL campus rate (MYR)"],
    [["D4", "Marking", "per script", "GBP 4.50", "MYR 20"], ["D5", "Invigilation", "per session", "GBP 58.00", "MYR 250"]],
    caption="Table 3: Extra duty payment rates")


def test_an_ask_that_names_the_column_is_answered_by_the_row_the_scene_names():
    # the ask names the "Minimum service" column
    evidence = _evidence(("Tips > 4 Who shares in the tronc", TRONC))
    answer = compose_answer("I've just started as a server. Is there a minimum service before I can join the pool?",
                            evidence, corpus_mentions={})
    assert "5 weeks" in answer.text and "6 weeks" not in answer.text


def test_a_thing_the_ask_names_in_the_tables_cells_is_the_tables():
    evidence = _evidence(("Extra duties > 5 Rates", DUTIES))
    answer = compose_answer("I'm based at the Kuala Lumpur campus and will invigilate an exam. Is it paid per session?",
                            evidence, corpus_mentions={})
    assert "MYR 250" in answer.text and "MYR 20" not in answer.text


SHIFTS = table(
    ["Shift type", "Core hours", "Gothenburg Hub", "Stockholm Terminal"],
    [["Early", "05:00-13:00", "SEK 22.90", "SEK 24.10"], ["Late", "13:00-21:00", "SEK 34.30", "SEK 35.80"],
     ["Night", "21:00-05:00", "SEK 44.60", "SEK 46.20"]],
    caption="Table 2: Hourly shift premiums (SEK)")


def test_an_ask_for_a_value_is_the_table_the_scene_names_however_it_calls_the_value():
    # "pay rate" is no word of a table of multiples of the "basic hourly rate" in a "Public holiday" column
    rates = table(["Notice given", "Rest day", "Public holiday"],
                  [["24 hours up to 7 days", "1.75 x basic hourly rate", "2.5 x basic hourly rate"],
                   ["More than 7 days up to 28 days", "1.5 x basic hourly rate", "2.25 x basic hourly rate"],
                   ["More than 28 days", "Basic hourly rate", "2 x basic hourly rate"]])
    evidence = _evidence(("Shift patterns > 5.3 Cancelled rest days", rates))
    answer = compose_answer("They've asked me three weeks in advance to work the public holiday, which is one of my rest days. "
                            "What's the pay rate?", evidence, corpus_mentions={})
    assert answer.outcome == "answered" and "2.25 x basic hourly rate" in answer.text
    assert "2.5 x" not in answer.text and "2 x basic" not in answer.text


def test_an_ask_holding_some_of_the_tables_words_is_still_the_tables():
    # "premium" and "hourly" are the table's; "on top of my basic pay" is not, and need not be
    evidence = _evidence(("Rostering > 3 Shift premiums", SHIFTS))
    answer = compose_answer("I'm working an early shift at the Gothenburg Hub. Is there an hourly premium on top of my basic pay?",
                            evidence, corpus_mentions={})
    assert "22.90" in answer.text
    assert "44.60" not in answer.text and "24.10" not in answer.text


WIND = table(
    ["Wind speed", "Passenger steps", "Empty ULDs and baggage carts"],
    [["Below 25 knots", "Normal use", "Brakes applied whenever parked"],
     ["25 to 40 knots", "Attended at all times", "Chocked or tied down"]],
    caption="Table 2: Wind limits for ground equipment")


def test_a_thing_asked_that_no_policy_mentions_is_not_answered_by_a_column_the_scene_names():
    evidence = _evidence(("Adverse weather > 3 Wind limits", WIND))
    answer = compose_answer("Tonight we're moving an empty 737 from stand 7 to the hangar with no pilots on board. "
                            "Who has to be in the cockpit?", evidence, corpus_mentions={"cockpit": False, "hangar": False})
    assert "Brakes applied whenever parked" not in answer.text
    assert answer.outcome != "answered"


WEIGHTING = table(
    ["Airport", "Airport weighting (per hour)", "Minimum call-out payment"],
    [["Manchester", "£0.65", "£42.00"], ["Bristol", "£0.55", "£36.00"], ["Cork", "€0.45", "€41.00"]],
    caption="")


def test_a_sentence_of_another_section_that_names_the_tables_columns_does_not_make_it_give_the_asked_thing():
    from dataclasses import replace

    noted = replace(WEIGHTING, notes=(
        "Every Call-out is paid at least the minimum call-out payment for the airport shown in section 6.",
        "Where the Call-out starts between 23:00 and 05:00, the employee may claim the cost of a taxi between "
        "home and the airport at Bristol, up to £45."))
    evidence = _evidence(("Pay > 6 Airport weighting and call-out minimums", noted), ("Working time > 3.5 Early starts", EARLY_START))
    answer = compose_answer(TAXI_QUESTION, evidence, corpus_mentions={})
    assert "£0.55" not in answer.text and "£36.00" not in answer.text
    assert "reimburses a taxi from home" in answer.text

