"""Rows named as the table names them, and names a table lacks: bare letters under a header
("Category C"), a longer title ending with a label ("Assistant Store Manager" is not "Store
Manager"), a word built as the labels are ("Megastore"), a kind of row the caption names ("a
Saturday premium" in a table of shift types); a general word names its kinds, but two kinds do
not name each other (Saturday is not Sunday)."""
from policypal.answering.rows import match_table
from policypal.answering.terms import equivalents, stem

from .row_helpers import named, table



INCIDENTS = table(("Category", "Incident type", "Form"), [
    ("A", "Theft under GBP 100", "Form IR-2"), ("B", "Theft of GBP 100 or more", "Form IR-5"), ("C", "Assault", "Form IR-3"),
    ("D", "Threats", "Form IR-7"), ("E", "Fraud", "Form IR-4"),
], caption="Table 1: Incident categories and forms")
ROLES = table(("Role", "United Kingdom (GBP)", "Poland (PLN)"), [
    ("Checkout Assistant", "GBP 4.00", "PLN 20.00"), ("Senior Checkout Assistant", "GBP 6.50", "PLN 30.00"),
    ("Duty Manager", "GBP 15.00", "PLN 70.00"), ("Store Manager", "GBP 25.00", "PLN 120.00"),
], caption="Table 2: Till variance tolerances by role")
FORMATS = table(("Store format", "United Kingdom", "Poland"), [
    ("Express", "GBP 4,000.00", "PLN 19,000.00"), ("Local", "GBP 7,000.00", "PLN 33,000.00"),
    ("Superstore", "GBP 22,000.00", "PLN 100,000.00"), ("Hypermarket", "GBP 55,000.00", "PLN 250,000.00"),
], caption="Table 3: Safe limits by store format")
PREMIUMS = table(("Shift type", "United Kingdom", "Germany"), [
    ("Early", "8%", "11%"), ("Late", "14%", "16%"), ("Night", "28%", "23%"), ("Sunday", "30%", "40%"),
], caption="Table 4: Shift premium rates by shift type and country")




def test_bare_letters_are_codes_of_the_label_columns_noun():
    assert named("Which form for a Category C incident?", INCIDENTS)[:2] == ("label", ["C"])
    assert named("Which form is used to report a Category J incident?", INCIDENTS)[:3] == ("absent", [], "Category J")


def test_a_longer_title_ending_with_a_label_is_absent():
    assert named("till variance tolerance for an Assistant Store Manager in the UK?", ROLES)[:3] == ("absent", [], "Assistant Store Manager")
    assert named("till variance for a Senior Checkout Assistant in Poland", ROLES)[:2] == ("label", ["Senior Checkout Assistant"])
    assert named("variance tolerance for a Store Manager", ROLES)[:2] == ("label", ["Store Manager"])


def test_a_word_built_as_the_labels_are_is_absent():
    assert named("What's the maximum safe limit for a Megastore?", FORMATS)[:3] == ("absent", [], "Megastore")
    assert named("safe limit for a Superstore in Poland", FORMATS)[:2] == ("label", ["Superstore"])


def test_a_kind_the_caption_names_that_no_row_is_is_absent_but_the_general_word_names_its_kind():
    assert named("whats the saturday premium in the UK", PREMIUMS)[:2] == ("absent", [])
    assert named("what's the sunday premium in Germany", PREMIUMS)[:2] == ("label", ["Sunday"])
    assert stem("sunday") not in equivalents(stem("saturday"))  # two kinds of the weekend
    assert {stem("saturday"), stem("sunday")} <= equivalents(stem("weekend"))


