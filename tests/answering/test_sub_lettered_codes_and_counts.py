"""Rows as the first blind run of holdout23 (a hospital trust) showed askers name them: codes with
sub-letters ("8b" of bands B8a to B8d, "bands 8b to 8d" in a label's bracket, "Bands 7-8a" and
"Band 8b and above" as column headers), counts of a thing taken over a period ("6 times in each
four-week roster" against "5-7 periods" under "On-Call Periods per 28 days"), a practitioner of
a field's row ("pharmacist": "Pharmacy"), and a label of common words ("Long day")."""
from tests.answering.row_helpers import named, table

BANK_RATES = table(
    ["Band", "Weekday day", "Weekday night", "Saturday", "Sunday and public holiday"],
    [["B2", "£12.84", "£16.07", "£15.41", "£19.26"], ["B7", "£25.08", "£31.35", "£30.10", "£37.62"],
     ["B8a", "£29.44", "£36.80", "£35.33", "£44.16"], ["B8b", "£34.71", "£43.39", "£41.65", "£52.07"],
     ["B8c", "£41.26", "£51.58", "£49.51", "£61.89"], ["B8d", "£49.12", "£61.40", "£58.94", "£73.68"]],
    caption="Table 1: Bank hourly rates by band and day type")

RESIDENT = table(
    ["Category", "Monday to Thursday", "Friday", "Saturday", "Sunday or public holiday"],
    [["RC1 (bands 2 to 4)", "£38.20", "£42.65", "£51.40", "£63.75"],
     ["RC2 (bands 5 and 6)", "£52.90", "£58.15", "£69.30", "£84.55"],
     ["RC3 (bands 7 and 8a)", "£67.45", "£73.80", "£88.20", "£107.35"],
     ["RC4 (bands 8b to 8d)", "£81.60", "£89.25", "£105.70", "£128.90"]],
    caption="Table 2: Resident On-Call payments per period")

CPD = table(
    ["Staff group", "Bands 2-4", "Bands 5-6", "Bands 7-8a", "Band 8b and above"],
    [["Nursing and midwifery", "£310", "£640", "£890", "£1,020"],
     ["Allied health professionals", "£295", "£615", "£865", "£995"],
     ["Pharmacy", "£270", "£590", "£830", "£960"]],
    caption="Table 2: Annual Developmental CPD budget per employee")

AVAILABILITY = table(
    ["On-Call Periods per 28 days", "Availability payment (% of basic pay)", "Minimum monthly payment"],
    [["1-2 periods", "1.5%", "£48.75"], ["3-4 periods", "3.25%", "£87.40"], ["5-7 periods", "4.75%", "£126.30"],
     ["8-10 periods", "6.5%", "£171.85"], ["11 or more periods", "9.5%", "£238.60"]],
    caption="Table 1: Availability payments by number of On-Call Periods in a 28-day roster")

SHIFTS = table(
    ["Shift type", "Paid hours", "Unpaid break", "Short-notice supplement"],
    [["Early shift (07:00-15:00)", "7.5", "30 minutes", "£18.50"], ["Late shift (13:00-21:00)", "7.5", "30 minutes", "£21.75"],
     ["Long day (07:30-20:00)", "11.5", "60 minutes", "£33.40"], ["Night shift (20:00-08:00)", "11", "60 minutes", "£39.90"]],
    caption="Table 2: Standard bank shift patterns and short-notice supplements")


def test_a_number_and_a_sub_letter_name_the_lettered_code_of_the_family():
    assert named("hourly bank rate for 8b on a sunday?", BANK_RATES) == (
        "label", ["B8b"], "", ["Sunday and public holiday"])
    # a sub-letter the table does not have for that number is absent, never the nearest band's row
    how, rows, asked, _ = named("what is the rate for 8e?", BANK_RATES)
    assert (how, rows, asked) == ("absent", [], "B8E")


def test_a_bracketed_span_of_sub_lettered_codes_holds_the_code_asked():
    assert named("band 8b doing resident on call on a Sunday - what's the payment?", RESIDENT)[:2] == (
        "label", ["RC4 (bands 8b to 8d)"])
    assert named("I'm band 8a, resident on call on a friday", RESIDENT)[:2] == ("label", ["RC3 (bands 7 and 8a)"])
    assert named("I'm band 6, resident on call on a friday", RESIDENT)[:2] == ("label", ["RC2 (bands 5 and 6)"])


def test_column_spans_with_sub_letters_and_an_open_top():
    assert named("CPD budget for band 7 nurse", CPD) == ("label", ["Nursing and midwifery"], "", ["Bands 7-8a"])
    assert named("annual CPD budget for a band 8b pharmacist?", CPD) == ("label", ["Pharmacy"], "", ["Band 8b and above"])
    # "and above" holds every band past its start
    assert named("cpd budget band 9 pharmacy", CPD) == ("label", ["Pharmacy"], "", ["Band 8b and above"])
    # below the first span is no column of the table
    assert named("cpd budget band 1 pharmacy", CPD)[0] == "absent"


def test_a_count_over_a_period_is_the_count_not_the_period():
    assert named("I'm on call 6 times in each four-week roster, what percentage of basic pay is the availability payment?",
                 AVAILABILITY)[:2] == ("range", ["5-7 periods"])
    assert named("I only do on call twice in a 28-day roster - what's the minimum monthly availability payment?",
                 AVAILABILITY) == ("range", ["1-2 periods"], "", ["Minimum monthly payment"])
    assert named("I do 9 on-call periods, what is the minimum monthly payment?", AVAILABILITY)[:2] == ("range", ["8-10 periods"])


def test_a_label_of_common_words_is_named_when_written_whole():
    assert named("How much is the short notice supplement for a long day?", SHIFTS) == (
        "label", ["Long day (07:30-20:00)"], "", ["Short-notice supplement"])
    # "day" alone is every day shift's word, not the "Long day" row
    found = named("what is the supplement for a day?", SHIFTS)
    assert found is None or found[1] != ["Long day (07:30-20:00)"]
