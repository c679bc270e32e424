"""Seen in the blind run of holdout32 (a veterinary group): an initialism the asker writes for a
phrase the policy spells out ("ooh rate"); value columns spanning grades of several families ("VS1–VS3"
... "SVN2 and RVN1–RVN3"); a city row beside a row for the rest of its country; rows one code names
told apart by the rest of their labels ("Schedule 4 Part 2") or by another cell ("Stethoscope" for
"VS grades" and for "RVN and SVN grades"); "fortnightly" as how often; a verb naming its noun's
column ("restrained": "Restraint"); and a word naming code families ("a nurse": the RVN and SVN
grades, every one of which is a nurse)."""
from policypal.answering.compose import compose_answer
from policypal.answering.coverage import missing_value
from policypal.answering.evidence import ANSWERED
from policypal.answering.initialisms import spelt_out
from policypal.answering.table_codes import families_named, family_span
from policypal.answering.terms import equivalents, stems_of

from .row_helpers import named, ranked_tables, table

GRADES = table(
    ["Grade", "Typical role", "Annual salary", "Out-of-hours hourly rate"],
    [["VS1", "Newly qualified veterinary surgeon", "£36,400", "£24.10"],
     ["VS2", "Veterinary surgeon", "£40,150", "£26.35"],
     ["VS3", "Clinical director", "£44,800", "£28.90"],
     ["SVN1", "Student veterinary nurse, first year", "£22,300", "Not applicable"],
     ["SVN2", "Student veterinary nurse, later years", "£23,650", "£14.25"],
     ["RVN1", "Registered veterinary nurse", "£26,900", "£16.70"],
     ["RVN2", "Head nurse", "£28,750", "£17.85"]],
    caption="Table 1: Clinical grades",
)


def test_an_initialism_is_read_as_the_phrase_the_evidence_spells_out():
    texts = [" ".join(GRADES.headers), "Staff working from home must lock their screens."]
    assert spelt_out("vs2 ooh rate", texts) == "vs2 out-of-hours rate"
    assert spelt_out("can I wfh on Fridays", texts) == "can I working from home on Fridays"
    # a word the policies write themselves, an English word, or one no phrase fits: left alone
    assert spelt_out("what is the VS2 salary", texts) == "what is the VS2 salary"
    assert spelt_out("the toil rules", texts) == "the toil rules"
    assert spelt_out("any xyz rate", texts) == "any xyz rate"
    assert spelt_out("the ooh rate", ["OOH cover is paid", "Out-of-hours hourly rate"]) == "the ooh rate"
    assert named("vs2 out-of-hours rate", GRADES)[3] == ["Out-of-hours hourly rate"]


ON_CALL = table(
    ["On-call period", "VS1–VS3", "VS4–VS7", "SVN2 and RVN1–RVN3", "RVN4–RVN6"],
    [["Weekday night (Monday to Thursday, 19:00–08:00)", "£93", "£108", "£47", "£55"],
     ["Friday night (19:00–08:00)", "£104", "£121", "£52", "£61"],
     ["Christmas Eve night (24 December, 19:00–08:00)", "£206", "£238", "£103", "£119"]],
)


def test_a_grade_names_the_column_spanning_it_whatever_its_family():
    assert named("What's the on-call payment for a VS2 covering a Friday night?", ON_CALL)[1::2] == (
        ["Friday night (19:00–08:00)"], ["VS1–VS3"])
    assert named("weekday night on call rvn2", ON_CALL)[3] == ["SVN2 and RVN1–RVN3"]
    assert named("Christmas Eve night on call, I'm VS5", ON_CALL)[3] == ["VS4–VS7"]


LIMITS = table(
    ["Location", "Accommodation cap per night (room only)", "Day subsistence"],
    [["London (within the M25)", "£185", "£18.50"], ["Edinburgh", "£158", "£16.50"], ["Glasgow", "£129", "£14.50"],
     ["Other UK locations", "£98", "£12.25"], ["Dublin", "£171", "£19.50"]],
    caption="Table 2: Accommodation and subsistence limits by location",
)


def test_a_city_named_by_its_own_name_is_its_row_not_the_rest_of_its_country():
    assert named("Hotel cap per night in Edinburgh?", LIMITS)[1] == ["Edinburgh"]
    assert named("Hotel cap per night in Inverness?", LIMITS)[1] == ["Other UK locations"]


SCHEDULES = table(
    ["Schedule", "Examples held", "Stock check"],
    [["Schedule 2", "Morphine, methadone", "Weekly"],
     ["Schedule 3 (safe custody)", "Buprenorphine, temazepam", "Fortnightly"],
     ["Schedule 3 (exempt from safe custody)", "Midazolam, tramadol", "Monthly"],
     ["Schedule 4 Part 1", "Diazepam", "Quarterly"],
     ["Schedule 4 Part 2", "Anabolic steroids", "Every 6 months"]],
)