SERVICE = table(("Continuous service", "Extra days", "Voucher (Netherlands and Germany)", "Voucher (Poland)"), [
    ("under 2 years", "0", "none", "none"), ("2-4 years", "1", "EUR 50.00", "PLN 200.00"),
    ("5-9 years", "2", "EUR 130.00", "PLN 540.00"), ("10 years or more", "4", "EUR 300.00", "PLN 1,250.00"),
], caption="Table 5: Long-service vouchers by continuous service")
PICKUPS = table(("Expected takings per day", "Maximum interval"), [
    ("up to GBP 2,000", "every 3 hours"), ("GBP 2,000.01-5,000", "every 2 hours"), ("over GBP 5,000", "every 60 minutes"),
], caption="Table 6: Cash pickups by takings")


def test_an_anniversary_is_years_of_service_and_a_k_is_thousands_and_a_city_its_country_column():
    m = match_table("just hit my 10th anniversary at the Hamburg DC, what is the voucher worth", SERVICE)
    assert [r.cells[0] for r in m.rows] == ["10 years or more"] and [SERVICE.headers[i] for i in m.columns] == [
        "Voucher (Netherlands and Germany)"]
    m = match_table("6th anniversary next week, I work in Poznan", SERVICE)
    assert [r.cells[0] for r in m.rows] == ["5-9 years"] and [SERVICE.headers[i] for i in m.columns] == ["Voucher (Poland)"]
    assert [r.cells[0] for r in match_table("busy till doing more than 5k a day - how often", PICKUPS).rows] == ["over GBP 5,000"]
    assert [r.cells[0] for r in match_table("a quiet store, about 1.5k a day", PICKUPS).rows] == ["up to GBP 2,000"]


def test_a_plural_of_a_y_word_names_its_row():
    assert named("I'm on earlies at the Manchester store - what premium?", PREMIUMS)[:2] == ("label", ["Early"])


def test_a_row_found_by_some_of_its_words_does_not_answer_a_yes_no_question():
    from policypal.answering.compose import compose_answer
    from policypal.answering.evidence import ANSWERED, Evidence

    records = table(("Record type", "Retention period"), [
        ("Adult clinical record", "8 years"), ("Deceased patient record", "10 years"), ("Payroll record", "6 years"),
    ], caption="Table 1: Retention schedule by record type")
    host = Evidence(1, "Records > 4.1 Retention periods", "Table 1", kind="table", policy="records", rank=1, similarity=0.5,
                    table=records)
    yes_no = compose_answer("Can a patient ask us to erase their records before the retention period ends?", [host],
                            corpus_mentions={})
    assert yes_no.outcome != ANSWERED and "10 years" not in yes_no.text  # the deceased patient's row is not the answer
    # the same words asking for the value: the row answers
    asked = compose_answer("What is the retention period for a deceased patient's record?", [host], corpus_mentions={})
    assert asked.outcome == ANSWERED and "10 years" in asked.text and "8 years" not in asked.text


def test_a_named_row_in_a_country_the_columns_lack_is_absent_with_the_table_cited():
    from policypal.answering.compose import compose_answer
    from policypal.answering.evidence import NOT_COVERED, Evidence

    host = Evidence(1, "Working time > 5.1 Premium rates", "Table 4", kind="table", policy="time", rank=1, similarity=0.5,
                    table=PREMIUMS)
    answer = compose_answer("what is the Sunday premium for our stores in Belgium", [host], corpus_mentions={})
    assert answer.outcome == NOT_COVERED and "no Belgium column" in answer.text
    assert "30%" not in answer.text and "40%" not in answer.text and [e.key for e in answer.cited] == [1]


def test_an_amount_names_the_row_whose_description_holds_its_span():
    assert named("a customer walked out with a £40 bottle of whisky without paying, which form?", INCIDENTS)[:2] == ("range", ["A"])
    assert named("stock worth about £600 was stolen, which form do I need?", INCIDENTS)[:2] == ("range", ["B"])


