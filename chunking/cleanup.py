"""Whole-document clean-up applied to every converted document before chunking.

Pure functions over text, page lines and ``Document``; no I/O, no Docling.
Order matters and is fixed by ``clean_document``: furniture first (so a footer
never glues two paragraphs together), then page-break joins, then text repair,
then the small structural attachments (list intros, table captions).
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

from chunking.model import Block, Document, Table

# --- text repair -------------------------------------------------------------

_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"), None)
_SPACES = re.compile(r"[ \t\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
# From a word's start only, without backtracking: tried inside a long word, "\w+" made
# this quadratic (10 s for one 40,000-letter word).
_HYPHEN_BREAK = re.compile(r"(?<!\w)(\w++)[-\u2010\u2011]\s*\n\s*(\w+)")
_HYPHENATED_WORD = re.compile(r"\b\w+-\w+\b")
_WORD = re.compile(r"\w+")
# Prefixes that keep their hyphen even when split at a line end ("self-service").
_KEEP_HYPHEN_PREFIXES = frozenset({"self", "non", "ex", "all", "half", "cross", "well", "co", "e"})


def normalise_whitespace(text: str) -> str:
    """One space between words, no invisible characters, no line breaks."""
    text = unicodedata.normalize("NFC", text).translate(_INVISIBLE)
    text = text.replace("\r", "\n")
    return _SPACES.sub(" ", text.replace("\n", " ")).strip()


def normalise_code(text: str) -> str:
    """Code keeps its indentation and line breaks; only trailing blanks go."""
    text = unicodedata.normalize("NFC", text).translate(_INVISIBLE).replace("\r\n", "\n")
    lines = [line.rstrip() for line in text.replace("\u00a0", " ").split("\n")]
    return "\n".join(lines).strip("\n")


def hyphenation_vocabulary(texts: Iterable[str]) -> tuple[frozenset[str], frozenset[str]]:
    """Words and hyphenated words seen inside lines, to decide line-end hyphens."""
    words: set[str] = set()
    hyphenated: set[str] = set()
    for text in texts:
        for line in text.split("\n"):
            words.update(w.lower() for w in _WORD.findall(line))
            hyphenated.update(h.lower() for h in _HYPHENATED_WORD.findall(line))
    return frozenset(words), frozenset(hyphenated)


def rejoin_hyphenation(
    text: str,
    words: frozenset[str] = frozenset(),
    hyphenated: frozenset[str] = frozenset(),
) -> str:
    """Join words split with a hyphen at a line end: "reimburse-\\nment" -> "reimbursement".

    A real compound keeps its hyphen: when the document spells it with a hyphen
    elsewhere and never joined, when its first part is a prefix such as "self",
    or when the second part does not start in lower case ("COVID-\\n19").
    """

    def join(match: re.Match[str]) -> str:
        head, tail = match.group(1), match.group(2)
        compound = f"{head}-{tail}"
        if not tail[0].islower() or head[-1].isdigit():
            return compound
        joined = head + tail
        if compound.lower() in hyphenated and joined.lower() not in words:
            return compound
        if head.lower() in _KEEP_HYPHEN_PREFIXES and joined.lower() not in words:
            return compound
        return joined

    return _HYPHEN_BREAK.sub(join, text)


# --- page furniture (headers, footers, page numbers) -------------------------

_PAGE_NUMBER_LINE = re.compile(
    r"^\W*(?:page|p\.|pg\.?|seite|página)?\s*\d{1,4}(?:\s*(?:of|/|von|de)\s*\d{1,4})?\W*$",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")
_ROMAN_PAGE = re.compile(r"^\W*[ivxlc]{1,6}\W*$", re.IGNORECASE)


def furniture_key(line: str) -> str:
    """A line with its numbers masked, so "Page 7 of 22" and "Page 8 of 22" match."""
    return _DIGITS.sub("#", normalise_whitespace(line).lower())


def is_page_number_line(line: str) -> bool:
    """True for lines that are only a page number ("7", "- 7 -", "Page 7 of 22")."""
    line = normalise_whitespace(line)
    return bool(line) and bool(_PAGE_NUMBER_LINE.match(line) or _ROMAN_PAGE.match(line))


def repeated_furniture(page_lines: Sequence[Iterable[str]], *, min_share: float = 0.5) -> frozenset[str]:
    """Furniture keys of lines that repeat on many pages.

    ``page_lines`` holds, per page, the candidate lines (those near the top or
    bottom edge). A key counts once per page; it is furniture when it appears on
    at least ``min_share`` of the pages and on at least two pages.
    """
    pages = len(page_lines)
    if pages < 2:
        return frozenset()
    seen = Counter(key for lines in page_lines for key in {furniture_key(line) for line in lines if line.strip()})
    needed = max(2, int(pages * min_share + 0.999))
    return frozenset(key for key, count in seen.items() if count >= needed and len(key) <= 160)


def drop_repeated_blocks(blocks: Sequence[Block], page_count: int) -> list[Block]:
    """Drop one-line paragraphs that repeat on many pages, and bare page numbers.

    Only for documents with page provenance (PDF); the model-free PDF path
    removes furniture line by line before blocks exist, this catches the rest.
    """
    if page_count < 2:
        return list(blocks)
    short = [b for b in blocks if b.kind == "paragraph" and b.pages and len(b.text) <= 160]
    per_page: dict[int, list[str]] = {}
    for block in short:
        per_page.setdefault(block.pages[0], []).append(block.text)
    keys = repeated_furniture([per_page.get(p, []) for p in range(1, page_count + 1)])
    dropped = {id(b) for b in short if furniture_key(b.text) in keys or is_page_number_line(b.text)}
    return [b for b in blocks if id(b) not in dropped]


# --- structure repairs --------------------------------------------------------

_SENTENCE_END = re.compile(r"[.!?:;]['\"\u201d\u2019)\]]*$")
_CAPTION = re.compile(r"^(?:table|tbl\.?)\s*[\dA-Z]+(?:\.\d+)*\s*[:.\-\u2013\u2014]", re.IGNORECASE)


def joins_next_page(first: Block, second: Block) -> bool:
    """A paragraph that runs over a page break: no sentence end, or a lower-case start."""
    if first.kind != "paragraph" or second.kind != "paragraph":
        return False
    if not first.pages or not second.pages or second.pages[0] != first.pages[-1] + 1:
        return False
    head, tail = first.text.rstrip(), second.text.lstrip()
    if not head or not tail:
        return False
    return not _SENTENCE_END.search(head) or tail[0].islower()


def join_across_pages(blocks: Sequence[Block]) -> list[Block]:
    """Merge paragraphs split by a page break into one block."""
    out: list[Block] = []
    for block in blocks:
        if out and joins_next_page(out[-1], block):
            prev = out[-1]
            out[-1] = replace(prev, text=f"{prev.text.rstrip()}\n{block.text.lstrip()}", pages=_union(prev.pages, block.pages))
        else:
            out.append(block)
    return out


def join_split_tables(blocks: Sequence[Block]) -> list[Block]:
    """A table continued on the next page (same columns, header repeated or absent) is one table."""
    out: list[Block] = []
    for block in blocks:
        prev = out[-1] if out else None
        if prev is not None and _continues_table(prev, block):
            table = replace(prev.table, rows=prev.table.rows + block.table.rows)
            out[-1] = replace(prev, table=table, pages=_union(prev.pages, block.pages))
        else:
            out.append(block)
    return out


def _continues_table(first: Block, second: Block) -> bool:
    if first.kind != "table" or second.kind != "table" or first.table is None or second.table is None:
        return False
    if not first.pages or not second.pages or second.pages[0] != first.pages[-1] + 1:
        return False
    a, b = first.table, second.table
    width = len((a.header_rows or a.rows)[0]) if (a.header_rows or a.rows) else 0
    other = len((b.header_rows or b.rows)[0]) if (b.header_rows or b.rows) else -1
    return width == other and (not b.header_rows or b.header_rows == a.header_rows) and not b.caption


def attach_list_intros(blocks: Sequence[Block]) -> list[Block]:
    """A paragraph ending with ":" right before a list becomes that list's intro."""
    out: list[Block] = []
    for block in blocks:
        prev = out[-1] if out else None
        if (
            block.kind == "list"
            and not block.text
            and prev is not None
            and prev.kind == "paragraph"
            and prev.text.rstrip().endswith(":")
        ):
            out[-1] = replace(block, text=prev.text, pages=_union(prev.pages, block.pages))
        else:
            out.append(block)
    return out


