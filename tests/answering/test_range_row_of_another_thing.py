"""A number falling in a range row ("after eight months": "under 12 months") names a row of any
table of ranges: the row answers only when the things the question is about are the table's own
(caption, headers, section), not words of the policy's title that every table of the policy shares
nor verbs its section happens to use (seen in the blind run of holdout21: a desk bought with the
home-office allowance answered with the laptop buyout price)."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import Evidence, TableData, TableRow

POLICY = "Equipment and Home-Office Allowance Policy"
BUYOUT = TableData(
    "Table 4: Laptop buyout prices by device age",
    ("Device age", "Buyout price"),
    tuple(TableRow(cells, chunk_id=700 + i) for i, cells in enumerate([
        ("under 12 months", "72% of original price"), ("12-23 months", "48% of original price"),
        ("24-35 months", "27% of original price"), ("36 months or more", "£20 flat fee"),
    ])),
)
ITEMS = ("An Allowance Item becomes the employee's property 12 months after it was bought. An employee who "
         "resigns within 12 months of receiving a Setup Allowance must repay half of it.")


def _evidence():
    return [
        Evidence(key=1, breadcrumb=f"{POLICY} > 6. Ownership > 6.2 Laptop buyout", text="Table 4", kind="table", rank=1,
                 similarity=0.55, table=BUYOUT),
        Evidence(key=2, breadcrumb=f"{POLICY} > 6. Ownership > 6.3 Allowance Items", text=ITEMS, rank=2, similarity=0.5),
    ]


def test_a_range_row_of_a_table_about_another_thing_is_not_the_answer():
    answer = compose_answer("I bought a desk with my home-office allowance. If I leave after eight months, whose desk is it?",
                            _evidence(), corpus_mentions={})
    assert "72%" not in answer.text and "12 months after it was bought" in answer.text


def test_the_range_row_answers_when_the_question_is_about_its_table():
    answer = compose_answer("My laptop is eight months old. What is the buyout price if I leave?", _evidence(), corpus_mentions={})
    assert "72% of original price" in answer.text and "48%" not in answer.text