BODIES = table(("Code", "Body name", "Annual fee covered", "Evidence needed"), [
    ("PB-01", "Royal Institute of Planners", "£410", "CPD log"), ("PB-02", "Guild of Surveyors", "£120", "CPD declaration"),
    ("PB-10", "Passive House Trust", "£175", "Designer renewal"), ("PB-11", "Institute of Building", "£1,050", "Review logbook"),
], caption="Table 1: Approved professional bodies")


def test_the_noun_of_a_name_column_beside_codes_names_a_code():
    assert named("body 10 - how much does the practice pay towards the subscription?", BODIES)[:2] == ("label", ["PB-10"])
    assert named("What evidence is needed for body 11?", BODIES)[1:] == (["PB-11"], "", ["Evidence needed"])


REPORTING = table(("Incident type", "Report within", "Work must stop"), [
    ("Injury requiring hospital treatment", "1 hour", "Yes"), ("Vehicle collision with no aircraft involved", "30 minutes", "Yes"),
    ("Near Miss", "24 hours", "No"), ("Fuel spill", "15 minutes", "Yes"),
], caption="Table 6: Incident reporting")


def test_a_row_is_not_named_by_its_modifier_alone():
    # "anywhere near" shares only the modifier of "Near Miss": it does not name that row (two tugs
    # bumping into each other is the vehicle collision, a bump being a collision)
    assert named("Two tugs bumped into each other, no aircraft anywhere near. When must this be reported?", REPORTING)[1] == [
        "Vehicle collision with no aircraft involved"]
    assert named("Two tugs were parked, no aircraft anywhere near. When must this be reported?", REPORTING) is None
    assert named("How fast do I report a near miss?", REPORTING)[1] == ["Near Miss"]
    assert named("How soon is a spill reported?", REPORTING)[1] == ["Fuel spill"]  # a noun shared names its row


RELATIONS = table(("Ref", "Relationship", "Standby fare payable"), [
    ("F-01", "Spouse or registered partner", "10% of public fare"), ("F-02", "Cohabiting partner", "12% of public fare"),
    ("F-03", "Child under 18", "5% of public fare"), ("F-04", "Child aged 18-25 in full-time education", "8% of public fare"),
    ("F-05", "Parent", "20% of public fare"), ("F-06", "Parent-in-law", "25% of public fare"),
    ("F-07", "Travel Companion", "35% of public fare"),
], caption="Table 8: Staff travel eligibility by relationship")


def test_a_row_of_reference_codes_is_named_by_its_name_column():
    # one name in five may read as a code ("Child under 18"); "mum" is a parent
    assert named("How much does my mum pay for a standby flight?", RELATIONS)[1] == ["F-05"]
    assert named("What does a cohabiting partner pay?", RELATIONS)[1] == ["F-02"]
    assert named("What paperwork do I need to register the girlfriend I live with?", RELATIONS)[1] == ["F-02"]


def test_a_number_in_the_question_does_not_name_a_value_cell():
    # "20" is the daughter's age, not the "20% of public fare" cell (the Parent row); "full time"
    # names the row of a child in full-time education
    match = named("My daughter is 20 and studying full time. What does she pay for a standby seat?", RELATIONS)
    assert match is None or match[1] == ["F-04"]
    assert named("My daughter is 20. What does she pay for a standby seat?", RELATIONS) is None


DUTY_LIMITS = table(("Role", "Maximum Duty Period", "Maximum consecutive duty days"), [
    ("Ramp Agent", "10 hours", "6 days"), ("Catering Driver", "9 hours", "5 days"), ("Load Controller", "11.5 hours", "7 days"),
    ("Shift Lead", "11 hours", "6 days"), ("Duty Manager", "12 hours", "5 days"),
], caption="Table 3: Duty-time limits by role")


def test_a_word_naming_the_asked_column_does_not_name_a_row():
    # "Duty" names the column "Maximum Duty Period", not the Duty Manager row
    assert named("What is the maximum Duty Period for a Load Controller?", DUTY_LIMITS)[1] == ["Load Controller"]
    assert named("What's the maximum duty period of a duty manager?", DUTY_LIMITS)[1] == ["Duty Manager"]  # written twice