def attach_table_captions(blocks: Sequence[Block]) -> list[Block]:
    """A "Table 3: ..." paragraph next to a table without caption becomes its caption."""
    out = list(blocks)
    i = 0
    while i < len(out):
        block = out[i]
        if block.kind == "paragraph" and _CAPTION.match(block.text) and len(block.text) <= 200:
            for j in (i + 1, i - 1):
                neighbour = out[j] if 0 <= j < len(out) else None
                if neighbour is not None and neighbour.kind == "table" and neighbour.table and not neighbour.table.caption:
                    table = replace(neighbour.table, caption=block.text)
                    out[j] = replace(neighbour, table=table, pages=_union(block.pages, neighbour.pages))
                    del out[i]
                    i -= 1
                    break
        i += 1
    return out


# --- text repair over blocks --------------------------------------------------


def _block_texts(block: Block) -> list[str]:
    texts = [block.text, *block.items]
    if block.table is not None:
        texts.append(block.table.caption)
        texts.extend(cell for row in (*block.table.header_rows, *block.table.rows) for cell in row)
    return texts


def repair_text(blocks: Sequence[Block]) -> list[Block]:
    """Rejoin line-end hyphenation and normalise whitespace in every text field."""
    words, hyphenated = hyphenation_vocabulary(t for b in blocks for t in _block_texts(b))

    def fix(text: str) -> str:
        return normalise_whitespace(rejoin_hyphenation(text, words, hyphenated))

    out = []
    for block in blocks:
        if block.kind == "code":
            out.append(replace(block, text=normalise_code(block.text)))
            continue
        table = block.table
        if table is not None:
            table = Table(
                header_rows=tuple(tuple(fix(c) for c in row) for row in table.header_rows),
                rows=tuple(tuple(fix(c) for c in row) for row in table.rows),
                caption=fix(table.caption),
                row_header_columns=table.row_header_columns,
            )
        items = tuple(i for i in (fix(item) for item in block.items) if i)
        out.append(replace(block, text=fix(block.text), items=items, table=table))
    return out


