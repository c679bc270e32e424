"""What changed between two versions of a policy, section by section: pure code on plain data.

No Django here: the selector `policy_version_diff` reads the two versions' section chunks and
passes their heading trails and texts in (`SectionText`), this module says what changed.

How sections are matched: by their heading trail with each heading's leading section number
taken off, case and spacing ignored ("Leave > 3.2 Carry forward" matches "Leave > 3.3 Carry
forward", so a renumbered section shows as the same section with a new number, not as removed
and added). A trail that occurs twice in one version is matched by its occurrence (the first
with the first). A renamed heading is a removed and an added section.

Within a section, the text outside its tables is compared word by word (difflib), and each pipe
table (the section text's own "| a | b |" lines, read by `chunking.pipe_tables`) with the table
at the same place in the other version: rows are matched by their label (the first cell, case
and spacing ignored; a repeated label by its occurrence), a matched row is changed when a cell
under the same column name differs.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from chunking.pipe_tables import PipeTable, is_pipe_line, read_tables

BREADCRUMB_SEPARATOR = " > "
# A heading's leading number: "3", "3.2", "3.2.1.", "4)", "A.1" is left alone (could be a word).
_SECTION_NUMBER = re.compile(r"^\s*\d+(?:\.\d+)*[.)]?\s+")
_TOKEN = re.compile(r"\s+|[^\s]+")


@dataclass(frozen=True)
class SectionText:
    """One section of a version: its heading trail (document title first) and its display text."""

    path: tuple[str, ...]
    text: str

    @property
    def prose(self) -> str:
        """The text outside its tables."""
        return split_tables(self.text)[0]


@dataclass(frozen=True)
class TextOp:
    """A run of the word diff: op is "equal", "insert" (only in the newer text) or "delete"."""

    op: str
    text: str


@dataclass(frozen=True)
class CellChange:
    column: str
    old: str
    new: str


@dataclass(frozen=True)
class RowChange:
    """A table row: status "added", "removed" or "changed"; `cells` is the row as it is now
    (as it was, for a removed row); `changes` the cells that differ."""

    status: str
    label: str
    header: tuple[str, ...]
    cells: tuple[str, ...]
    changes: tuple[CellChange, ...] = ()

    @property
    def cells_shown(self) -> list[tuple[str, str | None]]:
        """(cell, its former value when it changed, else None), column by column."""
        changed = {change.column: change.old for change in self.changes}
        return [(cell, changed.get(name)) for name, cell in zip(_by_column(self.header, self.cells), self.cells)]


@dataclass(frozen=True)
class TableDiff:
    caption: str
    header: tuple[str, ...]
    rows: tuple[RowChange, ...]
    status: str = "changed"  # or "added" / "removed": a whole table only in one version


@dataclass(frozen=True)
class SectionDiff:
    """status: "added", "removed", "changed" or "unchanged". `old` / `new` are None for an added /
    removed section; `text_ops` is empty when the text outside tables is the same."""

    status: str
    old: SectionText | None
    new: SectionText | None
    text_ops: tuple[TextOp, ...] = ()
    tables: tuple[TableDiff, ...] = ()

    @property
    def path(self) -> tuple[str, ...]:
        return (self.new or self.old).path

    @property
    def renumbered(self) -> bool:
        return bool(self.old and self.new and self.old.path != self.new.path)


@dataclass(frozen=True)
class VersionDiff:
    sections: tuple[SectionDiff, ...] = field(default_factory=tuple)  # merged document order

    def _with(self, status: str) -> list[SectionDiff]:
        return [s for s in self.sections if s.status == status]

    @property
    def added(self) -> list[SectionDiff]:
        return self._with("added")

    @property
    def removed(self) -> list[SectionDiff]:
        return self._with("removed")

    @property
    def changed(self) -> list[SectionDiff]:
        return self._with("changed")

    @property
    def unchanged_count(self) -> int:
        return len(self._with("unchanged"))

    @property
    def has_changes(self) -> bool:
        return any(s.status != "unchanged" for s in self.sections)

    @property
    def runs(self) -> list[tuple[str, list[SectionDiff]]]:
        """The sections for a page: each changed, added or removed one alone, consecutive
        unchanged ones together ("unchanged", [...])."""
        out: list[tuple[str, list[SectionDiff]]] = []
        for section in self.sections:
            if section.status == "unchanged" and out and out[-1][0] == "unchanged":
                out[-1][1].append(section)
            else:
                out.append((section.status, [section]))
        return out


def heading_key(heading: str) -> str:
    """A heading as sections are matched: its leading number off, case and spacing ignored."""
    return " ".join(_SECTION_NUMBER.sub("", heading).split()).casefold()


def section_key(path: Sequence[str]) -> tuple[str, ...]:
    return tuple(heading_key(h) for h in path)


def version_diff(old: Sequence[SectionText], new: Sequence[SectionText]) -> VersionDiff:
    """The sections of `new` against those of `old`, in document order (a removed section where
    it stood, before the next section both versions have)."""
    old_index = _keyed(old)
    matched: dict[int, int] = {}  # new position -> old position
    for position, key in enumerate(_keys(new)):
        if key in old_index:
            matched[position] = old_index.pop(key)
    taken = set(matched.values())
    out: list[SectionDiff] = []
    next_old = 0

    def removed_before(limit: int) -> None:
        nonlocal next_old
        while next_old < limit:
            if next_old not in taken:
                out.append(SectionDiff("removed", old[next_old], None, tables=_whole_tables(old[next_old], "removed")))
            next_old += 1

    for position, section in enumerate(new):
        if position in matched:
            removed_before(matched[position])
            next_old = max(next_old, matched[position] + 1)
            out.append(_section_pair(old[matched[position]], section))
        else:
            out.append(SectionDiff("added", None, section, tables=_whole_tables(section, "added")))
    removed_before(len(old))
    return VersionDiff(tuple(out))


def _keys(sections: Sequence[SectionText]) -> list[tuple]:
    seen: dict[tuple, int] = {}
    keys = []
    for section in sections:
        key = section_key(section.path)
        seen[key] = seen.get(key, 0) + 1
        keys.append((key, seen[key]))
    return keys


def _keyed(sections: Sequence[SectionText]) -> dict[tuple, int]:
    return {key: position for position, key in enumerate(_keys(sections))}


def _section_pair(old: SectionText, new: SectionText) -> SectionDiff:
    old_prose, old_tables = split_tables(old.text)
    new_prose, new_tables = split_tables(new.text)
    ops = tuple(word_diff(old_prose, new_prose)) if old_prose != new_prose else ()
    tables = tuple(table_diffs(old_tables, new_tables))
    changed = bool(ops or tables or old.path != new.path)
    return SectionDiff("changed" if changed else "unchanged", old, new, text_ops=ops, tables=tables)


def _whole_tables(section: SectionText, status: str) -> tuple[TableDiff, ...]:
    """The tables of a section only one version has: every row added (or removed)."""
    return tuple(_whole_tables_of(split_tables(section.text)[1], status))


def split_tables(text: str) -> tuple[str, list[PipeTable]]:
    """The text outside pipe tables (blank-line separated paragraphs kept) and the tables."""
    prose = "\n".join(line for line in text.splitlines() if not is_pipe_line(line))
    return re.sub(r"\n{3,}", "\n\n", prose).strip(), read_tables(text)


def word_diff(old: str, new: str) -> list[TextOp]:
    """Word-level runs turning `old` into `new` (whitespace kept, so the runs join back)."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    ops: list[TextOp] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            _append(ops, "equal", "".join(a[i1:i2]))
            continue
        if tag in ("delete", "replace"):
            _append(ops, "delete", "".join(a[i1:i2]))
        if tag in ("insert", "replace"):
            _append(ops, "insert", "".join(b[j1:j2]))
    return ops