def test_rows_one_code_names_are_told_apart_by_the_whole_label_written():
    assert named("How often is stock counted for Schedule 4 Part 2 drugs?", SCHEDULES)[1] == ["Schedule 4 Part 2"]
    assert named("Stock check for Schedule 3 (safe custody)?", SCHEDULES)[1] == ["Schedule 3 (safe custody)"]
    assert named("stock check for schedule 4", SCHEDULES)[1] == ["Schedule 4 Part 1", "Schedule 4 Part 2"]


def test_fortnightly_says_how_often():
    assert missing_value("How often do we do a stock check?", "Stock check: Fortnightly") == ""
    assert missing_value("How often do we do a stock check?", "Stock check: by the pharmacist") == "how often"


XRAY = table(
    ["Procedure", "X-ray unit", "Restraint", "Lead apron"],
    [["Small animal thorax", "Fixed digital unit", "General anaesthesia or sedation", "Not required"],
     ["BVA/KC hip and elbow scoring", "Fixed digital unit", "General anaesthesia only, with a positioning trough", "Not required"],
     ["Equine foot and pastern", "Portable unit", "Sedation; horse held by an employee", "0.35 mm Pb"]],
)


def test_a_verb_names_the_column_of_its_noun():
    assert named("How do dogs need to be restrained for BVA hip scoring x-rays?", XRAY)[3] == ["Restraint"]


EQUIPMENT = table(
    ["Item", "Eligible employees", "Allowance", "Frequency"],
    [["Stethoscope", "VS grades", "£180", "Every 3 years"],
     ["Stethoscope", "RVN and SVN grades", "£95", "Every 3 years"],
     ["Scrubs", "All clinical employees", "£120", "Every year"]],
    caption="Table 3: Personal equipment allowances",
)
SERVICE = table(
    ["Completed years of continuous service", "Extra annual leave days", "Loyalty payment – VS grades",
     "Loyalty payment – RVN and SVN grades"],
    [["0-2 years", "0", "None", "None"], ["3-5 years", "2", "£725", "£380"], ["20+ years", "8", "£3,350", "£1,760"]],
    caption="Table 2: Service awards",
)


def test_a_word_every_row_of_some_code_families_writes_names_those_families():
    assert families_named("How much can a nurse claim towards a stethoscope?", [GRADES]) == (["RVN", "SVN"], {"nurs"})
    # a family the question writes a code of is told already; a word of every family names none
    assert families_named("What's the RVN2 salary for a nurse?", [GRADES])[0] == []
    assert families_named("What is a veterinary salary?", [GRADES])[0] == []


def test_a_loyalty_bonus_is_a_loyalty_payment():
    bonus = next(k for k in stems_of("my loyalty bonus") if "_" in k)
    assert next(k for k in stems_of("the loyalty payment") if "_" in k) in equivalents(bonus)


def test_the_row_or_column_for_those_families_answers_for_the_word():
    evidence = ranked_tables(("Equipment > 6.1", EQUIPMENT), ("Pay > 3. Grades", GRADES))
    answer = compose_answer("How much can a nurse claim towards a new stethoscope?", evidence, corpus_mentions={})
    assert answer.outcome == ANSWERED and "£95" in answer.text and "£180" not in answer.text, answer.text
    evidence = ranked_tables(("Pay > 6. Service awards", SERVICE), ("Pay > 3. Grades", GRADES))
    answer = compose_answer("I'm a nurse with 22 years' service. What's my loyalty bonus?", evidence, corpus_mentions={})
    assert answer.outcome == ANSWERED and "£1,760" in answer.text and "£3,350" not in answer.text, answer.text


# seen in the blind run of holdout33 (a rail operator): rows named by a description in a code
# table, a column named by a code its header spans, and a family most of whose rows share a word
RAIL_GRADES = table(
    ["Grade", "Job title", "Basic annual salary"],
    [["D1", "Trainee driver", "£37,150"], ["D2", "Driver (first year qualified)", "£52,480"], ["D3", "Driver", "£60,740"],
     ["D4", "Senior driver (multi-traction)", "£64,310"], ["D5", "Driver instructor", "£67,890"],
     ["G1", "Trainee conductor", "£26,940"], ["G2", "Conductor", "£33,870"], ["G3", "Senior conductor", "£36,520"],
     ["G4", "Train manager", "£39,780"], ["G5", "Conductor team leader", "£43,150"],
     ["S1", "Station assistant", "£24,380"], ["S2", "Station supervisor", "£31,920"]],
    caption="Table 1: Grades and basic salary",
)
TURNS = table(
    ["Type of turn", "D1–D3", "D4–D5", "G1–G5", "S1–S2"],
    [["Early turn", "£15.40", "£17.90", "£12.10", "£9.85"], ["Late turn", "£13.20", "£15.60", "£10.75", "£8.90"],
     ["Night turn", "£33.60", "£38.20", "£27.40", "£22.15"], ["Long turn", "£21.00", "£24.50", "£17.30", "£14.60"],
     ["Spare turn", "£8.50", "£9.75", "£7.20", "£6.40"], ["Rest-day working", "£60.00", "£68.00", "£48.00", "£40.00"],
     ["Short-notice change", "£25.00", "£28.00", "£20.00", "£16.00"], ["Christmas Day", "£210.00", "£235.00", "£175.00", "£140.00"]],
    caption="Table 2: Allowances per turn by type of turn and grade span",
)


