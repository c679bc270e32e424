"""Items (blocks or their parts) and the greedy packer that groups them into pieces.

An item is a whole block or, when a block must be split, one of its atoms: a
sentence, a list item (with the list intro as a repeated header), a code line,
or a table row (with caption and column header as a repeated header). ``glue``
marks an item that must stay with the item before it.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from . import tables
from .model import Block, Table
from .rules import is_lead_in, is_qualifier
from .sentences import split_sentences

GLUE_QUALIFIER = "qualifier"  # qualifies the rule before it
GLUE_LEAD_IN = "lead-in"  # follows an introduction ("... as follows:") or a carried heading

Fits = Callable[[Sequence["Item"]], bool]
Overflow = Callable[[list["Item"]], list[list["Item"]]]


@dataclass(frozen=True)
class Item:
    text: str
    kind: str  # "text", "heading", "list", "code" or "table"
    block: Block
    header: str = ""  # shown once before the first item of its block in a piece
    joiner: str = "\n\n"  # separator after a previous part of the same block
    glue: str = ""  # "", GLUE_QUALIFIER or GLUE_LEAD_IN
    whole: bool = True  # False for a part of a block


def block_items(blocks: Sequence[Block]) -> list[Item]:
    """Whole-block items in reading order, with glue to the previous item set."""
    items: list[Item] = []
    for block in blocks:
        item = whole_block_item(block)
        if item is None:
            continue
        items.append(replace(item, glue=_glue_to_previous(items[-1] if items else None, item)))
    return items


def whole_block_item(block: Block) -> Item | None:
    if block.kind == "table":
        if block.table is None:
            return None
        table = tables.normalised(block.table)
        text = tables.render_table(table)
        return Item(text, "table", block) if table.rows or table.header_rows else None
    if block.kind == "list":
        text = render_list(block)
        return Item(text, "list", block) if text else None
    if block.kind == "code":
        text = block.text.strip("\n").rstrip()
        return Item(text, "code", block) if text.strip() else None
    text = block.text.strip()
    if not text:
        return None
    return Item(text, "heading" if block.kind == "heading" else "text", block)


def render_list(block: Block) -> str:
    intro = block.text.strip()
    lines = [f"- {' '.join(item.split())}" for item in block.items if item.strip()]
    return "\n".join(([intro] if intro else []) + lines)


def _glue_to_previous(previous: Item | None, item: Item) -> str:
    if previous is None:
        return ""
    if previous.kind == "heading" or (previous.kind == "text" and is_lead_in(previous.text)):
        return GLUE_LEAD_IN
    if item.kind in ("text", "list") and is_qualifier(_opening_text(item)):
        return GLUE_QUALIFIER
    return ""


def _opening_text(item: Item) -> str:
    if item.kind == "list" and not item.block.text.strip():
        return next((i for i in item.block.items if i.strip()), "")
    return item.text


def explode(item: Item, fits_max: Fits) -> list[Item]:
    """Split a whole-block item into atoms; the first atom keeps the item's glue."""
    if item.kind == "text":
        atoms = _sentence_atoms(item)
    elif item.kind == "list":
        atoms = _list_atoms(item)
    elif item.kind == "code":
        atoms = _code_atoms(item)
    elif item.kind == "table" and not fits_max([item]):
        atoms = _row_atoms(item, fits_max)
    else:
        atoms = []
    if len(atoms) <= 1:
        return [item]
    return [replace(atoms[0], glue=item.glue)] + atoms[1:]


def _sentence_atoms(item: Item) -> list[Item]:
    return [
        Item(s, "text", item.block, joiner=" ", whole=False,
             glue=GLUE_QUALIFIER if is_qualifier(s) else "")
        for s in split_sentences(item.text)
    ]


def _list_atoms(item: Item) -> list[Item]:
    intro = item.block.text.strip()
    return [
        Item(f"- {' '.join(entry.split())}", "list", item.block, header=intro, joiner="\n", whole=False)
        for entry in item.block.items
        if entry.strip()
    ]


def _code_atoms(item: Item) -> list[Item]:
    lines: list[list[str]] = []  # a line with the blank lines after it (joined once: linear)
    for line in item.text.split("\n"):
        if lines and not line.strip():
            lines[-1].append(line)
        else:
            lines.append([line])
    return [Item("\n".join(group), "code", item.block, joiner="\n", whole=False) for group in lines]


def _row_atoms(item: Item, fits_max: Fits) -> list[Item]:
    """One atom per body row, under the caption and header; a table too wide for one row
    and its header to fit is first cut into column slices (label columns repeated), and
    its atoms are the rows of the first slice, then of the next one."""
    table = tables.normalised(item.block.table)  # type: ignore[arg-type]

    def fits(probe: Table) -> bool:
        return fits_max([Item(tables.render_table(probe), "table", item.block)])

    atoms = []
    for part in tables.column_slices(table, fits):
        header = tables.render_header(part)
        atoms.extend(
            Item(tables.render_row(part, row), "table", item.block, header=header, joiner="\n", whole=False)
            for row in part.rows
        )
    return atoms


def render(items: Sequence[Item]) -> str:
    """Display text of a piece: blocks separated by blank lines, headers once per block."""
    out: list[str] = []
    previous: Item | None = None
    for item in items:
        continues_block = (
            previous is not None
            and previous.block.id == item.block.id
            and not previous.whole
            and not item.whole
            and previous.header == item.header  # a table's column slices each show their header
        )
        if continues_block:
            out.append(item.joiner + item.text)
        else:
            if out:
                out.append("\n\n")
            if item.header:
                out.append(item.header + "\n")
            out.append(item.text)
        previous = item
    return "".join(out).strip()


def pack(
    items: Sequence[Item],
    *,
    fits_target: Fits,
    fits_max: Fits,
    overflow: Overflow,
    respect_glue: bool = True,
    isolate_tables: bool = True,
    fits_intro: Fits | None = None,
) -> list[list[Item]]:
    """Greedy packing of glued groups up to the target; a group over the max overflows.

    With ``isolate_tables`` a whole table never shares a piece with other text, except
    a short introduction right before it (what ``fits_intro`` accepts) when both fit the max.
    """
    pieces: list[list[Item]] = []
    current: list[Item] = []
    for group in glued_groups(items, respect_glue=respect_glue):
        isolated = isolate_tables and (_has_table(group) or _has_table(current))
        if current and not isolated and fits_target(current + group):
            current.extend(group)
            continue
        if current and isolate_tables and _short_intro_to_table(current, group, fits_intro, fits_max):
            current.extend(group)
            continue
        if current:
            pieces.append(current)
            current = []
        if fits_max(group):
            current = list(group)
        else:
            pieces.extend(overflow(group))
    if current:
        pieces.append(current)
    return pieces


def _short_intro_to_table(current: list[Item], group: list[Item], fits_intro: Fits | None, fits_max: Fits) -> bool:
    return (
        fits_intro is not None
        and _has_table(group)
        and not _has_table(current)
        and fits_intro(current)
        and fits_max(current + group)
    )


def glued_groups(items: Sequence[Item], *, respect_glue: bool) -> list[list[Item]]:
    groups: list[list[Item]] = []
    for item in items:
        if groups and respect_glue and item.glue:
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


def _has_table(items: Sequence[Item]) -> bool:
    return any(item.kind == "table" for item in items)


def piece_kind(items: Sequence[Item]) -> str:
    kinds = {"text" if item.kind == "heading" else item.kind for item in items}
    if "table" in kinds:
        return "table"
    special = kinds - {"text"}
    return special.pop() if len(special) == 1 else "text"