def test_a_title_of_words_the_table_never_uses_is_an_absent_row():
    assert named("What is the maximum Duty Period for a Cabin Cleaner?", DUTY_LIMITS)[:3] == ("absent", [], "Cabin Cleaner")


FIXED_RATES = table(("Item", "Rate"), [
    ("Full-day per diem, Denmark", "DKK 560"), ("Full-day per diem, Norway", "NOK 820"), ("Full-day per diem, Germany", "EUR 62"),
    ("Hotel cap per night, capital cities", "DKK 1,450"), ("Hotel cap per night, other locations", "DKK 1,100"),
    ("Private accommodation allowance, per night", "DKK 240"), ("Split-shift supplement, per day", "DKK 95"),
], caption="Table 2: Fixed allowances and rates")


def test_a_capital_city_names_the_row_of_capital_cities_and_another_city_the_other_row():
    assert named("What's the most I can spend per night on a hotel in Copenhagen?", FIXED_RATES)[1] == [
        "Hotel cap per night, capital cities"]  # a word written beats its synonym ("accommodation")
    assert named("What's the most I can spend per night on a hotel in Aarhus?", FIXED_RATES)[1] == [
        "Hotel cap per night, other locations"]


def test_a_place_a_family_of_labels_lacks_is_absent():
    assert named("What's the full-day per diem for a business trip to Sweden?", FIXED_RATES)[:3] == ("absent", [], "Sweden")
    assert named("What's the full-day per diem for a trip to Oslo?", FIXED_RATES)[1] == ["Full-day per diem, Norway"]


VEHICLES = table(("Class code", "Vehicle type", "Rate per km"), [
    ("VC-1", "Small petrol or diesel car", "SEK 2.35"), ("VC-2", "Large petrol or diesel car", "SEK 2.85"),
    ("VC-3", "Plug-in hybrid car", "SEK 2.20"), ("VC-4", "Battery electric car", "SEK 1.45"), ("VC-5", "Motorcycle", "SEK 1.70"),
], caption="Table 2: Rates by vehicle class")


def test_a_row_of_codes_is_named_by_some_words_of_its_name_column():
    # "electric car" holds two of "Battery electric car", the noun among them
    assert named("I use my own fully electric car for client visits. How much per km?", VEHICLES)[1] == ["VC-4"]


def test_a_word_of_the_tables_topic_does_not_name_a_row_by_itself():
    # "staff travel" is the caption's topic, not the "Travel Companion" row
    assert named("What evidence do I need to register my brother for staff travel?", RELATIONS) is None
    assert named("What does my travel companion pay?", RELATIONS)[1] == ["F-07"]


QUALIFICATIONS = table(("Qualification level", "Funding percentage", "Clawback period"), [
    ("Level 7 ordinary degree", "80%", "18 months"), ("Level 8 honours degree", "70%", "24 months"),
    ("Level 9 postgraduate diploma", "60%", "30 months"), ("Level 9 master's degree", "50%", "36 months"),
], caption="Table 2: Funding by qualification level")


def test_a_label_with_a_number_needs_more_than_one_of_its_words():
    assert named("I withdrew from my funded master's in March. From which date are the months counted?", QUALIFICATIONS) is None
    assert named("What funding do I get for a Level 9 master's degree?", QUALIFICATIONS)[1] == ["Level 9 master's degree"]


AIRPORTS = table(("Airport", "Early", "Late", "Night"), [
    ("Copenhagen (CPH)", "DKK 180", "DKK 215", "DKK 410"), ("Oslo Gardermoen (OSL)", "NOK 260", "NOK 310", "NOK 590"),
    ("Hamburg (HAM)", "EUR 24", "EUR 29", "EUR 55"), ("Frankfurt (FRA)", "EUR 26", "EUR 31", "EUR 58"),
], caption="Table 1: Duty allowance by airport and shift")