def _append(ops: list[TextOp], op: str, text: str) -> None:
    if not text:
        return
    if ops and ops[-1].op == op:
        ops[-1] = TextOp(op, ops[-1].text + text)
    else:
        ops.append(TextOp(op, text))


def table_diffs(old: Sequence[PipeTable], new: Sequence[PipeTable]) -> list[TableDiff]:
    """Tables compared by their place in the section (the first with the first); only tables
    with a difference are returned."""
    out = []
    for position in range(max(len(old), len(new))):
        if position >= len(old):
            out.extend(_whole_tables_of([new[position]], "added"))
        elif position >= len(new):
            out.extend(_whole_tables_of([old[position]], "removed"))
        else:
            rows = row_changes(old[position], new[position])
            if rows or old[position].header != new[position].header:
                out.append(TableDiff(new[position].caption, new[position].header, tuple(rows)))
    return out


def _whole_tables_of(tables: Sequence[PipeTable], status: str) -> list[TableDiff]:
    return [TableDiff(t.caption, t.header, tuple(RowChange(status, _label(r), t.header, r) for r in t.rows), status=status)
            for t in tables]


def row_changes(old: PipeTable, new: PipeTable) -> list[RowChange]:
    """Rows added, removed and changed, matched by label; in the newer table's order, a removed
    row after the rows of the newer table."""
    old_rows = {key: row for key, row in zip(_row_keys(old.rows), old.rows)}
    out: list[RowChange] = []
    for key, row in zip(_row_keys(new.rows), new.rows):
        before = old_rows.pop(key, None)
        if before is None:
            out.append(RowChange("added", _label(row), new.header, row))
            continue
        changes = _cell_changes(old.header, before, new.header, row)
        if changes:
            out.append(RowChange("changed", _label(row), new.header, row, changes))
    out.extend(RowChange("removed", _label(row), old.header, row) for row in old_rows.values())
    return out


def _label(row: Sequence[str]) -> str:
    return row[0] if row else ""


def _row_keys(rows: Sequence[Sequence[str]]) -> list[tuple[str, int]]:
    seen: dict[str, int] = {}
    keys = []
    for row in rows:
        label = " ".join(_label(row).split()).casefold()
        seen[label] = seen.get(label, 0) + 1
        keys.append((label, seen[label]))
    return keys


def _cell_changes(old_header, old_row, new_header, new_row) -> tuple[CellChange, ...]:
    """Cells compared under the same column name (by position when a table has no header)."""
    old_cells = _by_column(old_header, old_row)
    new_cells = _by_column(new_header, new_row)
    columns = list(new_cells) + [c for c in old_cells if c not in new_cells]
    return tuple(
        CellChange(column, old_cells.get(column, ""), new_cells.get(column, ""))
        for column in columns
        if old_cells.get(column, "") != new_cells.get(column, "")
    )


def _by_column(header: Sequence[str], row: Sequence[str]) -> dict[str, str]:
    names = [header[i] if i < len(header) and header[i] else f"column {i + 1}" for i in range(len(row))]
    out: dict[str, str] = {}
    for name, cell in zip(names, row):
        out[name if name not in out else f"{name} ({len(out) + 1})"] = cell
    return out
