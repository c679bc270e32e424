"""Tables as readable text: a markdown pipe table, and one sentence per body row."""
from __future__ import annotations

import re
from collections.abc import Sequence

from .model import Table
from .pipe_tables import delimiter_line, row_line

HEADER_PART_SEPARATOR = " - "
_WRAPPING_EMPHASIS = re.compile(r"^(\*\*|__|\*|_)(?=\S)(.+?)(?<=\S)\1$")


def cell_text(cell: object) -> str:
    """Whitespace collapsed; markdown emphasis wrapping a whole cell ("**Grade**") removed."""
    text = " ".join(str(cell or "").split())
    return _WRAPPING_EMPHASIS.sub(r"\2", text)


def normalised(table: Table) -> Table:
    """Clean cells; promote the first row to the header when a table has none."""
    header_rows = tuple(tuple(cell_text(c) for c in row) for row in table.header_rows)
    rows = tuple(tuple(cell_text(c) for c in row) for row in table.rows)
    header_rows = tuple(row for row in header_rows if any(row))
    if not header_rows and len(rows) >= 2:
        header_rows, rows = rows[:1], rows[1:]
    return Table(
        header_rows=header_rows,
        rows=tuple(row for row in rows if any(row)),
        caption=cell_text(table.caption),
        row_header_columns=max(table.row_header_columns, 0),
    )


def column_count(table: Table) -> int:
    return max((len(row) for row in table.header_rows + table.rows), default=0)


def column_names(table: Table) -> list[str]:
    """One name per column, multi-row headers joined top to bottom ("Allowance - Metro")."""
    width = column_count(table)
    label_columns = label_column_count(table)
    filled = [
        _fill_spans(_padded(row, width), start=label_columns) if i < len(table.header_rows) - 1
        else _padded(row, width)
        for i, row in enumerate(table.header_rows)
    ]
    return [_join_header_parts([row[col] for row in filled]) for col in range(width)]


def label_column_count(table: Table) -> int:
    """Leading columns that name a row: as declared, else the first column."""
    width = column_count(table)
    if table.row_header_columns > 0:
        return min(table.row_header_columns, width)
    return 1 if width > 1 else 0


def _padded(row: tuple[str, ...], width: int) -> list[str]:
    return list(row) + [""] * (width - len(row))


def _fill_spans(row: list[str], *, start: int) -> list[str]:
    """An empty upper header cell continues the cell on its left (a merged cell)."""
    out = list(row)
    for col in range(max(start, 1), len(out)):
        if not out[col] and col - 1 >= start:
            out[col] = out[col - 1]
    return out


def _join_header_parts(parts: list[str]) -> str:
    kept: list[str] = []
    for part in parts:
        if part and (not kept or kept[-1].casefold() != part.casefold()):
            kept.append(part)
    return HEADER_PART_SEPARATOR.join(kept)


def render_header(table: Table) -> str:
    """Caption line (if any) plus the markdown header and separator lines."""
    width = column_count(table)
    lines = [table.caption] if table.caption else []
    if table.header_rows and width:
        names = column_names(table)
        lines.append(row_line(names))
        lines.append(delimiter_line(width))
    return "\n".join(lines)


def render_row(table: Table, row: tuple[str, ...]) -> str:
    return row_line(_padded(row, column_count(table)))


def render_table(table: Table) -> str:
    header = render_header(table)
    body = "\n".join(render_row(table, row) for row in table.rows)
    return "\n".join(part for part in (header, body) if part)


def row_sentences(table: Table) -> list[tuple[int, str]]:
    """(row index, sentence) for every body row that has a value besides its labels."""
    names = column_names(table)
    labels = label_column_count(table)
    out: list[tuple[int, str]] = []
    previous_labels = [""] * labels
    for index, row in enumerate(table.rows):
        cells = _padded(row, len(names))
        label_values = [cells[c] or previous_labels[c] for c in range(labels)]
        previous_labels = label_values
        sentence = _row_sentence(names, label_values, cells[labels:], labels, table.caption)
        if sentence:
            out.append((index, sentence))
    return out


def _row_sentence(
    names: list[str], label_values: list[str], values: list[str], labels: int, caption: str
) -> str:
    value_parts = [
        f"{names[labels + i]}: {value}" if names[labels + i] else value
        for i, value in enumerate(values)
        if value
    ]
    if not value_parts:
        return ""
    label_parts = [_label_part(names[c], value) for c, value in enumerate(label_values) if value]
    sentence = ", ".join(label_parts + value_parts)
    lead = caption.rstrip(" .:;")
    return f"{lead}: {sentence}" if lead else sentence


def _label_part(name: str, value: str) -> str:
    if not name or value.casefold().startswith(name.casefold()):
        return value
    return f"{name} {value}"


def sentence_holds_row(sentence: str, cells: Sequence[str]) -> bool:
    """Whether a row sentence (`row_sentences`) can have been made from these cells: every
    non-empty cell occurs in it, in order (an empty label cell took the row above's value).
    A row without a value is in no sentence."""
    text = " ".join(sentence.split())
    filled = [cell for cell in (" ".join(c.split()) for c in cells) if cell]
    position = 0
    for cell in filled:
        found = text.find(cell, position)
        if found < 0:
            return False
        position = found + len(cell)
    return bool(filled)


def column_slices(table: Table, fits) -> list[Table]:
    """A table too wide for one chunk, as narrower tables: each holds the label columns and
    as many of the next columns as ``fits`` accepts, with one header row of joined column
    names and the same caption. ``fits(probe)`` says whether a probe table (that header and
    one row of the longest cell of each column) fits; ``[table]`` when the whole width fits.

    Greedy from left to right: a column that does not fit even alone still gets a slice of
    its own (its rows are then flagged as oversized, as a single long row is)."""
    width = column_count(table)
    labels = label_column_count(table)
    names = column_names(table)
    longest = [max((row[c] for row in table.rows if c < len(row)), key=len, default="") for c in range(width)]

    def probe(columns: list[int]) -> Table:
        keep = list(range(labels)) + columns
        header = (tuple(names[c] for c in keep),) if table.header_rows else ()
        return Table(header, (tuple(longest[c] for c in keep),), caption=table.caption, row_header_columns=labels)

    values = list(range(labels, width))
    if len(values) <= 1 or fits(probe(values)):
        return [table]
    groups: list[list[int]] = []
    current: list[int] = []
    for column in values:
        if current and not fits(probe(current + [column])):
            groups.append(current)
            current = []
        current.append(column)
    groups.append(current)
    return [_columns_of(table, list(range(labels)) + group, names, labels) for group in groups]


def _columns_of(table: Table, keep: list[int], names: list[str], labels: int) -> Table:
    width = column_count(table)
    header = (tuple(names[c] for c in keep),) if table.header_rows else ()
    padded = (_padded(row, width) for row in table.rows)
    rows = tuple(tuple(cells[c] for c in keep) for cells in padded)
    return Table(header, rows, caption=table.caption, row_header_columns=labels)