def test_a_place_a_table_of_bracketed_airport_names_lacks_is_absent():
    assert named("What is the night shift duty allowance at Berlin Brandenburg (BER)?", AIRPORTS)[:3] == ("absent", [], "Berlin")
    assert named("night shift allowance in Copenhagen?", AIRPORTS)[1] == ["Copenhagen (CPH)"]


def test_a_modifier_the_question_writes_before_another_noun_names_no_row():
    # "night shift duty allowance": "shift" modifies "duty", it does not name the Shift Lead
    assert named("What is the night shift duty allowance at Berlin?", DUTY_LIMITS) is None
    assert named("funding for a level 9 master's", QUALIFICATIONS)[1] == ["Level 9 master's degree"]


RETENTION = table(("Record type", "Retention period"), [
    ("Incident report", "10 years"), ("CCTV footage", "30 days"), ("Visitor log", "13 months"),
    ("Telephone call recording", "90 days"),
], caption="Table 1: Retention schedule by record type")


def test_an_acronym_names_its_row_before_another_noun():
    assert named("How long do we hold on to CCTV recordings?", RETENTION)[1] == ["CCTV footage"]


LODGING = table(("Region", "Accommodation cap per night"), [
    ("London", "GBP 145.00"), ("Rest of England", "GBP 92.00"), ("Edinburgh and Glasgow", "GBP 115.00"),
    ("Rest of Scotland", "GBP 88.00"), ("Dublin", "EUR 165.00"), ("Rest of Ireland", "EUR 118.00"),
], caption="Table 3: Lodging allowances by region")


def test_a_city_of_the_united_kingdom_is_in_its_own_nation_only():
    assert named("I'm lodging in Aberdeen for three weeks. What's the accommodation cap?", LODGING)[1] == ["Rest of Scotland"]
    assert named("I'm lodging in Leeds. What's the accommodation cap?", LODGING)[1] == ["Rest of England"]
    assert named("What's the accommodation cap in Scotland outside the cities?", LODGING)[1] == ["Rest of Scotland"]


WORKLOAD = table(("Contract type", "0-2 years", "3-6 years", "7+ years"), [
    ("Teaching and Research", "480 hours", "540 hours", "580 hours"),
    ("Teaching and Scholarship", "720 hours", "790 hours", "830 hours"),
    ("Research Only", "45 hours", "75 hours", "110 hours"),
], caption="Table 2: Workload Allowance for teaching and assessment (hours per academic year)")


def test_a_stop_word_that_tells_a_label_apart_names_it_where_the_question_writes_it_so():
    # "only" tells "Research Only" apart; "teaching" is the caption's word, not the row's
    asked = "I'm on a research-only contract. How many teaching and assessment hours can I be allocated?"
    assert named(asked, WORKLOAD)[:2] == ("label", ["Research Only"])
    assert named("teaching hours on a Research Only contract", WORKLOAD)[:2] == ("label", ["Research Only"])
    # the "and" of "Teaching and Research" is a joining word: "teaching and assessment" does not name it
    assert named("hours for Teaching and Research staff", WORKLOAD)[:2] == ("label", ["Teaching and Research"])


CONFERENCE_CAPS = table(("Expense", "UK", "EU", "Rest of world"), [
    ("Return flight or rail fare", "GBP 220", "EUR 380", "GBP 1,150"), ("Hotel per night", "GBP 165", "EUR 185", "GBP 235"),
    ("Meals per day", "GBP 41", "EUR 55", "GBP 68"),
], caption="Table 5: Conference travel caps by destination")
INCURSIONS = table(("Incident type", "Report within"), [
    ("Runway or taxiway incursion", "immediately"), ("Near miss", "24 hours"), ("Damage to a stand", "4 hours"),
], caption="Table 6: Reporting deadlines")


