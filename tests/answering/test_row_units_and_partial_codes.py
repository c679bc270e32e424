"""Row look-ups on table shapes first met in the blind runs of holdout11 and holdout12: spans whose
unit is written once in the header or glued to the number, a single number among spans, a few
labels led by a numbered code among names, and words in a header's brackets."""
from policypal.answering.rows import match_table
from tests.answering.row_helpers import named, table

FLEXI = table(
    ["Contracted Hours per week", "Maximum Flexi Credit carried forward", "Maximum Flexi Debit carried forward",
     "Maximum Flexi Leave per Accounting Period"],
    [["37 (full-time)", "15 hours", "10 hours", "2 days"], ["28 to 36.75", "12 hours", "8 hours", "1.5 days"],
     ["18 to 27.75", "9 hours", "6 hours", "1 day"], ["Up to 17.75", "7 hours", "4 hours", "Half a day"]],
    caption="Table 1: Flexi limits by Contracted Hours")

MILEAGE = table(
    ["Vehicle type or engine capacity", "First 8,500 Business Miles", "Business Miles above 8,500"],
    [["Car, up to 999cc", "41.2p", "19.8p"], ["Car, 1000cc to 1199cc", "45.7p", "21.3p"],
     ["Car, 1200cc to 1450cc", "52.4p", "23.6p"], ["Car, 1451cc and above", "56.9p", "25.1p"],
     ["Fully electric car", "47.8p", "22.9p"], ["Motorcycle", "24.3p", "17.4p"]],
    caption="Table 2: Mileage rates in pence per mile")

STAGES = table(
    ["Stage", "Separate spells of absence", "Total working days absent", "Monitoring period"],
    [["Informal conversation", "3 spells", "7 days", "None"], ["Stage 1 Attendance Review", "4 spells", "10 days", "9 months"],
     ["Stage 2 Attendance Review", "5 spells", "15 days", "12 months"], ["Final Review", "6 spells", "21 days", "18 months"]],
    caption="Table 2: Attendance review trigger points")

CASH = table(
    ["Branch Category", "Teller Cash limit (per till)", "Counter Reserve limit", "Overnight safe limit",
     "Maximum single CIT delivery"],
    [["Category A", "£8,500", "£45,000", "£320,000", "£250,000"], ["Category B", "£6,000", "£30,000", "£180,000", "£140,000"],
     ["Category C", "£4,500", "£20,000", "£95,000", "£70,000"]],
    caption="Table 1: Cash holding limits by Branch Category")


def test_plain_number_spans_are_read_in_the_unit_the_header_states():
    assert named("I work 30 hours a week - what's the most flexi I can carry over?", FLEXI)[:2] == ("range", ["28 to 36.75"])
    assert named("I'm part time on 16 hrs. How far in debit can I go?", FLEXI)[1] == ["Up to 17.75"]
    assert named("My contract is 22.5 hours per week, what's my debit limit?", FLEXI)[1] == ["18 to 27.75"]


def test_a_single_number_among_spans_is_its_own_row():
    assert named("full timer here, 37 hrs. how much flexi leave can I take?", FLEXI)[1] == ["37 (full-time)"]


def test_a_unit_glued_to_the_number_makes_a_span():
    assert named("my car is 1.6 litre, what do I get per mile?", MILEAGE)[1] == ["Car, 1451cc and above"]
    assert named("I drive a 1400cc hybrid. What rate per mile can I claim?", MILEAGE)[1] == ["Car, 1200cc to 1450cc"]


def test_a_header_range_takes_its_unit_from_a_word_after_the_number():
    found = named("pence per mile for a 1.1 litre car once I've gone past 8,500 business miles?", MILEAGE)
    assert found[1] == ["Car, 1000cc to 1199cc"] and found[3] == ["Business Miles above 8,500"]
    found = named("I've got a little 998cc car and I've already done about 9,000 work miles since April", MILEAGE)
    assert found[1] == ["Car, up to 999cc"] and found[3] == ["Business Miles above 8,500"]


