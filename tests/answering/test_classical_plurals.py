"""Latin and Greek plurals a policy writes ("Table 4: Fixed honoraria") stem as the singular the
asker writes ("a fixed honorarium"), so the table is what the question is about (seen in the
blind run of holdout22: the honorarium row was "partly answered", an absent code not said absent)."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import NOT_COVERED, Evidence, TableData, TableRow
from policypal.answering.terms import stem


def test_classical_plurals_stem_as_their_singular():
    # "Table 4: Fixed honoraria" is about an honorarium; "criteria" about a criterion
    assert stem("honoraria") == stem("honorarium") and stem("criteria") == stem("criterion")
    assert stem("appendices") == stem("appendix") and stem("syllabi") == stem("syllabus")


def test_an_absent_code_of_a_table_named_in_its_plural_is_said_absent():
    honoraria = TableData("Table 4: Fixed honoraria", ("Code", "Responsibility", "Annual amount"), tuple(
        TableRow((f"FH-0{i}", name, f"£{150 + 20 * i}"), chunk_id=980 + i)
        for i, name in enumerate(["Designated first aider", "Mental health first aider", "Fire warden"], start=1)))
    evidence = [Evidence(key=1, breadcrumb="Pay > 7 Honoraria", text="Table 4", kind="table", rank=1, similarity=0.5, table=honoraria)]
    answer = compose_answer("How much is fixed honorarium FH-09 worth per year?", evidence, corpus_mentions={})
    assert answer.outcome == NOT_COVERED and "no row for FH-09" in answer.text
    answer = compose_answer("How much is the fixed honorarium for being a mental health first aider?", evidence, corpus_mentions={})
    assert answer.outcome == "answered" and "£190" in answer.text and "£170" not in answer.text