def test_each_alternative_of_a_label_names_its_row():
    # "Return flight or rail fare" names a return flight and a rail fare: "the flight" is half a name
    m = match_table("What's the limit on the flight for a conference in Singapore?", CONFERENCE_CAPS)
    assert [r.cells[0] for r in m.rows] == ["Return flight or rail fare"] and [CONFERENCE_CAPS.headers[i] for i in m.columns] == ["Rest of world"]
    assert [r.cells[0] for r in match_table("What's the cap on a rail fare to a conference in Lyon?", CONFERENCE_CAPS).rows] == [
        "Return flight or rail fare"]


def test_modifiers_of_one_shared_head_are_not_alternatives():
    # "Runway or taxiway incursion" is an incursion: "the runway" alone does not name it
    m = match_table("I need to drive across the runway to the cargo area. Who may do that?", INCURSIONS)
    assert m is None or not m.rows


def test_a_stop_word_that_tells_a_label_apart_is_counted_among_the_labels_words():
    # "with" of "travelling with approval" is the only word the question names beyond the caption's:
    # it is counted like the label's other words (it used to raise a KeyError, or not, by set order)
    t = table(("When you may", "Who signs"), [("Abroad for work, travelling with approval", "Line manager"),
                                              ("Home office setup", "IT desk"), ("Client site visit", "Account lead")],
              caption="Table 9: Travel approval")
    assert named("I'm travelling with approval from my boss, who signs?", t)[:2] == ("label", ["Abroad for work, travelling with approval"])


STANDBY = table(["Standby session", "Housing Repairs", "Highways Maintenance"], [
    ["Weeknight (17:00-08:00)", "£31.40", "£33.20"],
    ["Saturday (08:00-08:00 Sunday)", "£58.20", "£61.30"],
    ["Sunday (08:00-08:00 Monday)", "£62.75", "£65.40"],
    ["Bank holiday (08:00-08:00 next day)", "£88.60", "£92.10"],
], caption="Table 5: Standby payments (per session)")


def test_a_bracket_of_hours_is_when_the_row_runs_not_its_name():
    # "Sunday" names the Sunday row, not the Saturday one that runs until Sunday 08:00
    assert named("How much is a Sunday standby session for highways maintenance staff?", STANDBY) == (
        "label", ["Sunday (08:00-08:00 Monday)"], "", ["Highways Maintenance"])
    assert named("saturday standby for housing repairs?", STANDBY)[1] == ["Saturday (08:00-08:00 Sunday)"]


OTHER_VEHICLES = table(["Item", "Rate"], [
    ["Motorcycle (any engine size, instead of Table 1)", "24p per mile"],
    ["Bicycle (own cycle, instead of Table 1)", "20p per mile"],
    ["Electric bicycle (own e-bike, instead of Table 1)", "21p per mile"],
], caption="Table 2: Supplements and other vehicle rates")


def test_a_compound_one_label_writes_names_its_row():
    assert named("what's the mileage rate if I use my own e-bike for work trips", OTHER_VEHICLES)[1] == [
        "Electric bicycle (own e-bike, instead of Table 1)"]


def test_a_name_in_a_column_of_listed_examples_names_its_row():
    # "Example roles" lists names of each grade: "I'm a Reader" is grade G9; of names written one
    # inside another ("Senior Lecturer", "Lecturer") the longer; "my manager" is someone else
    from tests.answering.row_helpers import named, table

    grades = table(["Grade", "Example roles", "Minimum salary", "Top of normal scale", "Contribution ceiling"], [
        ["G7", "Lecturer, Research Fellow, senior officer", "£45,163", "£51,753", "£53,353"],
        ["G8", "Senior Lecturer, Senior Research Fellow, manager", "£54,395", "£61,008", "£63,421"],
        ["G9", "Reader, Associate Professor, head of service", "£64,914", "£71,802", "£74,105"],
        ["G10", "Professor, director", "£75,400", "£112,350", "Not applicable"],
    ], caption="Table 1: Grades and salaries")
    assert named("I'm a Reader. What is the contribution ceiling salary for my grade?", grades) == \
        ("label", ["G9"], "", ["Contribution ceiling"])
    assert named("What is the minimum salary of a Senior Lecturer?", grades)[1] == ["G8"]
    assert named("minimum salary for lecturers", grades)[1] == ["G7"]
    assert named("I'm a professor, what's my minimum salary", grades)[1] == ["G10"]
    assert named("what does my manager earn at most?", grades) is None


