"""Rows and columns named as the first blind runs of holdout17 (a logistics company) and
holdout18 (a university) showed askers name them: a label whose bracket holds other names of
the row ("Late shift (D2, P1)"), a row named by its words beside the caption's ("nights" in a
table of shift premiums), columns headed by spans of grades ("Grades 1 to 5"), a range written
"6 months to under 2 years", and a grade's initial ("g9" for Grade 9)."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import Evidence
from tests.answering.row_helpers import named, table

PREMIUMS = table(
    ["Shift type", "Monday to Friday", "Saturday", "Sunday", "Bank holiday"],
    [["Day shift (D1, C4)", "Nil", "£1.10", "£2.40", "£3.75"],
     ["Late shift (D2, P1)", "£0.65", "£1.35", "£2.60", "£3.90"],
     ["Night Shift (N1, C4N)", "£2.15", "£2.55", "£3.20", "£4.45"],
     ["Weekend only (WE)", "Not applicable", "£1.80", "£1.80", "£4.05"]],
    caption="Table 4 – Shift premiums (per hour, added to base rate)")

TRAVEL = table(
    ["Journey", "Class"],
    [["Staying with friends or family (England and Scotland)", "£25"],
     ["Staying with friends or family (Ireland)", "£30"], ["Hotel", "£120"]],
    caption="Table 2 – Accommodation")

LEAVE = table(
    ["Continuous Service", "Grades 1 to 5", "Grades 6 to 10"],
    [["Less than 2 years", "25 days", "30 days"], ["2 to 4 years", "26 days", "31 days"],
     ["5 to 9 years", "27 days", "32 days"], ["10 years or more", "29 days", "33 days"]],
    caption="Annual leave by grade and service")

GRADES = table(
    ["Grade", "Typical job titles", "Protected Research Time", "Citizenship allowance"],
    [["Grade 7", "Lecturer", "35%", "60 hours"], ["Grade 8", "Senior Lecturer", "40%", "90 hours"],
     ["Grade 9", "Reader", "45%", "120 hours"], ["Grade 10", "Professor", "50%", "160 hours"]],
    caption="Grade-related allowances", first_id=950)

SICK_PAY = table(
    ["Continuous Service", "Full pay", "Half pay"],
    [["Under 6 months", "None", "None"], ["6 months to under 2 years", "1 week", "2 weeks"],
     ["2 years to under 5 years", "4 weeks", "5 weeks"], ["5 years to under 10 years", "8 weeks", "10 weeks"],
     ["10 years or more", "13 weeks", "13 weeks"]],
    caption="Table 3 – Company sick pay")


def test_the_words_outside_a_labels_bracket_name_the_row():
    # the codes in the bracket are other names of the row, not words the question must also hold
    assert named("late shift bank holiday premium - how much per hour on top?", PREMIUMS) == (
        "label", ["Late shift (D2, P1)"], "", ["Bank holiday"])
    assert named("night shift sunday premium", PREMIUMS)[1:] == (["Night Shift (N1, C4N)"], "", ["Sunday"])


def test_the_captions_words_are_every_rows_so_the_others_name_it():
    # "shift" is the caption's word: "nights" holds all the row's own words
    assert named("I'm on nights. How much extra per hour do I get on a Sunday?", PREMIUMS)[1:] == (
        ["Night Shift (N1, C4N)"], "", ["Sunday"])


def test_a_bracket_that_tells_two_rows_apart_still_decides():
    # the words outside the brackets are the same for two rows: they name neither alone
    assert named("staying with family in Ireland", TRAVEL)[1] == ["Staying with friends or family (Ireland)"]
    assert named("staying with family - what can I claim?", TRAVEL) is None


def test_a_header_spanning_grades_is_the_column_of_the_grade_written():
    assert named("I'm on grade 4 and have been here 3 years, how much annual leave do I get?", LEAVE) == (
        "range", ["2 to 4 years"], "", ["Grades 1 to 5"])
    assert named("grade 8 with 12 years service - what's my holiday entitlement?", LEAVE)[1:] == (
        ["10 years or more"], "", ["Grades 6 to 10"])


def test_a_cell_named_by_two_facts_beats_a_row_named_by_one():
    evidence = [
        Evidence(key=1, breadcrumb="Workload > 4 Grade-related allowances", text="Grades", kind="table", rank=1,
                 similarity=0.5, table=GRADES),
        Evidence(key=2, breadcrumb="Leave > 3 Annual leave", text="Annual leave", kind="table", rank=2,
                 similarity=0.5, table=LEAVE),
    ]
    answer = compose_answer("grade 8 with 12 years service - what's my holiday entitlement?", evidence,
                            corpus_mentions={})
    assert "33 days" in answer.text
    assert "Senior Lecturer" not in answer.text and "29 days" not in answer.text


def test_a_span_from_one_figure_to_under_another():
    assert named("been with the company 6 years and off sick long term - how many weeks on half pay?", SICK_PAY)[:2] == (
        "range", ["5 years to under 10 years"])
    assert named("I've worked here 18 months, how much full pay?", SICK_PAY)[1] == ["6 months to under 2 years"]
    assert named("I've been here 2 years", SICK_PAY)[1] == ["2 years to under 5 years"]  # "under" excludes the top
    assert named("I started 3 months ago", SICK_PAY)[1] == ["Under 6 months"]


def test_a_grades_initial_and_number_name_the_grade():
    assert named("g9 citizenship allowance?", GRADES)[1:] == (["Grade 9"], "", ["Citizenship allowance"])
    assert named("what's the citizenship allowance for g12?", GRADES)[:3] == ("absent", [], "Grade 12")


LICENCES = table(
    ["Category", "Vehicles driven", "Licence check frequency"],
    [["B", "Vans and cars", "Every 12 months"], ["C1", "7.5-tonne rigid", "Every 6 months"],
     ["C", "Rigid HGV", "Every 4 months"], ["C+E", "Articulated HGV", "Every 3 months"],
     ["D1", "Staff shuttle minibus", "Every 6 months"]],
    caption="Table 3 – Licence categories and requirements")

POINTS = table(
    ["Points on licence", "Action"],
    [["0 to 3", "No action"], ["4 to 6", "Licence checked monthly"], ["7 to 9", "Driving assessment"]],
    caption="Table 4 – Penalty points on licence")

MHE = table(
    ["Category", "Equipment", "Refresher interval"],
    [["A1", "Pedestrian powered pallet truck", "5 years"], ["B1", "Counterbalance forklift", "3 years"],
     ["D1", "Reach truck", "3 years"], ["D2", "Very narrow aisle (VNA) man-up truck", "2 years"],
     ["G1", "Telehandler (yard only)", "3 years"]],
    caption="Table 3 – MHE categories and training requirements")

SEMESTERS = table(
    ["Qualifying Semesters accrued", "Research Leave that may be requested"],
    [["Fewer than 6", "None"], ["6 to 11", "One semester"], ["12 or more", "Two consecutive semesters"]],
    caption="Research leave")


def test_a_code_with_a_plus_part_is_one_code():
    assert named("how often is a C+E licence checked?", LICENCES)[:2] == ("label", ["C+E"])
    assert named("How often is my licence checked if I drive on a C1+E licence?", LICENCES)[:3] == ("absent", [], "C1+E")
    # the digit of a code is no count of penalty points
    assert named("How often is my licence checked if I drive on a C1+E licence?", POINTS) is None


def test_a_letter_and_digit_code_of_none_of_the_letters_is_absent():
    assert named("What's the refresher interval for a K1 sideloader?", MHE)[:3] == ("absent", [], "K1")
    assert named("refresher interval for a D2 truck?", MHE)[:2] == ("label", ["D2"])


def test_an_acronym_in_a_labels_bracket_names_the_row():
    assert named("How often do VNA operators have to do refresher training?", MHE)[1] == ["D2"]
    # a pronoun is no acronym: "we" does not name "Weekend only (WE)"
    assert named("what premium do we get for a late shift on a sunday?", PREMIUMS)[1:] == (
        ["Late shift (D2, P1)"], "", ["Sunday"])


def test_a_grade_outside_every_header_span_is_absent():
    assert named("annual leave entitlement for grade 12 staff?", LEAVE)[:3] == ("absent", [], "Grade 12")
    # and a grade's number is no count of semesters
    assert named("annual leave entitlement for grade 12 staff?", SEMESTERS) is None


CLASSES = table(
    ["Class", "Label", "Minimum handling"],
    [["C1", "Public", "No restrictions"], ["C2", "Internal", "University login required"],
     ["C3", "Confidential", "Encrypted at rest"], ["C4", "Highly Restricted", "Secure Research Environment only"]],
    caption="Data classes")


def test_an_absent_code_no_evidence_holds_is_answered_as_absent_though_its_table_was_only_fetched():
    evidence = [
        Evidence(key=1, breadcrumb="IT > 5 Storage", text="5.1 Information must be stored only in locations approved "
                 "for its class. The approved locations are shown below.", rank=1, similarity=0.6),
        Evidence(key=2, breadcrumb="IT > 4 Data classification", text="Data classes", kind="table", rank=0,
                 role="row", table=CLASSES),
    ]
    answer = compose_answer("what are the handling rules for C5 data?", evidence, corpus_mentions={})
    assert answer.outcome == "not_covered"
    assert "no row for C5" in answer.text and "No restrictions" not in answer.text


CONTACT = table(
    ["Contract FTE", "Maximum Contact Hours (T&R pathway)", "Maximum Contact Hours (T&S pathway)"],
    [["Less than 0.4 FTE", "90", "130"], ["0.4 to 0.59 FTE", "140", "200"], ["0.6 to 0.79 FTE", "190", "270"],
     ["0.8 to 0.99 FTE", "230", "330"], ["1.0 FTE", "280", "390"]],
    caption="Maximum contact hours")

SPECIAL = table(
    ["Type of leave", "Entitlement", "Pay"],
    [["Compassionate leave (death or serious illness of a partner or close relative)", "Up to 5 days", "Full pay"],
     ["Jury service", "Duration of the service", "Full pay"],
     ["Public duties (magistrate, councillor, school governor)", "Up to 12 days per Leave Year", "Full pay"],
     ["Moving house", "1 day per Leave Year", "Full pay"]],
    caption="Special leave")


def test_words_whose_initials_a_header_writes_with_an_ampersand_name_its_column():
    assert named("max contact hours for someone on 0.5 FTE on a teaching and research contract?", CONTACT) == (
        "range", ["0.4 to 0.59 FTE"], "", ["Maximum Contact Hours (T&R pathway)"])


def test_full_time_is_one_whole_fte():
    assert named("I'm full time on the T&S pathway, what's the ceiling on my contact hours?", CONTACT) == (
        "range", ["1.0 FTE"], "", ["Maximum Contact Hours (T&S pathway)"])


def test_each_example_a_labels_bracket_lists_names_the_row():
    assert named("I'm a school governor, how many days paid leave can I take for that?", SPECIAL)[1] == [
        "Public duties (magistrate, councillor, school governor)"]
    assert named("I sit as a magistrate", SPECIAL)[1] == ["Public duties (magistrate, councillor, school governor)"]
    assert named("I'm a school teacher moving house", SPECIAL)[1] == ["Moving house"]  # "school" alone is no example


OTHER_LEAVE = table(
    ["Leave type", "Paid entitlement"],
    [["Bereavement (partner, child or parent)", "10 working days"], ["Bereavement (other close relative)", "3 working days"],
     ["Pregnancy loss (either parent)", "7 working days"], ["Moving home", "1 working day per year"]],
    caption="Table 4: Other paid leave")


def test_a_bracket_that_tells_rows_of_one_kind_apart_names_a_row_only_with_the_kind():
    # the examples of "Bereavement (partner, child or parent)" tell it from the other bereavement
    # row: "the dad" asking about parental leave is no bereavement
    found = named("I'm the dad, but I'll be the one mainly looking after our baby. Can I get the longer paid parental leave?",
                  OTHER_LEAVE)
    assert found is None or "Bereavement (partner, child or parent)" not in found[1]
    assert named("bereavement leave when a parent dies?", OTHER_LEAVE)[1] == ["Bereavement (partner, child or parent)"]
    # a row named by its own words is named before one named by an example in a bracket
    assert named("I'm a parent and we lost the pregnancy, how much leave", OTHER_LEAVE)[1] == ["Pregnancy loss (either parent)"]


TRAVEL_CLASS = table(
    ["Mode and journey length", "Permitted class"],
    [["Rail, any journey within Great Britain", "Standard class"],
     ["Rail, Eurostar or other international rail", "Standard Premier"],
     ["Air, scheduled flight time under 6 hours", "Economy"],
     ["Air, scheduled flight time of 6 to 10 hours", "Premium economy"],
     ["Air, scheduled flight time over 10 hours", "Premium economy, or business class"]],
    caption="Class of travel")


def test_a_name_inside_a_label_names_its_row_among_spans():
    assert named("taking the eurostar to brussels for a workshop, which class can i book?", TRAVEL_CLASS)[1] == [
        "Rail, Eurostar or other international rail"]
    assert named("what class can I book for rail?", TRAVEL_CLASS) is None  # "rail" is two rows' word


def test_the_total_stated_is_the_quantity_not_the_increment():
    assert named("Just picked up another 3 points which takes me to 8. What happens now?", POINTS)[1] == ["7 to 9"]
    points = table(["Points on licence", "Action"],
                   [["0-3 points", "None"], ["4-6 points", "Warning"], ["7-9 points", "Practical driving assessment"],
                    ["10-11 points", "Suspended"]], caption="Penalty points")
    assert named("Just picked up another 3 points which takes me to 8. What happens now?", points)[1] == ["7-9 points"]
    assert named("I have 3 points, what happens?", points)[1] == ["0-3 points"]


def test_a_row_named_by_a_total_answers_what_happens_now():
    points = table(["Penalty points on licence", "Action by the Company"],
                   [["0-3 points", "No further action"], ["4-6 points", "Driver risk conversation"],
                    ["7-9 points", "Practical driving assessment within 14 days"],
                    ["10 or more points", "Suspension from driving"]], caption="Table 2: Action on penalty points")
    evidence = [
        Evidence(key=1, breadcrumb="Fleet > 7 Licence checks", text="All penalty points currently valid on the licence "
                 "count, whether the offence was committed while driving for work or in a private vehicle.",
                 rank=1, similarity=0.6),
        Evidence(key=2, breadcrumb="Fleet > 7 Licence checks", text="Table 2", kind="table", rank=2, similarity=0.5,
                 table=points),
    ]
    answer = compose_answer("Just picked up another 3 points which takes me to 8. What happens now?", evidence,
                            corpus_mentions={})
    assert answer.outcome == "answered"
    assert "Practical driving assessment within 14 days" in answer.text
    assert "No further action" not in answer.text


def test_a_cell_named_by_a_code_and_a_place_is_not_outranked_by_a_span_column():
    hotel = table(["Grade", "UK Regional", "London", "Europe", "Rest of World"],
                  [["G4", "£110", "£180", "£150", "£130"], ["G5", "£121", "£194", "£162", "£143"],
                   ["G6", "£133", "£210", "£175", "£155"]],
                  caption="Table 1: Maximum nightly hotel rate by Grade and Destination Type", first_id=970)
    meals = table(["Destination Type", "Day trip, 5 to 10 hours", "Day trip, more than 10 hours", "Overnight, per 24 hours"],
                  [["UK Regional", "£11", "£26", "£47"], ["Europe", "£17", "£36", "£64"], ["Rest of World", "£19", "£39", "£72"]],
                  caption="Table 2: Daily subsistence caps by Destination Type", first_id=980)
    evidence = [
        Evidence(key=1, breadcrumb="Travel > 5 Accommodation", text="Table 1", kind="table", rank=1, similarity=0.5, table=hotel),
        Evidence(key=2, breadcrumb="Travel > 6 Subsistence", text="Table 2", kind="table", rank=2, similarity=0.5, table=meals),
    ]
    answer = compose_answer("I'm a G5 going to Frankfurt for a two-day conference - whats the most i can spend on "
                            "the hotel per night?", evidence, corpus_mentions={})
    assert "£162" in answer.text
    assert "£36" not in answer.text and "£64" not in answer.text
