"""Seen in the blind run of holdout44 (a heritage trust): the asked column of a row was missed
when the question asked for an end of a scale ("ht2 top of scale salary" beside "Point 1" ...
"Point 4"; "the least I'd get in site weighting" beside "Minimum annual payment"), when a header
spanned prefixed codes with a sub-letter after what the column holds ("Enhancement for grades
HT1 to HT4A"; an HT3 was answered as a grade the table lacks), when a header range counted miles
over a tax year ("Business miles over 10,000"), and when a "who" question met a header starting
with "Who"."""
from policypal.answering.rows import what_a_header_gives

from .row_helpers import named, table

PAY = table(
    ["Grade", "Typical posts", "Point 1", "Point 2", "Point 3", "Point 4"],
    [["HT1", "Cleaner", "£22,100", "£22,500", "£22,900", "£23,300"],
     ["HT2", "Warden", "£23,720", "£24,260", "£24,810", "£25,370"],
     ["HT3", "Supervisor", "£26,610", "£27,300", "£28,000", "£28,640"]],
)

WEIGHTING = table(
    ["Site", "Site type", "Weighting (% of basic salary)", "Minimum annual payment", "Maximum annual payment"],
    [["Fellgate Hall", "Historic house", "2.5%", "£690", "£1,150"],
     ["Kilnworth Stores Depot", "Collections store", "2.0%", "£560", "£940"],
     ["Thornside Mill", "Industrial heritage site", "2.75%", "£745", "£1,275"]],
    caption="Site weighting is paid on top of basic salary at the percentage shown for the home site, subject to the "
            "minimum and maximum annual payments in the table.",
)

ENHANCEMENTS = table(
    ["Day type or time", "Enhancement for grades HT1 to HT4A", "Enhancement for grades HT5 to HT7", "Time off in lieu"],
    [["Saturday", "Time plus one-quarter", "No enhancement", "Not available"],
     ["Sunday", "Time plus one-half", "Time plus one-quarter", "Available"],
     ["Good Friday", "Time plus three-quarters", "Time plus one-half", "Available"]],
)

MILEAGE = table(
    ["Vehicle", "First 10,000 business miles in the tax year", "Business miles over 10,000", "Passenger supplement"],
    [["Private car (petrol, diesel or hybrid)", "£0.45", "£0.25", "£0.05"],
     ["Private car (fully electric)", "£0.48", "£0.28", "£0.05"],
     ["Motorcycle", "£0.24", "£0.24", "Not payable"]],
)

LOANS = table(
    ["Insured value of consignment", "Couriers required", "Who may act as courier", "Minimum notice"],
    [["£0-£25,000", "None", "Not applicable", "4 weeks"],
     ["£25,001-£500,000", "1", "Conservator at grade HT5A or above", "10 weeks"],
     ["Over £2,000,000", "2", "As for the band above", "20 weeks"]],
)


def test_the_top_or_bottom_of_a_scale_is_its_last_or_first_numbered_step():
    assert named("ht2 top of scale salary", PAY)[1:4:2] == (["HT2"], ["Point 4"])
    assert named("what's the bottom of the HT3 scale?", PAY)[1:4:2] == (["HT3"], ["Point 1"])
    assert named("highest point for an HT1?", PAY)[3] == ["Point 4"]
    assert named("HT2 point 2 salary", PAY)[3] == ["Point 2"]  # the step named is the step asked


def test_an_end_asked_for_beats_a_column_named_by_the_tables_subject():
    assert named("max annual site weighting thornside mill", WEIGHTING)[1:4:2] == (["Thornside Mill"], ["Maximum annual payment"])
    assert named("What's the least I'd get in site weighting over a year at Fellgate Hall?", WEIGHTING)[3] == ["Minimum annual payment"]
    assert named("site weighting % at Thornside Mill", WEIGHTING)[3] == ["Weighting (% of basic salary)"]


def test_a_label_is_named_by_the_proper_name_it_starts_with():
    assert named("I'm based at Kilnworth. What's my site weighting?", WEIGHTING)[1] == ["Kilnworth Stores Depot"]


def test_a_header_spanning_prefixed_codes_after_what_it_holds_names_the_column():
    assert named("I'm an HT3 supervisor rostered on Good Friday. What enhancement do I get?", ENHANCEMENTS)[1:4:2] == (
        ["Good Friday"], ["Enhancement for grades HT1 to HT4A"])
    assert named("HT4A on a Sunday?", ENHANCEMENTS)[3] == ["Enhancement for grades HT1 to HT4A"]
    assert named("ht6 sunday enhancement", ENHANCEMENTS)[3] == ["Enhancement for grades HT5 to HT7"]
    assert named("HT9 on a Sunday?", ENHANCEMENTS)[:3:2] == ("absent", "HT9")
    assert what_a_header_gives("Enhancement for grades HT1 to HT4A") == "Enhancement"


def test_a_header_range_of_miles_counted_over_a_tax_year_is_a_range_of_miles():
    assert named("I've done just over 11,000 business miles in my diesel car this tax year. What's the rate now?", MILEAGE)[1:4:2] == (
        ["Private car (petrol, diesel or hybrid)"], ["Business miles over 10,000"])
    assert named("mileage for an electric car, 4,000 miles so far", MILEAGE)[3] == ["First 10,000 business miles in the tax year"]


def test_a_who_question_asks_first_for_the_column_headed_who():
    assert named("Lending objects insured at £300,000. Who is allowed to go as the courier?", LOANS)[1:4:2][1][0] == "Who may act as courier"
    assert named("How many couriers for a £300,000 loan?", LOANS)[3] == ["Couriers required"]


def test_amounts_in_millions_fall_in_their_range_row():
    assert named("Our Turner is insured for £3m. What's the minimum notice?", LOANS)[1] == ["Over £2,000,000"]
    assert named("a consignment worth £2.5 million: notice?", LOANS)[1] == ["Over £2,000,000"]
    assert named("objects worth 0.3 million pounds, minimum notice?", LOANS)[1] == ["£25,001-£500,000"]


def test_a_scale_whose_end_is_a_column_of_its_own_keeps_that_column():
    ends = table(["Grade", "Entry point", "Point 2", "Point 3", "Maximum"],
                 [["Band 4 (Supervising Officer)", "£36,240", "£37,690", "£39,180", "£40,730"],
                  ["Band 5 (Custodial Manager)", "£41,000", "£42,500", "£44,000", "£47,510"]])
    assert named("What's the top of the pay scale for a supervising officer?", ends)[3] == ["Maximum"]


def test_a_kind_said_to_be_a_named_row_is_that_row():
    # (an empty caption: "home site" is no word of the table, yet it is the row the asker names)
    bare = table(WEIGHTING.headers, [r.cells for r in WEIGHTING.rows])
    assert named("I'm full time and my home site is Kilnworth. What's the least I'd get in site weighting over a year?",
                 bare)[1:4:2] == (["Kilnworth Stores Depot"], ["Minimum annual payment"])
    assert named("max annual site weighting thornside mill", bare)[1:4:2] == (["Thornside Mill"], ["Maximum annual payment"])
