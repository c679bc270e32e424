"""A code without the letter the table adds ("my TLR 2" where the rows are TLR 2a, 2b and 2c)
names those lettered rows, not an absent one; and a clause a chosen sentence refers to ("as set
out in 8.3") joins it when it stands further down the same chunk."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import Evidence

from .row_helpers import named, table

TLRS = table(["Allowance", "Annual value", "Example post"],
             [["TLR 1a", "£16,387", "Head of Faculty"], ["TLR 1b", "£13,240", "Head of a large Department"],
              ["TLR 2a", "£8,198", "Head of a smaller Department"], ["TLR 2b", "£6,045", "Key Stage Co-ordinator"],
              ["TLR 2c", "£3,870", "Subject Lead"], ["TLR 3", "£2,150", "Time-limited project"]],
             caption="Table 2: Teaching and Learning Responsibility payments")


def test_a_code_without_its_letter_names_the_lettered_rows():
    assert named("What is a TLR 2 worth?", TLRS)[:2] == ("label", ["TLR 2a", "TLR 2b", "TLR 2c"])
    assert named("What is a TLR 2b worth?", TLRS)[:2] == ("label", ["TLR 2b"])
    assert named("What is a TLR 3 worth?", TLRS)[:2] == ("label", ["TLR 3"])


def test_a_number_or_letter_the_table_lacks_is_still_absent():
    assert named("What is a TLR 4 worth?", TLRS)[0] == "absent"
    assert named("What is a TLR 2d worth?", TLRS)[:3] == ("absent", [], "TLR 2d")


SAFEGUARDING = Evidence(
    key=7, breadcrumb="Teachers' Pay Policy > 8. Restructures and salary safeguarding", rank=1, similarity=0.55,
    policy="teachers-pay",
    text="8.1 Where a Restructure removes or reduces a TLR held by a teacher, the teacher will receive salary "
         "safeguarding as set out in 8.3.\n\n"
         "8.2 Section 8.1 does not apply where the teacher has resigned from the post.\n\n"
         "8.3 Safeguarding will apply for a period of three years from the date of the change, during which the "
         "teacher keeps the cash value of the allowance.\n\n"
         "8.4 Safeguarding ends early if the teacher declines a suitable alternative post.",
)


def test_a_clause_referred_to_further_down_the_same_chunk_joins_the_reference():
    answer = compose_answer("My post is removed in a restructure: do I get salary safeguarding for my TLR?", [SAFEGUARDING],
                            corpus_mentions={})
    assert "as set out in 8.3" in answer.text
    assert "period of three years" in answer.text


VISITS = table(["Type of visit", "Proposal submitted", "Final details and consent deadline"],
               [["Day trip", "15 school days before", "5 school days before"],
                ["Residential 1-3 nights", "8 weeks before departure", "2 weeks before departure"],
                ["Residential 4+ nights", "12 weeks before departure", "4 weeks before departure"]],
               caption="Table 1: Approval deadlines by type of visit")


def test_a_number_spelt_before_the_word_the_range_labels_count_names_the_range_row():
    asked = "What's the deadline for final details and consent on a five night residential?"
    assert named(asked, VISITS) == ("range", ["Residential 4+ nights"], "", ["Final details and consent deadline"])
    assert named("What's the consent deadline for a residential of two nights?", VISITS)[:2] == ("range", ["Residential 1-3 nights"])
