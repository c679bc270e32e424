"""Rows and columns as the first blind run of holdout25 (a regional airline) showed askers name
them: lengths written in hours and minutes ("10:00-13:59 hours"), counts in column spans ("five
sectors" of "5-6 sectors"), a column named by a phrase of its header that the other headers lack
("at home base"), and a label whose telling word is an ordinal ("First Officer" beside "Second
Officer" and "Senior First Officer")."""
from tests.answering.row_helpers import named, table

REST = table(["Length of preceding duty", "Rest at Home Base", "Rest away from Home Base"],
             [["Up to 9:59 hours", "12 hrs", "10 hrs"], ["10:00-11:59 hours", "13 hrs", "11 hrs"],
              ["12:00-13:59 hours", "15 hrs", "13.5 hrs"], ["16:00 hours or more", "18 hrs", "16.5 hrs"]],
             caption="Table 5.2: Minimum rest after a duty")
LAYOVER = table(["Layover length", "Per diem paid"],
                [["Under 10:00 hours", "Nil"], ["10:00-13:59 hours", "70% of city rate"],
                 ["24:00-35:59 hours", "140% of city rate"], ["48 hours or more", "240% of city rate"]],
                caption="Table 3.2: Share of the city rate by layover length")
FDP = table(["Reporting Time (local)", "1-2 sectors", "3-4 sectors", "5-6 sectors"],
            [["06:00-07:59", "13h00", "12h15", "11h20"], ["16:00-19:59", "12h10", "11h25", "10h35"],
             ["20:00-23:59", "11h15", "10h45", "10h00"]],
            caption="Table 4.1: Maximum flight duty period")
ALLOWANCE = table(["Grade", "Job title", "Aberdeen", "Belfast City"],
                  [["FD1", "Second Officer", "£29.60", "£28.95"], ["FD2", "First Officer", "£33.20", "£32.55"],
                   ["FD3", "Senior First Officer", "£36.80", "£36.05"], ["FD4", "Captain", "£42.50", "£41.65"]],
                  caption="Table 3.1: Daily Duty Allowance by grade and base")


def test_lengths_in_hours_and_minutes_hold_the_hours_asked():
    assert named("My layover in Dublin is 30 hours between duties. What share of the per diem is paid?", LAYOVER)[:2] == (
        "range", ["24:00-35:59 hours"])
    assert named("minimum rest after a 10.5 hour duty?", REST)[:2] == ("range", ["10:00-11:59 hours"])
    assert named("my last duty was 9 hours 30 minutes, what rest do I need?", REST)[:2] == ("range", ["Up to 9:59 hours"])


def test_a_column_named_by_a_phrase_the_other_headers_lack():
    assert named("minimum rest at home base after a 10.5 hour duty?", REST) == (
        "range", ["10:00-11:59 hours"], "", ["Rest at Home Base"])
    assert named("rest away from home base after a 13 hour duty", REST)[3] == ["Rest away from Home Base"]


def test_a_count_in_words_names_the_column_span_holding_it():
    assert named("Reporting at 17:30 with five sectors planned. What's my max flight duty period?", FDP) == (
        "range", ["16:00-19:59"], "", ["5-6 sectors"])
    assert named("report at 06:30 for 2 sectors, max FDP?", FDP) == ("range", ["06:00-07:59"], "", ["1-2 sectors"])


def test_an_ordinal_label_written_whole_is_named_before_its_neighbours():
    assert named("i'm a first officer at belfast city, how much duty allowance do i get per day", ALLOWANCE) == (
        "label", ["FD2"], "", ["Belfast City"])
    assert named("second officer in aberdeen", ALLOWANCE)[1] == ["FD1"]
    assert named("senior first officer in aberdeen", ALLOWANCE)[1] == ["FD3"]


PREMIUMS = table(["Shift type", "Core Hours", "Gothenburg Hub"],
                 [["Night", "Mon-Fri 22:00-05:00", "61.30"], ["Weekend Early", "Sat-Sun 05:00-13:30", "47.30"],
                  ["Weekend Night", "Fri-Sun 22:00-05:00", "83.50"]],
                 caption="Shift premiums (SEK per hour)")


def test_a_one_word_label_written_does_not_beat_the_row_the_question_names_more_fully():
    # "Saturday night" is a weekend night: "night" written alone does not make it the "Night" row
    assert named("what premium per hour applies to a Saturday night shift at the Gothenburg Hub?", PREMIUMS)[1] == [
        "Weekend Night"]
