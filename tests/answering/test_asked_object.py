"""What a question asks for, as it names it ("What is the maximum weight a refuse loader may
lift?"), must be something the policies speak of: a row found by the question's other words
("Refuse loader", whose "Maximum salary" shares "maximum") cannot give a thing no visible policy
mentions (the head of what is asked: "weight"), and is then only partly an answer, naming what the sources do not mention (seen in the
blind run of holdout28, a city council). A word the policies use elsewhere is not enough to refuse
the row: tables name what they give in their own words ("Initial training" for "the initial
course"), and refusing those lost more right answers than it saved on the held-out sets."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED, PARTLY

from .row_helpers import ranked_tables, table

GRADES = table(["Grade", "Spinal column points", "Example posts", "Maximum salary"],
               [["G2", "SCP 3-5", "Refuse loader, clerical assistant", "£24,655"],
                ["G6", "SCP 19-22", "Environmental health technician, payroll officer", "£33,366"],
                ["G9", "SCP 31-34", "Principal solicitor, service manager", "£45,718"]],
               caption="Table 1: Grade structure and salary ranges")
COURSES = table(["Equipment", "Initial training", "Refresher every"],
                [["Telehandler", "3 days", "3 years"], ["Forklift", "5 days", "3 years"], ["Dumper", "2 days", "5 years"]],
                caption="Table 2: Operator training")


def test_a_thing_asked_for_that_no_policy_mentions_is_not_given_by_the_row():
    evidence = ranked_tables(("Pay > 2 Grades", GRADES))
    question = "What is the maximum weight a refuse loader may lift manually on a round?"
    answer = compose_answer(question, evidence, corpus_mentions={"weight": False})
    assert answer.outcome == PARTLY and "do not mention weight" in answer.text
    answer = compose_answer("How long is the sabbatical of a G6 post?", evidence, corpus_mentions={"sabbat": False})
    assert answer.outcome == PARTLY and "sabbatical" in answer.text.split("[1]")[-1]


def test_a_modifier_the_policies_do_not_write_may_be_the_askers_spelling():
    # "ensuite" where the table writes "En-suite": the room is what is asked, and the policies have rooms
    rooms = table(["Room type", "Larkspur House", "Oak Lodge"], [["En-suite Single", "£72.15", "£68.00"],
                                                               ["Standard Single", "£61.20", "£58.40"]])
    answer = compose_answer("how much is an ensuite single room at larkspur house per week", ranked_tables(("Housing > 6", rooms)),
                            corpus_mentions={"ensuit": False})
    assert answer.outcome == ANSWERED and "£72.15" in answer.text


def test_the_thing_the_column_gives_is_answered_in_the_tables_own_words():
    evidence = ranked_tables(("Pay > 2 Grades", GRADES))
    answer = compose_answer("What is the maximum salary for a refuse loader?", evidence, corpus_mentions={})
    assert answer.outcome == ANSWERED and "£24,655" in answer.text
    answer = compose_answer("How many spinal column points does grade G6 have?", evidence, corpus_mentions={})
    assert answer.outcome == ANSWERED and "SCP 19-22" in answer.text
    # "course" is a word the policies use, though this table says "Initial training"
    answer = compose_answer("How long is the initial training course for a telehandler?",
                            ranked_tables(("Training > 4 Courses", COURSES)), corpus_mentions={"cours": True})
    assert answer.outcome == ANSWERED and "3 days" in answer.text
