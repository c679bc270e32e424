"""Markdown pipe tables as text: the one writer and reader of the "| a | b |" lines in chunks.

A table chunk holds its table as an optional caption line, a header row, a delimiter row
("| --- | --- |") and one line per body row; a piece of a long table repeats caption and
header, and a piece of a wide one may hold several column slices, each under its own header.
`chunking/tables.py` writes these lines; the chunk linter, the answer context, the answer layer
and the chunk and citation pages read them back with `read_tables` or `read_table`.

The rules, as GitHub-flavoured Markdown has them: a table is a run of lines that start with a
pipe (a blank or any other line ends it); its first line is the header when the second is a
delimiter row (every cell dashes, optionally with colons at either end); a pipe inside a cell
is written escaped ("\\|"). Unlike GFM, a body row longer than the header keeps its extra
cells: a reader shows every word of a chunk rather than lose one.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

DELIMITER_CELL = "---"
_DELIMITER_CELL = re.compile(r":?-+:?")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


@dataclass(frozen=True)
class PipeTable:
    """A pipe table read from text.

    caption: the non-blank line right above the table ("" when there is none).
    header: the column names; () when the first line is not followed by a delimiter row (then
        every line is a body row).
    rows: the body rows, cells whitespace-collapsed and unescaped, each padded with "" to the
        header's width.
    intro: the non-blank lines above the caption, back to the previous table, one per line.
    """

    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    intro: str = ""


def row_line(cells: Iterable[str]) -> str:
    """One table line: "| a | b |", whitespace in a cell collapsed and its pipes escaped."""
    return "| " + " | ".join(" ".join(str(c).split()).replace("|", "\\|") for c in cells) + " |"


def delimiter_line(width: int) -> str:
    """The line under the header: "| --- | --- |" for two columns."""
    return row_line([DELIMITER_CELL] * width)


def is_pipe_line(line: str) -> bool:
    return line.strip().startswith("|")


def split_cells(line: str) -> tuple[str, ...]:
    """The cells of one table line, split on unescaped pipes, unescaped, whitespace collapsed."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return tuple(" ".join(cell.replace("\\|", "|").split()) for cell in _UNESCAPED_PIPE.split(inner))


def is_delimiter_line(line: str) -> bool:
    """Whether a line is a delimiter row: "| --- | :---: |"."""
    return is_pipe_line(line) and all(_DELIMITER_CELL.fullmatch(cell) for cell in split_cells(line))


def read_tables(text: str) -> list[PipeTable]:
    """Every pipe table in the text, in order."""
    tables, _ = _scan(text)
    return tables


def read_table(text: str) -> PipeTable | None:
    """The text as one table with its header, below an optional introduction and caption;
    None when it holds no table, more than one, a table without header, or text after it."""
    tables, trailing = _scan(text)
    if len(tables) != 1 or trailing or not tables[0].header:
        return None
    return tables[0]


def _scan(text: str) -> tuple[list[PipeTable], list[str]]:
    """The tables, and the non-blank lines after the last one."""
    tables: list[PipeTable] = []
    prose: list[str] = []  # non-blank lines since the previous table
    run: list[str] = []  # the pipe lines of the table being read
    for line in text.splitlines() + [""]:
        if is_pipe_line(line):
            run.append(line)
            continue
        if run:
            tables.append(_table(run, prose))
            run, prose = [], []
        if line.strip():
            prose.append(line.strip())
    return tables, prose


def _table(lines: list[str], above: list[str]) -> PipeTable:
    if len(lines) >= 2 and is_delimiter_line(lines[1]):
        header, body = split_cells(lines[0]), lines[2:]
    else:
        header, body = (), lines
    width = len(header)
    rows = tuple(cells + ("",) * (width - len(cells)) for cells in map(split_cells, body))
    caption = above[-1] if above else ""
    return PipeTable(caption=caption, header=header, rows=rows, intro="\n".join(above[:-1]))