def test_a_name_among_spans_still_names_its_row():
    assert named("what rate per mile do we get for motorcycles?", MILEAGE)[1] == ["Motorcycle"]


def test_a_numbered_code_leading_some_labels_names_its_row_by_the_number():
    # every label with a code says "Review", so the words alone named none of them
    assert named("how many separate times off sick before I get pulled into a stage 2 review?", STAGES)[1] == \
        ["Stage 2 Attendance Review"]
    assert named("what is the monitoring period at stage 1?", STAGES)[1] == ["Stage 1 Attendance Review"]
    assert named("how many spells before a final review?", STAGES)[1] == ["Final Review"]


def test_a_number_the_partial_family_lacks_is_absent():
    found = named("How many spells of absence trigger a Stage 3 Attendance Review?", STAGES)
    assert found[0] == "absent" and found[2] == "Stage 3"


def test_words_in_a_headers_brackets_name_its_column():
    assert named("till limit for category B?", CASH)[3] == ["Teller Cash limit (per till)"]


def test_a_range_end_gives_way_to_a_column_named_by_its_own_word():
    # "max" is also the first word of "Maximum single CIT delivery"; "till" names the column asked
    assert named("What's the max I can keep in my till at a Category C branch?", CASH)[3] == ["Teller Cash limit (per till)"]
    assert named("maximum cit delivery for category A?", CASH)[3] == ["Maximum single CIT delivery"]
    assert named("overnight safe limit category c", CASH)[3] == ["Overnight safe limit"]


SICK_PAY = table(
    ["Continuous Service", "Full pay (100% of Basic Salary)", "Half pay (50% of Basic Salary)"],
    [["Less than 1 year", "3 weeks", "5 weeks"], ["1 to 3 years", "8 weeks", "9 weeks"], ["3-5 years", "14 weeks", "12 weeks"],
     ["5-10 years", "20 weeks", "17 weeks"], ["10+ years", "26 weeks", "22 weeks"]],
    caption="Table 1: Company Sick Pay by length of Continuous Service")


def test_a_shared_bound_belongs_to_the_band_the_policy_says():
    question = "If I've been with the bank exactly 5 years, how long do I get on half pay?"
    lower_in = ("Each band includes the lower figure and excludes the upper figure, so an employee with "
                "exactly 3 years' Continuous Service falls in the \"3-5 years\" band.",)
    upper_in = ("Each band includes the upper figure and excludes the lower one.",)
    assert match_table(question, SICK_PAY, lower_in).rows[0].cells[0] == "5-10 years"
    assert match_table(question, SICK_PAY, upper_in).rows[0].cells[0] == "3-5 years"
    assert match_table("I've been here 4 years, how much full pay?", SICK_PAY, lower_in).rows[0].cells[0] == "3-5 years"
    assert match_table("exactly 10 years of service: half pay?", SICK_PAY, lower_in).rows[0].cells[0] == "10+ years"


PQE = table(
    ["PQE Band", "Annual Chargeable-Hour Target", "Bonus Threshold (Credited Hours)", "Maximum Bonus (% of Base Salary)"],
    [["0-1 PQE", "1,350", "1,420", "10%"], ["2-4 PQE", "1,500", "1,575", "13%"], ["5-7 PQE", "1,600", "1,680", "16%"],
     ["8+ PQE", "1,650", "1,730", "22%"]],
    caption="Table 1: Annual chargeable-hour targets by PQE band")


def test_spans_in_a_unit_of_the_policys_own_read_a_length_of_time_in_years():
    assert named("what's my annual billable hours target? i qualified 3 years ago", PQE)[1] == ["2-4 PQE"]
    assert named("im 11 years pqe - how many hours do i need for bonus?", PQE)[1] == ["8+ PQE"]
    assert named("chargeable target for someone at 1 year PQE?", PQE)[1] == ["0-1 PQE"]
    assert named("I'm about a year and a half qualified. What's my target?", PQE)[1] == ["0-1 PQE"]  # up to the next row's start


