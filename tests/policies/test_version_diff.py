"""The section-by-section diff of two versions, on plain data (no database): added, removed,
changed and renumbered sections, the word diff of a changed text, and table rows matched by
their label."""
from __future__ import annotations

from policypal.policies.version_diff import SectionText, TextOp, heading_key, version_diff, word_diff

TABLE_V1 = "Allowance by grade.\n\n| Grade | Days | Notes |\n| --- | --- | --- |\n| L1 | 20 | none |\n| L2 | 22 | none |\n| L3 | 24 | senior |"
TABLE_V2 = "Allowance by grade.\n\n| Grade | Days | Notes |\n| --- | --- | --- |\n| L1 | 20 | none |\n| L2 | 23 | none |\n| L4 | 28 | new grade |"


def s(*path: str, text: str) -> SectionText:
    return SectionText(path=("Leave Policy", *path), text=text)


V1 = [
    s("1 Purpose", text="This policy sets out leave entitlements."),
    s("2 Annual leave", text="Employees get 24 days of annual leave a year."),
    s("3 Sick leave", text="Sick leave is recorded in the HR system."),
    s("4 Carry forward", text="Up to 5 days may be carried forward."),
    s("5 Allowances", text=TABLE_V1),
]
V2 = [
    s("1 Purpose", text="This policy sets out leave entitlements."),
    s("2 Annual leave", text="Employees get 26 days of annual leave a year."),
    s("3 Carry forward", text="Up to 5 days may be carried forward."),
    s("4 Allowances", text=TABLE_V2),
    s("5 Parental leave", text="Parents get 26 weeks of leave."),
]


def by_status(diff) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for section in diff.sections:
        out.setdefault(section.status, []).append(section.path[-1])
    return out


def test_added_removed_changed_and_unchanged_sections():
    diff = version_diff(V1, V2)
    assert by_status(diff) == {
        "unchanged": ["1 Purpose"],
        "changed": ["2 Annual leave", "3 Carry forward", "4 Allowances"],
        "removed": ["3 Sick leave"],
        "added": ["5 Parental leave"],
    }
    assert [s.path[-1] for s in diff.added] == ["5 Parental leave"]
    assert [s.path[-1] for s in diff.removed] == ["3 Sick leave"]
    assert diff.unchanged_count == 1 and diff.has_changes
    # document order: the removed section where it stood, before the next section both have
    assert [s.path[-1] for s in diff.sections] == [
        "1 Purpose", "2 Annual leave", "3 Sick leave", "3 Carry forward", "4 Allowances", "5 Parental leave"]


def test_a_changed_text_has_a_word_diff():
    changed = version_diff(V1, V2).changed[0]
    assert changed.old.text == "Employees get 24 days of annual leave a year."
    assert changed.text_ops == (
        TextOp("equal", "Employees get "), TextOp("delete", "24"), TextOp("insert", "26"),
        TextOp("equal", " days of annual leave a year."),
    )
    assert not changed.renumbered and not changed.tables


def test_a_renumbered_section_is_the_same_section():
    carry = version_diff(V1, V2).changed[1]
    assert carry.renumbered
    assert (carry.old.path[-1], carry.new.path[-1]) == ("4 Carry forward", "3 Carry forward")
    assert carry.text_ops == () and carry.tables == ()
    assert heading_key("3.2 Carry forward") == heading_key("3.3  carry Forward") == "carry forward"
    assert heading_key("2026 in review") == "in review"  # documented: a leading number is a number
    assert heading_key("A.1 Scope") == "a.1 scope"  # a letter is not taken for a number


def test_changed_table_rows_by_label():
    allowances = version_diff(V1, V2).changed[2]
    assert allowances.text_ops == ()  # the paragraph above the table is the same
    (table,) = allowances.tables
    assert table.header == ("Grade", "Days", "Notes")
    rows = {(row.status, row.label) for row in table.rows}
    assert rows == {("changed", "L2"), ("added", "L4"), ("removed", "L3")}
    l2 = next(row for row in table.rows if row.label == "L2")
    assert [(c.column, c.old, c.new) for c in l2.changes] == [("Days", "22", "23")]
    assert l2.cells_shown == [("L2", None), ("23", "22"), ("none", None)]


def test_rows_are_matched_by_label_not_position():
    moved = TABLE_V1.replace("| L1 | 20 | none |\n| L2 | 22 | none |", "| L2 | 22 | none |\n| L1 | 20 | none |")
    diff = version_diff([s("5 Allowances", text=TABLE_V1)], [s("5 Allowances", text=moved)])
    assert diff.sections[0].status == "unchanged"


def test_added_and_removed_sections_carry_their_tables_as_rows():
    diff = version_diff([], [s("4 Allowances", text=TABLE_V2)])
    (added,) = diff.added
    assert added.new.prose == "Allowance by grade."
    assert [(r.status, r.label) for r in added.tables[0].rows] == [("added", "L1"), ("added", "L2"), ("added", "L4")]


def test_repeated_headings_are_matched_in_order():
    old = [s("Notes", text="First note."), s("Notes", text="Second note.")]
    new = [s("Notes", text="First note."), s("Notes", text="Second note, changed.")]
    assert [x.status for x in version_diff(old, new).sections] == ["unchanged", "changed"]


def test_identical_versions_have_no_changes():
    diff = version_diff(V1, V1)
    assert not diff.has_changes and diff.unchanged_count == len(V1)
    assert diff.runs == [("unchanged", list(diff.sections))]


def test_word_diff_joins_back_to_both_texts():
    old, new = "Claims go to the manager within 30 days.", "Claims go to finance within 60 days, with receipts."
    ops = word_diff(old, new)
    assert "".join(o.text for o in ops if o.op != "insert") == old
    assert "".join(o.text for o in ops if o.op != "delete") == new