def test_a_row_for_other_people_is_not_named_by_the_askers_relative():
    # "my dad passed away": the row "for the death of a child" is not his; the row of "a partner or
    # close relative" is (seen in holdout18, answered with parental bereavement leave's 2 weeks)
    from policypal.answering.compose import compose_answer
    from tests.answering.row_helpers import named, ranked_tables, table

    special = table(["Type of leave", "Entitlement", "Pay"], [
        ["Compassionate leave (death or serious illness of a partner or close relative)", "Up to 5 days per occasion", "Full pay"],
        ["Parental bereavement leave (death of a child under 18, or stillbirth after 24 weeks)", "2 weeks", "Full pay"],
        ["Jury service", "Duration of the service", "Full pay"],
    ], caption="Table 4: Special leave")
    question = "my dad passed away last week, how much bereavement time off can I have?"
    assert named(question, special)[1] == ["Compassionate leave (death or serious illness of a partner or close relative)"]
    answer = compose_answer(question, ranked_tables(("Leave > 4 Special leave", special)), corpus_mentions={})
    assert "Up to 5 days per occasion" in answer.text and "2 weeks" not in answer.text
    # the bereaved parent's own row stays theirs
    assert "2 weeks" in compose_answer("My daughter died. How much parental bereavement leave do I get?",
                                       ranked_tables(("Leave > 4 Special leave", special)), corpus_mentions={}).text


def test_a_list_of_examples_after_including_and_joined_by_and_names_each_place():
    zones = table(["Zone code", "Zone name", "Example locations"],
                  [["Z1", "Inner London", "Camden, Islington"], ["Z3", "Major cities", "Manchester, Leeds"],
                   ["Z4", "National", "All other locations, including Norwich, Carlisle and Truro"]])
    assert named("a store in Truro", zones)[1] == ["Z4"]
    assert named("based in Norwich", zones)[1] == ["Z4"]
    assert named("up in Leeds", zones)[1] == ["Z3"]


def test_names_written_capitalised_inside_a_sentence_are_proper_names():
    from policypal.answering.terms import proper_names

    assert proper_names("I work at the Glasgow hub - what do I get for Sunday working?") == ["Glasgow"]
    assert proper_names("What's the premium at the Trafford Park depot?") == ["Trafford Park"]
    assert proper_names("Glasgow staff: what do we get?") == []  # a capital that starts a sentence
    assert proper_names("Is Christmas Day paid at double time in March?") == []
    assert proper_names("Night premium for a Local store in Truro?") == ["Local", "Truro"]


ROTAS = table(["Rota code", "Rota", "Response time", "Weekday night", "Weekend or bank holiday day", "Full week (7 days)"],
                [["SB-01", "Highways winter maintenance (gritting)", "45 minutes", "£28.40", "£61.75", "£304.50"],
                 ["SB-05", "Emergency planning duty officer", "30 minutes", "£31.90", "£68.20", "£337.60"],
                 ["SB-07", "ICT infrastructure (remote first)", "45 minutes", "£26.80", "£57.40", "£283.10"],
                 ["SB-08", "Bereavement services (urgent burials)", "120 minutes", "£18.70", "£41.25", "£206.30"]])