STANDBY = table(
    ["Grade band", "Pay grades", "Weekday session", "Weekend day session", "Bank holiday session"],
    [["Band A", "Grades 1–2", "£31.40", "£47.85", "£63.20"], ["Band B", "Grades 3–4", "£34.15", "£52.60", "£69.75"],
     ["Band C", "Grades 5–6", "£38.90", "£58.35", "£76.10"], ["Band D", "Grades 7–8", "£42.65", "£64.05", "£83.45"],
     ["Band E", "Grades 9–10", "£46.30", "£70.95", "£91.80"]],
    caption="Table 1: Standby allowance per session by grade band")


def test_a_column_of_code_spans_names_the_row_of_a_code_inside_one():
    # "grade 8" is no band: the "Pay grades" cell "Grades 7–8" says which band it is
    found = named("I'm a grade 8 fitter. How much do I get for a standby session on a bank holiday?", STANDBY)
    assert found[:2] == ("label", ["Band D"]) and found[3] == ["Bank holiday session"]
    assert named("im grade 3, what do I get for being on call on a weeknight?", STANDBY)[1] == ["Band B"]
    assert named("grade 12 standby weekday?", STANDBY)[:3] == ("absent", [], "Grade 12")


def test_a_lower_case_letter_after_the_familys_word_is_its_code():
    assert named("How much is weekday standby for band e?", STANDBY)[1] == ["Band E"]
    assert named("How much is a bank hol standby for band a?", STANDBY)[1] == ["Band A"]
    assert named("Is there a band a new starter goes into?", STANDBY) is None  # "a" goes on with the sentence


def test_a_familys_number_in_words_is_its_code():
    stages = table(["Stage", "Handled by", "Response target"],
                   [["Stage 1 – Initial response", "Customer Relations Advisor", "10 working days"],
                    ["Stage 2 – Internal review", "Complaints Review Manager", "20 working days"],
                    ["Stage 3 – Independent adjudication", "Independent Adjudicator", "as set by the Adjudicator"]],
                   caption="Table 2: Complaint handling stages")
    assert named("who deals with a complaint at stage one?", stages)[1] == ["Stage 1 – Initial response"]
    assert named("what happens at stage four?", stages)[:3] == ("absent", [], "Stage 4")


RATIOS = table(
    ["Group", "Category A (low risk)", "Category B (moderate risk)", "Category C (higher risk)"],
    [["Key Stage 3 (Years 7 to 9)", "20 pupils", "14 pupils", "5 pupils"],
     ["Key Stage 4 (Years 10 and 11)", "24 pupils", "16 pupils", "6 pupils"],
     ["Sixth Form (Years 12 and 13)", "30 pupils", "18 pupils", "8 pupils"]],
    caption="Table 2: Minimum supervision ratios")


def test_a_two_word_family_and_its_initials_name_the_code():
    assert named("key stage 4 category B ratio?", RATIOS)[1:] == (["Key Stage 4 (Years 10 and 11)"], "", ["Category B (moderate risk)"])
    assert named("What's the cat B ratio for KS4?", RATIOS)[1] == ["Key Stage 4 (Years 10 and 11)"]
    assert named("What's the ratio for Key Stage 2 pupils on a Category A visit?", RATIOS)[:3] == ("absent", [], "Key Stage 2")


def test_a_span_of_codes_in_a_labels_brackets_names_its_row_and_is_no_range():
    # "(Years 7 to 9)" is school years, not a length of time: "year 8" is the Key Stage 3 row
    assert named("Taking year 8 canoeing - max number of kids per adult?", RATIOS)[1] == ["Key Stage 3 (Years 7 to 9)"]
    assert named("Year 10 theatre trip, what's the staffing ratio?", RATIOS)[1] == ["Key Stage 4 (Years 10 and 11)"]
    assert named("sixth form category C ratio?", RATIOS)[1] == ["Sixth Form (Years 12 and 13)"]