def test_a_title_written_with_more_words_names_its_row_over_a_shorter_one():
    assert named("What does a senior driver earn?", RAIL_GRADES)[1] == ["D4"]
    assert named("Short-notice change pay for a senior driver on multi-traction?", RAIL_GRADES)[1] == ["D4"]
    assert named("What does a driver earn?", RAIL_GRADES)[1] == ["D3"]


LODGING = table(["Location", "Nightly accommodation cap"], [["Taunton", "£92"], ["Cardiff", "£105"], ["Other locations", "£85"]],
                caption="Table 8: Lodging caps by location")


def test_a_column_a_code_spans_and_a_row_name_a_cell():
    limits = table(["Type of turn", "Maximum rostered length", "Maximum continuous driving or train working"],
                   [["Early turn", "10 hours", "4 hours"], ["Late turn", "10 hours", "4 hours"],
                    ["Night turn", "9 hours", "3 hours 30 minutes"], ["Long turn", "12 hours", "4 hours"]],
                   caption="Table 3: Limits by type of turn")
    evidence = ranked_tables(("Pay > 3. Grades", RAIL_GRADES), ("Travel > 4. Lodging", LODGING),
                             ("Rostering > 4. Limits", limits), ("Pay > 7. Turn allowances", TURNS))
    answer = compose_answer("I'm an S2 supervisor at Taunton. How much extra do I get for working an early?", evidence,
                            corpus_mentions={})
    assert answer.outcome == ANSWERED and "£9.85" in answer.text and "£15.40" not in answer.text, answer.text


def test_a_word_most_rows_of_a_family_share_names_it_and_its_span():
    assert families_named("I'm a conductor. What's the night turn allowance?", [RAIL_GRADES])[0] == ["G"]
    assert family_span("G", [RAIL_GRADES]) == "G1 to G5"
    evidence = ranked_tables(("Pay > 7. Turn allowances", TURNS), ("Pay > 3. Grades", RAIL_GRADES))
    answer = compose_answer("I'm a conductor. What's the night turn allowance for me?", evidence, corpus_mentions={})
    assert "£27.40" in answer.text and "£33.60" not in answer.text, answer.text


def test_a_row_named_by_one_word_is_asked_when_a_code_names_its_column():
    from policypal.answering.compose import _about_table
    from policypal.answering.rows import RowMatch

    early = RowMatch(TURNS, (TURNS.rows[0],), (4,), how="label", partial=True, named_words=1)
    host = ranked_tables(("Pay > 7. Turn allowances", TURNS))[0]
    question = "I'm an S2 supervisor at Taunton. How much extra do I get for working an early?"
    assert _about_table(question, early, host, {"supervisor": True, "taunton": True}) == 1.0



FREE_RETURNS = table(
    ["Service band", "Employee", "Nominated partner", "Dependent child (each)", "Parent (each)"],
    [["0–4 years", "4 free returns", "2 free returns", "1 free return", "None"],
     ["5–9 years", "6 free returns", "3 free returns", "2 free returns", "None"],
     ["10–19 years", "8 free returns", "5 free returns", "3 free returns", "1 free return"]],
    caption="Table 7: Annual free returns by service band and family member",
)


def test_columns_by_family_member_are_named_by_the_person_asked_for():
    assert named("started 3 yrs ago, how many free returns do I get for myself", FREE_RETURNS)[1::2] == (
        ["0–4 years"], ["Employee"])
    assert named("12 years service, free returns for my wife?", FREE_RETURNS)[3] == ["Nominated partner"]
    assert named("7 years here, how many can my son have?", FREE_RETURNS)[3] == ["Dependent child (each)"]
    # a member no column is for is absent, not another member's figure
    assert named("I've been here 12 years. How many free returns does my brother get?", FREE_RETURNS)[::2] == (
        "absent", "brother")
