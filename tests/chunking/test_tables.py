from chunking import tables
from chunking.model import Table


def meal_table(**kwargs) -> Table:
    return Table(
        header_rows=(("Grade", "Allowance", "", ""), ("", "Metro", "Tier 2", "Tier 3")),
        rows=(("L3", "1,500", "1,200", "900"), ("L4", "1,800", "1,400", "1,100")),
        **kwargs,
    )


def test_multi_row_headers_join_per_column_and_spans_fill_right():
    assert tables.column_names(meal_table()) == [
        "Grade",
        "Allowance - Metro",
        "Allowance - Tier 2",
        "Allowance - Tier 3",
    ]


def test_row_sentence_names_every_value_by_its_column():
    sentences = dict(tables.row_sentences(tables.normalised(meal_table())))
    assert sentences[1] == "Grade L4, Allowance - Metro: 1,800, Allowance - Tier 2: 1,400, Allowance - Tier 3: 1,100"


def test_row_sentence_leads_with_caption_and_uses_row_header_columns():
    table = Table(
        header_rows=(("Grade", "City", "Per day"),),
        rows=(("L4", "Metro city (includes Mumbai)", "1,800"), ("", "Other", "1,200")),
        caption="Meal allowance (INR).",
        row_header_columns=2,
    )
    sentences = [s for _, s in tables.row_sentences(tables.normalised(table))]
    assert sentences == [
        "Meal allowance (INR): Grade L4, City Metro city (includes Mumbai), Per day: 1,800",
        # a merged (empty) row-header cell repeats the value above it
        "Meal allowance (INR): Grade L4, City Other, Per day: 1,200",
    ]


def test_rendered_table_is_a_markdown_pipe_table_with_caption():
    text = tables.render_table(tables.normalised(meal_table(caption="Daily meal allowance")))
    lines = text.splitlines()
    assert lines[0] == "Daily meal allowance"
    assert lines[1] == "| Grade | Allowance - Metro | Allowance - Tier 2 | Allowance - Tier 3 |"
    assert lines[2] == "| --- | --- | --- | --- |"
    assert lines[-1] == "| L4 | 1,800 | 1,400 | 1,100 |"


def test_table_without_header_rows_promotes_its_first_row():
    table = tables.normalised(Table(header_rows=(), rows=(("Grade", "Days"), ("L1", "20"), ("L2", "22"))))
    assert table.header_rows == (("Grade", "Days"),)
    assert [s for _, s in tables.row_sentences(table)] == ["Grade L1, Days: 20", "Grade L2, Days: 22"]


def test_pipes_in_cells_are_escaped():
    table = tables.normalised(Table(header_rows=(("A", "B"),), rows=(("x|y", "1"),)))
    assert "| x\\|y | 1 |" in tables.render_table(table)
