"""The pipe-table text that table chunks hold: what `chunking/tables.py` writes, `read_tables`
reads back whole, and every reader (linter, answer context, answer layer, pages) agrees on the
rows, the header, the caption and escaped pipes."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chunking import pipe_tables, tables
from chunking.lint import WARN_TABLE_HEADER, lint_chunk
from chunking.model import ChunkRecord, Table
from chunking.pipe_tables import PipeTable, read_table, read_tables

MEALS = "Table 6.1: Daily meal allowance\n| Grade | Metro city | Other |\n| --- | --- | --- |\n| L3 | 1,500 | 1,200 |\n| L4 | 2,400 \\| capped | 1,400 |"

# Cell text with the characters that matter here: pipes, backslashes, dashes, colons, spaces.
cell_text = st.text(alphabet=st.sampled_from(list("ab L4,.|\\-:*_ \t\n")), max_size=12)
captions = st.text(alphabet=st.sampled_from(list("Table 1:meals()|\\- ")), max_size=20).filter(
    lambda c: not c.strip().startswith("|")  # a line that starts with a pipe is a table line
)


@st.composite
def tables_to_render(draw) -> Table:
    width = draw(st.integers(1, 5))
    row = st.lists(cell_text, min_size=width, max_size=width).map(tuple)
    header = draw(row)
    body = draw(st.lists(row, min_size=1, max_size=6))
    return Table(header_rows=(header,), rows=tuple(body), caption=draw(captions))


@given(tables_to_render())
def test_a_rendered_table_reads_back_as_its_caption_column_names_and_rows(table):
    table = tables.normalised(table)
    if not table.header_rows or not table.rows:
        return  # nothing left to render once empty rows are dropped
    read = read_table(tables.render_table(table))
    assert read is not None
    assert read.caption == table.caption
    assert list(read.header) == tables.column_names(table)
    width = tables.column_count(table)
    assert read.rows == tuple(tuple(row) + ("",) * (width - len(row)) for row in table.rows)


@given(st.lists(cell_text, min_size=1, max_size=6))
def test_a_row_line_splits_back_into_its_cells(cells):
    line = pipe_tables.row_line(cells)
    assert "\n" not in line
    assert pipe_tables.split_cells(line) == tuple(" ".join(c.split()) for c in cells)


def test_escaped_pipes_stay_in_their_cell():
    [table] = read_tables(MEALS)
    assert table.rows[1] == ("L4", "2,400 | capped", "1,400")
    assert pipe_tables.row_line(["2,400 | capped"]) == "| 2,400 \\| capped |"


def test_caption_is_the_line_above_and_intro_the_text_before_it():
    table = read_table("Meals are paid per day.\n\nRates below.\n" + MEALS)
    assert table.caption == "Table 6.1: Daily meal allowance"
    assert table.intro == "Meals are paid per day.\nRates below."
    assert table.header == ("Grade", "Metro city", "Other")
    assert [row[0] for row in table.rows] == ["L3", "L4"]


def test_delimiter_rows_are_dashes_with_optional_colons():
    assert pipe_tables.is_delimiter_line("| --- | :---: | --: | :- |")
    assert pipe_tables.is_delimiter_line(pipe_tables.delimiter_line(3))
    assert not pipe_tables.is_delimiter_line("| L4 | 1,800 |")
    assert not pipe_tables.is_delimiter_line("| --- | n/a |")
    assert not pipe_tables.is_delimiter_line("--- | ---")  # not a pipe line
    assert not pipe_tables.is_delimiter_line("| |")


def test_without_a_delimiter_row_every_line_is_a_body_row():
    [table] = read_tables("| L1 | 100 |\n| L2 | 200 |")
    assert table.header == () and table.rows == (("L1", "100"), ("L2", "200"))
    assert read_table("| L1 | 100 |\n| L2 | 200 |") is None  # the pages show it as text


def test_each_column_slice_of_a_piece_is_its_own_table():
    piece = (
        "Rates\n| Grade | Paris |\n| --- | --- |\n| L1 | 10 |\n\n"
        "Rates\n| Grade | Lyon |\n| --- | --- |\n| L1 | 7 |"
    )
    first, second = read_tables(piece)
    assert (first.caption, first.header, first.rows) == ("Rates", ("Grade", "Paris"), (("L1", "10"),))
    assert (second.caption, second.header, second.rows) == ("Rates", ("Grade", "Lyon"), (("L1", "7"),))
    assert read_table(piece) is None


def test_a_table_ends_at_the_first_line_that_is_not_a_table_line():
    text = MEALS + "\nRates are reviewed every April.\n| x | y |"
    first, second = read_tables(text)
    assert len(first.rows) == 2
    assert second.caption == "Rates are reviewed every April." and second.rows == (("x", "y"),)
    assert read_table(MEALS + "\n\nRates are reviewed every April.") is None


def test_short_rows_are_padded_and_long_rows_keep_their_cells():
    [table] = read_tables("| A | B | C |\n| --- | --- | --- |\n| 1 |\n| 1 | 2 | 3 | 4 |")
    assert table.rows == (("1", "", ""), ("1", "2", "3", "4"))


def test_text_without_a_table_has_none():
    assert read_tables("Employees may work from home.\n\n- three days a week") == []
    assert read_table("") is None
    assert read_tables(MEALS)[0] == PipeTable(
        caption="Table 6.1: Daily meal allowance", header=("Grade", "Metro city", "Other"),
        rows=(("L3", "1,500", "1,200"), ("L4", "2,400 | capped", "1,400")),
    )


# --- the rules built on it --------------------------------------------------------------------

def _table_chunk(text: str) -> ChunkRecord:
    return ChunkRecord(id="t1", level="block", kind="table", parent_id="s1", ordinal=0, breadcrumb=("Travel",),
                       text=text, embed_text=text, token_count=40)


def test_lint_wants_every_table_of_a_piece_under_its_header():
    assert WARN_TABLE_HEADER not in lint_chunk(_table_chunk(MEALS))
    assert WARN_TABLE_HEADER in lint_chunk(_table_chunk("Table 6.1\n| L3 | 1,500 |\n| L4 | 1,800 |"))
    assert WARN_TABLE_HEADER in lint_chunk(_table_chunk(MEALS + "\n\nTable 6.1 (continued)\n| L5 | 2,000 |"))
    assert WARN_TABLE_HEADER in lint_chunk(_table_chunk("No table here."))


def test_a_row_sentence_holds_its_rows_cells_in_order():
    table = tables.normalised(Table((("Grade", "Metro city"),), (("L4", "2,400 | capped"), ("L5", "2,400"))))
    sentences = [sentence for _, sentence in tables.row_sentences(table)]
    [read] = read_tables(tables.render_table(table))
    assert [tables.sentence_holds_row(s, row) for s, row in zip(sentences, read.rows)] == [True, True]
    assert not tables.sentence_holds_row(sentences[1], read.rows[0])
    assert not tables.sentence_holds_row("Metro city: 2,400, Grade L4", ("L4", "2,400"))  # out of order
    assert not tables.sentence_holds_row("anything", ("", ""))  # an empty row is in no sentence