def test_the_short_name_a_bracket_gives_a_row_names_it():
    assert named("What's the weekday night standby payment for the gritting rota?", ROTAS)[1:] == (["SB-01"], "", ["Weekday night"])
    assert named("a weekend day on standby for urgent burials?", ROTAS)[1] == ["SB-08"]
    # a bracket word shared with nothing asked names nothing: "winter" alone is one word in four
    assert named("What is the winter clothing allowance?", ROTAS) is None
    assert named("If I fix it remotely by phone, what's the minimum payment?", ROTAS) is None  # "remote first" is two words
    # beside a row of the same words, a bracket tells a variant, not another name of the row
    fees = table(["Code", "Role", "Role fee", "Training fee"],
                 [["ED-01", "Presiding Officer", "£285", "£45"], ["ED-02", "Presiding Officer (double station)", "£320", "£48"],
                  ["ED-03", "Poll Clerk", "£190", "£35"]])
    assert named("the training fee for a presiding officer at a double station", fees)[1] == ["ED-02"]
    assert named("the training fee for a presiding officer", fees)[1] == ["ED-01"]
    assert named("What is the winter clothing allowance?", ROTAS) is None


def test_full_tells_a_column_apart():
    assert named("What's the full week standby rate for the emergency planning duty officer?", ROTAS)[1:] == (
        ["SB-05"], "", ["Full week (7 days)"])


SUNDAYS = table(["Circumstance", "Payment", "Notes"],
                [["Sunday working (contracted before 1 April 2019)", "Time and a quarter", "Closed to new entrants"],
                 ["Sunday working (contracted on or after 1 April 2019)", "£0.65 per hour", "Paid on all Sunday hours"],
                 ["Short-notice call-in", "£18.00 per shift", "Plus minimum paid hours"]])


def test_rows_of_one_name_with_dated_conditions_are_chosen_by_the_year_given():
    assert named("I joined in 2021, what do I get for working Sundays?", SUNDAYS)[:2] == (
        "range", ["Sunday working (contracted on or after 1 April 2019)"])
    assert named("Sunday working pay if I was contracted in 2015", SUNDAYS)[1] == ["Sunday working (contracted before 1 April 2019)"]
    # no year, or the boundary's year (2019 falls either side of 1 April): both rows, each with its condition
    both = ["Sunday working (contracted before 1 April 2019)", "Sunday working (contracted on or after 1 April 2019)"]
    assert named("what do I get for working Sundays?", SUNDAYS)[:2] == ("label", both)
    assert named("Sunday working pay if I started in 2019", SUNDAYS)[1] == both


def test_a_small_word_ending_a_label_is_no_kind_of_row():
    # "call-in" ends in "in": "I joined in 2021" names no kind "joined in" the table lacks
    assert named("I joined in 2021, what is the short-notice call-in payment?", SUNDAYS)[1] == ["Short-notice call-in"]
    assert named("I joined in 2021, what do I get for working Sundays?", SUNDAYS)[0] != "absent"


TIERS = table(["Length of continuous service", "Tier", "Standard discount", "Boost-week discount"],
              [["Under 1 year", "Bronze", "5%", "10%"], ["1-2 years", "Silver", "8%", "15%"], ["3-5 years", "Gold", "10%", "18%"],
               ["10-19 years", "Sapphire", "15%", "22%"], ["20+ years", "Diamond", "18%", "25%"]])


def test_a_column_of_one_word_names_beside_spans_names_its_row_and_lacks_others():
    assert named("What's the standard discount for the Gold tier?", TIERS)[1:] == (["3-5 years"], "", ["Standard discount"])
    assert named("boost week discount as Silver?", TIERS)[1] == ["1-2 years"]
    # a name the column does not hold, with the column's noun: absent (holdout27: "15%" of Sapphire was given)
    assert named("What's the standard discount for the Emerald tier?", TIERS)[:3] == ("absent", [], "Emerald tier")
    assert named("is gold jewellery discounted?", TIERS) is None  # a lower-case word is no name
    assert named("standard discount after 4 years?", TIERS)[:2] == ("range", ["3-5 years"])
