"""The thresholds of the model-free PDF path, named and documented in one place.

``PdfLayoutConfig()`` holds the values the path was tuned with (``bench/pdf_recovery.py``
measures them); pass another to ``chunking.pdf_plain.convert_pdf`` (or ``convert_file``'s
``pdf_layout``) to change them. Units: "pt" is a PDF point (1/72 inch); "em" is the font
size of the text concerned; "body" is the document's body font size; "leading" is its
usual baseline-to-baseline step; shares are fractions between 0 and 1.
"""
from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class PdfLayoutConfig:
    # --- characters -> lines (pdf_text) ---
    bold_weight: int = 600  # font weight (PDF scale 100-900) from which a font counts as bold
    style_share: float = 0.9  # share of a line's characters that must be bold (monospaced) for the line to be
    line_band_slack: float = 2.0  # pt a character's vertical middle may lie outside the line's band and still join it
    line_backstep: float = 4.0  # line heights a character may start left of the previous one before a new line starts
    baseline_tolerance: float = 1.0  # pt between baselines of two text runs that are one visual line (cells of a row)
    run_overlap: float = 1.0  # pt a text run may start left of the previous run's end and still continue its line
    column_gap: float = 0.8  # em of empty space between characters that splits a line into segments (table columns)
    min_em: float = 4.0  # pt: the em used for column gaps is at least this (tiny fonts)
    box_margin: float = 1.0  # pt a character's centre may lie outside a box (table, cell, column) and still be in it

    # --- ruling lines and shading (pdf_rulings) ---
    axis_tolerance: float = 1.0  # pt a segment's ends may differ across its direction and still be a ruling
    min_edge: float = 3.0  # pt: shorter rulings, and shaded boxes thinner than this, are ignored
    white_level: int = 250  # 0-255: a fill whose red, green and blue are all at least this is white, not shading
    min_fill_alpha: int = 20  # 0-255: a fill more transparent than this is not shading

    # --- ruled tables (pdf_tables) ---
    grid_tolerance: float = 3.0  # pt within which rulings snap, join and intersect, and grid lines are one
    min_column_width: float = 8.0  # pt: a narrower grid column without text is a drawing artefact, dropped
    table_margin: float = 2.0  # pt around a table or cell within which its characters and its shading count
    max_header_rows: int = 3  # leading bold or shaded rows taken as header rows, at most

    # --- tables without vertical rules (pdf_tables) ---
    aligned_row_gap: float = 1.2  # em of vertical gap between two rows of an aligned table, at most
    aligned_edge_slack: float = 3.0  # pt a segment's left or right end may be off its column's and still be in it
    aligned_min_rows: int = 3  # rows an aligned table needs (two when only the first one is bold)

    # --- page furniture (pdf_layout) ---
    edge_zone: float = 0.12  # share of the page height, top and bottom, where running headers and footers live
    edge_lines: int = 3  # lines from each page edge that may be furniture

    # --- measurements over the whole document (pdf_layout) ---
    default_body_size: float = 10.0  # pt: the body size of a document without text to measure
    body_size_tolerance: float = 0.6  # pt: a line this close to the body size is body text; a wider change ends a paragraph
    min_leading: float = 0.5  # body: smaller baseline steps are not line spacing (superscripts, overlaps)
    max_leading: float = 2.5  # body: larger baseline steps are not line spacing (paragraph or section gaps)
    default_leading: float = 1.2  # body: the leading when no two body lines follow each other
    text_edge_share: float = 0.1  # share of body lines starting left of the text's left edge (and ending right of its right edge)
    default_left: float = 72.0  # pt: the text's left edge when there are no body lines
    default_text_width: float = 450.0  # pt: the text's width when there are no body lines

    # --- title (pdf_layout) ---
    title_size_ratio: float = 1.3  # body: the title's font size is at least this
    title_search_lines: int = 4  # opening lines of page 1 where the title may start
    size_match: float = 0.3  # pt: two lines this close in font size are in the same style (title lines, heading wraps)
    title_line_gap: float = 1.0  # em of the title's size: a wider gap ends the title
    centre_tolerance: float = 0.04  # share of the page width by which a centred line's margins may differ
    centre_min_indent: float = 0.2  # share of the page width a line must be indented to count as centred

    # --- grouping lines into blocks (pdf_layout) ---
    paragraph_gap: float = 1.3  # leading: a larger baseline step starts a new paragraph (or list item text)
    heading_wrap_gap: float = 1.6  # leading: a heading's second line follows its first within this step
    code_gap: float = 2.0  # leading: a code line follows the one before within this step
    list_gap: float = 2.5  # leading: a list item follows the one before within this step
    list_indent_slack: float = 4.0  # pt a list item's continuation line may start left of the item's text
    short_line_share: float = 0.15  # share of the text width: a line ending this far before the right edge is short
    paragraph_indent: float = 8.0  # pt of first-line indent that starts a new paragraph
    mono_advance: float = 0.6  # em: the width of one monospaced character, to rebuild code indentation

    # --- headings (pdf_headings) ---
    heading_size_ratio: float = 1.12  # body: a line at least this large can be a heading by size alone
    bold_heading_ratio: float = 0.95  # body: a bold line at least this large can be a heading by weight
    max_heading_words: int = 14  # words in a heading, at most
    max_heading_chars: int = 120  # characters in a heading, at most
    numbered_heading_short: float = 0.2  # share of the text width a plain numbered heading ends before the right edge
    numbered_heading_words: int = 8  # words in a plain numbered top-level heading ("4 Earned leave"), at most
    numbered_subheading_words: int = 12  # words in a plain numbered deeper heading ("4.2 ..."), at most
    level_size_step: float = 0.5  # pt: heading sizes are rounded to this; sizes this close rank at one level
    max_heading_level: int = 6  # deepest level given to headings ranked by size

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{item.name} must be a number, got {value!r}")
            if item.type == "int" and not isinstance(value, int):
                raise ValueError(f"{item.name} must be a whole number, got {value!r}")
            if value <= 0:
                raise ValueError(f"{item.name} must be positive, got {value!r}")
        for name in ("style_share", "edge_zone", "text_edge_share", "centre_tolerance", "centre_min_indent",
                     "short_line_share", "numbered_heading_short"):
            if getattr(self, name) > 1:
                raise ValueError(f"{name} is a share and must be at most 1, got {getattr(self, name)!r}")
        for name in ("white_level", "min_fill_alpha"):
            if getattr(self, name) > 255:
                raise ValueError(f"{name} is a colour level (0-255), got {getattr(self, name)!r}")
        if self.min_leading >= self.max_leading:
            raise ValueError(f"min_leading ({self.min_leading}) must be below max_leading ({self.max_leading})")
