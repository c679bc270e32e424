"""Codes named otherwise than written (seen in the blind run of holdout24): "zone 1" is the "RZ1"
column where the caption spells the family out ("by site class and remoteness zone"); in a table
whose every row carries a code ("Quarry Operative (Q1)", "Underground Miner (U1)"), "U2" is a code
the table lacks though its family has one member; the words outside a label's bracket name the row
("Sunday shift (any start time)"); a shift's start and end pick the window that is exactly it."""
from policypal.answering.rows import match_table

from .row_helpers import named, table

SITE = table(["Site class", "RZ1", "RZ2", "RZ3"], [
    ["SC1", "£42.10", "£55.80", "£71.25"], ["SC5", "£83.75", "£102.60", "£126.90"], ["SC6", "£61.40", "£78.05", "£97.65"],
], caption="Table 3: Weekly site allowance by site class and remoteness zone")
PPE = table(["Job family (code)", "Clothing allowance", "Safety boot allowance"], [
    ["Quarry Operative (Q1)", "£185", "£120"], ["Plant Operator (Q2)", "£160", "£135"], ["Shotfirer (Q3)", "£210", "£145"],
    ["Maintenance Fitter (M1)", "£230", "£150"], ["Underground Miner (U1)", "£275", "£190"],
], caption="Table 1: Annual PPE allowances by job family")
SHIFTS = table(["Shift type", "Shift penalty", "Meal allowance per shift"], [
    ["Early shift (04:00-12:00)", "7.5%", "£5.10"], ["Night shift (22:00-06:00)", "25%", "£8.90"],
    ["Extended night (18:00-06:00)", "30%", "£11.20"], ["Saturday shift (any start time)", "45%", "£9.60"],
    ["Sunday shift (any start time)", "75%", "£10.35"],
], caption="Table 1: Shift penalties and meal allowances")


def test_a_code_named_by_the_last_word_of_its_spelt_family():
    assert named("class 6 site, zone 1, how much is the site allowance per week", SITE) == ("label", ["SC6"], "", ["RZ1"])
    assert named("site allowance for SC5 in remoteness zone 3?", SITE) == ("label", ["SC5"], "", ["RZ3"])


def test_a_code_of_a_one_member_family_the_table_lacks_is_absent():
    assert named("What's the safety boot allowance for job family U2?", PPE)[:3] == ("absent", [], "U2")
    assert named("What's the safety boot allowance for job family U1?", PPE)[1] == ["Underground Miner (U1)"]


def test_the_words_outside_the_bracket_name_the_row():
    assert named("I'm rostered on this Sunday, what shift penalty applies?", SHIFTS) == (
        "label", ["Sunday shift (any start time)"], "", ["Shift penalty"])


def test_a_shifts_start_and_end_pick_the_window_that_is_exactly_it():
    assert named("How much meal allowance do I get for a night shift from 10pm to 6am?", SHIFTS)[:2] == (
        "range", ["Night shift (22:00-06:00)"])


RR = table(["Duty-station category", "R&R Cycle", "Maximum R&R travel allowance"], [
    ["Category B (regional hubs with limited services, e.g. district towns)", "16 weeks", "£650"],
    ["Category C (remote sites or high crime, e.g. sub-offices with road-only access)", "12 weeks", "£780"],
    ["Category D (insecure areas, e.g. curfew in force or armed escorts required)", "8 weeks", "£920"],
], caption="Table 2: R&R entitlements by duty-station category")


def test_a_code_named_beats_words_shared_with_a_label():
    # "category C" names its row by the code, not partly by the words "category" and "station"
    rows = named("whats the max I can claim for R&R flights from a category C station", RR)[1]
    assert rows == ["Category C (remote sites or high crime, e.g. sub-offices with road-only access)"]
    assert not match_table("whats the max I can claim for R&R flights from a category C station", RR).partial
