"""A table too wide for one chunk is cut into column slices, its label column repeated: no
table piece and no row sentence passes the model's limit (before, a 150-column table gave
one oversized piece per row and one oversized sentence per row)."""
from __future__ import annotations

from chunking import tables
from chunking.pipe_tables import read_tables
from chunking.chunker import chunk_document
from chunking.config import ChunkConfig
from chunking.model import Block, Document, Table

COLUMNS = 150
ROWS = 4


def wide_document(columns: int = COLUMNS, rows: int = ROWS) -> Document:
    header = ("Grade",) + tuple(f"City {c:03d} rate" for c in range(1, columns))
    body = tuple((f"L{r}",) + tuple(f"{r * 1000 + c:,}" for c in range(1, columns)) for r in range(1, rows + 1))
    table = Table((header,), body, caption="Daily rates by city")
    return Document("Travel", (
        Block("b0001", "heading", "1 Rates", level=1),
        Block("b0002", "paragraph", "Rates depend on the city and the grade."),
        Block("b0003", "table", table=table),
    ))


def test_no_piece_or_row_sentence_of_a_wide_table_passes_the_limit(counter):
    chunks = chunk_document(wide_document(), config=ChunkConfig(), counter=counter)
    searchable = [c for c in chunks if c.searchable]
    assert max(c.token_count for c in searchable) <= counter.max_tokens
    assert not any(w.startswith("oversized") for c in searchable for w in c.warnings)


def test_every_slice_carries_caption_header_and_row_labels(counter):
    chunks = chunk_document(wide_document(), config=ChunkConfig(), counter=counter)
    pieces = [c for c in chunks if c.kind == "table"]
    assert len(pieces) > 1
    for piece in pieces:
        [table] = read_tables(piece.text)  # one slice a piece
        caption, names, rows = table.caption, table.header, table.rows
        assert caption == "Daily rates by city" and names[0] == "Grade"
        assert rows and all(row[0].startswith("L") and len(row) == len(names) for row in rows)
    # every cell lands under its own column name in some piece
    seen = {}
    for piece in pieces:
        for table in read_tables(piece.text):
            names, rows = table.header, table.rows
            for row in rows:
                seen.update({(row[0], name): value for name, value in zip(names[1:], row[1:])})
    assert len(seen) == ROWS * (COLUMNS - 1)
    assert seen[("L3", "City 042 rate")] == "3,042"


def test_row_sentences_of_a_wide_table_are_split_by_slice_and_name_their_row(counter):
    chunks = chunk_document(wide_document(), config=ChunkConfig(), counter=counter)
    sentences = [c.text for c in chunks if c.kind == "table_row"]
    assert len(sentences) > ROWS
    assert all(s.startswith("Daily rates by city: Grade L") for s in sentences)
    assert sum(s.count(" rate: ") for s in sentences) == ROWS * (COLUMNS - 1)
    assert "City 042 rate: 3,042" in next(s for s in sentences if s.startswith("Daily rates by city: Grade L3,") and "City 042" in s)
    rows_in_order = [s.split(",")[0] for s in sentences]
    assert rows_in_order == sorted(rows_in_order)  # all slices of a row, then the next row


def test_a_table_that_fits_is_not_sliced(counter):
    chunks = chunk_document(wide_document(columns=5), config=ChunkConfig(), counter=counter)
    [piece] = [c for c in chunks if c.kind == "table"]
    assert len(read_tables(piece.text)[0].header) == 5
    assert len([c for c in chunks if c.kind == "table_row"]) == ROWS


def test_column_slices_keep_the_label_columns_and_cover_every_column():
    table = tables.normalised(wide_document(columns=20).blocks[2].table)
    parts = tables.column_slices(table, lambda probe: tables.column_count(probe) <= 6)
    assert [tables.column_count(p) for p in parts] == [6, 6, 6, 5]
    assert all(p.header_rows[0][0] == "Grade" and p.caption == table.caption for p in parts)
    assert [name for p in parts for name in p.header_rows[0][1:]] == list(table.header_rows[0][1:])
    assert tables.column_slices(table, lambda probe: True) == [table]