def _has_content(block: Block) -> bool:
    if block.kind == "list":
        return bool(block.items)
    if block.kind == "table":
        table = block.table
        return table is not None and any(any(c for c in row) for row in (*table.header_rows, *table.rows))
    return bool(block.text.strip())


def _union(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(set(a) | set(b)))


# --- title and ids ------------------------------------------------------------


def promote_title(title: str, blocks: Sequence[Block], fallback: str) -> tuple[str, list[Block]]:
    """Choose the document title: the given one, else the first heading, else ``fallback``.

    When there is no title and the document opens with a heading that is the
    only one at the top level (a title styled as Heading 1), that heading is
    the title and leaves the block list, so breadcrumbs do not repeat it.
    """
    blocks = list(blocks)
    if title.strip():
        return normalise_whitespace(title), blocks
    headings = [b for b in blocks if b.kind == "heading"]
    if not headings:
        return fallback, blocks
    first = headings[0]
    if blocks[0] is first and len(headings) > 1 and all(h.level > first.level for h in headings[1:]):
        return first.text, blocks[1:]
    return first.text, blocks


def normalise_heading_levels(blocks: Sequence[Block]) -> list[Block]:
    """Shift heading levels so the shallowest heading is level 1."""
    levels = [b.level for b in blocks if b.kind == "heading"]
    if not levels or min(levels) == 1:
        return list(blocks)
    shift = min(levels) - 1
    return [replace(b, level=max(1, b.level - shift)) if b.kind == "heading" else b for b in blocks]


def number_blocks(blocks: Sequence[Block]) -> tuple[Block, ...]:
    """Give blocks their ids "b0001", "b0002", ... in reading order."""
    return tuple(replace(b, id=f"b{i:04d}") for i, b in enumerate(blocks, start=1))


def clean_document(doc: Document, *, fallback_title: str = "") -> Document:
    """Apply every clean-up step to a whole document, choose its title, renumber its blocks."""
    blocks = drop_repeated_blocks(doc.blocks, doc.page_count)
    blocks = join_across_pages(blocks)
    blocks = repair_text(blocks)
    blocks = join_split_tables(blocks)
    blocks = [b for b in blocks if _has_content(b)]
    blocks = attach_list_intros(blocks)
    blocks = attach_table_captions(blocks)
    title, blocks = promote_title(doc.title, blocks, normalise_whitespace(fallback_title))
    blocks = normalise_heading_levels(blocks)
    return replace(doc, title=title, blocks=number_blocks(blocks))
