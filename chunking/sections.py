"""Sections from a flat block list, with a heading trail kept as a stack by level.

A heading of level N closes every open heading of level >= N, so the trail is
always (document title, level-1 heading, level-2 heading, ...). Tiny sections
(a heading with no body or one very short line) merge forward into the next
section that shares their parent, carrying their heading text with them.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from .model import Block, Document


@dataclass(frozen=True)
class Section:
    """A heading and the body blocks up to the next heading.

    ``blocks`` are in reading order. A block of kind "heading" inside ``blocks`` is
    the heading of a tiny section that was merged into this one: it is body text here.
    """

    index: int
    breadcrumb: tuple[str, ...]
    heading: Block | None
    blocks: tuple[Block, ...]

    @property
    def title(self) -> str:
        return self.breadcrumb[-1]

    @property
    def block_ids(self) -> tuple[str, ...]:
        """The source blocks of the section, each once (a paragraph split for its length is
        several blocks of one id)."""
        head = (self.heading.id,) if self.heading is not None else ()
        return tuple(dict.fromkeys(head + tuple(b.id for b in self.blocks)))

    @property
    def pages(self) -> tuple[int, ...]:
        head = (self.heading,) if self.heading is not None else ()
        return pages_of(head + self.blocks)

    @property
    def content_blocks(self) -> tuple[Block, ...]:
        """Body blocks that are not carried headings."""
        return tuple(b for b in self.blocks if b.kind != "heading")


def pages_of(blocks: Sequence[Block]) -> tuple[int, ...]:
    return tuple(sorted({page for block in blocks for page in block.pages}))


def clean_heading(text: str) -> str:
    return " ".join(text.split())


def build_sections(document: Document) -> list[Section]:
    """One section per heading (plus a preamble section for blocks before the first)."""
    title = clean_heading(document.title) or "Untitled document"
    stack: dict[int, str] = {}
    sections: list[Section] = []
    heading: Block | None = None
    body: list[Block] = []

    def close() -> None:
        if heading is not None or body:
            crumb = breadcrumb_from_stack(title, stack)
            sections.append(Section(len(sections), crumb, heading, tuple(body)))

    for block in document.blocks:
        if block.kind != "heading" or not clean_heading(block.text):
            body.append(block)
            continue
        close()
        push_heading(stack, max(block.level, 1), clean_heading(block.text))
        heading, body = block, []
    close()
    return sections


def push_heading(stack: dict[int, str], level: int, text: str) -> None:
    """Put a heading on the stack, dropping it and every deeper level first."""
    for open_level in [lvl for lvl in stack if lvl >= level]:
        del stack[open_level]
    stack[level] = text


def breadcrumb_from_stack(title: str, stack: dict[int, str]) -> tuple[str, ...]:
    trail = [title]
    for level in sorted(stack):
        text = stack[level]
        if text.casefold() != trail[-1].casefold() and not (
            len(trail) == 1 and text.casefold() == title.casefold()
        ):
            trail.append(text)
    return tuple(trail)


def merge_tiny_sections(
    sections: Sequence[Section], *, is_tiny: Callable[[Section], bool]
) -> list[Section]:
    """Merge tiny sections forward; drop heading-only sections that cannot merge."""
    merged: list[Section] = []
    carry: tuple[Block, ...] = ()
    for position, section in enumerate(sections):
        if carry:
            section = replace(section, blocks=carry + section.blocks)
            carry = ()
        following = sections[position + 1] if position + 1 < len(sections) else None
        if following is not None and is_tiny(section) and can_merge_forward(section, following):
            carry = carried_blocks(section, following)
            continue
        if section.content_blocks:
            merged.append(replace(section, index=len(merged)))
    return merged


def can_merge_forward(section: Section, following: Section) -> bool:
    """The next section is a sibling or a descendant of this one."""
    parent = section.breadcrumb[:-1] if section.heading is not None else section.breadcrumb
    return following.breadcrumb[: len(parent)] == parent


def carried_blocks(section: Section, following: Section) -> tuple[Block, ...]:
    """What a tiny section hands on: its heading unless the next trail already names it."""
    heading = section.heading
    if heading is None or clean_heading(heading.text) in following.breadcrumb:
        return section.blocks
    return (heading,) + section.blocks
