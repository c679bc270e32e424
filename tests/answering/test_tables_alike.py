"""Two tables that both have the row a question names: the grade table has a "G7" row and the
relocation table a "G7 and above" column beside its distance rows. The code the question writes is
held by the relocation table's asked column as much as by the grade table's label, so the code does
not decide for the grade table; the words the question shares with each table's caption and
headers (not "and", not the labels) do. Seen in the blind run of holdout26 (a university)."""
from dataclasses import replace

from policypal.answering.compose import compose_answer

from .row_helpers import ranked_tables, table

GRADES = table(["Grade", "Example roles", "Normal scale", "Minimum salary", "Top of normal scale", "Contribution ceiling"],
               [["G6", "Research associate", "SP 27–32", "£38,205", "£43,414", "£44,263"],
                ["G7", "Lecturer, Research Fellow", "SP 33–38", "£45,163", "£51,753", "£53,353"],
                ["G8", "Senior Lecturer, manager", "SP 39–44", "£54,395", "£61,008", "£63,421"]],
               caption="Table 1: Grades, spine points and salaries")
# (the sentences of the grade table's section share words with the question: "moves", "maximum")
GRADES = replace(GRADES, notes=("Where a role is regraded upward, the employee moves to the lowest spine point of the new grade.",
                                "No employee may be paid above the maximum of their grade's contribution ceiling."))
RELOCATION = table(["Distance of move", "G4–G6", "G7 and above"],
                   [["Under 40 miles", "Not eligible", "Not eligible"], ["40–99 miles", "£2,750", "£3,500"],
                    ["100–249 miles", "£4,600", "£5,750"], ["250–499 miles", "£5,900", "£7,200"]],
                   caption="Table 4: Maximum relocation reimbursement by distance and grade", first_id=950)


QUESTION = "I'm taking up a G7 lectureship and moving 180 miles. What's the maximum relocation reimbursement?"


def test_the_code_in_an_asked_columns_header_keeps_that_table():
    from policypal.answering.compose import _by_written_codes
    from policypal.answering.rows import match_table

    by_grade, by_distance = match_table(QUESTION, GRADES), match_table(QUESTION, RELOCATION)
    assert [r.cells[0] for r in by_grade.rows] == ["G7"] and [r.cells[0] for r in by_distance.rows] == ["100–249 miles"]
    assert _by_written_codes(QUESTION, [by_distance, by_grade]) == [by_distance, by_grade]


def test_small_words_shared_with_a_caption_do_not_point_at_a_table():
    from policypal.answering.compose import _tables_the_words_point_at
    from policypal.answering.rows import match_table

    evidence = ranked_tables(("Pay, Grading and Relocation Policy > 3. Grades and spine points", GRADES),
                             ("Pay, Grading and Relocation Policy > 5. Relocation", RELOCATION))
    by_grade, by_distance = match_table(QUESTION, GRADES), match_table(QUESTION, RELOCATION)
    # the relocation table holds "maximum", "relocation", "reimbursement"; the grade table only the
    # policy title's "relocation" (and "and", which says nothing)
    assert _tables_the_words_point_at(QUESTION, [by_distance, by_grade], evidence) == [by_distance]


def test_the_answer_is_the_relocation_cell():
    evidence = ranked_tables(("Pay, Grading and Relocation Policy > 3. Grades", GRADES),
                             ("Pay, Grading and Relocation Policy > 5. Relocation", RELOCATION))
    answer = compose_answer(QUESTION, evidence, corpus_mentions={})
    assert "£5,750" in answer.text
    assert "£51,753" not in answer.text and "£53,353" not in answer.text and "£4,600" not in answer.text


def test_the_grade_table_answers_what_it_is_about():
    evidence = ranked_tables(("Pay, Grading and Relocation Policy > 3. Grades", GRADES),
                             ("Pay, Grading and Relocation Policy > 5. Relocation", RELOCATION))
    answer = compose_answer("What is the contribution ceiling for a G7?", evidence, corpus_mentions={})
    assert "£53,353" in answer.text and "£5,750" not in answer.text and "£63,421" not in answer.text


def test_the_words_of_the_question_point_at_one_table_before_a_code_only_the_other_has():
    # "the hotel cap in London for a B3": the hotel caps by country answer (London: United Kingdom,
    # capital city); the band table of daily subsistence has B3 and a UK column, but nothing of a
    # hotel or a cap (the shipped corpus answered with B3's subsistence, cited)
    bands = table(["Band", "UK and Ireland", "Europe"], [["B2", "32.50", "39.90"], ["B3", "30.40", "44.50"], ["B4", "32.90", "47.80"]],
                  caption="Table 1: Daily subsistence rates by band (GBP per day)")
    hotels = table(["Country", "Capital city", "Other cities"],
                   [["United Kingdom", "185", "118"], ["France", "193", "137"], ["Germany", "164", "131"]],
                   caption="Table 2: Hotel nightly caps by country (GBP per night, room only)", first_id=950)
    evidence = ranked_tables(("Rates > 2 Daily subsistence", bands), ("Rates > 3 Hotel accommodation", hotels))
    answer = compose_answer("What's the hotel cap in London for a B3?", evidence, corpus_mentions={})
    assert "185" in answer.text and "30.40" not in answer.text
    answer = compose_answer("What's the daily subsistence in London for a B3?", evidence, corpus_mentions={})
    assert "30.40" in answer.text and "185" not in answer.text
