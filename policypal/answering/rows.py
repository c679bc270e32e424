"""Which row of a table a question names: exact labels, not similar words.

Row labels come from the table itself (its label column, normally the first). Three kinds of
label are recognised from the labels' own shape:
- codes: a letter prefix and a number ("B14", "L4", "EX-101", "Grade 3"). The question names
  one exactly ("b14"), or by the column's noun and the number ("band 14"). A code of the same
  family that the table lacks ("B25", "band C3") is *absent*, and said to be.
- ranges: "Less than 1 year", "1-2 years", "3-5 years", "10+ years", "Over 50,000". A number
  the question states in the same unit picks the row whose span holds it ("4 years" -> "3-5
  years"; a span reaches up to the next row's start).
- names: anything else ("Sick leave", "Germany", "Engineering and data"). A row is named when
  the question holds every word that tells its label apart from the others (word forms and the
  lexicon's synonyms count).
"""
from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass, replace

from .evidence import TableData, TableRow
from .quantities import fits, told_quantities
from .places import countries_for_adjectives, country_of, demonyms_of, destinations, is_country_name, places_in, written_as_home
from .table_codes import asked_codes, coded_columns, coded_rows, codes_in, spelt_code, table_codes
from .time_windows import days_held, days_named, first_day, in_window, parts_of_day_held, times_in, weekday_stems, window_of, without_hours
from .terms import GENERIC_WORDS, MEASURE_STEMS, compound_numbers_in_digits, key_terms, readings, MONTHS, NUMBER_WORDS, STOP_WORDS, STOP_STEMS, can_name_a_thing, equivalents, lexicon_group, kinds_beside, numbers, polarity, stem, stems_of, taken_by, words

_CODE_LABEL = re.compile(r"^([A-Za-z]{1,6}(?:[ -][A-Za-z]{1,6})?)?[ -]?(\d+)([A-Za-z]?)$")
# a word and one capital letter: "Cat D", "Zone F", "Class B" (a lettered code: number 0, the
# letter as its suffix)
_LETTER_LABEL = re.compile(r"^([A-Za-z]{2,12})[ -]([A-Z]\d?)$")  # "Class B2" beside "Class B" too
# a span of codes of one family: "G1 - G3", "L4–L6", "Band 7 to Band 9", "Grades 1-3"
_CODE_SPAN = re.compile(r"^(.*?)(\d+)\s*(?:-|–|—|to)\s*(.*?)(\d+)$")


@dataclass(frozen=True)
class RowMatch:
    table: TableData
    rows: tuple[TableRow, ...]  # the named rows (empty when absent)
    columns: tuple[int, ...] = ()  # value columns the question names, in table order
    how: str = "label"  # label | range | absent
    asked: str = ""  # the label as the question gives it (for an absent row)
    exact: bool = False  # named by a code, a number in a range or a place, not by shared words
    column_absent: bool = False  # absent: `asked` names a column (a place) the table does not have
    partial: bool = False  # named by some of the words that tell its label apart, not all
    named_by: int = 0  # the column whose cells named the row (the label column, or a column of names)
    named_words: int = 0  # partial: how many of the label's telling words the question holds
    unmentioned: bool = False  # absent: `asked` is a thing no visible policy mentions, where a row label stands
    by_definition: bool = False  # named through a definition that holds what the question describes
    by_ladder: bool = False  # the column is the one written for the asker's grade on a ladder of grades


def label_of(table: TableData, row: TableRow) -> str:
    return " ".join(c for c in row.cells[: max(table.label_columns, 1)] if c) or (row.cells[0] if row.cells else "")


def match_table(question: str, table: TableData, notes: tuple[str, ...] = ()) -> RowMatch | None:
    """The rows of `table` the question names, or an absent label, or None (names no row).

    notes: sentences of the table's own section, which may send a place to a column ("The
    capital city cap also applies to New York")."""
    if not table.rows:
        return None
    question = compound_numbers_in_digits(question)  # "twenty-five years" is 25, not a five
    labels = [label_of(table, row) for row in table.rows]
    plus = _match_plus_code(question, table, labels)
    if plus is not None:
        return plus
    timed = _match_time_window(question, table, labels, notes)
    if timed is not None:
        return timed
    question = _hyphenated_as_the_table(question, [*labels, *table.headers])
    question = _spaced_codes_as_the_table(question, labels)
    question = _ampersand_initials_as_the_table(question, [*labels, *table.headers])
    question = _family_numbers_in_digits(question, labels)
    question = _header_numbers_in_digits(question, table.headers[max(table.label_columns, 1):])
    question = _family_by_its_initial(question, table)
    # "level twelve" as "level 12" where the label column is headed "Level" (its labels E1 ... E12);
    # names of a rung only (band, grade, level): "priority one" stays as written
    question = _spelt_numbers_in_digits(question, _label_nouns(table) & _RANK_NOUNS)
    question = _sub_letters_joined(question, labels)
    if any(is_country_name(label) for label in labels):
        question = countries_for_adjectives(question)  # "the Polish entity": the Poland row
    question = _codes_by_their_words(question, table)
    columns = asked_columns(question, table, notes)
    codes = [_code(label) for label in labels]
    family = _bare_letter_family(table, labels)
    if family:
        # labels "A" ... "H" under a header "Category": the codes "Category A" ... "Category H"
        codes = [(family, 0, label.strip().lower()) for label in labels]
    if sum(c is not None and c[1] == 0 and bool(c[2]) for c in codes) * 2 > len(labels):
        # a family of lettered codes ("Class A" ... "Class F"): "Class B2" is its letter B2, not
        # the number 2 of a family "Class B"
        codes = [_lettered(label) or code for label, code in zip(labels, codes)]
    spans = [_code_span(label) if code is None else None for label, code in zip(labels, codes)]
    exact = True
    if _number_pair_labels(labels):
        # labels "14/14", "14/21", "4/3" (rotations, ratios): the pair written names its row
        found = _match_number_pairs(question, table, labels)
        if found is not None and found.how == "absent":
            return found
    elif sum(c is not None or p is not None for c, p in zip(codes, spans)) >= max(2, int(0.8 * len(labels))):
        # "a grade 8 fitter" against "Band D" whose "Pay grades" cell is "Grades 7–8": a column of
        # code spans whose family the question writes with a number names the row
        found = _match_code_span_column(question, table) or _match_codes(question, table, labels, codes, spans)
        if found is None:
            exact = False
            # no code named: the row may be named by another column ("the code for a train ticket"),
            # first by an amount in a column of spans, then by the words of a column of names
            found = _row_by_a_span_column(question, table) or _row_by_a_names_column(question, table)
            if found is None:
                # "a category 1 pressure ulcer" where a column of names has categories 2 to 4 of it
                variant = next((v for column in range(1, len(table.headers)) if (v := _absent_numbered_variant(
                    question, [r.cells[column] if column < len(r.cells) else "" for r in table.rows]))), "")
                if variant:
                    return RowMatch(table, (), how="absent", asked=variant)
    elif sum(_range(_without_brackets(label)) is not None for label in labels) >= max(2, int(0.6 * len(labels))):
        # (a span in brackets after a name is no range of the row: "Key Stage 3 (Years 7 to 9)")
        found = _match_ranges(question, table, labels, header=table.headers[0] if table.headers else "", notes=notes)
        if found is None:
            # a row among the spans that is a name ("Fully electric car" beside "Car, 1000cc to 1199cc")
            named = _match_names(question, table, labels)
            # (a row named by two of its words is named: "a fully electric car" for "Electric vehicle
            # (battery only)"; one shared word is not)
            found = named if named is not None and named.rows and (
                not named.partial or named.named_words >= 2
                or _names_a_proper_word(question, label_of(table, named.rows[0]))) else None
        if found is None:
            # a column of one-word names beside the spans ("Tier": Bronze ... Diamond): "the Gold tier"
            found = _row_by_a_name_column(question, table)
        if found is None:
            kind = _another_kind(question, table, labels, spans=True)  # "a hybrid car" against petrol, diesel, electric cars
            if kind:
                return RowMatch(table, (), how="absent", asked=kind)
    elif family := _leading_codes(labels):
        found, exact = _match_leading_codes(question, table, labels, family), True
        if found is None:
            found, exact = _row_by_its_bracketed_name(question, labels, table), True
        if found is None:
            found, exact = _match_names(question, table, labels), False
    elif (family := _partial_leading_codes(labels)) and _names_family_number(question, family):
        # "Informal conversation", "Stage 1 Attendance Review", "Stage 2 Attendance Review", "Final
        # Review": "a stage 2 review" names its row by the number, not by the words all three share
        found, exact = _match_leading_codes(question, table, labels, family), True
    else:
        found = _match_names(_without_column_words(question, table, columns), table, labels) \
            or _match_dated_variants(question, table, labels)
        exact = sum(is_country_name(label) for label in labels) >= max(2, int(0.6 * len(labels))) \
            or (found is not None and _named_by_bracket_code(question, table, found.rows))
        unknown = _unknown_title_name(question, table, labels, named=found is not None and not found.partial)
        if unknown:
            return RowMatch(table, (), how="absent", asked=unknown)
        variant = _another_variant_asked(question, labels) if found is None else ""
        if variant:
            return RowMatch(table, (), how="absent", asked=variant)  # "Master (Unlimited) CoC"
        if found is None or found.partial:
            # "the Janitor role" names a kind of row the table lacks, whatever else it shares
            kind = _another_kind(question, table, labels)
            if kind and found is not None and _said_to_be_the_row(question, kind, table, found.rows):
                kind = ""  # "my home site is Kilnworth": the asker's site, the Kilnworth row
            if kind:
                return RowMatch(table, (), how="absent", asked=kind)
        places = destinations(question) if found is not None and found.rows else []
        if places:
            written = [r for r in found.rows if _holds_phrase(question, label_of(table, r))]
            regions = {p.region.lower() for p in places}
            if written and len(written) < len(found.rows):
                # "an overnight in London": the London row, not also Europe (London's region)
                found = replace(found, rows=tuple(written))
            elif all(label_of(table, r).strip().lower() in regions for r in found.rows):
                # a row reached through the place's region ("Birmingham": Europe) gives way to the
                # row a note of the policy sends the place to ("UK Regional — any location in the UK");
                # a row reached through its country ("London": United Kingdom) is the place's own
                found = _row_in_notes(question, table, labels, notes) or found
        if found is None:
            found = _row_in_notes(question, table, labels, notes)
        if found is None:
            found = _row_by_a_number_column(question, table)
        if found is None and sum(bool(_written_codes(label)) or _LEADING_CODE.match(label) is not None
                                 for label in labels) * 2 > len(labels):
            # labels of codes and names ("B3S (Specialist Officer)") beside a column listing the
            # posts of each ("Dog handler; PE instructor"): "a dog handler" names its row there
            found = _row_by_a_names_column(question, table)
        if found is None or (found.rows and len(found.rows) > 1):
            found = _match_named_spans(question, table, labels) or found
        unnamed = _named_as_labels_are(question, table, labels)
        if unnamed:
            return RowMatch(table, (), how="absent", asked=unnamed)
        if found is None:
            place = _absent_place_row(question, labels) or _absent_place_in_family(question, labels) \
                or _new_title(question, table, labels) or _absent_numbered_variant(question, labels)
            if place:
                return RowMatch(table, (), how="absent", asked=place)
    # (the words of an asked column whose whole name the question writes name no row: "Kestrel
    # Park Hub" is no "Staff parking")
    written_columns = tuple(c for c in columns if c < len(table.headers)
                            and stems_of(table.headers[c]) - _GENERIC_STEMS <= stems_of(question))
    found = _named_whole(_without_column_words(question, table, written_columns), table, labels, found)
    if found is None or not exact:
        # a code written is a fact, words shared are not: "the Sunday premium for LC7" names
        # "Premium for LC7 to LC9" by its span, whatever its words share with "Premium for LC1 to LC6"
        spanned = _match_bracketed_spans(question, table, labels)
        if spanned is not None:
            found, exact = spanned, True
    if found is None or found.partial:
        # a code written anywhere in the rows ("Compassionate leave (CL1)", "Officers (IS1 to
        # IS3)", a "Severity level" column of "Level 1" ... "Level 4"): its row, or absent
        coded, absent_code, column = coded_rows(question, table)
        if absent_code:
            return RowMatch(table, (), how="absent", asked=absent_code)
        if coded and (found is None or found.partial):  # a code named is a fact, a word shared is not
            found = RowMatch(table, tuple(table.rows[i] for i in sorted(coded)), how="label", exact=True, named_by=column)
    if found is None:
        named = _absent_name_in_a_column(question, table)
        if named:
            return RowMatch(table, (), how="absent", asked=named)
        place = absent_column(question, table, countries_only=True) or _absent_span_column(question, table) \
            or _code_no_header_holds(question, table) or _absent_kin_column(question, table)
        if place:
            return RowMatch(table, (), how="absent", asked=place, column_absent=True)
        return _named_item_column(question, table, notes)
    if found.rows:
        place = absent_column(question, table) or _absent_span_column(question, table) or _code_no_header_holds(question, table) \
            or _absent_kin_column(question, table)
        if place:
            return RowMatch(table, (), how="absent", asked=place, column_absent=True)
    found = _attribute_of_the_asked_kind(question, table, found)
    if found.how == "label" and len(found.rows) > 1:
        # of rows one code names ("Schedule 4 Part 1", "Schedule 4 Part 2"), the one whose whole
        # label the question writes ("Schedule 4 Part 2 drugs")
        whole = tuple(r for r in found.rows if _holds_phrase(_words_only(question), _words_only(label_of(table, r))))
        if whole and len(whole) < len(found.rows):
            found = replace(found, rows=whole)
        found = replace(found, rows=_rows_by_their_other_cells(question, table, found.rows))
    columns = tuple(c for c in columns if c != found.named_by)  # the cells that named the row are not the answer
    columns = _without_the_rows_noun(question, table, found.rows, columns)
    columns = _without_columns_of_the_label(question, table, found.rows, columns)
    columns = _without_told_cells(question, table, found.rows, columns, notes)
    columns = _without_denied_columns(question, table, columns)
    if not columns and found.rows:
        columns = _plain_column(question, table)
    return RowMatch(table, found.rows, columns, found.how, found.asked, exact=exact, partial=found.partial,
                    named_by=found.named_by, named_words=found.named_words)


def _code_no_header_holds(question: str, table: TableData) -> str:
    """A code of the value headers' family that no header writes (`coded_columns`), unless a
    header spans it ("Enhancement for grades HT1 to HT4A" holds an HT3)."""
    absent = coded_columns(question, table)[1]
    return "" if absent and columns_spanning_codes(question, table) else absent


_NUMBERED_NAME = re.compile(r"^(.*?)\b([A-Za-z]{3,})\s+(\d{1,2})$")


@lru_cache(maxsize=20_000)
def _name_stems(label: str) -> frozenset[str]:
    """The words that name a row, without its codes: "RA2 – Ramp Agent" is named "ramp agent",
    "Band 2N (Night OSG)" "night osg" (a word with a digit, and the word before a number, are
    its code: "B3", "Band 2")."""
    tokens = re.findall(r"[A-Za-z0-9][A-Za-z0-9'’-]*", label)
    kept = [t for i, t in enumerate(tokens) if not any(ch.isdigit() for ch in t)
            and not (i + 1 < len(tokens) and tokens[i + 1][:1].isdigit())]
    # (a small word that tells the label apart is of its name: "Research Only")
    return frozenset(stem(w) for t in kept for w in words(t)) - _GENERIC_STEMS - STOP_WORDS | _label_stop_stems(label)


def with_row_codes(question: str, tables: list[TableData]) -> str:
    """The question with the code of each row it names by the row's whole name written after that
    name ("a trainee ramp agent" as "a trainee ramp agent (RA1)" where a table's row is "RA1 – Ramp
    Agent (Trainee)"): a rule elsewhere speaks of the row by its code ("An RA1 employee moves to
    RA2 ..."). Only names of two words at least, one row per table, and not where the question
    writes a code of that row already."""
    written = stems_of(question)
    out = question
    for table in tables:
        codes_of_rows = table_codes(table).rows
        if any(v not in codes_of_rows[f] for f, v, _ in asked_codes(question, set(codes_of_rows))):
            continue  # "a PS5 senior probation officer": the table has no row for the code written
        labels = [label_of(table, row) for row in table.rows]
        names = [_name_stems(label) for label in labels]
        best = _longest_whole_name(names, written)
        if best is None or len(names[best]) < 2:
            continue
        codes = re.findall(r"\b[A-Z]{1,4}\d{1,2}[A-Z]?\b", labels[best])
        if len(codes) != 1 or re.search(rf"\b{codes[0]}\b", out, re.IGNORECASE):
            continue
        # after the last word of the name as the question writes it
        ends = [m.end() for m in re.finditer(r"[A-Za-z][\w'’-]*", out) if stem(m.group(0).lower()) in names[best]]
        if ends:
            out = f"{out[:ends[-1]]} ({codes[0]}){out[ends[-1]:]}"
    return out


def _longest_whole_name(names: list[frozenset[str]], written: set[str]) -> int | None:
    """The index of the one longest name (`_name_stems`) whose every word is written; None when
    no name is written whole or two longest are."""
    whole = [i for i, name in enumerate(names) if name and name <= written]
    if not whole:
        return None
    top = max(len(names[i]) for i in whole)
    best = [i for i in whole if len(names[i]) == top]
    return best[0] if len(best) == 1 else None


def _named_whole(question: str, table: TableData, labels: list[str], found: RowMatch | None) -> RowMatch | None:
    """The one row every word of whose name the question writes, the longest such name, where
    the rows found share words with it or are named by fewer of its words: "a ramp agent" is
    "RA2 – Ramp Agent", not "RA1 – Ramp Agent (Trainee)" nor "Senior Ramp Agent (RA3)"; "a night
    OSG" is "Band 2N (Night OSG)", not "Band 2 (OSG)"; "a probation officer" is "PS4 (Probation
    Officer)", not "PS3 (Probation Services Officer)"."""
    if found is not None and (found.how != "label" or not found.rows):
        return found
    names = [_name_stems(label) for label in labels]
    best = _longest_whole_name(names, stems_of(question) | _clipped(question, labels))
    if best is None:
        return found
    row, name = table.rows[best], names[best]
    codes = table_codes(table)
    if any(best not in codes.rows[f].get(v, ()) for f, v, _ in asked_codes(question, set(codes.rows))):
        return found  # "a PS5 senior probation officer": the code written decides (no row for PS5)
    if found is None:
        # (two words at least: a word the question writes in passing names no row on its own)
        return RowMatch(table, (row,), how="label") if len(name) >= 2 else found
    if len(found.rows) > 1:
        return replace(found, rows=(row,), partial=False) if any(r is row for r in found.rows) else found
    other = names[table.rows.index(found.rows[0])] if found.rows[0] in table.rows else frozenset()
    # (not over a row holding every word of that name and another the question writes: "night
    # checks" is "Night checks each night", not "Check times")
    more = name < other and bool((other - name) & stems_of(question))
    if found.rows[0] is not row and (found.partial or (other and other < name)) and not more:
        return RowMatch(table, (row,), how="label")
    return found


_NUMBER_PAIR = re.compile(r"(?<![\d/.:])(\d{1,3})\s*/\s*(\d{1,3})(?![\d/.:])")


def _number_pair_labels(labels: list[str]) -> bool:
    """Whether the labels are mostly pairs of numbers ("14/14", "14/21", "4/3")."""
    return sum(_NUMBER_PAIR.fullmatch(label.strip()) is not None for label in labels) >= max(2, int(0.6 * len(labels)))


def _match_number_pairs(question: str, table: TableData, labels: list[str]) -> RowMatch | None:
    """The row labelled by the pair of numbers the question writes ("the 14/21 rotation"), or the
    pair as an absent row when no label is it ("a 28/28 rotation"); None when it writes none."""
    written = [(int(a), int(b)) for a, b in _NUMBER_PAIR.findall(question)]
    if not written:
        return None
    rows = tuple(row for row, label in zip(table.rows, labels)
                 if (m := _NUMBER_PAIR.fullmatch(label.strip())) and (int(m.group(1)), int(m.group(2))) in written)
    if rows:
        return RowMatch(table, rows, how="label", exact=True)
    return RowMatch(table, (), how="absent", asked="{}/{}".format(*written[0]))


def _absent_numbered_variant(question: str, names: list[str]) -> str:
    """A number the question writes of a family of names that differ only by it, when no name
    has that number ("a category 1 pressure ulcer" beside "Pressure ulcer category 2" to "...
    category 4"), written as the names are; empty otherwise (the question must write the
    family's other words too)."""
    families: dict[tuple[str, str], set[int]] = {}
    for name in names:
        m = _NUMBERED_NAME.match(name.strip())
        if m and m.group(1).strip():
            families.setdefault((m.group(1).strip(), m.group(2)), set()).add(int(m.group(3)))
    asked = stems_of(question)
    for (head, word), held in families.items():
        if len(held) < 2 or not {stem(w) for w in words(head)} - STOP_STEMS <= asked:
            continue
        for m in re.finditer(rf"\b{re.escape(word)}\s+(\d{{1,2}})\b(?![.,]\d)", question, re.IGNORECASE):
            if int(m.group(1)) not in held:
                return f"{head} {word} {int(m.group(1))}"
    return ""


def _row_by_a_number_column(question: str, table: TableData) -> RowMatch | None:
    """The row named by the number it has in a column of numbers, written after that column's word
    ("station 22" where the rows are stations by name and a "Station number" column holds 07 ...
    23; "site no. 4"); None when no such number is written or no row, or several, hold it."""
    first = max(table.label_columns, 1)
    for column, header in enumerate(table.headers):
        if column < first:
            continue
        cells = [r.cells[column].strip() if column < len(r.cells) else "" for r in table.rows]
        if not all(re.fullmatch(r"\d{1,4}", c) for c in cells):
            continue
        nouns = [w for w in words(header) if w not in ("number", "no", "ref", "id", "code") and w not in STOP_WORDS]
        for noun in nouns:
            for m in re.finditer(rf"\b{re.escape(noun)}s?\s*(?:number\s+|no\.?\s*|#\s*)?(\d{{1,4}})(?![\d.,:%])"
                                 r"(?!\s*(?:hours?|hrs?|minutes?|mins?|days?|weeks?|months?|years?|miles?|km|metres?|per)\b)",
                                 question, re.IGNORECASE):
                rows = tuple(r for r, c in zip(table.rows, cells) if int(c) == int(m.group(1)))
                if len(rows) == 1:
                    return RowMatch(table, rows, how="label", named_by=column)
    return None


# the header of a label column whose rows are attributes of the things the other columns name
# ("| | Staff season pass | Partner season pass |", "Attribute | Fellgate Hall | Castle Wray")
# (never "Item": a column of items names them as rows)
_ATTRIBUTE_HEADERS = frozenset({"", "attribute", "attributes", "-", "–", "—"})


def _attribute_of_the_asked_kind(question: str, table: TableData, found: RowMatch) -> RowMatch:
    """In a table of things as columns, the attribute row whose cells are what the question asks
    for ("How much is each night check at Wexcombe?": "Payment per check", not "Night checks each
    night", whose words it shares but whose cells are counts), when the rows its words name give
    none."""
    first = max(table.label_columns, 1)
    if found.how != "label" or not found.rows or table.headers[0].strip().lower() not in _ATTRIBUTE_HEADERS:
        return found
    reads = next((reads for asks, reads, _ in (*_VALUE_KINDS, _AMOUNT_KIND) if asks.search(question) and reads.pattern != "(?!x)x"),
                 None)
    if reads is None:
        return found

    def reading(row: TableRow) -> bool:
        cells = [c for c in row.cells[first:] if c.strip()]
        return bool(cells) and sum(bool(reads.search(c)) for c in cells) >= 0.6 * len(cells)

    read = tuple(r for r in found.rows if reading(r))
    if read:
        # (of the rows its words name, those of the asked kind: "How long is a pool plant operator
        # certificate valid?" names "Required qualification" by the certificate and "Qualification
        # lasts", whose cells are durations)
        return replace(found, rows=read)
    kinds = [r for r in table.rows if reading(r)]
    return replace(found, rows=(kinds[0],)) if len(kinds) == 1 else found


def _named_item_column(question: str, table: TableData, notes: tuple[str, ...] = ()) -> RowMatch | None:
    """In a table of things as columns and their attributes as rows ("| | Weekday standby |
    Weekend standby |" over "Payment per 24-hour period", "Who authorises the rota"), the column
    the question names ("weekend standby rate", "the discount on ski hire" for "Equipment hire
    discount") when it names no row: the thing asked about is that column, every row of it."""
    first = max(table.label_columns, 1)
    if first != 1 or len(table.headers) < 3 or table.headers[0].strip().lower() not in _ATTRIBUTE_HEADERS:
        return None
    columns = asked_columns(question, table, notes)
    if len(columns) != 1:
        return None
    # named by two words of its header at least, or by its one word ("Harrowgate Park" is not
    # named by "a farm park", nor "Bank holiday" by "bank accounts")
    # (or by a word of its own that is a proper name: "at Wexcombe" for "Wexcombe Aquarium")
    header = {stem(w) for w in words(table.headers[columns[0]])} - STOP_STEMS
    said = stems_of(question)
    named_by = [w for w in words(table.headers[columns[0]]) if stem(w) in said]
    by_its_words = len(header & said) >= min(2, len(header))
    if not by_its_words and not any(not readings(w.lower()) for w in named_by):
        return None
    # and the question asks about the thing, not about something else where it is: its other
    # words are the table's ("How long is CCTV footage kept at Saltmarket Gallery?" names the
    # site column of a table that says nothing of CCTV)
    # (a word of the header as written: "parking" is no word of "Harrowgate Park")
    held = stems_of(" ".join([table.caption, *table.headers[:columns[0]], *table.headers[columns[0] + 1:],
                              *(c for r in table.rows for c in r.cells)]))
    written = {w.lower() for w in words(table.headers[columns[0]])}
    foreign = [t for t in key_terms(question) if not t.generic and t.word.lower() not in written
               and t.word.lower().removesuffix("s") not in written and not equivalents(t.stem) & held]
    # (one such word at most where its header's words name the column, "ski" of "discount on ski
    # hire"; none where only a name does: "visitors ... at Saltmarket")
    return RowMatch(table, table.rows, columns, "label", exact=True) if len(foreign) <= int(by_its_words) else None


# words that say a column is the ordinary one of its kind: "Basic hourly rate" beside "Overtime
# hourly rate", "Standard rate" beside "Enhanced rate"
_PLAIN_WORDS = frozenset("basic standard normal ordinary base core plain".split())


def _plain_column(question: str, table: TableData) -> tuple[int, ...]:
    """The one value column the question names by its words without their plain qualifier ("ff-d
    hourly rate": "Basic hourly rate", not "Overtime hourly rate", which says which hourly rate it
    is in a word the question does not write); () when no header or several read so, or a header
    is written whole."""
    first = max(table.label_columns, 1)
    plain, whole = [], 0
    for column, header in enumerate(table.headers):
        if column < first:
            continue
        own = words(re.sub(r"\([^)]*\)", " ", header))
        rest = [w for w in own if w not in _PLAIN_WORDS]
        content = {stem(w) for w in rest} - STOP_STEMS
        if len(rest) < 2 or not (_holds_phrase(question, " ".join(rest)) or _said_as_a_rate(question, rest)
                                 or (len(content) >= 2 and content <= stems_of(question))):
            continue  # (its words in any order: "entry hourly rate" for "Basic hourly rate at entry")
        if len(rest) < len(own):
            plain.append(column)
        else:
            whole += 1  # a header the question writes whole: not for this rule
    return (plain[0],) if len(plain) == 1 and not whole else ()


# the words a header may leave the question to imply: what any value of a pay table is
_VALUE_STEMS = frozenset(stem(w) for w in ("rate", "amount", "pay", "value", "sum"))
_UNIT_ADVERBS = {"daily": "day", "annual": "year", "yearly": "year", "nightly": "night"}
_RATE_UNITS = r"(hour|day|week|month|year|shift|night|mile)"
# "per hour", "each week"; "an hour" after what is paid ("earn an hour", "get a week"), not "an hour late"
_PER_UNIT = re.compile(rf"\b(?:per|each|every)\s+{_RATE_UNITS}\b"
                       rf"|\b(?:earn|earns|get|gets|paid|pay|make|makes|receive|receives|cost|costs|charged?)\s+an?\s+{_RATE_UNITS}\b",
                       re.IGNORECASE)


def _said_as_a_rate(question: str, rest: list[str]) -> bool:
    """Whether the question asks for the header's rate by its unit ("what will I earn an hour",
    "pay per hour" for "Basic hourly rate"): every other word of the header is a word of value
    ("rate"), and its unit word is written per unit."""
    stems = {_UNIT_ADVERBS.get(w.lower(), stem(w)) for w in rest}
    units = {stem(m.group(1) or m.group(2)) for m in _PER_UNIT.finditer(question)}
    unit_words = stems - _VALUE_STEMS
    return bool(unit_words) and unit_words <= units and bool(stems & _VALUE_STEMS)


def _without_denied_columns(question: str, table: TableData, columns: tuple[int, ...]) -> tuple[int, ...]:
    """The named columns without those named only by a word the question denies ("staying at my
    cousin's flat instead of a hotel": not "Hotel cap per night", though "hotel" is written), when
    another stays."""
    if len(columns) < 2:
        return columns
    denied = polarity(question)[0]
    if not denied:
        return columns
    said = stems_of(question) - denied - _GENERIC_STEMS - STOP_STEMS
    heads = {c: stems_of(table.headers[c]) - _GENERIC_STEMS for c in columns if c < len(table.headers)}
    common = set.intersection(*(set(h) for h in heads.values())) if heads else set()  # ("per night" of both)
    kept = tuple(c for c in columns if c not in heads or not (heads[c] & denied and not (heads[c] - common) & said))
    return kept or columns


def _row_by_a_span_column(question: str, table: TableData) -> RowMatch | None:
    """The row whose span, in a column of spans in a unit of measure or of money ("1,201-1,800 cc",
    "Theft of goods valued under GBP 150", "£10.01 – £25.00" beside "Any amount on a shared
    till"), holds the quantity the question gives ("a 1,600 cc engine", "a £40 bottle", "out by
    £15"): a quantity is a fact, so it names the row before a word shared with another column."""
    for column in range(1, len(table.headers)):
        values = [row.cells[column] if column < len(row.cells) else "" for row in table.rows]
        spans = [_range(v) for v in values if v]
        found = [sp for sp in spans if sp is not None]
        money = sum(sp.kind == "money" for sp in found)
        if len(found) >= max(2, int(0.3 * len(values))) and (
                _measure_of(values) or (money >= 2 and money * 5 >= len(found) * 4) or _spans_of_time(spans, values)):
            ranged = _match_ranges(question, table, values, header=table.headers[column])
            if ranged is not None:
                return RowMatch(table, ranged.rows, how="range", named_by=column)
    return None


def _row_by_a_names_column(question: str, table: TableData) -> RowMatch | None:
    """The row a column of names names (not of amounts: "3,300" does not name a row for "Band 3",
    nor "5 days" for "5 years"); one value in five may read as a code ("Child under 18" beside
    "Parent")."""
    for column in range(1, len(table.headers)):
        values = [row.cells[column] if column < len(row.cells) else "" for row in table.rows]
        filled = [v for v in values if v]
        if sum(_code(v) is not None for v in filled) * 5 <= len(filled) and _mostly_words(values) \
                and not _mostly_quantities(values):
            found = _match_names(question, table, values) or _match_listed_names(question, table, values)
            if found is not None and found.how != "absent":
                return RowMatch(table, found.rows, how=found.how, partial=found.partial, named_by=column,
                                named_words=found.named_words)
    return None


def _one_word_name_columns(table: TableData):
    """(column, its header's one noun, its cells) of each value column of one-word names ("Tier":
    Bronze, Silver, Gold): three names at least, each a capitalised word."""
    for column in range(max(table.label_columns, 1), len(table.headers)):
        noun = table.headers[column].strip().lower()
        values = [row.cells[column].strip() if column < len(row.cells) else "" for row in table.rows]
        if re.fullmatch(r"[a-z]{3,}", noun) and sum(bool(v) for v in values) >= 3 \
                and all(re.fullmatch(r"[A-Z][a-z]+", v) for v in values if v):
            yield column, noun, values


def _row_by_a_name_column(question: str, table: TableData) -> RowMatch | None:
    """The row whose one-word name, in a column of such names, the question writes capitalised
    or beside the column's noun ("the Gold tier", "tier gold"); None when none or several."""
    lowered = question.lower()
    for column, noun, values in _one_word_name_columns(table):
        rows = [row for row, v in zip(table.rows, values)
                if v and (re.search(rf"\b{v}\b", question)  # written capitalised, as a name
                          or re.search(rf"\b{v.lower()}\s+{noun}s?\b|\b{noun}\s+{v.lower()}\b", lowered))]
        if len(rows) == 1:
            return RowMatch(table, (rows[0],), how="label", named_by=column)
    return None


def _absent_name_in_a_column(question: str, table: TableData) -> str:
    """A name the question gives with the noun of a column of one-word names, that the column does
    not hold ("the Emerald tier" where the Tier column holds Bronze ... Diamond): "Emerald tier",
    for "no row for"; empty when there is none. The name is written capitalised, as the column's
    names are, right before or after the header's noun."""
    for _, noun, values in _one_word_name_columns(table):
        held = {v.lower() for v in values if v}
        for m in re.finditer(rf"\b([A-Z][a-z]+)\s+{noun}s?\b|\b{noun}\s+([A-Z][a-z]+)\b", question, re.IGNORECASE):
            name = m.group(1) or m.group(2)
            if name[0].isupper() and name.lower() not in held and name.lower() not in STOP_WORDS and name.lower() != noun:
                return m.group(0)
    return ""


def _match_time_window(question: str, table: TableData, labels: list[str], notes: tuple[str, ...]) -> RowMatch | None:
    """The row whose time window holds the first time of day the question names ("paged at 11pm":
    "Night shift (22:00-06:00)"), in a table whose rows are windows; None when no time is named,
    or when it falls in no window or in several (then the row's other words decide)."""
    windows = [window_of(label) for label in labels]
    if sum(w is not None for w in windows) < 2:
        return None
    times = times_in(question)
    days = days_named(question)
    if not times:
        if not days:
            return None
        # "on a Sunday afternoon", "Saturday night": the windows holding that part of the day,
        # of rows for that day ("08:00 to 22:00 | Sunday"), when the rows are windows of days
        holding = [row for row, label, w in zip(table.rows, labels, windows)
                   if w is not None and parts_of_day_held(question, label)]
    else:
        holding = [row for row, w in zip(table.rows, windows) if w is not None and in_window(times[0], w)]
    if len(holding) > 1 and len(times) >= 2:
        # "a night shift from 10pm to 6am": the window that is exactly the shift named, not the
        # "Extended night (18:00-06:00)" that also holds 10pm
        holding = [row for row, w in zip(table.rows, windows) if w == (times[0], times[1])] or holding
    if (len(holding) > 1 or not times) and days:
        # windows of several days ("22:00 to 08:00 | Saturday night into Sunday", "22:00 to 06:00 |
        # Monday to Friday nights"): the rows of the day named, the one starting on it first
        by_label = {id(row): label for row, label in zip(table.rows, labels)}
        of_day = [row for row in holding if days_held(by_label[id(row)]) & days]
        starting = [row for row in of_day if first_day(by_label[id(row)]) in days]
        holding = starting if len(of_day) > 1 and len(starting) == 1 else of_day
    if len(holding) != 1:
        return None
    return RowMatch(table, (holding[0],), asked_columns(question, table, notes), how="range", exact=True)


_PLUS_CODE = re.compile(r"(?<![\w+])([A-Za-z]{1,2}\d{0,2})\s*\+\s*([A-Za-z]{1,2})(?![\w+])")


def _match_plus_code(question: str, table: TableData, labels: list[str]) -> RowMatch | None:
    """A code with a "+" part ("C1+E", "C+E": a licence with a trailer) is one code: the row
    written so, or absent where the table has the code without it or other "+" codes."""
    m = _PLUS_CODE.search(question)
    if m is None:
        return None
    written = f"{m.group(1)}+{m.group(2)}".upper()
    flat = [re.sub(r"\s", "", label).upper() for label in labels]
    rows = tuple(row for row, label in zip(table.rows, flat) if label == written)
    if rows:
        return RowMatch(table, rows, asked_columns(question, table), how="label")
    if any("+" in label for label in flat) or m.group(1).upper() in flat:
        return RowMatch(table, (), how="absent", asked=written)
    return None


_NUMBER_NAMES = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}


def _family_numbers_in_digits(question: str, labels: list[str]) -> str:
    """"stage one" as "stage 1" where the labels write that family with digits ("Stage 1 – Initial
    response", "Level 3")."""
    families = {m.group(1).lower() for label in labels if (m := _LEADING_CODE.match(label.strip()))}
    if not families:
        return question
    written = {m.group(1) for label in labels if (m := _LEADING_CODE.match(label.strip())) and m.group(1).isupper()}
    for family in families:
        if " " in family:  # "KS4" for "Key Stage 4": the family's initials and the number
            initials = "".join(w[0] for w in family.split())
            question = re.sub(rf"\b{initials}[ -]?(\d{{1,3}})\b", lambda m: f"{family} {m.group(1)}", question, flags=re.IGNORECASE)
        elif family.upper() in written and 2 <= len(family) <= 4:
            # "spinal column point 24" for "SCP 24": the words whose initials the family is, spelt out
            question = _spelt(family).sub(lambda m: f"{family.upper()} {m.group(1)}", question)
    return _spelt_numbers_in_digits(question, families)


def _header_numbers_in_digits(question: str, headers) -> str:
    """"band three" as "band 3" where the value headers write that family with digits ("Band 3")."""
    families = {f for header in headers if (m := _LEADING_CODE.match(header.strip())) and (f := m.group(1).lower()).isalpha()}
    if families:
        # "the second pay point" as "point 2" where the headers write "Point 2"
        named = "|".join(re.escape(f) for f in sorted(families, key=len, reverse=True))
        question = re.sub(rf"\b({_ORDINAL_PATTERN})\s+(?:[a-z]+\s+)?({named})\b",
                          lambda m: f"{m.group(2)} {_ordinal(m.group(1))}", question, flags=re.IGNORECASE)
    return _spelt_numbers_in_digits(question, families)


def _family_by_its_initial(question: str, table: TableData) -> str:
    """"band 3" as "B3" where the table writes its family both ways ("Band 2", "B3", "Band 4") and
    has no "Band 3": the code is the family's initial and the number."""
    written = _codes_written_in(table)
    families = {f for f, _ in written if len(f) >= 3}
    if not families:
        return question
    def initial(m: re.Match) -> str:
        family, number = m.group(1).lower(), str(int(m.group(2)))
        if (family, number) not in written and (family[0], number) in written:
            return f"{family[0].upper()}{number}"
        return m.group(0)
    named = "|".join(re.escape(f) for f in sorted(families, key=len, reverse=True))
    return re.sub(rf"\b({named})\s+(\d{{1,2}})\b(?![.,]\d)", initial, question, flags=re.IGNORECASE)


@lru_cache(maxsize=2048)
def _codes_written_in(table: TableData) -> frozenset[tuple[str, str]]:
    """(family, value) of every code the table's labels and headers write; cached, as a table is
    read question after question."""
    labels = [label_of(table, row) for row in table.rows]
    return frozenset(code for text in [*labels, *table.headers] for code in codes_in(text))


def _spelt_numbers_in_digits(question: str, families: set[str]) -> str:
    """A number spelt after a family's word ("stage one", "band three") as its digits."""
    if not families:
        return question
    pattern = rf"\b({'|'.join(re.escape(f) for f in sorted(families, key=len, reverse=True))})\s+({'|'.join(_NUMBER_NAMES)})\b(?![\s-]+(?:hundred|thousand|million))"
    return re.sub(pattern, lambda m: f"{m.group(1)} {_NUMBER_NAMES[m.group(2).lower()]}", question, flags=re.IGNORECASE)


def _codes_by_their_words(question: str, table: TableData) -> str:
    """"zone 2" as "RZ2" where the table's codes are RZ1 ... RZ5 and its caption or headers spell
    the family out ("by site class and remoteness zone"): the question names a code by the words
    its initials stand for, or by the last of them."""
    codes = table_codes(table)
    question = _one_letter_codes_by_their_names(question, table, {f for f in codes.rows if len(f) == 1 and f.isalpha()})
    families = {f for f in (*codes.rows, *codes.columns) if 2 <= len(f) <= 4 and f.isalpha()}
    if not families:
        return question
    text_words = words(" ".join([table.caption, *table.headers]))
    for family in families:
        n = len(family)
        for i in range(len(text_words) - n + 1):
            phrase = text_words[i:i + n]
            if "".join(w[0] for w in phrase) != family or any(w in STOP_WORDS for w in phrase):
                continue
            whole = r"\s+".join(map(re.escape, phrase))
            spoken = rf"(?:{whole}|{re.escape(phrase[-1])})"
            question = re.sub(rf"\b{spoken}s?\s+(\d{{1,2}})\b", lambda m: f"{family.upper()}{m.group(1)}", question,
                              flags=re.IGNORECASE)
            break
    return question


_CODE_STEP_WORDS = ("point", "points", "scale", "step", "level", "spine", "grade", "band", "pay", "range", "no", "number")


def _one_letter_codes_by_their_names(question: str, table: TableData, families: set[str]) -> str:
    """"upper pay range point 2" as "U2", "main scale 5" as "M5", where the table's codes are M1 ...
    M6 and U1 ... U3 and its caption names each family by a capitalised phrase that opens with its
    letter ("Main Pay Range and Upper Pay Range by Spine Point"): the phrase's first word, then
    words of the phrase or a word for a step on a scale, then the number."""
    if len(families) < 2:
        return question
    phrases = re.findall(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+", table.caption)
    for family in families:
        named = [p for p in phrases if p[0].lower() == family]
        if len(named) != 1:
            continue
        phrase = named[0].lower().split()
        between = "|".join(map(re.escape, dict.fromkeys([*phrase[1:], *_CODE_STEP_WORDS])))
        question = re.sub(rf"\b{re.escape(phrase[0])}(?:\s+(?:{between})){{1,4}}\s+(\d{{1,2}})\b",
                          lambda m: f"{family.upper()}{m.group(1)}", question, flags=re.IGNORECASE)
    return question


def _spelt(family: str) -> re.Pattern:
    """A family of codes ("SCP") spelt out in words and followed by the code's number ("spinal
    column point 24")."""
    words_of = r"\s+".join(rf"{letter}[a-z]+" for letter in family.lower())
    return re.compile(rf"\b{words_of}s?\s+(?:no\.?\s*|number\s+)?(\d{{1,3}})\b", re.IGNORECASE)


def spelt_family_words(question: str, table: TableData) -> set[str]:
    """The words with which the question spells out the code family of the table's labels
    ("spinal column point" for "SCP 1" ... "SCP 30"): they name a row, not what is asked."""
    written = {m.group(1) for row in table.rows if (m := _LEADING_CODE.match(label_of(table, row).strip()))
               and m.group(1).isupper() and 2 <= len(m.group(1)) <= 4}
    out: set[str] = set()
    for family in written:
        for m in _spelt(family).finditer(question):
            out |= set(words(m.group(0)))
    return out


def _ampersand_initials_as_the_table(question: str, texts: list[str]) -> str:
    """"teaching and research" as "T&R" where the table writes the initials so ("Maximum Contact
    Hours (T&R pathway)")."""
    for first, second in dict.fromkeys(re.findall(r"\b([A-Z])\s?&\s?([A-Z])\b", " ".join(texts))):
        question = re.sub(rf"\b{first}[a-z]+\s+(?:and|&)\s+{second}[a-z]+\b", f"{first}&{second}", question,
                          flags=re.IGNORECASE)
    return question


def _hyphenated_as_the_table(question: str, texts: list[str]) -> str:
    """The question with a word the table writes hyphenated written the table's way ("ensuite"
    for "En-suite", "parttime" for "part-time")."""
    for word in {w for text in texts for w in re.findall(r"\b[A-Za-z]+(?:-[A-Za-z]+)+\b", text)}:
        joined = word.replace("-", "")
        question = re.sub(rf"\b{re.escape(joined)}\b", word.lower(), question, flags=re.IGNORECASE)
    return question


_NUMBER_THEN_LETTER = re.compile(r"\b(\d{1,2})\s+([A-Za-z])\b(?!['’.]\w)(?P<end>\s*(?:[?.!,;:]|$))?")


def _sub_letters_joined(question: str, labels: list[str]) -> str:
    """"grade 6 b" (from "grade six b") as "grade 6b" where a label's code ends so ("ZK6b"); an
    "a" only at the end of a clause ("grade 6 a good one" keeps its article)."""
    endings = {m.group(1).lower() for label in labels for m in [re.search(r"(\d{1,2}[A-Za-z])\s*$", label.strip())] if m}
    if not endings:
        return question

    def joined(m: re.Match) -> str:
        code = f"{m.group(1)}{m.group(2)}".lower()
        if code not in endings or (m.group(2).lower() == "a" and m.group("end") is None):
            return m.group(0)
        return f"{m.group(1)}{m.group(2)}{m.group('end') or ''}"

    return _NUMBER_THEN_LETTER.sub(joined, question)


def _spaced_codes_as_the_table(question: str, labels: list[str]) -> str:
    """The question with a code of the labels written letter by letter ("G M C", "g-m-c" for
    "GM-C") written as the label writes it; a code of two capitals or more, with a hyphen or a digit."""
    for label in labels:
        code = label.strip()
        if not re.fullmatch(r"[A-Z]{2,4}(?:-?[A-Z0-9]{1,3})", code) or not re.search(r"[-\d]", code):
            continue
        question = spelt_code(code, spaced=True).sub(code, question)
    return question


def _without_told_cells(question: str, table: TableData, rows: tuple[TableRow, ...], columns: tuple[int, ...],
                        notes: tuple[str, ...]) -> tuple[int, ...]:
    """A column whose cell of the named row the question writes is what the asker already knows
    ("I'm an E6 Staff Engineer": the title column): the columns the rest of the question names
    are asked instead."""
    if not columns or len(rows) != 1:
        return columns
    cells = rows[0].cells
    told = [c for c in columns if c < len(cells) and re.search(r"[A-Za-z]{3}", cells[c]) and _holds_phrase(question, cells[c])]
    if not told:
        return columns
    rest = question
    for c in told:
        rest = re.sub(re.escape(cells[c]), " ", rest, flags=re.IGNORECASE)
    kept = tuple(c for c in columns if c not in told)
    return kept or tuple(c for c in asked_columns(rest, table, notes) if c not in told)


def _without_columns_of_the_label(question: str, table: TableData, rows: tuple[TableRow, ...],
                                  columns: tuple[int, ...]) -> tuple[int, ...]:
    """A column the question names only by a word of the named row's label is not asked for: "a
    passenger launch" names the "Passenger launch" row, not the "Rescue boat launched" column."""
    if not columns or len(rows) != 1:
        return columns
    label = stems_of(label_of(table, rows[0]))
    asked = stems_of(question) - _GENERIC_STEMS - STOP_STEMS

    def by_the_label(column: int) -> bool:
        shared = stems_of(table.headers[column]) & asked
        return bool(shared) and shared <= label

    return tuple(c for c in columns if not by_the_label(c))


def _without_the_rows_noun(question: str, table: TableData, rows: tuple[TableRow, ...],
                           columns: tuple[int, ...]) -> tuple[int, ...]:
    """The noun written right after the named row's label says what the row is ("RT-11 records",
    "Band B14 staff"): a column named only by it ("Record type") is not the one asked for, when
    another column is."""
    if len(columns) < 2 or len(rows) != 1:
        return columns
    sequence = words(question)
    label = words(label_of(table, rows[0]))
    after = {stem(sequence[i + len(label)]) for i in range(len(sequence) - len(label))
             if label and sequence[i:i + len(label)] == label}
    if not after:
        return columns

    def by_the_noun(column: int) -> bool:
        header = re.sub(r"\([^)]*\)", " ", table.headers[column])
        named = {stem(w) for w in words(header) if w not in STOP_WORDS} - _GENERIC_STEMS
        return bool(named) and named <= after

    kept = tuple(c for c in columns if not by_the_noun(c))
    return kept or columns


def _without_column_words(question: str, table: TableData, columns: tuple[int, ...]) -> str:
    """The question without the words, written once, that name its asked columns: in "the
    maximum Duty Period for a Cabin Cleaner" "duty" names the column, not the Duty Manager row
    ("the duty period of a duty manager" keeps it: written twice)."""
    if not columns:
        return question
    header = {stem(w) for c in columns if c < len(table.headers) for w in words(table.headers[c])} - _GENERIC_STEMS
    count: dict[str, int] = {}
    for w in words(question):
        count[stem(w)] = count.get(stem(w), 0) + 1
    drop = {s for s in header if count.get(s) == 1}
    return re.sub(r"[^\W_]+", lambda m: " " if stem(m.group(0)) in drop else m.group(0), question) if drop else question


# "Level 9 postgraduate diploma", "Grade 4 technician": a code of one family, then a name
_LEADING_CODE = re.compile(r"^([A-Za-z]{2,12}(?: [A-Za-z]{2,12})?)[ -]?(\d{1,3})(?![\d,.%])\b")  # "Level 9", "Key Stage 3"


def _leading_codes(labels: list[str]) -> str:
    """The family word when (nearly) every label starts with a numbered code of that one family
    and goes on with a name; "" otherwise."""
    found = [_LEADING_CODE.match(label.strip()) for label in labels]
    families = {m.group(1).lower() for m in found if m}
    named = sum(bool(m) and bool(label.strip()[m.end():].strip()) for m, label in zip(found, labels))
    if len(families) == 1 and sum(bool(m) for m in found) >= max(2, int(0.8 * len(labels))) and named * 2 >= len(labels):
        return families.pop()
    return ""


def _partial_leading_codes(labels: list[str]) -> str:
    """The family word when two labels or more (not nearly all) start with a numbered code of one
    family and the other labels are names ("Stage 1 Attendance Review" beside "Final Review")."""
    found = [_LEADING_CODE.match(label.strip()) for label in labels]
    families = {m.group(1).lower() for m in found if m}
    if len(families) == 1 and sum(bool(m) for m in found) >= 2:
        return families.pop()
    return ""


def _names_family_number(question: str, family: str) -> bool:
    return bool(_family_numbers(question, family))


def _family_numbers(question: str, family: str) -> list[int]:
    """The numbers the question writes after a code family's word ("stage 2", "grades 7", "year 8";
    not "band 8b": see _family_positions)."""
    return [int(p) for p in _family_positions(question, family) if p.is_integer()]


def _match_leading_codes(question: str, table: TableData, labels: list[str], family: str) -> RowMatch | None:
    """Rows whose leading code the question names ("level 9 postgrad diploma": of the two Level 9
    rows, the one its other words name); a code the table does not have is absent ("Level 10")."""
    named = list(re.finditer(rf"\b{re.escape(family)}[ -]?(\d{{1,3}})(?![\d,.%])\b", question, re.IGNORECASE))
    if not named:
        return None
    asked = {int(m.group(1)) for m in named}
    leading = [_LEADING_CODE.match(label.strip()) for label in labels]
    sub = [(row, label) for row, label, m in zip(table.rows, labels, leading) if m and int(m.group(2)) in asked]
    if not sub:
        written = named[0].group(0)
        return RowMatch(table, (), how="absent", asked=written[:1].upper() + written[1:])
    rows = tuple(row for row, _ in sub)
    if len(rows) > 1:
        by_name = _match_names(question, replace(table, rows=rows), [label for _, label in sub])
        if by_name is not None and by_name.rows:
            return RowMatch(table, by_name.rows, how="label")
    return RowMatch(table, rows, how="label")


_BARE_LETTER = re.compile(r"^[A-Z]$")


def _bare_letter_family(table: TableData, labels: list[str]) -> str:
    """The label column's noun when (nearly) every label is a bare capital letter ("A", "B"):
    a question writes them with it ("Category C")."""
    if len(labels) < 2 or sum(bool(_BARE_LETTER.match(label.strip())) for label in labels) < max(2, int(0.8 * len(labels))):
        return ""
    header = [w for w in words(table.headers[0] if table.headers else "") if w not in STOP_WORDS]
    return header[-1] if header else ""


def _unknown_title_name(question: str, table: TableData, labels: list[str], *, named: bool = False) -> str:
    """A name the question writes in capitals as the table writes its rows, that is no row: a
    longer title ending with a label ("Assistant Store Manager" beside "Store Manager"), or, when
    no row is `named`, a word built as labels are ("Megastore" beside "Superstore"). Empty when
    there is none."""
    if not labels or not all(label[:1].isupper() and len(label.split()) <= 4 for label in labels):
        return ""
    known = {w for text in [*labels, *table.headers, table.caption] for w in words(text)}
    lowered = {label.lower() for label in labels}
    places = {w for p in places_in(question) for w in words(p.written)}
    for m in re.finditer(r"(?<![\w-])((?:[A-Z][a-z]+\s+){0,3}[A-Z][a-z]+)(?![\w-])", question):
        phrase, start = m.group(1), m.start(1)
        if start == 0 or re.search(r"[.?!]\s*$", question[:start]):
            continue  # a sentence's first word is capitalised anyway
        if set(words(phrase)) & places or phrase.lower() in lowered:
            continue
        # a longer title ending with a label
        for label in labels:
            if phrase.lower().endswith(" " + label.lower()):
                return phrase
        # one new word sharing a label's last four letters or more ("Megastore", "Superstore"),
        # when no row is named
        if not named and " " not in phrase and phrase.lower() not in known:
            tails = {label.lower()[-k:] for label in labels if " " not in label for k in range(4, len(label))}
            if any(phrase.lower().endswith(t) for t in tails):
                return phrase
    return ""


def _named_as_labels_are(question: str, table: TableData, labels: list[str]) -> str:
    """A capitalised name written as the label column names its rows ("classified as Secret",
    "a Top Secret classification") that is no row and no word of the table's labels, headers or
    caption; empty when there is none. Rows found through their cells ("secrets vault") are not
    the answer to it."""
    if not labels or not all(label[:1].isupper() and len(label.split()) <= 4 for label in labels):
        return ""
    for phrase, start, end in _new_capitalised_phrases(question, table, labels, extra_words=2):
        if _beside_label_noun(question, start, end, table):
            return phrase
    return ""


def _new_capitalised_phrases(question: str, table: TableData, labels: list[str], *, extra_words: int,
                             min_extra: int = 0):
    """(phrase, start, end) for each run of capitalised words (1 + `min_extra` to 1 +
    `extra_words` of them) that does not open a sentence and holds no word of the table's labels,
    headers or caption, nor of a place."""
    known = {w for text in [*labels, *table.headers, table.caption] for w in words(text)}
    known |= {w for p in places_in(question) for w in words(p.written)}
    known_stems = {stem(w) for w in known}
    pattern = rf"(?<![\w-])((?:[A-Z][a-z]+\s+){{{min_extra},{extra_words}}}[A-Z][a-z]+)(?![\w-])"
    for m in re.finditer(pattern, question):
        phrase, start = m.group(1), m.start(1)
        if start == 0 or re.search(r"[.?!]\s*$", question[:start]):
            continue  # a sentence's first word is capitalised anyway
        if set(words(phrase)) & known:
            continue
        if weekday_stems(phrase) & known_stems:
            continue  # "Wednesday" where the labels say "Weekday"
        yield phrase, start, m.end(1)


def _beside_label_noun(question: str, start: int, end: int, table: TableData) -> bool:
    """Whether the words just before (an article or "as" between) or just after question[start:
    end] are the label column's name or a form of it ("classified as" for "Classification")."""
    nouns = [w for h in table.headers[: max(table.label_columns, 1)] for w in words(h) if len(w) >= 4]
    before = [w for w in words(question[:start])[-3:] if w not in ("as", "a", "an", "the", "of", "at", "on", "its")][-1:]
    after = words(question[end:])[:1]
    return any(w[:6] == n[:6] and len(w) >= 4 for w in before + after for n in nouns)


def _new_title(question: str, table: TableData, labels: list[str]) -> str:
    """A title of words the table never uses, capitalised as its labels are ("Cabin Cleaner" in a
    table of "Ramp Agent", "Catering Driver", "Shift Lead"): a row it does not have. Empty when
    the labels are not such titles or the question writes none."""
    titled = sum(len(label.split()) >= 2 and all(w[:1].isupper() for w in label.split()) for label in labels)
    if titled * 2 < len(labels):
        return ""
    return next((phrase for phrase, _, _ in _new_capitalised_phrases(question, table, labels, extra_words=3, min_extra=1)), "")


def _mostly_quantities(values: list[str]) -> bool:
    """Whether most cells are a number with a unit or currency ("5 days", "SEK 1.05", "12 months")."""
    filled = [v for v in values if v]
    quantity = re.compile(r"^\W*(?:[A-Za-z]{1,3}\s*)?[\d.,]+\s*(?:%|[A-Za-z]+(?:\s+[A-Za-z]+)?)?(?:\s+(?:per|a|each|of)\s+\w+(?:\s+\w+)?)?\W*$")
    return bool(filled) and sum(bool(quantity.match(v.strip())) for v in filled) * 2 > len(filled)


def _another_kind(question: str, table: TableData, labels: list[str], *, spans: bool = False) -> str:
    """A kind of row the table does not have, named as the table names its rows: a word before
    the label column's noun or a label's last word that no label, header or caption has ("a
    split shift" against shift types Early, Late, Night; "the Research role family" against role
    families Design, Technical; "a foreign government client" against client sectors "UK central
    government", "Irish public body"). Empty when there is none."""
    known = {stem(w) for text in [*labels, *table.headers, table.caption] for w in words(text)}
    header = [w for h in table.headers[: max(table.label_columns, 1)] for w in words(h)]
    # (a label's last word that can be a kind: not "in" of "call-in", nor the "2019" of a bracket)
    # (a label that is a phrase of its own, "Vomit in the water", "Damage to airport
    # infrastructure", ends on what its preposition governs, not on a kind of row)
    last = [words(label) for label in labels]
    heads = {stem(w) for w in header if w not in STOP_WORDS} | {stem(ws[-1]) for ws in last
                                                               if ws and ws[-1] not in STOP_WORDS and ws[-1].isalpha()
                                                               and not _PHRASE_WORDS & set(ws[:-1])}
    if spans:
        # a table of spans ("4.5 - 8 hours", "Petrol car up to 1,200cc"): only the nouns of its
        # labels that are no quantity name kinds of row ("a hybrid car"; not "core hours")
        heads = {stem(words(label)[-1]) for label in labels if words(label) and _range(label) is None
                 and not re.search(r"\d", words(label)[-1])}
    # what the caption says the table gives ("Shift premium rates by shift type"): a "Saturday
    # premium" is a kind the rows lack when the lexicon lists Saturday beside a row's Sunday
    caption = re.sub(r"^\s*table\s+\d+\s*[:.-]?", "", table.caption, flags=re.IGNORECASE).split(" by ")[0]
    caption_heads = {stem(w) for w in words(caption) if w not in STOP_WORDS and w not in GENERIC_WORDS and not w.isdigit()} - heads
    label_stems = {stem(w) for label in labels for w in words(label)}
    tokens = words(question)
    for i in range(len(tokens) - 1):
        modifier, noun = tokens[i], tokens[i + 1]
        if stem(noun) in caption_heads and kinds_beside(stem(modifier)) & label_stems and stem(modifier) not in known:
            return f"{modifier} {noun}"
        if stem(noun) not in heads or not modifier.isalpha() or len(modifier) < 3:
            continue
        if modifier in STOP_WORDS or modifier in GENERIC_WORDS or stem(modifier) in known:
            continue
        if modifier in _NOT_KINDS and not (modifier in _OCCUPANCIES and _OCCUPANCIES & {w for ws in last for w in ws}):
            continue  # "a double room" is a kind where rooms are "Standard Single", "Shared Twin"
        if equivalents(stem(modifier)) & known:
            continue  # "maternity leave": a synonym of a kind the table has ("Parental leave (birth parent)")
        capitalised = {w.lower() for w in re.findall(r"\b[A-Z][^\W\d_]*", question)}
        start = i
        while start > 0 and tokens[start] in capitalised and tokens[start - 1] in capitalised \
                and tokens[start - 1] not in STOP_WORDS and stem(tokens[start - 1]) not in known and start > i - 3:
            start -= 1  # "Customer Support job family"
        while start == i and start > 0 and tokens[start - 1].isalpha() and len(tokens[start - 1]) >= 3 \
                and tokens[start - 1] not in STOP_WORDS and tokens[start - 1] not in GENERIC_WORDS \
                and tokens[start - 1] not in _NOT_KINDS and stem(tokens[start - 1]) not in known:
            start -= 1  # "a hybrid engine car": the modifier before the modifier
        end = i + 2
        while end < len(tokens) and end - i < 4 and stem(tokens[end]) in heads and tokens[end] not in STOP_WORDS:
            end += 1  # "research role family"
        phrase = r"\W+".join(re.escape(t) for t in tokens[start:end])
        written = re.search(phrase, question, re.IGNORECASE)
        return written.group(0) if written else " ".join(tokens[start:end])
    return ""


# the prepositions and articles inside a label that is a phrase ("Loose stool in the water")
_PHRASE_WORDS = frozenset("in on at to into onto from with without by of near between the a an".split())

# words that say how much or which one, not what kind ("my usual shift", "an extra shift")
_NOT_KINDS = frozenset(
    "usual normal regular next last first second third same other another each every whole full long short "
    "extra single double current new old own typical standard given particular specific".split()
)

# how many a room (a bed, a ticket) is for: words that say "which one" elsewhere ("a single day",
# "double time") but are the kinds of a table whose labels use one of them
_OCCUPANCIES = frozenset("single double twin triple".split())

_CATCH_ALL_COLUMN = re.compile(r"\b(rest of|other|others|elsewhere|all other|any other|remaining)\b", re.IGNORECASE)


def absent_column(question: str, table: TableData, *, countries_only: bool = False) -> str:
    """A place the question names where the table's value columns are places ("Gothenburg Hub",
    "London", "Manchester") and none of them is it or holds it: "Malmö Terminal", "the
    Edinburgh office". Empty when the columns are not places, a column takes every other place
    ("Rest of world"), or the place is one of them."""
    first = max(table.label_columns, 1)
    headers = [re.sub(r"\([^)]*\)", " ", h).strip() for h in table.headers[first:]]
    if len(headers) < 2 or any(_CATCH_ALL_COLUMN.search(h) for h in headers):
        return ""
    countries = [h for h in headers if _names_countries(h)]
    if len(countries) >= 2:
        headers = countries  # "Canada", "United States" beside "Required response time"
    elif countries_only or not all(_proper_name(h) for h in headers):
        return ""
    header_words = {w for h in headers for w in words(h)}
    header_tails = {words(h)[-1] for h in headers if len(words(h)) > 1}
    cells = {w for row in table.rows for c in row.cells for w in words(c)} | {w for w in words(table.caption)}
    for place in places_in(question):
        names = {w for n in place.names for w in words(n)} | set(words(place.written))
        if not names & (header_words | cells):
            return place.written
    # a capitalised name written with a word the place columns end in ("Malmö Terminal")
    for m in re.finditer(r"(?<!^)(?<![.?!]\s)\b([A-Z][^\W\d_]+(?:\s+[A-Z][^\W\d_]+)*)\s+([A-Za-z]+)\b", question.strip()):
        name, tail = m.group(1), m.group(2).lower()
        # (in the plural too: "Minster Yard Offices" beside "Wendmoor Record Office")
        if (tail in header_tails or stem(tail) in {stem(t) for t in header_tails}) and not set(words(name)) & (header_words | cells):
            return f"{name} {m.group(2)}"
    return ""


def _names_countries(header: str) -> bool:
    """Whether a header is a country, or countries joined by "and", "&", "/" or commas
    ("Ireland and Portugal")."""
    parts = [p for p in re.split(r"\s*(?:,|&|/|\band\b)\s*", header.strip()) if p]
    return bool(parts) and all(is_country_name(p) for p in parts)


def _proper_name(header: str) -> bool:
    """A column header that is a proper name: one to four words, each capitalised, no digits."""
    parts = header.replace("-", " ").split()
    return 1 <= len(parts) <= 4 and all(p[:1].isupper() for p in parts if p not in ("&", "and", "of", "the")) and not re.search(r"\d", header)


# --------------------------------------------------------------------------- codes


def _lettered(label: str) -> tuple[str, int, str] | None:
    m = _LETTER_LABEL.match(label.strip())
    return (m.group(1).lower(), 0, m.group(2).lower()) if m else None


def _code(label: str) -> tuple[str, int, str] | None:
    m = _CODE_LABEL.match(label.strip())
    if not m:
        lettered = _LETTER_LABEL.match(label.strip())
        return (lettered.group(1).lower(), 0, lettered.group(2).lower()) if lettered else None
    return ((m.group(1) or "").replace("-", " ").strip().lower(), int(m.group(2)), m.group(3).lower())


def _code_span(label: str) -> tuple[str, int, int] | None:
    """(prefix, low, high) of a label that spans codes of one family ("G9 - G10": ("g", 9, 10));
    None for anything else (an amount or a time span is a range, not codes)."""
    m = _CODE_SPAN.match(label.strip())
    if not m:
        return None
    first, last = _code(f"{m.group(1).strip()}{m.group(2)}"), _code(f"{m.group(3).strip()}{m.group(4)}")
    if first is None or not first[0] or first[2] or int(m.group(2)) > int(m.group(4)):
        return None
    if last is not None and last[0] and last[0] != first[0] and not (last[0] + "s").startswith(first[0]):
        # "G9 - H10" spans two families; "Grades 1–2" writes the family once
        return None
    if last is None and m.group(3).strip():
        return None
    return (first[0].rstrip("s") if first[0].endswith("s") and len(first[0]) > 3 else first[0], first[1], int(m.group(4)))


def _span_ends(label: str) -> tuple[str, str]:
    """The first and the last code of a span label as written ("G9 - G10": "G9", "G10"; "Band 7
    to 9": "Band 7", "Band 9")."""
    m = _CODE_SPAN.match(label.strip())
    last_prefix = m.group(3) if m.group(3).strip() else m.group(1)  # "Band 7 to 9": the first's prefix
    return f"{m.group(1)}{m.group(2)}".strip(), f"{last_prefix}{m.group(4)}".strip()


def _in_span(span: tuple[str, int, int] | None, prefix: str, number: int, suffix: str) -> bool:
    return span is not None and not suffix and span[0] == prefix and span[1] <= number <= span[2]


_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
             "ninth": 9, "tenth": 10}
_ORDINAL_PATTERN = "|".join([*_ORDINALS, r"\d{1,2}(?:st|nd|rd|th)"])


def _ordinal(word: str) -> int:
    return _ORDINALS.get(word.lower()) or int(re.match(r"\d+", word).group(0))


def _another_bracket(question: str, label: str) -> str:
    """The variant the question writes when it writes the word before the label's bracket with a
    bracket of its own that says another thing ("the Master (Unlimited) CoC" against "Master (Near
    Coastal) CoC"): another variant of the name, not this row. Empty otherwise."""
    for m in re.finditer(r"([A-Za-z][\w-]*)\s*\(([^()]{1,40})\)(\s+[\w-]+)?", label):
        after = re.escape(m.group(3).strip()) if m.group(3) else ""
        asked = re.search(rf"(?<![\w-]){re.escape(m.group(1))}\s*\(([^()]{{1,40}})\)(?:\s+{after}\b)?" if after else
                          rf"(?<![\w-]){re.escape(m.group(1))}\s*\(([^()]{{1,40}})\)", question, re.IGNORECASE)
        if asked and {stem(w) for w in words(asked.group(1))} != {stem(w) for w in words(m.group(2))} \
                and not _CODE_IN_BRACKET.fullmatch(asked.group(1)):
            return asked.group(0)
    return ""


# a bracket holding a code ("ramp agent (RA1)") says which row, not which variant of a name
_CODE_IN_BRACKET = re.compile(r"\s*[A-Za-z]{1,5}[-\s]?\d{1,3}[A-Za-z]?\s*")


_BRACKETED = re.compile(r"([A-Za-z][\w-]*)\s*\(([^()]{1,40})\)")


def _bracketed_names_of_others(question: str, labels: list[str]) -> set[str]:
    """The names the question writes with a bracket ("Master (Unlimited)") that are the word before
    some label's bracket ("Master (Near Coastal) CoC"), lower-cased; read once per table."""
    heads = {m.group(1).lower() for label in labels for m in _BRACKETED.finditer(label)}
    return {m.group(1).lower() for m in _BRACKETED.finditer(question) if not _CODE_IN_BRACKET.fullmatch(m.group(2))} & heads


def _another_name_bracketed(asked_names: set[str], label: str) -> bool:
    """Whether the question names, with a bracket, a name that is another label's and not this
    one's (`asked_names`: _bracketed_names_of_others): the bracket's words ("Unlimited") do not
    make "OOW (Unlimited) CoC" the row asked for "the Master (Unlimited) CoC"."""
    return bool(asked_names) and not asked_names & {m.group(1).lower() for m in _BRACKETED.finditer(label)}


def _another_variant_asked(question: str, labels: list[str]) -> str:
    """A variant of a label's name the question writes and no label is ("Master (Unlimited) CoC"
    where the rows are "Master (Near Coastal) CoC" and "OOW (Unlimited) CoC"); empty otherwise."""
    variants = [v for label in labels if (v := _another_bracket(question, label))]
    if variants and not any(_holds_phrase(label, variants[0]) for label in labels):
        return variants[0]
    return ""


def _ordinals_written(question: str) -> set[tuple[str, str]]:
    """(ordinal, the word after it) as the question writes them ("third officer"); read once."""
    asked = words(question)
    return {(a, b) for a, b in zip(asked, asked[1:]) if a in _ORDINALS}


def _another_ordinal(written: set[tuple[str, str]], label: str) -> bool:
    """Whether the label writes another ordinal before a word the question writes an ordinal
    before (`written`: _ordinals_written): "Second officer" against "a third officer", "Weekday
    night, first on-call" against "second on-call"; that row is another one of the series."""
    if not written:
        return False
    own = words(label)
    return any(a in _ORDINALS and (a, b) not in written and any(b == w for _, w in written)
               for a, b in zip(own, own[1:]))


def _match_code_span_column(question: str, table: TableData) -> RowMatch | None:
    """The row whose cell in a column of code spans ("Pay grades": "Grades 7–8") holds the code the
    question writes ("a grade 8 fitter" is Band D); the code written is absent when none does."""
    for column in range(max(table.label_columns, 1), len(table.headers)):
        values = [row.cells[column] if column < len(row.cells) else "" for row in table.rows]
        spans = [_code_span(v) for v in values]
        families = {sp[0] for sp in spans if sp is not None}
        if sum(sp is not None for sp in spans) < max(2, int(0.8 * len(values))) or len(families) != 1:
            continue
        family = families.pop()
        written = _family_numbers(question, family)
        if not written:
            continue
        found = _match_codes(question, table, values, [None] * len(values), spans)
        if found is not None and found.rows:
            return RowMatch(table, found.rows, how="label", named_by=column)
        return RowMatch(table, (), how="absent", asked=f"{family.capitalize()} {written[0]}")  # "grade 12"
    return None


def _one_family_by_its_words(question: str, table: TableData, rows: list) -> list:
    """Of rows of several families named by one number ("grade four": MR4 and DO-4), the one whose
    other cells hold a word the question writes that the others lack ("a marine rating on grade
    four": "Bosun's mate; engine room rating"); all of them otherwise."""
    asked = {stem(w) for w in words(question) if w not in STOP_WORDS and w not in GENERIC_WORDS}
    first = max(table.label_columns, 1)
    held = [asked & {stem(w) for c in row.cells[first:] for w in words(c)} for row in rows]
    own = [h - set().union(*(o for j, o in enumerate(held) if j != i)) for i, h in enumerate(held)]
    chosen = [row for row, words_ in zip(rows, own) if words_]
    return chosen if len(chosen) == 1 else rows


def _match_codes(question: str, table: TableData, labels: list[str], codes, spans=None) -> RowMatch | None:
    spans = spans or [None] * len(codes)
    prefixes = {c[0] for c in codes if c is not None} | {p[0] for p in spans if p is not None}
    nouns = _label_nouns(table)
    text = question.replace(",", " ")
    # "a first-year apprentice", "my 3rd year" name "Year 1", "Year 3"
    text = re.sub(rf"\b({_ORDINAL_PATTERN})[\s-]+({'|'.join(re.escape(p) for p in sorted(prefixes, key=len, reverse=True) if len(p) > 2) or '(?!)'})\b",
                  lambda m: f"{m.group(2)} {_ordinal(m.group(1))}", text, flags=re.IGNORECASE)
    asked: list[tuple[str, int, str, str]] = []  # (prefix, number, suffix, as written)
    absent: list[str] = []
    # a code of a two-part family ("CL-D1", "CL-T1": families "cl d", "cl t"): "CL-C1" is of the
    # table's kind, and absent when the table has no "CL-C" family
    split_heads = {p.split()[0] for p in prefixes if " " in p}
    for m in re.finditer(r"\b([A-Za-z]{1,4})[ -]([A-Za-z]{1,3})[ -]?(\d+)\b", text) if split_heads else ():
        key = _code(m.group(0))
        if key is not None and " " in key[0] and key[0].split()[0] in split_heads:
            if key[0] in prefixes:
                asked.append((key[0], key[1], key[2], _written(key[0], key[1], key[2], labels)))
            else:
                absent.append(m.group(0).upper())
    for m in re.finditer(r"\b([A-Za-z]{1,6})?[ -]?(\d+)([A-Za-z]?)\b", text):
        prefix, number, suffix = (m.group(1) or "").lower(), int(m.group(2)), m.group(3).lower()
        if prefix in STOP_WORDS and prefix in prefixes and m.group(1).islower() and m.group(0)[len(prefix)] == " ":
            continue  # a small word before a number ("22:00 to 06:00"), not the family of codes it spells ("TO1")
        before = words(text[: m.start()])[-1:]
        after_noun = bool(before) and _noun_or_clipped(before[0], nouns)
        if prefix and prefix in prefixes:
            asked.append((prefix, number, suffix, m.group(0)))
        elif prefix and len(prefix) == 1 and len(prefixes) == 1 and len(family := next(iter(prefixes))) >= 3 \
                and family.startswith(prefix):
            # "g9" for "Grade 9": the family's initial where no code of the table is one letter
            asked.append((family, number, suffix, _written(family, number, suffix, labels)))
        elif (prefix and _noun_or_clipped(prefix, nouns)) or (not prefix and after_noun):
            # "band 14": the label column's noun and a number mean the code of that number (of
            # each family: "grade 4" where the grades are LS1 ... and TO1 ... is absent as written)
            asked.extend((p, number, suffix, _written(p, number, suffix, labels) if len(prefixes) == 1
                          else m.group(0).strip()[:1].upper() + m.group(0).strip()[1:]) for p in sorted(prefixes))
        elif prefix and after_noun:
            absent.append((m.group(1) + m.group(2) + m.group(3)).upper())  # "band C3": another family
        elif (not prefix or prefix in STOP_WORDS) and suffix and len(prefixes) == 1 \
                and any(c is not None and c[1] == number and c[2] for c in codes):
            # "8b" where the table writes B8a to B8d: a number and a letter as the table's
            # lettered codes of that number are written, without the family (absent when the
            # table has other letters of that number only: "8e")
            family = next(iter(prefixes))
            asked.append((family, number, suffix, _written(family, number, suffix, labels)))
        elif len(prefix) == 1 and len(prefixes) >= 3 and all(len(p) == 1 for p in prefixes) \
                and re.fullmatch(r"[A-Z]\d{1,2}" if not question.islower() else r"[a-z]\d{1,2}", m.group(0)):
            absent.append(m.group(0).upper())  # "a K1 sideloader" where the codes are A1, B3, D2, G1
    if any(c is not None and c[1] == 0 and c[2] for c in codes):
        _lettered_codes(question, prefixes, nouns, labels, asked, absent)
    if not asked and not absent:
        # "I'm a 14": one bare whole number, with no unit, currency or percent, in a question
        # about a table of numbered codes names the code of that number
        bare = [m for m in re.finditer(r"(?<![\w.$£€₹])(\d{1,3})(?![\w%]|[.,]\d)(?![\s-]*(?:%|per ?cent|years?|months?|weeks?|days?|hours?|nights?|minutes?|km|miles?|usd|gbp|eur|inr|dollars?|pounds?|euros?)\b)", question)]
        # a number written after a noun belongs to that noun ("Band 3" is not grade 3)
        bare = [m for m in bare if not _after_content_word(question, m.start())]
        if len(bare) == 1 and len(prefixes) == 1:
            number = int(bare[0].group(1))
            asked = [(p, number, "", _written(p, number, "", labels)) for p in prefixes]
            if not any(code == (a[0], a[1], "") for a in asked for code in codes) \
                    and not any(_in_span(p, a[0], a[1], "") for a in asked for p in spans):
                asked = []  # a number the table does not have is not a label here
    rows = []
    for prefix, number, suffix, _ in asked:
        for row, code, span in zip(table.rows, codes, spans):
            if (code == (prefix, number, suffix) or _in_span(span, prefix, number, suffix)) and row not in rows:
                rows.append(row)
    if not rows:
        # "my TLR 2" where the table writes TLR 2a, 2b and 2c: the code without a letter names its
        # lettered rows (the policy's own text speaks of "a TLR 2" so)
        rows = [row for prefix, number, suffix, _ in asked if not suffix
                for row, code in zip(table.rows, codes) if code is not None and code[:2] == (prefix, number) and code[2]]
        rows = list(dict.fromkeys(rows))
    if len(rows) > 1 and len({code[0] for row, code in zip(table.rows, codes) if row in rows and code}) > 1:
        rows = _one_family_by_its_words(question, table, rows)
    if rows:
        return RowMatch(table, tuple(rows), how="label")
    if asked:
        written = asked[0][3]
        # "b 25" is B25; "Grade 12" stays as a word and a number
        collapsed = asked[0][1] != 0 and len(asked[0][0]) <= 2 and not re.match(r"[A-Za-z]{3,}\s", written)
        return RowMatch(table, (), how="absent", asked=written.replace(" ", "").upper() if collapsed else written)
    if absent:
        return RowMatch(table, (), how="absent", asked=absent[0])
    return None


def _noun_or_clipped(word: str, nouns: set[str]) -> bool:
    """The label column's noun, or its clipped form ("sev 1" for severity P1, "cat" for category)."""
    return word in nouns or (len(word) >= 3 and any(n.startswith(word) and len(n) >= len(word) + 3 for n in nouns))


def _lettered_codes(question: str, prefixes: set[str], nouns: set[str], labels: list[str], asked: list, absent: list) -> None:
    """"Cat D", "category D", "a Cat-G site": the family's word (or the label column's noun)
    and one capital letter name the lettered code; a letter the table lacks is absent."""
    for m in re.finditer(r"\b([A-Za-z]{2,12})[ -]([A-Za-z]\d?)\b", question):
        word, letter = m.group(1).lower(), m.group(2)
        if not letter.isupper() and not question.islower() and letter.lower() in ("a", "i") \
                and not re.match(r"\s*(?:[?.!,;]|$)", question[m.end():]):
            continue  # "for a new starter" is no letter code ("band e", "for band a?" are)
        if word in prefixes or (word in nouns and len(prefixes) == 1):
            for prefix in sorted(prefixes if word not in prefixes else {word}):
                asked.append((prefix, 0, letter.lower(), _written(prefix, 0, letter.lower(), labels)))
    if not asked and len(prefixes) == 1:
        # "a B2 licence": a letter and a digit, written as the table writes one of its codes
        letters = {label.strip().rsplit(" ", 1)[-1].lower() for label in labels}
        for m in re.finditer(r"\b([A-Z]\d)\b", question):
            if m.group(1).lower() in letters:
                prefix = next(iter(prefixes))
                asked.append((prefix, 0, m.group(1).lower(), _written(prefix, 0, m.group(1).lower(), labels)))


def labels_are_names(table: TableData) -> bool:
    """Whether the table's rows are named by words ("Head Chef", "Jury service"), not by codes
    or spans ("B14", "3-5 years"): only a name can stand for a thing the question names."""
    labels = [label_of(table, row) for row in table.rows]
    coded = sum(_code(label) is not None or _code_span(label) is not None or _range(_without_brackets(label)) is not None
                for label in labels)
    return _mostly_words(labels) and coded * 2 < len(labels)


def _mostly_words(values: list[str]) -> bool:
    """Whether most of the cells are words rather than numbers and amounts."""
    filled = [v for v in values if v]
    return bool(filled) and sum(bool(re.search(r"[A-Za-z]{3,}", v)) for v in filled) * 2 > len(filled)


def _after_content_word(text: str, position: int) -> bool:
    before = words(text[:position])[-1:]
    return bool(before) and before[0] not in STOP_WORDS and before[0].isalpha()


def _written(prefix: str, number: int, suffix: str, labels: list[str]) -> str:
    """How the table writes a code of this family ("B" + 14 -> "B14", "cat" + "g" -> "Cat G")."""
    for label in labels:
        if _code(label) is None and _code_span(label) is not None:
            label = _span_ends(label)[0]
        code = _code(label)
        if code is not None and code[0] == prefix:
            m = _CODE_LABEL.match(label.strip())
            if m is None:  # a lettered code
                return label.strip()[:-1] + suffix.upper()
            head = label.strip()[: m.start(2)]
            return f"{head}{number}{suffix.upper()}"
    if number == 0 and suffix:
        return f"{prefix.capitalize()} {suffix.upper()}"  # "Category J" of labels "A" ... "H"
    return f"{prefix.upper()}{number}{suffix.upper()}"


def names_label_column(question: str, table: TableData) -> bool:
    """Whether the question writes the label column's name before a code of the table ("Band
    3", "grade L4" for a table whose labels are bands or grades)."""
    codes = [_code(label_of(table, row)) or _code_span(label_of(table, row)) for row in table.rows]
    if sum(c is not None for c in codes) < max(2, int(0.8 * len(codes))):
        return False
    nouns = _label_nouns(table) - GENERIC_WORDS | (_RANK_NOUNS & _label_nouns(table))
    return any(re.search(rf"\b{re.escape(n)}\s+[A-Za-z]{{0,3}}-?\d", question, re.IGNORECASE) for n in nouns)


def _label_nouns(table: TableData) -> set[str]:
    """Nouns a question may put before a code: the label column's name ("Band", "Grade")."""
    out = set()
    for header in table.headers[: max(table.label_columns, 1)]:
        for w in words(header):
            if w not in GENERIC_WORDS or w in ("grade", "level", "band"):
                out.add(w)
    # "Code | Body name": the thing the codes are codes of ("body 10" is PB-10)
    following = table.headers[max(table.label_columns, 1)] if len(table.headers) > max(table.label_columns, 1) else ""
    named = re.match(r"^\s*([A-Za-z]+)\s+(?:name|title)\s*$", following, re.IGNORECASE)
    if named and named.group(1).lower() not in GENERIC_WORDS:
        out.add(named.group(1).lower())
    if out & _RANK_NOUNS:
        out |= _EVERYDAY_RANK_NOUNS  # "Level 7 engineer" for band Q7
    return out


# the names of a rung of a pay or seniority scale; a company may keep grades and bands as two
# scales ("Band 3" is not grade L3), but askers call either a level
_RANK_NOUNS = frozenset({"band", "grade", "level"})
_EVERYDAY_RANK_NOUNS = frozenset({"level"})


# --------------------------------------------------------------------------- ranges

_TIME_UNITS = {"year": 12.0, "yr": 12.0, "month": 1.0, "week": 12 / 52, "day": 12 / 365,
               "hour": 12 / 8760, "hr": 12 / 8760, "minute": 12 / 525600, "min": 12 / 525600}
# ISO codes of the currencies policies most often state amounts in
_CURRENCY_CODES = "usd|gbp|eur|inr|aud|cad|sgd|chf|sek|nok|dkk|jpy|cny|hkd|nzd|zar|brl|mxn|pln|aed|czk|huf|ils|krw"
_MONEY = re.compile(rf"(?:\b(?:{_CURRENCY_CODES})\b|\$|£|€|₹|¥|\b(?:dollars?|pounds?|euros?|rupees?|kronor|krona|francs?)\b)", re.IGNORECASE)


def writes_a_currency(text: str) -> bool:
    """Whether the text writes a currency: a symbol, a code ("INR per day") or its name."""
    return bool(_MONEY.search(text))


@dataclass(frozen=True)
class _Span:
    low: float | None
    low_inclusive: bool
    high: float | None
    high_inclusive: bool
    kind: str  # "%", "money", "time", or "" (plain numbers)
    unit: float = 1.0  # months per unit, for time
    months: bool = False  # the ends are in months (a span of time whose numbers state their units)


def _kind(text: str) -> tuple[str, float]:
    if "%" in text or re.search(r"\bper ?cent\b", text, re.IGNORECASE):
        return "%", 1.0
    if _MONEY.search(text):
        return "money", 1.0
    for w in words(text):
        if w.rstrip("s") in _TIME_UNITS:
            return "time", _TIME_UNITS[w.rstrip("s")]
    return "", 1.0


def _spans_of_time(spans: list, values: list[str]) -> bool:
    """Whether a column's values are spans of time that follow one another ("Up to 4 hours", "4.5
    to 8 hours", "More than 12 hours"): most of them spans with two ends or an open end, not
    points ("7 days from delivery")."""
    real = [sp for sp in spans if sp is not None and sp.kind == "time" and sp.low != sp.high]
    return len(real) >= max(2, int(0.6 * len([v for v in values if v])))


_ORDINAL_BEFORE_UNIT = re.compile(r"\b(\d+)(?:st|nd|rd|th)(?=\s+(?:(?:full|complete|calendar|working)\s+)?"
                                  r"(?:years?|months?|weeks?|days?|hours?|shifts?|nights?)\b)")


def _range(label: str) -> _Span | None:
    """The span of a range label: "Up to USD 500.00", "USD 500.01 to USD 5,000.00", "£751–£2,000",
    "above 5% and up to 10%", "10+ years", "Less than 1 year", "3-5 years"."""
    text = label.lower().replace(",", "").replace("–", "-").replace("—", "-").replace("−", "-")
    # an ordinal before a unit is its count: "from the 8th calendar day" starts at 8 days
    text = _ORDINAL_BEFORE_UNIT.sub(r"\1", text)
    if _TEMPERATURE.search(text):
        return _temperature_range(text)
    if re.search(r"\b(?:hours?|hrs?)\b", text):
        # lengths written as hours and minutes ("10:00-13:59 hours", "Up to 9:59 hours"): in hours
        text = re.sub(r"\b(\d{1,3}):([0-5]\d)\b", lambda m: f"{int(m.group(1)) + int(m.group(2)) / 60:.4f}", text)
    nums = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", text)]
    if not nums:
        return None
    kind, unit = _kind(_without_the_period_counted_over(label))
    months = False
    if kind == "time":
        # a unit written before its number is its unit: "Day 4 to day 14" is 4 to 14 days
        text = re.sub(rf"\b({_DAY_UNIT_WORDS})\s+(\d+(?:\.\d+)?)\b(?!\s*(?:{_TIME_UNIT_WORDS})\b)", r"\2 \1", text)
        # each end in months, by the unit written after it: "26 weeks to 2 years" is 6 to 24 months
        # ("2 to 5 years": both in years); `unit` stays the label's own, the unit a question's
        # quantity is looked for in first. Numbers of something else ("First 4,000 km in tax
        # year") stay as written.
        factors = _time_factors(text)
        if factors:
            nums, months = [n * f for n, f in zip(nums, factors)], True
    # "10 years and over", "5 or more days", "2 days or less": an end the label includes
    closed = re.sub(r"\b(?:and|or)\s+(?:over|above|more|less|fewer|under)\b", " ", text)
    lower = re.search(r"\b(above|over|more than|greater than|exceeding|(?:deeper|higher|longer|heavier|taller|wider|later) than)\b|>", closed)
    lower_inclusive = re.search(r"\+|\b(or more|and over|and above|at least|plus|from)\b|>=", text)
    upper = re.search(r"\b(up to|less than|under|below|fewer than|within|no more than|at most|first|or (?:less|fewer)|"
                      r"(?:shallower|lower|shorter|lighter|narrower|earlier) than)\b|<", text)
    to_below = re.search(r"\d\s*(?:%|[a-z]{1,3}|(?:year|month|week|day|hour|minute)s?)?\s*(?:-|to)\s*"
                         r"(under|less than|below|fewer than|up to|no more than)\s*(?:[£$€¥₹]\s*)?\d", text)
    # "2.5 ppm up to 10 ppm": from the first, up to the second included
    up_to = re.search(r"\d\s*(?:%|[a-z]{1,3}|(?:year|month|week|day|hour|minute)s?)?\s+up to\s*(?:[£$€¥₹]\s*)?\d", text)
    if len(nums) >= 2 and up_to and not to_below and not lower and not lower_inclusive:
        return _Span(nums[0], True, nums[1], True, kind, unit, months)
    if len(nums) >= 2 and to_below and not lower:
        # "6 months to under 2 years", "£100 to less than £500": from the first, below the second
        return _Span(nums[0], True, nums[1], to_below.group(1) in ("up to", "no more than"), kind, unit, months)
    if len(nums) >= 2 and (lower or lower_inclusive) and upper:
        return _Span(nums[0], not lower, nums[1], "less than" not in text and "under" not in text and "below" not in text, kind, unit, months)
    if len(nums) >= 2 and re.search(r"\d\s*(?:%|[a-z]{1,3}|(?:year|month|week|day|hour|minute)s?)?\s*(?:-|to|and)\s*(?:[a-z]{3}\s*|[£$€¥₹]\s*)?\d", text):
        return _Span(nums[0], True, nums[1], True, kind, unit, months)
    if upper:
        strict = bool(re.search(r"\b(less than|under|below|fewer than|(?:shallower|lower|shorter|lighter|narrower|earlier) than)\b|<(?!=)", closed))
        return _Span(None, True, nums[0], not strict, kind, unit, months)
    if lower or lower_inclusive:
        return _Span(nums[0], not lower, None, True, kind, unit, months)
    return None


# the period a count is taken over, after the thing counted: "10,000 business miles in the tax
# year", "5,000 km per year" count miles and kilometres, not years
_PERIOD_COUNTED_OVER = re.compile(r"\b(?:in|during|for|per|each|every|a|an)\s+(?:the\s+|a\s+|each\s+)?"
                                  r"(?:(?:tax|financial|calendar|academic|leave|holiday|school)\s+)?(?:year|month|week|day)\b",
                                  re.IGNORECASE)
_NUMBER_BEFORE_WORD = re.compile(r"\d(?:[\d,.]*\d)?\s*([a-z]+)", re.IGNORECASE)


def _without_the_period_counted_over(label: str) -> str:
    """The label without the period its numbers are counted over, when a number counts another
    thing than time ("First 10,000 business miles in the tax year"); the label as it is else."""
    counted = [m.group(1).lower() for m in _NUMBER_BEFORE_WORD.finditer(label)]
    if not any(w.rstrip("s") not in _TIME_UNITS and w not in ("and", "or", "to", "st", "nd", "rd", "th") for w in counted):
        return label
    return _PERIOD_COUNTED_OVER.sub(" ", label)


# a temperature written in a label or a question: "–5°C", "30 degrees", "minus 12"
_TEMPERATURE = re.compile(r"\d\s*°|\d\s*(?:degrees?|deg)\b|\bcelsius\b", re.IGNORECASE)
_SIGNED = r"(?:(?<![\w.])(?:-|minus\s+)(?=\d)|(?<![A-Za-z_.\d]))\d+(?:\.\d+)?"


def _signed_numbers(text: str) -> list[float]:
    """The numbers of a text with their signs ("-5", "minus 12", "7 below zero"); a hyphen between
    two numbers ("25-29") is no sign."""
    out = []
    for m in re.finditer(_SIGNED, text):
        value = float(re.sub(r"^(?:-|minus\s+)", "", m.group(0)))
        negative = m.group(0).startswith(("-", "minus")) or re.match(r"\s*(?:°\s*c?\s*|degrees?\s+)?below\s+(?:zero|freezing)\b", text[m.end():])
        out.append(-value if negative else value)
    return out


def _temperature_range(text: str) -> _Span | None:
    """The span of a temperature label, signs kept: "–5°C to –9.9°C" is -9.9 to -5, "–15°C or
    colder" up to -15, "Above 0°C" above 0."""
    nums = _signed_numbers(text)
    if not nums:
        return None
    if len(nums) >= 2:
        # "Over 27°C up to 32°C": the first end excluded; "... to less than 16": the second
        first_out = bool(re.match(r"\s*(?:over|above|more than|warmer than|higher than)\b", text))
        second_out = bool(re.search(r"\b(?:less than|below|under|colder than)\s*-?\d", text))
        (low, low_out), (high, high_out) = sorted([(nums[0], first_out), (nums[1], second_out)])
        return _Span(low, not low_out, high, not high_out, "")
    if re.search(r"\b(?:or\s+)?(?:colder|lower|below|less|under)\b|\bup to\b", text):
        strict = bool(re.search(r"(?<!or )\b(?:below|less than|under|colder than)\b", text))
        return _Span(None, True, nums[0], not strict, "")
    if re.search(r"\b(?:or\s+)?(?:warmer|higher|above|over|more)\b|\bfrom\b|\+", text):
        strict = bool(re.search(r"(?<!or )\b(?:above|over|more than|warmer than|higher than)\b", text))
        return _Span(nums[0], not strict, None, True, "")
    return None


# the words of a length of time: of days and longer, and of any length
_DAY_UNIT_WORDS = r"years?|yrs?|months?|weeks?|days?"
_TIME_UNIT_WORDS = _DAY_UNIT_WORDS + r"|hours?|hrs?|minutes?|mins?"
_TIME_WORD_AFTER = re.compile(r"\s*\+?\s*(?:full\s+|complete\s+|completed\s+|calendar\s+)?(" + _TIME_UNIT_WORDS + r")\b")


# a unit after an open end's words is the number's own: "5 or more days", "10 and over years"
_SPAN_TIME_WORD_AFTER = re.compile(r"(?:\s+(?:or|and)\s+(?:more|over|above|longer|less|fewer|under))?" + _TIME_WORD_AFTER.pattern)


def _time_factors(text: str) -> list[float]:
    """Months per unit for each number of a label, when a unit of time is written right after one
    of them: a number without its own unit takes the next one's ("2 to 5 years"). Empty when no
    number has one."""
    found = [m.end() for m in re.finditer(r"\d+(?:\.\d+)?", text)]
    own = [_SPAN_TIME_WORD_AFTER.match(text, end) for end in found]
    if not any(own):
        return []
    factors: list[float] = []
    for i in range(len(found)):
        later = next((m for m in own[i:] if m), None) or next(m for m in reversed(own[:i]) if m)
        factors.append(_TIME_UNITS[later.group(1).rstrip("s")])
    return factors


def _contains(span: _Span, value: float, next_low: float | None) -> bool:
    if span.low is not None and (value < span.low or (value == span.low and not span.low_inclusive)):
        return False
    if span.high is None:
        return True
    if value < span.high or (value == span.high and span.high_inclusive):
        return True
    # whole-number spans ("3-5 years") reach up to the next row's start (5.5 years is 3-5)
    return span.low is not None and next_low is not None and value < next_low and _whole(span.high / span.unit if span.months else span.high)


def _span_quantities(question: str, kind: str, unit: float, measure, spans: list[_Span | None]) -> list[float]:
    """The question's quantities in the spans' scale: the labels' unit of measure, or months
    for spans of time whose numbers state their units."""
    if measure:
        return _measured_quantities(question, measure, spans)
    values = _quantities(question, kind, unit)
    if kind == "time" and any(sp is not None and sp.kind == kind and sp.months for sp in spans):
        values = [v * unit for v in values]
    return values


def _whole(number: float) -> bool:
    return abs(number - round(number)) < 1e-9


_POINT_LABEL = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:[A-Z]{2,5}\b)?\s*(?:\([^)]*\))?\s*$")  # "37", "1.0 FTE"


def _span_or_point(label: str) -> _Span | None:
    """A range label's span, or a single number among ranges ("37 (full-time)" beside "28 to
    36.75") as a span of that one value."""
    span = _range(label)
    if span is None and (m := _POINT_LABEL.match(label.replace(",", ""))):
        value = float(m.group(1))
        return _Span(value, True, value, True, "")
    return span


def _own_unit_word(labels: list[str]) -> str:
    """The word every span label ends with when it is no unit the reader knows ("PQE"), else ""."""
    tails = {m.group(1).lower() for label in labels if (m := re.search(r"\d\s*\+?\s*([A-Za-z]{2,8})\s*$", label.strip()))}
    if len(tails) != 1:
        return ""
    tail = tails.pop()
    known = tail in _MEASURES or tail.rstrip("s") in _TIME_UNITS or _MONEY.fullmatch(tail) is not None
    counted = sum(1 for label in labels if label.strip().lower().endswith(tail))
    return tail if not known and counted >= max(2, int(0.8 * len(labels))) else ""


def _header_time_unit(header: str) -> float | None:
    """Months per unit when the label column's header states the unit its plain numbers are in
    ("Contracted Hours per week", "Years of service"); the span a count is taken over is not it
    ("On-call periods per 28 days" counts periods)."""
    # (nor the period a total is taken over: "Total points in a rolling 12 months")
    kind, unit = _kind(re.sub(r"\b(?:per|each|every|in|over|within|during)\s+(?:an?\s+|the\s+)?(?:rolling\s+|calendar\s+|consecutive\s+)?"
                              r"(?:\d+[\s-]*)?[a-z]+\b", " ", header, flags=re.IGNORECASE))
    return unit if kind == "time" else None


# the policy's own word on which band a shared bound belongs to ("Each band includes the lower
# figure and excludes the upper figure": exactly 5 years is "5-10 years", not "3-5 years")
_LOWER_IN = re.compile(r"\binclud\w*\s+the\s+lower\b[^.;]{0,60}?\bexclud\w*\s+the\s+upper\b|"
                       r"\bexclud\w*\s+the\s+upper\b[^.;]{0,60}?\binclud\w*\s+the\s+lower\b", re.IGNORECASE)
_UPPER_IN = re.compile(r"\binclud\w*\s+the\s+upper\b[^.;]{0,60}?\bexclud\w*\s+the\s+lower\b|"
                       r"\bexclud\w*\s+the\s+lower\b[^.;]{0,60}?\binclud\w*\s+the\s+upper\b", re.IGNORECASE)


def _bounds_as_noted(spans: list[_Span | None], notes: tuple[str, ...]) -> list[_Span | None]:
    """The spans with their shared bounds open or closed as a note of the table's section says."""
    text = " ".join(notes)
    if _LOWER_IN.search(text):
        return [replace(sp, low_inclusive=True, high_inclusive=False) if sp is not None and sp.low is not None
                and sp.high is not None and sp.low != sp.high else sp for sp in spans]
    if _UPPER_IN.search(text):
        return [replace(sp, low_inclusive=False, high_inclusive=True) if sp is not None and sp.low is not None
                and sp.high is not None and sp.low != sp.high else sp for sp in spans]
    return spans


def _match_ranges(question: str, table: TableData, labels: list[str], header: str = "",
                  notes: tuple[str, ...] = ()) -> RowMatch | None:
    # a label written out ("in the 8-16 hours band", "the 16+ hours band") names its row
    flat = _flat(question)
    written = [row for row, label in zip(table.rows, labels)
               if re.search(r"(?<![\w.+-])" + re.escape(_flat(label)) + r"(?![\w+])", flat)]
    if len(written) == 1:
        return RowMatch(table, (written[0],), how="range")
    spans = _bounds_as_noted([_span_or_point(label) for label in labels], notes)
    kinds = {s.kind for s in spans if s is not None}
    question = _spelt_before_label_words(question, labels)
    header_unit = _header_time_unit(header)
    question = _without_other_codes(question, [header, *labels])
    if _TOTAL_STATED.search(question):
        # "another 3 points, which takes me to 8": the total is the quantity, not the increment
        question = re.sub(r"\banother\s+\d+(?:\.\d+)?|\b\d+(?:\.\d+)?\s+more\b", " ", question, flags=re.IGNORECASE)
    if re.search(r"\bFTE\b", " ".join([header, *labels]), re.IGNORECASE) and not re.search(r"\d", question):
        # "full time" is 1.0 FTE, "half time" 0.5, in a table of contract fractions
        question = re.sub(r"\bfull[- ]?time(?:rs?)?\b", "1.0 FTE", question, flags=re.IGNORECASE)
        question = re.sub(r"\bhalf[- ]?time\b", "0.5 FTE", question, flags=re.IGNORECASE)
    for kind in sorted(kinds, key=lambda k: k == ""):
        unit = next((s.unit for s in spans if s is not None and s.kind == kind), 1.0)
        measure = _measure_of([label for label, span in zip(labels, spans) if span is not None]) if kind == "" else None
        if kind == "" and not measure and header_unit is not None:
            # plain numbers in the unit the header states: "I work 30 hours a week" against
            # "28 to 36.75" under "Contracted Hours per week"
            values = _quantities(question, "time", header_unit)
        elif kind == "" and not measure and _own_unit_word(labels) and not _quantities(question, "", 1.0):
            # spans in a unit of the policy's own ("0-1 PQE", "8+ PQE": years of post-qualification
            # experience): a length of time the question states, in years ("qualified 3 years ago")
            values = _quantities(question, "time", _TIME_UNITS["year"])
        elif kind == "" and _TEMPERATURE.search(" ".join([header, *labels])):
            # a temperature the question states, its sign kept ("-7 with the wind chill", "minus 12")
            values = _signed_numbers(_QUANTITY.sub(" ", question.replace("–", "-").replace("−", "-")))
        else:
            values = _span_quantities(question, kind, unit, measure, spans)
        lows = sorted({s.low for s in spans if s is not None and s.kind == kind and s.low is not None})
        for value in values:
            hits = [(_width(span), i, row) for i, (row, span) in enumerate(zip(table.rows, spans))
                    if span is not None and span.kind == kind and _holds(span, value, lows)]
            if hits:
                # spans that overlap ("up to 1,200 cc" for cars, "up to 125 cc" for mopeds): the narrowest
                return RowMatch(table, (min(hits)[2],), how="range")
    return None


def _match_named_spans(question: str, table: TableData, labels: list[str]) -> RowMatch | None:
    """The row, among rows named alike and told apart by a span ("Sickness absence up to 7
    calendar days", "Sickness absence from the 8th calendar day" beside "Routine appointment"),
    whose span holds the quantity the question states ("off sick for 4 days"): the question must
    hold a word those rows share, so that a quantity of another thing picks none of them."""
    spanned = [i for i, label in enumerate(labels) if _range(_without_brackets(label)) is not None]
    if len(spanned) < 2 or len(spanned) == len(labels):
        return None
    shared = set.intersection(*({stem(w) for w in words(_without_brackets(labels[i])) if not w.isdigit()}
                                - _GENERIC_STEMS - STOP_STEMS for i in spanned))
    shared -= {stem(w) for w in _TIME_UNIT_WORDS.split("|")} | {"calendar", "work", "up", "from", "less", "more"}
    if not shared & _expanded(stems_of(question)):
        return None
    sub = replace(table, rows=tuple(table.rows[i] for i in spanned))
    found = _match_ranges(question, sub, [labels[i] for i in spanned])
    return replace(found, table=table) if found is not None and found.rows else None


_TOTAL_STATED = re.compile(r"\b(?:takes?|taking|took|brings?|bringing|brought|puts?|putting)\s+(?:me|my\s+total|it|the\s+total|us)\s+(?:up\s+)?to\s+\d"
                           r"|\b(?:in\s+total|total\s+of|altogether)\b", re.IGNORECASE)
_CODE_NOUNS = r"grade|band|level|stage|tier|step|class|category|scale|point|section|clause|table|form|room|key stage"


def _without_other_codes(question: str, texts: list[str]) -> str:
    """The question without the numbers of codes the table does not use ("grade 12" is no count
    of qualifying semesters); a code noun the table's labels or header use keeps its number."""
    own = {w for text in texts for w in words(text)}

    def masked(m: re.Match) -> str:
        noun = m.group(1).lower()
        return m.group(0) if noun in own or noun.rstrip("s") in own else noun

    return re.sub(rf"\b((?:{_CODE_NOUNS})s?)[ -]?\d+(?:\.\d+)?\b", masked, question, flags=re.IGNORECASE)


def _holds(span: _Span, value: float, lows: list[float]) -> bool:
    """Whether the span holds the value, a whole-number span reaching up to the next span's start
    (`lows`: the sorted starts of the table's spans)."""
    later = [low for low in lows if span.low is not None and low > span.low]
    return _contains(span, value, later[0] if later else None)


def _width(span: _Span) -> float:
    if span.high is None:
        return float("inf")
    return span.high - (span.low or 0.0)


# units of measure a table may state its ranges in: (dimension, size in the dimension's base unit)
_MEASURES = {
    "cc": ("volume", 1.0), "cm3": ("volume", 1.0), "ml": ("volume", 1.0),
    "l": ("volume", 1000.0), "litre": ("volume", 1000.0), "liter": ("volume", 1000.0),
    "litres": ("volume", 1000.0), "liters": ("volume", 1000.0),
    "m": ("length", 1.0), "metre": ("length", 1.0), "meter": ("length", 1.0), "metres": ("length", 1.0), "meters": ("length", 1.0),
    "km": ("length", 1000.0), "kms": ("length", 1000.0), "kilometre": ("length", 1000.0), "kilometer": ("length", 1000.0),
    "kilometres": ("length", 1000.0), "kilometers": ("length", 1000.0),
    "mile": ("length", 1609.344), "miles": ("length", 1609.344), "mi": ("length", 1609.344),
    "g": ("mass", 1.0), "kg": ("mass", 1000.0), "kgs": ("mass", 1000.0), "kilo": ("mass", 1000.0), "kilos": ("mass", 1000.0),
    "tonne": ("mass", 1e6), "tonnes": ("mass", 1e6), "ton": ("mass", 1e6), "tons": ("mass", 1e6),
    "knot": ("speed", 1.852), "knots": ("speed", 1.852), "kt": ("speed", 1.852), "kts": ("speed", 1.852),
    "kn": ("speed", 1.852), "mph": ("speed", 1.609344), "kph": ("speed", 1.0),
}
_NUMBER_THEN_UNIT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*-?\s*([a-z]+\d?)?", re.IGNORECASE)


def _measure_of(labels: list[str]) -> tuple[str, float] | None:
    """The unit of measure the range labels state their numbers in ("1,201-1,800cc": volume in
    cc), when they all state the same one."""
    found = set()
    for label in labels:
        for m in _NUMBER_THEN_UNIT.finditer(label.replace(",", "")):
            unit = (m.group(2) or "").lower()
            if unit not in _MEASURES:
                # the unit a word or two later: "First 8,500 Business Miles"
                later = re.match(r"(?:\s+[a-z]+){0,2}?\s+([a-z]+)\b", label.replace(",", "")[m.end():].lower())
                unit = later.group(1) if later and later.group(1) in _MEASURES and len(later.group(1)) > 2 else unit
            if unit in _MEASURES:
                found.add(_MEASURES[unit])
    return found.pop() if len(found) == 1 else None


def _measured_quantities(question: str, measure: tuple[str, float], spans: list) -> list[float]:
    """The question's quantities in the labels' unit: "1.6 litres" is 1,600 cc; a number in
    another dimension ("6,200 km" against engine sizes) is not one; a number with no unit
    counts only when it is of the labels' order of magnitude ("a 1600 engine", not "2.0")."""
    dimension, size = measure
    question = _HALF_A.sub("0.5 ", question)  # "about half a square metre"
    bounds = [b for sp in spans if sp is not None for b in (sp.low, sp.high) if b]
    if bounds and any(sp is not None and sp.low == 0 for sp in spans):
        bounds.append(min(bounds) / 1000)  # "0-3,500 miles": 200 miles is in the first span
    text = question.replace(",", "")
    out = []
    for m in _NUMBER_THEN_UNIT.finditer(text):
        value, unit = float(m.group(1)), (m.group(2) or "").lower()
        if unit in _MEASURES:
            value = value * _MEASURES[unit][1] / size
            # "my first 5000 km" is not a distance to a first visit of "41 km and over"
            if _MEASURES[unit][0] == dimension and (not bounds or _of_the_order(value, bounds)):
                out.append(value)
        elif dimension == "volume" and size == 1.0 and "." in m.group(1) and 0.5 <= value <= 10:
            out.append(value * 1000.0)  # "a 1.6 petrol", "a 2.0 diesel": an engine size in litres
        elif bounds and _of_the_order(value, bounds):
            before = text[max(0, m.start() - 20): m.start()].lower()
            out.append(value + (_EPSILON if _BEYOND.search(before) else -_EPSILON if _SHORT_OF.search(before) else 0.0))
    return out


def _of_the_order(value: float, bounds: list[float]) -> bool:
    """Whether a value is of the order of magnitude of a table's range bounds (within four times
    their smallest and largest)."""
    return min(bounds) / 4 <= value <= max(bounds) * 4


def measure_words(question: str) -> set[str]:
    """The unit words the question states quantities in ("1.6 litre", "6,200 km", "9 months",
    "six years")."""
    out = set()
    text = question.replace(",", "")
    for m in [*_NUMBER_THEN_UNIT.finditer(text), *_SPELT_NUMBER_THEN_UNIT.finditer(text)]:
        unit = (m.group(2) or "").lower()
        if unit in _MEASURES or unit.rstrip("s") in _TIME_UNITS:
            out.add(unit)
    return out


def _flat(text: str) -> str:
    return re.sub(r"\s*([-–—]|to)\s*(?=\d)", "-", " ".join(text.lower().replace(",", "").split()))


# "past 16 hours", "more than 5 years", "under 2,000": just beyond the stated number
_BEYOND = re.compile(r"\b(?:past|over|more than|beyond|above|exceeding|after(?: the)?|greater than|(?:just )?pass(?:ed|ing)?|gone)\s*$")
_SHORT_OF = re.compile(r"\b(?:under|less than|below|fewer than|short of|not yet)\s*$")
_EPSILON = 1e-3

_NUMBER_WORD_PATTERN = "|".join(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty thirty forty fifty".split()
)
_SPELT_NUMBER_THEN_UNIT = re.compile(rf"\b({_NUMBER_WORD_PATTERN})\s+([a-z]+)\b", re.IGNORECASE)


def _spelt_before_label_words(question: str, labels: list[str]) -> str:
    """"a five night residential" as "a 5 night residential" where the range labels count nights
    ("Residential 4+ nights"): a number spelt before a word of the labels is that many of it."""
    own = {w.rstrip("s") for label in labels for w in words(label) if w.isalpha() and len(w) > 2}

    def digits(m: re.Match) -> str:
        return f"{NUMBER_WORDS[m.group(1).lower()]} {m.group(2)}" if m.group(2).lower().rstrip("s") in own else m.group(0)

    return _SPELT_NUMBER_THEN_UNIT.sub(digits, question)


# "six years qualified", "4 years' service", "10 years of experience", "20 years old": the word
# that says what a length of time measures
_QUANTITY_THEN_WHAT = re.compile(
    rf"(?:(?<![\w.])\d+(?:\.\d+)?|\b(?:{_NUMBER_WORD_PATTERN}))\s*-?\s*(?:{_DAY_UNIT_WORDS})(?:['’]s?)?"
    r"\s+(?:(?:of|in)\s+)?([a-z][a-z-]+)\b", re.IGNORECASE)


def quantity_words(question: str) -> set[str]:
    """The words that say what a stated length of time measures ("qualified" of "six years
    qualified", "service" of "4 years' service"): with the number, they name a range row."""
    return {m.group(1).lower() for m in _QUANTITY_THEN_WHAT.finditer(question.replace(",", ""))
            if m.group(1).lower() not in STOP_WORDS}


def _quantities(question: str, kind: str, unit: float) -> list[float]:
    """Quantities of the given kind the question states ("8%", "USD 2,000", "300 dollars",
    "4 years", "eight months"), in the labels' unit."""
    out: list[float] = []
    same_unit: list[float] = []
    text = question.lower().replace(",", "")
    # "5k", "£2.5k": thousands; "my 10th anniversary": ten years of service
    thousands = {float(m.group(1)) * 1000 for m in re.finditer(r"(?<![\w.])(\d+(?:\.\d+)?)k\b", text)}
    text = re.sub(r"(?<![\w.])(\d+(?:\.\d+)?)k\b", lambda m: f"{float(m.group(1)) * 1000:g}", text)
    # "£3m", "£1.5 million", "2 million pounds", "$1bn": millions and billions ("3m" alone is metres)
    text = _MILLIONS.sub(lambda m: (m.group(1) or "") + f"{float(m.group(2)) * _SCALE[m.group(3)[0]]:.0f}", text)
    text = re.sub(r"\b(\d+)(?:st|nd|rd|th)\s+(?:work\s+|service\s+|job\s+)?anniversary\b", r"\1 years", text)
    text = re.sub(r"\b(?:a|one)\s+(year|month|week|day|hour)\s+and\s+a\s+half\b", r"1.5 \1s", text)  # "a year and a half"
    text = re.sub(r"\btwice\b", "2 times", text)  # "twice in a roster": a count of 2
    text = _HALF_A.sub("0.5 ", text)  # "half a day", "half an hour"
    pattern = r"([$£€₹¥]\s*)?(?:\b(" + _CURRENCY_CODES + r")\s*)?(\d+(?:\.\d+)?|\b(?:" + _NUMBER_WORD_PATTERN + r")\b)(?:\s+and\s+a\s+half)?[\s-]*(%|per ?cent|" + _TIME_UNIT_WORDS + r"|dollars?|pounds?|euros?|rupees?|kronor|krona|francs?|" + _CURRENCY_CODES + r")?(?![\w])"
    for m in re.finditer(pattern, text):
        symbol, code, token, tail = m.group(1), m.group(2), m.group(3), m.group(4) or ""
        value = numbers(token)
        if not value:
            continue
        if token[0].isdigit() and m.start(3) > 0 and text[m.start(3) - 1].isalpha() and not symbol and not code:
            continue  # the number of a code ("c1+e", "w4"), not a quantity
        amount = value[0] + (0.5 if "and a half" in m.group(0) else 0.0)
        before = text[max(0, m.start() - 20): m.start()]
        if _BEYOND.search(before):
            amount += _EPSILON
        elif _SHORT_OF.search(before):
            amount -= _EPSILON
        found_kind = "%" if tail.startswith(("%", "per")) else "money" if (symbol or code or _MONEY.fullmatch(tail or "-")) else (
            "time" if tail else "")
        if kind == "money" and found_kind == "" and value[0] in thousands:
            found_kind = "money"  # "more than 5k a day" against spans of takings
        if kind == "time" and found_kind == "time":
            (same_unit if _TIME_UNITS[tail.rstrip("s")] == unit else out).append(amount * _TIME_UNITS[tail.rstrip("s")] / unit)
        elif kind in ("%", "money") and found_kind == kind:
            out.append(amount)
        elif kind == "" and found_kind == "" and token[0].isdigit():
            out.append(amount)
    if kind == "time":
        # the unit one word later: "my first 3 overtime hours", "6 calendar months", "750 operating hours"
        for m in re.finditer(r"\b(\d+(?:\.\d+)?)\s+[a-z-]+\s+(years?|months?|weeks?|days?|hours?|minutes?)\b", text):
            per = _TIME_UNITS[m.group(2).rstrip("s")]
            if per == unit or not (out or same_unit):
                (same_unit if per == unit else out).append(float(m.group(1)) * per / unit)
    # a quantity in the labels' own unit first ("750 operating hours" in a table of hours, before
    # "the past two years" of the same question)
    out = same_unit + out
    if kind == "time" and not out and _NEW_STARTER.search(text):
        out.append(0.0)  # "a new hire", "I joined last month": no completed time yet
    return out


_HALF_A = re.compile(r"(?<!\band )(?<!\bone and )\bhalf\s+an?\s+(?=[a-z])", re.IGNORECASE)
_MILLIONS = re.compile(r"([$£€₹¥]\s*)?(?<![\w.])(\d+(?:\.\d+)?)\s*(million|billion|(?<=\d)(?:mn?|bn)\b)(?(1)|(?<=illion))",
                       re.IGNORECASE)
_SCALE = {"m": 1e6, "b": 1e9}


# someone with no completed service yet, in a question about a table of lengths of service
_NEW_STARTER = re.compile(
    r"\b(?:new (?:hire|joiner|starter|employee|recruit)s?|newly (?:hired|joined)|just (?:joined|started)|"
    r"joined (?:recently|last (?:week|month))|started (?:recently|last (?:week|month))|first (?:week|month|day) (?:here|in the job)|"
    r"(?:in )?(?:my|their|his|her|your|the) first year(?: with us| here| in the job| of service)?)\b"
)


# --------------------------------------------------------------------------- names

# a number with a unit (of time, of measure, a percentage, nights or shifts), built from the
# units the span labels are read in
_QUANTITY = re.compile(
    r"(?<![\w.])\d+(?:[.,]\d+)*[\s-]*(?:%|per ?cent\b|(?:working |calendar |business )?(?:"
    + "|".join(sorted({re.escape(u) + "s?" for u in [*_TIME_UNITS, *_MEASURES, "night", "shift"]}, key=len, reverse=True))
    + r")\b)",
    re.IGNORECASE,
)


def _is_a_sentence(caption: str) -> bool:
    """Whether a table's caption is a sentence of the text leading into it ("The shift premium is
    a percentage of ... including paid breaks."), not a title ("Table 3: Shift premiums")."""
    text = caption.strip()
    return text.endswith((".", ":")) and len(words(text)) >= 8 and not re.match(r"(?i)table\s+\d", text)


def _match_names(question: str, table: TableData, labels: list[str]) -> RowMatch | None:
    """Rows whose label the question names: a country a place is in, or every word that tells
    the label apart from the others (failing that, the one label holding most of its words)."""
    if sum(is_country_name(label) for label in labels) >= max(2, int(0.6 * len(labels))):
        return _match_countries(question, table, labels)
    denied = polarity(question)[0]
    if denied:
        # "a station manager who hasn't been signed off as competent": not "Competent station
        # manager"; the other rows are named among themselves
        stating = [bool(polarity(label)[1] & denied & {stem(w) for w in words(label)}) for label in labels]
        if any(stating) and not all(stating):
            kept = [(row, label) for row, label, out in zip(table.rows, labels, stating) if not out]
            found = _match_names(question, replace(table, rows=tuple(r for r, _ in kept)), [label for _, label in kept])
            return replace(found, table=table) if found is not None else None
    # a number stated with a unit is a quantity, not a label's number ("9 months after" does not
    # name "Level 9 postgraduate diploma")
    literal = stems_of(_QUANTITY.sub(" ", question)) | _place_stems(question) | _misspelt_names(question, labels)
    asked = _expanded(literal)
    # "USA (except New York and Washington DC)": the places a label excepts are no words of it, and
    # a question naming one is not asking about that row
    excepted = [_excepted_stems(label) for label in labels]
    # (a bracket of hours is when the row runs, not its name: "Saturday (08:00-08:00 Sunday)")
    label_stems = [{stem(w) for w in words(without_hours(label))} - _GENERIC_STEMS - out
                   for label, out in zip(labels, excepted)]
    asked |= _clipped(question, labels)
    asked |= weekday_stems(question)  # "on a Wednesday night": the "Weekday night" row
    counts: dict[str, int] = {}
    for stems in label_stems:
        for s in stems:
            counts[s] = counts.get(s, 0) + 1
    # a stop word that tells a label apart ("with" of "travelling with approval") is counted too
    for label in labels:
        for s in _label_stop_stems(label) - set(counts):
            counts[s] = sum(s in _label_stop_stems(other) for other in labels)
    common = {s for s, n in counts.items() if n == len(labels)} if len(labels) > 1 else set()
    full: list[tuple[int, int, TableRow]] = []
    by_example: set[int] = set()  # rows in `full` named by an example in their bracket
    partial: list[tuple[float, int, TableRow]] = []
    # the caption's words are the table's topic: "staff travel" in a question about a table of
    # "Staff travel eligibility" names no "Travel Companion" row by itself
    topic = {stem(w) for w in words(table.caption)} - _GENERIC_STEMS
    if _is_a_sentence(table.caption):
        # a caption that is the sentence leading into the table ("The shift premium is a percentage
        # of ...") may speak of one row by its whole label: that label's own words still tell the
        # row apart (not a word it shares with something else the sentence speaks of: "paid on top
        # of the sleep-in payment" is no "Disturbance during a sleep-in")
        for label in labels:
            name = _without_brackets(label).strip()
            if len(words(name)) >= 2 and _holds_phrase(table.caption, name):
                topic -= {s for s in stems_of(name) if counts.get(s) == 1}
    sequence = [stem(w) for w in words(question)]
    # a label's bracket may hold other names of the row ("Late shift (D2, P1)", "Night Shift (N1,
    # C4N)"): the words outside it name the row on their own, where no other label has them too
    bracket_codes = [_bracket_codes(label) for label in labels]
    outer_stems = [{stem(w) for w in words(_without_brackets(label))} - _GENERIC_STEMS - common
                   if codes and not re.search(r"\([^)]*[a-z][^)]*\)", _BRACKET_OF_CODE_SPAN.sub("", label)) else set()
                   for label, codes in zip(labels, bracket_codes)]  # (a bracket of words qualifies the row: "Bereavement (Close Relative)")
    # (an acronym as the question writes it in capitals: "we" is no "(WE)"; "d2" is D2)
    written_codes = _written_codes(question)
    coded_rows = [bool(codes & written_codes) for codes in bracket_codes]
    # (a bracket of one name is the row's other name where its words outside are the row's alone:
    # "(gritting)"; beside "Presiding Officer", "Presiding Officer (double station)" is a variant)
    outers = [_without_brackets(label).strip().lower() for label in labels]
    examples_held = [next((e for e in _bracket_examples(label, single=outers.count(outer) == 1) if e <= literal), None)
                     for label, outer in zip(labels, outers)]
    compounds = [{s for s in stems_of(label) if "_" in s} for label in labels]  # "e_bike" of "e-bike"
    kin_asked = _KIN & literal
    # "paternity leave": the row of the one who takes it, "Parental leave (partner)", every word of
    # the person written in the label ("birth parent" of "maternity", not "parent" alone)
    people = [person for s in literal for person in taken_by(s)]
    ordinals, bracketed = _ordinals_written(question), _bracketed_names_of_others(question, labels)
    held_by_row: dict[int, set[str]] = {}
    denied = polarity(question)[0]
    label_denied = [polarity(label)[0] & denied if denied else frozenset() for label in labels]
    for both in label_denied:
        for s in both - set(counts):
            counts[s] = sum(s in other for other in label_denied)
    for row, label, stems, outer, coded, example, out, compound, agreed in zip(
            table.rows, labels, label_stems, outer_stems, coded_rows, examples_held, excepted, compounds, label_denied):
        if out and out & literal - _GENERIC_STEMS - _EXCEPTING:
            continue
        if kin_asked and _for_other_kin(label, kin_asked):
            continue  # "my dad passed away" is not "Parental bereavement (death of a child under 18)"
        if _another_ordinal(ordinals, label):
            continue  # "a third officer" is not "Second officer"
        if _another_bracket(question, label) or _another_name_bracketed(bracketed, label):
            continue  # "Master (Unlimited) CoC" is not "Master (Near Coastal) CoC", nor "OOW (Unlimited) CoC"
        # (the codes of a label's bracket name the row when written, not as words to share:
        # "an officer" names "Officers and technical advisers (IS1 to IS3)" as "officers" would)
        distinctive = (outer or stems) - common
        if not distinctive:
            # a label of common words only ("Long day" beside "Early shift", "Night shift") names
            # its row when the question writes it as the label does, and no other label says it
            name = without_hours(_without_brackets(label)).strip()
            if len(words(name)) >= 2 and _holds_phrase(question, name) \
                    and sum(_holds_phrase(other, name) for other in labels) == 1:
                full.append((len(words(name)), len(words(name)), row))
            continue
        # a bracket of codes or an acronym names the row by itself ("Very narrow aisle (VNA)
        # man-up truck": "VNA operators"; "Late shift (D2, P1)": "on P1")
        if coded and sum(coded_rows) == 1:
            full.append((1, 1, row))
            continue
        # a bracket listing examples names the row by each of them ("Public duties (magistrate,
        # councillor, school governor)": "I'm a school governor")
        if example and sum(e is not None for e in examples_held) == 1 and _example_names_the_row(label, labels, asked):
            full.append((len(example), len(example - topic), row))
            by_example.add(id(row))
            continue
        # the caption's words are every row's (a table of "Shift premiums": "nights" names the
        # "Night Shift (N1, C4N)" row), so the label's other words, all held, name it
        own = (outer or distinctive) - topic
        if own != distinctive and own and own <= literal and any(not s.isdigit() for s in own) \
                and sum(own <= other for other in label_stems) == 1:
            # (counted as the next branch counts, the caption's words held included, so that
            # "read-write access" names "Read-write access" before "Read-only access")
            full.append((max(len(own), len(distinctive & asked)), len(own), row))
            continue
        # a stop word that tells the label apart ("Research Only") counts where the question
        # writes it as the label does ("a research-only contract")
        distinctive |= {s for s in _label_stop_stems(label) if _written_around(s, label, sequence)}
        # a word both deny names the row, however common ("only travelling and not working":
        # "Travel day with no work")
        distinctive |= agreed
        held = {s for s in distinctive if s in asked or any(s in person and person <= stems for person in people)}
        if agreed:  # (and the label's negation is the question's: "no" is held as "not")
            held |= distinctive & _NEGATION_STEMS
        if not any(not s.isdigit() for s in held):
            continue  # a number alone names no row by name: "my daughter is 20" is not "20% of public fare"
        if any(s in literal and sum(s in c for c in compounds) == 1 for s in compound):
            # a compound the question writes as one label does ("own e-bike" of "Electric bicycle
            # (own e-bike, instead of Table 1)") names that row, whatever else its label says
            full.append((len(held), len(held - topic), row))
            continue
        if held == distinctive:
            full.append((len(distinctive), len(distinctive - topic), row))
            held_by_row[id(row)] = held
        elif (naming := held - topic) and (any(counts[s] == 1 for s in naming) or _only_row_with(naming, label_stems)) \
                and _names_by_a_noun(naming, label, question) and not _a_lone_modifier(naming, label, question, labels):
            # a word the question writes itself says more than a synonym of it ("a hotel" names
            # "Hotel cap per night, capital cities" before "Private accommodation allowance")
            weight = sum(1.0 if s in literal else SYNONYM_WEIGHT for s in held)
            # (the words outside a label's bracket are a name of the row on their own: "Sunday shift
            # (any start time)" is named by "Sunday ... shift")
            bare = {stem(w) for w in words(_without_brackets(label))} - _GENERIC_STEMS - common
            share = max([weight / len(distinctive)] + [
                sum(1.0 if s in literal else SYNONYM_WEIGHT for s in held & part) / len(part)
                for part in [*_alternatives(label, common), *([outer] if outer else []), *([bare] if bare else [])]
                if held & part])
            # (of rows named alike, the one holding the word outside its bracket: "Sunday" names
            # "Sunday (08:00-08:00 Monday)", not "Saturday (08:00-08:00 Sunday)")
            outside = len(held & {stem(w) for w in words(_without_brackets(label))})
            if share < 0.5 and _leading_proper_name_written(naming, label, question):
                share = 0.5  # "at Kilnworth": "Kilnworth Stores Depot", its own name written
            partial.append((share, len(held), outside, row))
            held_by_row[id(row)] = held
    if by_example and any(id(row) not in by_example for _, _, row in full):
        # "a parent and we lost the pregnancy": "Pregnancy loss (either parent)", named by its own
        # words, not "Bereavement (partner, child or parent)" by an example in its bracket
        # (unless the words outside its bracket are written too: "a senior driver on multi-traction"
        # is "Senior driver (multi-traction)", not "Driver")
        outside_written = {id(row) for row, label in zip(table.rows, labels)
                           if id(row) in by_example and ({stem(w) for w in words(_without_brackets(label))}
                                                         - _GENERIC_STEMS) <= literal}
        full = [f for f in full if id(f[2]) not in by_example or id(f[2]) in outside_written]
    if len(full) > 1:
        # of rows named alike, those whose whole label the question writes ("a first officer":
        # "First Officer", not "Second Officer" nor "Senior First Officer", whose ordinal words
        # count for nothing on their own)
        by_row = {id(row): label for row, label in zip(table.rows, labels)}
        names = {id(f[2]): without_hours(_without_brackets(by_row.get(id(f[2]), ""))).strip() for f in full}
        # (of two words at least: "night" written does not make "Night" the row over "Weekend Night")
        # (or a place the question names by its own name: "Edinburgh", not "Other UK locations")
        asked_places = {p.written.lower() for p in places_in(question)}
        whole = [f for f in full if (len(words(names[id(f[2])])) >= 2 or names[id(f[2])].lower() in asked_places)
                 and _holds_phrase(question, names[id(f[2])])]
        if whole and len(whole) < len(full):
            full = whole
    if told := told_quantities(question):
        # "firefighting inside a compartment and it's 28 degrees outside": the row that adds "with
        # ambient temperature above 25°C" to the words of a row the question writes every word of
        # ("Firefighting in a compartment", its joining words aside), its condition met
        own = [stems - _JOINING_STEMS for stems in label_stems]
        whole = [i for i, stems in enumerate(own) if stems and stems <= asked]
        fitting = [i for i, stems in enumerate(own) if i not in whole and whole and all(own[w] < stems for w in whole)
                   and fits(told, labels[i]) is True]
        if len(fitting) == 1 and not any(fits(told, labels[w]) for w in whole):
            return RowMatch(table, (table.rows[fitting[0]],), how="label")
        # (and the row written whole when every row adding to it sets a condition the quantity
        # breaks: "18 degrees" is "Firefighting in a compartment")
        wider = [i for i, stems in enumerate(own) if len(whole) == 1 and own[whole[0]] < stems]
        if wider and all(fits(told, labels[i]) is False for i in wider) and fits(told, labels[whole[0]]) is not False:
            return RowMatch(table, (table.rows[whole[0]],), how="label")
    if full and partial and (asked_places := {p.written.lower() for p in places_in(question)}):
        # a row listing the place by its own name ("Birmingham, Manchester or Leeds") over one the
        # place reaches through its country or as an "other" city ("Other UK locations")
        by_row = {id(row): label for row, label in zip(table.rows, labels)}

        def lists_the_place(row) -> bool:
            return any(part.lower() in asked_places for part in _listed(_without_brackets(by_row.get(id(row), "")), also_and=True))

        listing = [p for p in partial if lists_the_place(p[3])]
        if len(listing) == 1 and not any(lists_the_place(row) for _, _, row in full):
            return RowMatch(table, (listing[0][3],), how="label")
    if full and partial:
        # a label whose own name, outside its bracket, the question writes with more words than the
        # label named whole ("a senior driver": "Senior driver (multi-traction)", not "Driver")
        # (every word of it written as the label writes it, not a synonym: "a parent" is no "close relative")
        wider = [p for p in partial if p[0] >= 1.0 and p[1] > max(n for n, _, _ in full)
                 and held_by_row.get(id(p[3]), set()) <= literal
                 and all(held_by_row.get(id(r)) and held_by_row[id(r)] < held_by_row[id(p[3])] for _, _, r in full)]
        if len(wider) == 1:
            return RowMatch(table, (wider[0][3],), how="label")
        # a label named whole only by words other labels hold too ("check" of "Check times", beside
        # "Night checks each night" and "Payment per check") gives way to the one label holding
        # those words and more of the question's ("how many night checks at Wexcombe?")
        weak = all(held_by_row.get(id(r)) and all(counts.get(s, 0) > 1 for s in held_by_row[id(r)]) for _, _, r in full)
        # (words written, not reached through a place: "London" does not write the "UK" of "UK
        # outside London")
        richer = [p for p in partial if weak and p[0] >= 0.5 and held_by_row.get(id(p[3]), set()) <= stems_of(question)
                  and all(held_by_row[id(r)] < held_by_row.get(id(p[3]), set()) for _, _, r in full)]
        if len(richer) == 1:
            return RowMatch(table, (richer[0][3],), how="label", partial=True, named_words=richer[0][1])
    if full:
        top = max(n for n, _, _ in full)
        best = [(own, row) for n, own, row in full if n == top]
        # of labels named alike, the one named by more words than the caption's ("teaching" of
        # "Workload Allowance for teaching" does not name "Teaching and Research")
        rows = tuple(row for own, row in best if own == max(o for o, _ in best))
        if len(rows) > 1:
            # "relocated from Antwerp to Leeds": the row of where the asker comes from is not asked
            away = tuple(r for r in rows if not _written_as_origin(question, label_of(table, r)))
            rows = away or rows
        return RowMatch(table, rows, how="label") if len(rows) <= 2 else None
    partial.sort(key=lambda p: (-p[0], -p[1], -p[2]))
    if partial and partial[0][0] >= 0.5 and (len(partial) == 1 or partial[0][:3] > partial[1][:3]):
        return RowMatch(table, (partial[0][3],), how="label", partial=True, named_words=partial[0][1])
    return None


_NEGATION_STEMS = frozenset(stem(w) for w in ("no", "not", "without", "non", "never", "nor"))


_POSSESSIVES = frozenset("my your our their his her its".split())


_LIST_LEAD = re.compile(r"^\s*(?:including|incl\.?|e\.g\.?|eg|such as|for example|for instance|like|notably)\s+", re.IGNORECASE)


_DATED = re.compile(r"\b(before|prior to|until|up to|on or after|after|from|since)\s+(?:(\d{1,2})\s+)?"
                    r"(?:(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?\s+)?"
                    r"((?:19|20)\d{2})\b", re.IGNORECASE)


def _match_dated_variants(question: str, table: TableData, labels: list[str]) -> RowMatch | None:
    """Of rows whose labels are one name with a dated condition in brackets ("Sunday working
    (contracted before 1 April 2019)", "... (contracted on or after 1 April 2019)"), named by that
    name ("working Sundays"): the row whose condition the year the question gives meets ("I joined
    in 2021"); both when it gives none, or one on the boundary (both are the answer, each with its
    condition). A bracket of spans is chosen by the quantity given the same way ("(under 16
    contracted hours)": "on 12 hours a week"). None when no such rows are named."""
    outers = [_without_brackets(label).strip().lower() for label in labels]
    asked = _expanded(stems_of(question))
    for outer in dict.fromkeys(outers):
        rows = [i for i, o in enumerate(outers) if o == outer]
        own = {stem(w) for w in words(outer)} - _GENERIC_STEMS
        if len(rows) < 2 or not own or not own <= asked:
            continue
        conditions = [_DATED.search(labels[i][len(outer):] if labels[i].lower().startswith(outer) else labels[i]) for i in rows]
        if not all(conditions):
            # a bracket of spans ("Customer assistant (under 16 contracted hours)", "... (16
            # contracted hours or more)"): the quantity the question gives chooses ("on 12 hours a week")
            inside = [" ".join(re.findall(r"\(([^)]*)\)", labels[i])) for i in rows]
            if all(_range(text) is not None for text in inside):
                siblings = replace(table, rows=tuple(table.rows[i] for i in rows))
                ranged = _match_ranges(question, siblings, inside)
                if ranged is not None and len(ranged.rows) == 1:
                    return RowMatch(table, ranged.rows, how="range")
                return RowMatch(table, siblings.rows, how="label")
            continue
        years = [int(y) for y in re.findall(r"\b((?:19|20)\d{2})\b", question)]
        met = [i for i, c in zip(rows, conditions) if _meets(years[0], c)] if len(years) == 1 else []
        if len(met) == 1:  # the year falls in the row's span of dates, as a number in a range row's
            return RowMatch(table, (table.rows[met[0]],), how="range")
        return RowMatch(table, tuple(table.rows[i] for i in rows), how="label")
    return None


def _meets(year: int, condition: re.Match) -> bool:
    """Whether a year meets a dated condition ("before 1 April 2019"); False on its boundary year
    when the date is not the year's first day (2019 may fall either side of 1 April)."""
    word, day, month, bound = condition.group(1).lower(), condition.group(2), condition.group(3), int(condition.group(4))
    starts_year = (not month or MONTHS[month.lower()] == 1) and (not day or int(day) == 1)
    if year == bound and not starts_year:
        return False
    if word in ("before", "prior to", "until", "up to"):
        return year < bound
    return year >= bound


def _match_listed_names(question: str, table: TableData, values: list[str]) -> RowMatch | None:
    """The row one of whose listed names the question writes whole, in a column of lists
    ("Example roles": "Reader, Associate Professor, head of service": "I'm a Reader"); of names
    written one inside another, the longer ("a senior lecturer" is not also a "Lecturer"). A name
    written as someone else's ("my manager") names no row; None when the names written fall in
    several rows, or the column holds no lists."""
    filled = [v for v in values if v]
    if len(filled) < 2 or sum(bool(re.search(r"[,;]", v)) for v in filled) * 2 < len(filled):
        return None
    tokens = words(question)
    sequence = [stem(w) for w in tokens]
    written: list[tuple[list[str], TableRow]] = []
    for row, value in zip(table.rows, values):
        for item in re.split(r"\s*[,;]\s*|\s+(?:and|or)\s+", _without_brackets(value)):
            # ("All other locations, including Norwich, Carlisle and Truro": Norwich, Carlisle, Truro)
            item = _LIST_LEAD.sub("", item)
            stems = [stem(w) for w in words(item.lower()) if w not in STOP_WORDS]
            if not stems or all(s in _GENERIC_STEMS for s in stems):
                continue
            for i in range(len(sequence) - len(stems) + 1):
                if sequence[i:i + len(stems)] == stems:
                    if i == 0 or tokens[i - 1] not in _POSSESSIVES:
                        written.append((stems, row))
                    break
    # (a name inside a longer one written is not written for itself: "lecturer" of "senior lecturer")
    kept = [(stems, row) for stems, row in written
            if not any(len(other) > len(stems) and any(other[j:j + len(stems)] == stems for j in range(len(other)))
                       for other, _ in written)]
    rows = list(dict.fromkeys(id(row) for _, row in kept))
    if len(rows) != 1:
        return None
    row = next(row for _, row in kept)
    return RowMatch(table, (row,), how="label", named_words=max(len(stems) for stems, _ in kept))


_BRACKET_OF_CODES = re.compile(r"\(\s*((?:[A-Z][A-Z0-9+]*|[0-9]+[A-Z][A-Z0-9+]*)(?:\s*[,/]\s*(?:[A-Z][A-Z0-9+]*|[0-9]+[A-Z][A-Z0-9+]*))*)\s*\)")


_EXCEPTED = re.compile(r"\b(?:except|excluding|other than|not including|apart from)\b([^)]*)", re.IGNORECASE)


_EXCEPTING = frozenset(stem(w) for w in ("except", "excluding", "other", "than", "not", "including", "apart", "from"))


def _excepted_stems(label: str) -> set[str]:
    """Stems of what a label excepts ("USA (except New York and Washington DC)": new, york,
    washington, dc)."""
    out: set[str] = set()
    for m in _EXCEPTED.finditer(label):
        out |= {stem(w) for w in words(m.group(1))} | {stem(w) for w in words(m.group(0).split()[0])}
    return out - _GENERIC_STEMS


def _names_a_proper_word(question: str, label: str) -> bool:
    """Whether the question writes a name the label capitalises inside it ("the eurostar" for
    "Rail, Eurostar or other international rail"): a name tells a row apart on its own."""
    inner = {w.lower() for w in re.findall(r"(?<=[\w,] )([A-Z][a-z]{2,})", label)}
    return bool(inner & set(words(question)))


def _bracket_codes(label: str) -> set[str]:
    """The codes or acronyms a label's bracket holds ("(D2, P1)", "(VNA)"), lower-cased; none
    for a bracket of words ("(Ireland)") or a single capital ("(A)")."""
    out = set()
    for m in _BRACKET_OF_CODES.finditer(label):
        out |= {c.lower() for c in re.split(r"\s*[,/]\s*", m.group(1)) if len(c) >= 2}
    for m in _BRACKET_OF_CODE_SPAN.finditer(label):  # "(NS1 to NS3)": NS1, NS2, NS3
        out |= {family + value.lower() for family, value in codes_in(m.group(1))}
    return out


def _written_codes(question: str) -> set[str]:
    """The codes and acronyms the question writes, lower-cased: a word of letters and digits
    ("d2", "IS2"), or capitals ("VNA"; "we" is no "(WE)")."""
    return {w.lower() for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9+]*", question)
            if any(ch.isdigit() for ch in w) and any(ch.isalpha() for ch in w) or (w.isupper() and len(w) >= 2)}


def _named_by_bracket_code(question: str, table: TableData, rows: tuple[TableRow, ...]) -> bool:
    """Whether every row is named by a code of its label's bracket that the question writes ("an
    IS2 officer" for "Officers and technical advisers (IS1 to IS3)"): named exactly, as a code."""
    written = _written_codes(question)
    return bool(rows) and all(_bracket_codes(label_of(table, row)) & written for row in rows)


_BRACKET_OF_CODE_SPAN = re.compile(r"\(\s*([A-Z]{1,4}\d{1,2}\s*(?:to|-|–)\s*(?:[A-Z]{1,4})?\d{1,2})\s*\)")


# the people an employee's family leave is for, and the words for any of them
_KIN = frozenset(stem(w) for w in (
    "child children son daughter baby kid parent mother father mum mom dad partner spouse wife husband sibling "
    "brother sister grandparent grandmother grandfather grandma grandad grandchild stepchild").split())
_ANY_KIN = frozenset(stem(w) for w in "relative relatives family dependant dependent relation".split())


def _for_other_kin(label: str, kin_asked: set[str]) -> bool:
    """Whether the label's bracket says whose the row is ("(death of a child under 18)") and it is
    none of the people the question names, nor a word for any of them ("close relative")."""
    inside = {stem(w) for b in re.findall(r"\(([^)]*)\)", label) for w in words(b)}
    kin = inside & _KIN
    if not kin or inside & _ANY_KIN:
        return False
    return not any(equivalents(k) & kin for k in kin_asked)


# value columns for the asker themself beside columns for their family ("Employee", "Nominated partner")
_SELF_HEADERS = frozenset(stem(w) for w in "employee staff colleague self yourself worker member".split())
_FOR_SELF = re.compile(r"\b(?:myself|for me|me personally|just me|for my own use)\b", re.IGNORECASE)


def _kin_headers(table: TableData, first: int) -> dict[int, frozenset[str]]:
    """value column -> the people it is for ("Nominated partner": partner; "Dependent child
    (each)": child; "Employee": self), when two columns at least are for members of a family."""
    out: dict[int, frozenset[str]] = {}
    for index in range(first, len(table.headers)):
        header = {stem(w) for w in words(_without_brackets(table.headers[index]))}
        if header & _KIN:
            out[index] = frozenset(header & _KIN)
        elif header & _ANY_KIN:
            out[index] = frozenset({"any"})
        elif header & _SELF_HEADERS and len(header) <= 3:
            out[index] = frozenset({"self"})
    return out if sum(1 for people in out.values() if people != {"self"}) >= 2 else {}


def _kin_columns(question: str, table: TableData, first: int) -> tuple[int, ...]:
    """The columns for the family member the question names ("my son": "Dependent child"), or for
    the asker ("for myself": "Employee"), in a table of columns by family member."""
    heads = _kin_headers(table, first)
    if not heads:
        return ()
    asked = {stem(w) for w in words(question)} & _KIN
    if asked:
        return tuple(i for i, people in heads.items()
                     if people != {"self"} and ("any" in people or any(equivalents(a) & people for a in asked)))
    if _FOR_SELF.search(question):
        return tuple(i for i, people in heads.items() if people == {"self"})
    return ()


def _absent_kin_column(question: str, table: TableData) -> str:
    """A family member the question names that no column of a table by family member is for ("my
    brother" beside Employee, Nominated partner, Dependent child and Parent columns)."""
    heads = _kin_headers(table, max(table.label_columns, 1))
    if not heads or any("any" in people for people in heads.values()):
        return ""
    named = set().union(*heads.values())
    for word in words(question):
        if stem(word) in _KIN and not equivalents(stem(word)) & named:
            return word
    return ""


def kin_covered(question: str, label: str) -> set[str]:
    """The stems of the people the question names whom the label covers ("my dad" by "a partner
    or close relative", "my son" by "a child")."""
    asked = {stem(w) for w in words(question)} & _KIN
    held = {stem(w) for w in words(label)}
    if held & _ANY_KIN:
        return asked
    return {k for k in asked if equivalents(k) & held}


def _example_names_the_row(label: str, labels: list[str], asked: set[str]) -> bool:
    """Whether an example in a label's bracket names the row by itself: it does when the words
    outside the bracket are the row's alone ("Public duties (magistrate, councillor)": "a school
    governor"); where other rows share them ("Bereavement (partner, child or parent)" beside
    "Bereavement (other close relative)") the bracket only tells those rows apart, and the
    question must write the shared words too ("my dad" alone is not a bereavement)."""
    outer = _without_brackets(label).strip().lower()
    if sum(_without_brackets(other).strip().lower() == outer for other in labels) < 2:
        return True
    return bool({stem(w) for w in words(outer)} - _GENERIC_STEMS & asked)


def _bracket_examples(label: str, *, single: bool = True) -> list[set[str]]:
    """The stems of each example a label's bracket lists ("(magistrate, councillor, school
    governor)"): two or more items in lower case, each of one to three words; or the one short
    name a bracket gives the row ("Highways winter maintenance (gritting)": "the gritting rota"),
    unless `single` is False."""
    out = []
    for inside in re.findall(r"\(([^)]*)\)", label):
        items = [i.strip() for i in re.split(r",|\bor\b|\band\b", inside) if i.strip()]
        if not all(re.fullmatch(r"[a-z][a-z' -]*", i) and len(i.split()) <= 3 for i in items):
            continue
        if len(items) >= 2 and "," in inside:
            out += [stems for i in items if (stems := _example_stems(i))]
        elif single and len(items) == 1 and {stem(w) for w in words(items[0])} - _GENERIC_STEMS - STOP_STEMS:
            out.append({stem(w) for w in words(items[0])} - STOP_STEMS)  # every word: "(remote first)" is not "remotely"
    return out


def _example_stems(item: str) -> set[str]:
    """The stems that name an example: its words but generic ones; every word when only particles
    would be left ("make-up" is make and up, not "up" alone, which "build up" writes too)."""
    every = {stem(w) for w in words(item)}
    kept = every - _GENERIC_STEMS
    return kept if kept - STOP_STEMS else (every if every - STOP_STEMS else set())


def _alternatives(label: str, common: set[str]) -> list[set[str]]:
    """The names a label gives as alternatives, each a name of the row on its own ("Return flight
    or rail fare": a return flight, a rail fare), as stems; not the modifiers of one shared head
    ("Runway or taxiway incursion" is an incursion, so "runway" alone is not the row's name)."""
    # (a list of places whose last is joined by "or": "Birmingham, Manchester or Leeds")
    places = _listed(_without_brackets(label))
    named = sum(country_of(p) is not None or country_of(" ".join(p.split()[:-1])) is not None for p in places)  # "Washington DC"
    if named >= 2 and 2 * named >= len(places):
        # "New York, Washington DC", "Japan, South Korea, Australia", "Birmingham, Manchester or
        # Leeds": each place names the row
        return [stems for p in places if (stems := {stem(w) for w in words(p)} - _GENERIC_STEMS - common)]
    parts = [words(p) for p in re.split(r"\s+or\s+|\s*/\s*", label) if words(p)]
    if len(parts) < 2 or any(len(p) == 1 for p in parts) and any(len(p) > 1 for p in parts):
        return []
    return [stems for p in parts if (stems := {stem(w) for w in p} - _GENERIC_STEMS - common)]


def _label_stop_stems(label: str) -> set[str]:
    """The stop words of a label other than its joining words ("only" of "Research Only"; not
    "and", "of", "the")."""
    return {stem(w) for w in words(label) if w in STOP_WORDS} - _JOINING_STEMS


_JOINING_STEMS = frozenset(stem(w) for w in ("and", "or", "of", "the", "a", "an", "for", "in", "on", "at", "to", "by"))


def _written_around(stop: str, label: str, sequence: list[str]) -> bool:
    """Whether the question writes a stop word of the label with the label's words beside it, as
    the label does: "research-only" holds the "only" of "Research Only", but "teaching and
    assessment" does not hold the "and" of "Teaching and Research"."""
    tokens = [stem(w) for w in words(label)]
    for i, token in enumerate(tokens):
        if token != stop:
            continue
        window = tokens[max(i - 1, 0): i + 2]
        if any(sequence[j: j + len(window)] == window for j in range(len(sequence))):
            return True
    return False


def _only_row_with(held: set[str], label_stems: list[set[str]]) -> bool:
    """Whether two or more words together are in one label only ("staying", "family", "England":
    of "Staying with friends or family (England and Scotland)" and its Ireland twin)."""
    return len(held) >= 2 and sum(held <= stems for stems in label_stems) == 1


SYNONYM_WEIGHT = 0.75  # a label word the question holds only through a synonym, in a partial match


_ACRONYM = re.compile(r"\b[A-Z]{2,6}\b")


def _row_by_its_bracketed_name(question: str, labels: list[str], table: TableData) -> RowMatch | None:
    """The row of codes whose bracket names it in words the question writes whole ("Level 2
    (Medium)": "a medium risk visit"; "high" names "Level 3 (High)"); None when no bracket, or
    several ("very high" writes "high" too: the names of the rows decide then), are written."""
    names = [m.group(1).strip() if (m := re.search(r"\(([A-Za-z][A-Za-z -]*)\)\s*$", label)) else "" for label in labels]
    if sum(bool(n) for n in names) < 2:
        return None
    flat = _words_only(question)
    written = [i for i, n in enumerate(names) if n and _holds_phrase(flat, _words_only(n))]
    if len(written) != 1:
        return None
    return RowMatch(table, (table.rows[written[0]],), how="label", exact=True)


def _said_to_be_the_row(question: str, phrase: str, table: TableData, rows: tuple[TableRow, ...]) -> bool:
    """Whether the question says the phrase is a named row ("my home site is Kilnworth")."""
    m = re.search(rf"{re.escape(phrase)}\s+(?:is|was|will\s+be)\s+(?:the\s+|at\s+|in\s+)?([A-Za-z][\w'-]*)", question, re.IGNORECASE)
    return m is not None and any(stem(m.group(1).lower()) in stems_of(label_of(table, row)) for row in rows)


def _leading_proper_name_written(held: set[str], label: str, question: str) -> bool:
    """Whether the question writes, with its capital, the proper name a label of capitalised
    words starts with ("Kilnworth" of "Kilnworth Stores Depot"): that name is the row's own."""
    label_words = re.findall(r"[A-Za-z][\w'-]*", _without_brackets(label))
    if len(label_words) < 2 or not all(w[0].isupper() for w in label_words if w.lower() not in STOP_WORDS):
        return False
    lead = label_words[0]
    return stem(lead.lower()) in held and re.search(rf"(?<![\w-]){re.escape(lead)}(?![\w-])", question) is not None


def _names_by_a_noun(held: set[str], label: str, question: str) -> bool:
    """Whether a word the question shares with the label can name a thing and names this row:
    the head of one of the label's parts ("the partner" for "Parental leave (partner)", "per
    night" for "Hotel cap per night, capital cities"), or a modifier of it that the question
    does not write before another noun ("a level 7 master's" names "Level 7 master's degree";
    "night shift duty allowance" does not name "Shift Lead", nor "anywhere near" "Near Miss")."""
    parts = [p.split() for p in re.split(r"[,;()/]|\band\b|\bor\b", label) if p.split()]
    heads = {stem(words(p[-1])[-1]) for p in parts if words(p[-1])}
    label_stems = {stem(w) for w in words(label)}
    tokens = words(question)
    for w in words(label):
        s = stem(w)
        if s not in held or not can_name_a_thing(w):
            continue
        if s in heads or (len(w) >= 2 and _ACRONYM.search(label) and w.upper() in _ACRONYM.findall(label)):
            return True  # the head, or an acronym (a name: "CCTV recordings" names "CCTV footage")
        after = [tokens[i + 1] for i, t in enumerate(tokens[:-1]) if stem(t) == s]
        if not any(n not in STOP_WORDS and stem(n) not in label_stems and can_name_a_thing(n) for n in after):
            return True
    return False


def _a_lone_modifier(held: set[str], label: str, question: str, labels: list[str]) -> bool:
    """Whether the one word the question shares with the label is a modifier of a head noun that
    no other label has and that the question leaves out: "the whole kitchen" does not name
    "Kitchen Porter" beside "Head Chef" (where other labels end in "deduction" too, "dinner" still
    names "Dinner deduction"). A name the question writes with a capital, or a place, is exempt
    ("Glasgow" for "Glasgow Hub")."""
    if len(held) != 1:
        return False
    (only,) = held
    # (the words outside brackets: "(FL5)" of "Neonatal care leave (FL5)" is a code, no head)
    parts = [p.split() for p in re.split(r"[,;/]|\band\b|\bor\b", _without_brackets(label)) if p.split()]
    heads = {stem(words(p[-1])[-1]) for p in parts if words(p[-1])}
    others = [{stem(w) for w in words(other)} for other in labels if other != label]
    own_heads = {h for h in heads if not any(h in o for o in others)}
    if only in heads or not own_heads or heads & stems_of(question):
        return False  # (the head written too: "neonatal leave" for "Neonatal care leave")
    written = [m for m in re.finditer(r"[A-Za-z][\w'-]*", question) if stem(m.group(0).lower()) == only]
    if any(m.group(0)[0].isupper() and m.start() > 0 for m in written) or places_in(" ".join(m.group(0) for m in written)):
        return False
    if any(re.match(r"['’]s\b", question[m.end():]) or m.group(0).endswith("'s") for m in written):
        return False  # a possessive stands for its head: "a master's" is a master's degree
    return True


def _misspelt_names(question: str, labels: list[str]) -> set[str]:
    """Stems of the capitalised names in labels that the question writes with one slip (a letter
    more, less, changed or two swapped: "Edinbrugh" for "Edinburgh"), for names of six letters or
    more that the question does not write right and no other label name is as near."""
    names = {w for label in labels for w in re.findall(r"\b[A-Z][a-z]{5,}\b", label)}
    if not names:
        return set()
    lowered = {n.lower(): n for n in names}
    out = set()
    for word in set(words(question)):
        if len(word) < 6 or word in lowered:
            continue
        near = [n for n in lowered if _one_slip(word, n)]
        if len(near) == 1:
            out.add(stem(near[0]))
    return out


def _one_slip(a: str, b: str) -> bool:
    """Whether two words differ by one edit: a letter added, dropped or changed, or two
    neighbouring letters swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def _clipped(question: str, labels: list[str]) -> set[str]:
    """Stems of label words the question writes clipped ("postgrad" for "postgraduate", "admin"
    for "administrative"): a question word of five letters or more that begins a label word at
    least three letters longer (an inflection adds fewer: "leave" is not "leavers")."""
    return {stem(full) for _, full in clipped_words(question, labels)}


def clipped_words(question: str, texts: list[str]) -> set[tuple[str, str]]:
    """(question word, the longer word of `texts` it is clipped from), see ``_clipped``."""
    long_words = {w for text in texts for w in words(text) if len(w) >= 8}
    pairs = {(a, b) for text in texts for a, b in zip(words(text), words(text)[1:]) if len(a) >= 5 and len(b) >= 4}
    out = set()
    for w in set(words(question)):
        if len(w) >= 5 and w not in STOP_WORDS:
            out |= {(w, lw) for lw in long_words if lw.startswith(w) and len(lw) - len(w) >= 3}
        if len(w) >= 8:
            # a compound of a clipped word and the next one: "telehandler" for "telescopic handler"
            for a, b in pairs:
                if w.endswith(b) and 3 <= len(w) - len(b) < len(a) and a.startswith(w[: len(w) - len(b)]):
                    out |= {(w, a), (w, b)}
    # a short clip before the code it names, as the text writes the whole word before it: "cat B"
    # for "Category B", "dept 4" for "Department 4"
    asked = words(question)
    written = {(a, b) for text in texts for a, b in zip(words(text), words(text)[1:])}
    for w, code in zip(asked, asked[1:]):
        if len(w) >= 3 and w not in STOP_WORDS:
            out |= {(w, a) for a, b in written if b == code and len(a) > len(w) and a.startswith(w)}
    return out


def _absent_place_row(question: str, labels: list[str]) -> str:
    """A place the question asks about that a table of places has no row for: a city none of
    the labels is ("Milan" against Rotterdam, Antwerp, Leeds ...), or a country none of the
    labels is in. Empty when the labels are not mostly places, or the place is there."""
    labels = [_without_brackets(label) for label in labels]  # "Copenhagen (CPH)" is Copenhagen
    # (a label may list places, "Birmingham, Manchester or Leeds", or name them in other words,
    # "Other UK locations")
    parts = [_listed(label) for label in labels]
    known = [country_of(label) or next((c for p in listed if (c := country_of(p))), None)
             or next((p.country for p in places_in(label)), None) for label, listed in zip(labels, parts)]
    if sum(c is not None for c in known) < max(2, (len(labels) + 1) // 2):
        return ""
    names = {" ".join(words(name)) for label, listed in zip(labels, parts) for name in [label, *listed]}
    for place in destinations(question):
        if place.home:
            continue
        if place.city and " ".join(words(place.written)) not in names:
            return place.written
        if not place.city and place.country not in known and " ".join(words(place.written)) not in names:
            return place.written
    return ""


def _listed(text: str, *, also_and: bool = False) -> list[str]:
    """The items of a list a label writes ("Birmingham, Manchester or Leeds": the three cities);
    the label itself when it lists nothing."""
    separator = r",|\s+or\s+|\s+and\s+" if also_and else r",|\s+or\s+"
    return [p.strip() for p in re.split(separator, text) if p.strip()]


def _without_brackets(label: str) -> str:
    return re.sub(r"\s*\([^)]*\)", "", label).strip() or label


def _absent_place_in_family(question: str, labels: list[str]) -> str:
    """A place the question asks about that a family of labels differing only by their place
    lacks ("Full-day per diem, Denmark / Norway / Germany" and "a business trip to Sweden"),
    when the question holds the family's other words. Empty otherwise."""
    families: dict[str, list] = {}
    for label in labels:
        places = places_in(label)
        if len(places) == 1:
            rest = " ".join(w for w in words(label) if w not in set(words(places[0].written)))
            families.setdefault(rest, []).append(places[0])
    asked = _expanded(stems_of(question))
    for rest, places in families.items():
        rest_stems = {stem(w) for w in words(rest)} - _GENERIC_STEMS
        if len(places) < 2 or not rest_stems or not rest_stems <= asked:
            continue
        for place in destinations(question):
            if not place.home and all(place.country != p.country for p in places):
                return place.written
    return ""


def _written_as_origin(question: str, label: str) -> bool:
    """Whether the question writes the label as where the asker is or comes from ("from
    Antwerp", "based in Leeds")."""
    return any(written_as_home(question, m.start(), m.end())
               for m in re.finditer(rf"(?<!\w){re.escape(label)}(?!\w)", question, re.IGNORECASE))


def _match_countries(question: str, table: TableData, labels: list[str]) -> RowMatch | None:
    """A table of countries: the row of the country each place the question asks about is in;
    a country the table lacks is absent."""
    rows = []
    for place in destinations(question):
        row = next((r for r, label in zip(table.rows, labels) if country_of(label) == place.country), None)
        if row is None:
            return RowMatch(table, (), how="absent", asked=place.country if place.city else place.written)
        if row not in rows:
            rows.append(row)
    return RowMatch(table, tuple(rows), how="label") if rows else None


def _place_stems(question: str) -> set[str]:
    """Stems of the names a table may use for the places the question asks about."""
    out = set()
    for place in destinations(question):
        # not the word of another country inside an other name ("Ireland" of "Northern Ireland"
        # for a city in the United Kingdom)
        out |= {stem(w) for n in place.names for w in words(n) if country_of(w) in (None, place.country) or n == place.names[0] != place.country}
        if place.city:
            # "a hotel in Copenhagen" names the row of "capital cities"; Aarhus the "other" one
            out.add(stem("capital") if place.capital else stem("other"))
    return out


_GENERIC_STEMS = frozenset(stem(w) for w in GENERIC_WORDS) | {stem(w) for w in ("and", "or", "of", "the", "a", "with", "without", "for", "only")}


_AGENT_SUFFIX = re.compile(r"^(\w{5,}?)(?:ist|er|ian)$")


def _expanded(stems: set[str]) -> set[str]:
    out = set()
    for s in stems:
        if agent := _AGENT_SUFFIX.match(s):
            # the one who practises a field is of the field's row: "pharmacist" of "Pharmacy",
            # "radiographer" of "Radiography", "librarian" of "Library"
            out.add(stem(agent.group(1) + "y"))
        for e in equivalents(s):
            out.add(e)
            # a synonym phrase stands for its words ("vacation" -> earned leave), but a word
            # does not stand for the phrases it is part of ("leave" is not "earned leave")
            if "_" in e and s not in e.split("_"):
                out |= set(e.split("_"))
    return out


# --------------------------------------------------------------------------- columns


_WHOLENESS = frozenset({"full", "whole", "entire"})


_WORD_NUMBER = re.compile(r"\b([A-Za-z]+)\s+(\d{1,3})\b")  # "zone 2", "Point 2"


def asked_columns(question: str, table: TableData, notes: tuple[str, ...] = ()) -> tuple[int, ...]:
    """Value columns the question names: every word that tells the column apart ("Tier 2"),
    a name the header gives as an example ("Metro city (includes Mumbai, ...)"), a note of the
    table's section that names the place with one column ("the capital city cap also applies to
    New York"), or the place asked about (its country or region; a capital or another city;
    "Rest of world" for a region no other column names)."""
    places = destinations(question)
    # (the unit of a quantity, "six years qualified", measures the asker's case: its synonyms do
    # not name the "Annual ..." column)
    asked = _expanded(stems_of(question) | _place_stems(question))
    asked -= _expanded({stem(w) for w in measure_words(question)}) - stems_of(question)
    asked |= _expanded({stem("minimum")} if _LEAST.search(question) else set()) \
        | _expanded({stem("maximum")} if _MOST.search(question) else set())
    first = max(table.label_columns, 1)
    # words in brackets name the column too ("Teller Cash limit (per till)"), unless they list
    # examples of the label ("Metro city (includes Mumbai, ...)": read as examples below)
    bare = [re.sub(r"\(([^)]*)\)", lambda m: " " if re.search(r"[A-Z][a-z]", m.group(1)) else f" {m.group(1)} ", h)
            for h in table.headers]
    # in a header "minimum" and "maximum" tell columns apart ("Band minimum", "Band maximum")
    # ("How it is credited": "how" does not name it for "how many days")
    # ("Full week (7 days)" beside "Weekday night": "full" tells that column apart)
    names = [{stem(w) for w in words(h) if w not in STOP_WORDS or w in _WHOLENESS} - (_GENERIC_STEMS - _RANGE_ENDS) for h in bare]
    value_names = names[first:]
    asked |= _derived_forms(asked, set().union(*value_names) if value_names else set())
    common = set.intersection(*value_names) if len(value_names) > 1 else set()
    # the words that name rows: the label columns', and the noun of a "Body name" column beside codes
    naming = set().union(*names[:first]) | {stem(w) for w in _label_nouns(table)}
    # a number written after a word of the labels ("in zone 2" beside "Zone 1" ... "Zone 4") names
    # a row, not a column ("Band 2 and Band 2N")
    # (written once: "zone 2 for band 2" also names the column)
    # ... and a number written after another family's word ("zone 2") names no "Point 2" column
    worded_numbers = [(stem(m.group(1).lower()), m.group(2)) for m in _WORD_NUMBER.finditer(question)]
    header_codes = {(stem(m.group(1).lower()), m.group(2)) for h in table.headers[first:] for m in _WORD_NUMBER.finditer(h)}
    numbers_of_rows = {n for word, n in worded_numbers if len(re.findall(rf"\b{n}\b", question)) == 1 and (
        word in naming or (word not in STOP_STEMS and (word, n) not in header_codes and any(c == n for _, c in header_codes)))}
    asked -= numbers_of_rows
    noted = _columns_in_notes(places, notes, names, common, first) or _columns_a_note_calls(question, table, notes, first)
    if noted:
        return noted
    ranged = columns_named_by_numbers(question, table)
    if ranged:
        return ranged
    end = _end_of_the_scale(question, table, first)
    if end is not None:
        return (end,)
    kin = _kin_columns(question, table, first)
    if kin:
        return kin
    days = days_named(question)
    if days:
        # "a Wednesday rest day": the "Monday to Friday rest day" column, where the headers are days
        covered = {i: days_held(table.headers[i]) for i in range(first, len(table.headers))}
        if sum(bool(c) for c in covered.values()) >= 2:
            holding = [i for i, c in covered.items() if days <= c]
            if len(holding) == 1:
                return (holding[0],)
    # a column naming the place's country beats one naming its region ("UK and Ireland" for Dublin)
    country_columns = [i for i in range(first, len(table.headers)) if any(_names_place(table.headers[i].lower(), p) for p in places)]
    out = []
    for index in range(first, len(table.headers)):
        header = table.headers[index]
        distinctive = names[index] - common - naming  # the label column's words name rows
        examples = {w.lower() for inside in re.findall(r"\(([^)]*)\)", header) for w in re.findall(r"[A-Z][\w-]+", inside)}
        lowered = header.lower()
        if distinctive and all(s in asked for s in distinctive) and not country_columns:
            out.append(index)
        elif examples & {w for w in words(question)}:
            out.append(index)
        elif places and any(_names_place(lowered, p) for p in places):
            out.append(index)
        elif places and "capital" in lowered and all(p.capital for p in places):
            out.append(index)
        elif places and re.search(r"\bother cit", lowered) and all(p.city and not p.capital for p in places):
            out.append(index)
    if country_columns and len(out) > 1:
        # of the columns naming the place's country, those a word of the question tells apart
        # ("overtime" in Dublin: "Overtime rate – Irish airports", not "Basic hourly rate – Irish airports")
        place_words = {stem(w) for p in places for n in (*p.names, *demonyms_of(p.country)) for w in words(n)}
        # (as the headers write them, measure words too: "hourly" tells "Basic hourly rate" apart)
        raw = {i: set(stems_of(table.headers[i])) for i in out}
        shared = set.intersection(*raw.values())
        worded = [i for i in out if (raw[i] - shared - naming - place_words - STOP_STEMS) & (asked | stems_of(question))]
        if worded and len(worded) < len(out):
            out = worded
    by_phrase = phrase_over_words = False
    if not out:
        # a phrase the question writes that one or two headers hold ("carry over" for "Maximum
        # Flexi Credit carried forward") names them before a single word of another ("next period")
        out = _columns_by_phrase(question, table, first)
        by_phrase = bool(out)
    elif len(phrased := _columns_by_phrase(question, table, first)) == 1:
        # a header the lexicon says the question's phrase is ("starting pay": "Entry salary") beats
        # columns named only by words of that phrase ("pay" of "Pay points")
        if _named_inside_the_phrase(question, table, phrased, [i for i in out if i != phrased[0]], names):
            out, by_phrase, phrase_over_words = phrased, True, True
    if not out:
        # the label column's words name rows, not columns ("sick leave" does not ask for "Days per leave year")
        out = _column_by_unique_word(asked - _place_stems(question) - naming, names, common, first)
    if not out:
        out = _column_by_its_phrase(question, table, first)
    if not out:
        out = _columns_by_initials(question, table, first)
    if not out:
        out = _column_by_a_phrase_of_its_word(question, table, first)
    # the header word as the question writes it beats a synonym ("Sunday" names "Sunday and
    # public holiday multiplier", not "Saturday multiplier", though the lexicon joins the days)
    literal = stems_of(question) - naming - numbers_of_rows  # the label column's words name rows
    literal |= _derived_forms(literal, set().union(*names[first:]))  # "restrained": "Restraint", as written
    written = _column_by_unique_word(literal, names, common, first)
    def own(i: int) -> set[str]:
        return names[i] - set().union(*(names[j] for j in range(first, len(names)) if j != i))

    if written and not by_phrase and not any(own(i) & literal for i in out):
        out = written
    if not phrase_over_words:  # (the phrase's own words are what named the other columns)
        out = _literal_before_synonym(out, own, literal, first, len(names), None if by_phrase else names, naming)
    # a column whose header the question writes as a phrase ("the longest duty period": "Maximum
    # Duty Period") beats one holding the same words apart ("Maximum duty hours per Roster Period");
    # a column named by words of its own stays ("the weekday rate and the max TOIL balance")
    pairs = {i: _header_pairs_written(question, table.headers[i]) for i in out}
    written_pairs = set().union(*pairs.values()) if pairs else set()
    out = [i for i in out if pairs[i] or not any(set(p) <= stems_of(table.headers[i]) for p in written_pairs)]
    # "the max I can keep in my till": "max" asks for the top of what the till column gives, not
    # for "Maximum single delivery", when another column is named by a word of its own
    # "the max annual site weighting at X", "the least I'd get in site weighting": where the words
    # naming the other columns are all the table's subject (its caption's), the column of the end
    # asked for ("Maximum annual payment") is asked, not "Weighting (% of basic salary)"
    ended = [i for i in out if own(i) & asked & _RANGE_ENDS] if len(out) > 1 else []
    if ended and not ended == out and len(ended) == 1:
        # (the subject: the caption's words, and a word written right after the rows' noun: "site
        # weighting" where the rows are sites)
        row_nouns = {w for h in table.headers[:first] for w in words(h)}
        tokens = words(question)
        subject = stems_of(table.caption) | {stem(b) for a, b in zip(tokens, tokens[1:]) if a in row_nouns}
        if all(not ((own(i) & asked) - _RANGE_ENDS - subject) for i in out if i not in ended):
            out = ended
    out = _without_pay_words_on_other_values(question, table, out, own, asked, first)
    by_content = [i for i in out if (own(i) - _RANGE_ENDS) & asked]
    if by_content:
        out = [i for i in out if i in by_content or not (own(i) & asked) <= _RANGE_ENDS]
    plain = _plain_header_asked(question, table, first)
    if plain is not None:
        # "What's the limit on expense code TE-10?": the "Limit" column, a header of plain words
        # the question writes whole; not "Expense type", whose "expense" is the table's subject
        subject = stems_of(table.caption) | set().union(*names[:first])
        out = [plain] + [i for i in out if i != plain and not (names[i] - common) <= subject]
    out = _on_the_asked_side(question, table, out)
    out = _the_asked_thing(question, table, out)
    kind = value_column(question, table, first)
    if kind is None and out:
        kind = value_column(question, table, first, kinds=(_AMOUNT_KIND,))
    if kind is not None:
        out = [kind] + [i for i in out if i != kind]  # "how often ... a new laptop": the cycle first
    if not out and places and any(re.search(r"\b(rest of (the )?world|other countries|elsewhere)\b", h.lower()) for h in table.headers[first:]):
        regions = {p.region.lower() for p in places} | {p.country.lower() for p in places}
        named = [h.lower() for h in table.headers[first:]]
        if not any(r in h for r in regions for h in named):
            out = [first + i for i, h in enumerate(named) if re.search(r"\b(rest of (the )?world|other countries|elsewhere)\b", h)]
    return tuple(out) if len(out) < len(table.headers) - first else ()


_PAY_STEMS = frozenset(stem(w) for w in ("pay", "salary", "wage", "wages", "earn", "earnings", "paid", "money", "remuneration"))


# a question asking for a length of time or a count ("the minimum time I get paid for"): "paid"
# may name the column of it
_ASKS_A_MEASURE = re.compile(r"\b(?:time|hours?|minutes?|days?|weeks?|months?|years?|period|how long|how many|number of|points?)\b",
                             re.IGNORECASE)


def _without_pay_words_on_other_values(question: str, table: TableData, out: list[int], own, asked: set[str],
                                       first: int) -> list[int]:
    """The named columns without those named only by a word of pay whose cells are no amounts of
    money ("Pay points", a count of steps, for "the starting pay for a ZK3a"), where other
    columns hold money: the question's "pay" asks for an amount."""
    def money(i: int) -> bool:
        cells = [row.cells[i] for row in table.rows if i < len(row.cells) and row.cells[i].strip()]
        return bool(cells) and sum(bool(_MONEY.search(c)) for c in cells) >= 0.5 * len(cells)

    if not any(money(i) for i in range(first, len(table.headers))) or _ASKS_A_MEASURE.search(question):
        return out
    return [i for i in out if not ((own(i) & asked) and (own(i) & asked) <= _PAY_STEMS and not money(i))]


_ABOVE = r"(?:over|above|past|beyond|after|more\s+than|exceeding|in\s+excess\s+of|once\s+(?:i(?:'m|\s+am|\s+have|'ve)\s+)?(?:done\s+|past\s+|over\s+)?)"
_UP_TO = r"(?:first|up\s+to|under|below|less\s+than|within|before|the\s+first)"
_HEADER_ABOVE = re.compile(rf"\b{_ABOVE}\s*[£$€]?\d", re.IGNORECASE)
_HEADER_UP_TO = re.compile(rf"\b{_UP_TO}\s*[£$€]?\d", re.IGNORECASE)


# "the top of the scale", "top of band", "the highest point", "bottom of the grade", "entry point"
_TOP_OF_SCALE = re.compile(r"\b(?:top|highest|maximum|max|ceiling)\s+(?:of\s+(?:the\s+|my\s+|their\s+|his\s+|her\s+|a\s+)?(?:[A-Za-z]{0,4}[ -]?\d{1,2}[A-Za-z]?\s+)?)?"
                           r"(?:pay\s+|salary\s+)?(?:scale|band|grade|range|point|step)\b", re.IGNORECASE)
_BOTTOM_OF_SCALE = re.compile(r"\b(?:bottom|lowest|minimum|min|foot|start|entry)\s+(?:of\s+(?:the\s+|my\s+|their\s+|his\s+|her\s+|a\s+)?(?:[A-Za-z]{0,4}[ -]?\d{1,2}[A-Za-z]?\s+)?)?"
                              r"(?:pay\s+|salary\s+)?(?:scale|band|grade|range|point|step)\b", re.IGNORECASE)
_SCALE_END_HEADER = re.compile(r"\b(?:top|highest|maximum|max|ceiling|bottom|lowest|minimum|min|entry|start(?:ing)?)\b", re.IGNORECASE)
_NUMBERED_HEADER = re.compile(r"^\s*([A-Za-z][A-Za-z ]{1,20}?)\s*(\d{1,2})\s*$")


def _end_of_the_scale(question: str, table: TableData, first: int) -> int | None:
    """The column of the top (or bottom) step of a scale whose value headers are numbered steps
    of one word ("Point 1" ... "Point 4", "Step 1" ... "Step 6"), for "the top of the scale",
    "the highest point", "the bottom of the band"; None when the question names a step itself or
    neither end."""
    top, bottom = _TOP_OF_SCALE.search(question), _BOTTOM_OF_SCALE.search(question)
    if bool(top) == bool(bottom):
        return None
    numbered = {}
    for i in range(first, len(table.headers)):
        m = _NUMBERED_HEADER.match(table.headers[i])
        if m:
            numbered[i] = (m.group(1).strip().lower(), int(m.group(2)))
    if len(numbered) < 2 or len({word for word, _ in numbered.values()}) != 1:
        return None
    if any(_SCALE_END_HEADER.search(table.headers[i]) for i in range(first, len(table.headers)) if i not in numbered):
        return None  # "Entry point", "Point 2", "Point 3", "Maximum": the end is a column of its own
    word = next(iter(numbered.values()))[0]
    if re.search(rf"\b{re.escape(word)}\s*\d", question, re.IGNORECASE):
        return None  # "point 3": the step named
    pick = max if top else min
    return pick(numbered, key=lambda i: numbered[i][1])


def _columns_by_initials(question: str, table: TableData, first: int) -> list[int]:
    """The one value column whose header's initials the question writes in capitals ("EU" for
    "European Union", "APAC" is not "Asia-Pacific" but "AP" is)."""
    written = set(re.findall(r"\b[A-Z]{2,5}\b", question))
    if not written:
        return []
    found = []
    for index in range(first, len(table.headers)):
        initials = "".join(w[0] for w in re.findall(r"[A-Za-z]+", _without_brackets(table.headers[index]))
                           if w.lower() not in STOP_WORDS).upper()
        if len(initials) >= 2 and initials in written:
            found.append(index)
    return found if len(found) == 1 else []


def _header_pairs_written(question: str, header: str) -> set[tuple[str, str]]:
    """The pairs of words (stems) the header and the question both write side by side."""
    heard = [stem(w) for w in words(question.lower()) if w not in STOP_WORDS]
    said = [stem(w) for w in words(header.lower()) if w not in STOP_WORDS]
    return set(zip(said, said[1:])) & set(zip(heard, heard[1:]))


def _on_the_asked_side(question: str, table: TableData, columns: list[int]) -> list[int]:
    """Of columns that differ by the side of one threshold ("Casual user rate: first 8,500 miles",
    "Casual user rate: over 8,500 miles"), the one on the side the question writes ("once I'm past
    8,500 miles", "more than 8,500"); all of them when the question writes neither."""
    if len(columns) < 2:
        return columns
    sides = {i: ("above" if _HEADER_ABOVE.search(table.headers[i]) else "up to" if _HEADER_UP_TO.search(table.headers[i]) else "")
             for i in columns}
    if not all(sides.values()) or len(set(sides.values())) < 2:
        return columns
    asks_above = re.search(rf"\b{_ABOVE}\s*[£$€]?\d", question, re.IGNORECASE)
    asks_up_to = re.search(rf"\b{_UP_TO}\s*[£$€]?\d", question, re.IGNORECASE)
    if bool(asks_above) == bool(asks_up_to):
        return columns
    side = "above" if asks_above else "up to"
    return [i for i in columns if sides[i] == side]


def _plain_header_asked(question: str, table: TableData, first: int) -> int | None:
    """The one value column whose header is only plain words ("Limit", "Rate", "Maximum amount":
    words too common to tell columns apart by themselves) that the question writes whole, in that
    order; None when none or several are."""
    lowered = " ".join(words(question.lower()))
    found = []
    for index in range(first, len(table.headers)):
        header = [w for w in words(table.headers[index].lower()) if w not in STOP_WORDS]
        # (written whole, or with one word between: "hourly callout rate" for "Hourly rate")
        written = r"(?:\s+\w+)?\s+".join(re.escape(w) for w in header)
        if header and all(stem(w) in _GENERIC_STEMS for w in header) and re.search(rf"\b{written}\b", lowered):
            found.append(index)
    return found[0] if len(found) == 1 else None


def _named_inside_the_phrase(question: str, table: TableData, phrased: list[int], others: list[int], names: list[set[str]]) -> bool:
    """Whether the other columns are named only by words of the question's phrase that names the
    phrased columns ("pay" of "starting pay", which names "Entry salary": not "Pay points")."""
    if not others:
        return False
    inside = {part for p in stems_of(question) if "_" in p and any(equivalents(p) & stems_of(table.headers[i]) for i in phrased)
              for part in p.split("_")}
    return all(names[i] & stems_of(question) <= inside for i in others)


def _columns_by_phrase(question: str, table: TableData, first: int) -> list[int]:
    """The value columns (one or two, not all) whose header holds a lexicon phrase the question
    writes, or one saying the same ("carry over": "carried forward")."""
    # (not a measure, "each night" for "per night": that says how a value is counted, not which)
    phrases = [p for p in stems_of(question) if "_" in p and p.split("_")[0] not in STOP_STEMS | MEASURE_STEMS]
    if not phrases:
        return []
    found = []
    for index in range(first, len(table.headers)):
        held = stems_of(table.headers[index])
        if any(equivalents(p) & held for p in phrases):
            found.append(index)
    return found if 0 < len(found) <= 2 and len(found) < len(table.headers) - first else []


def _column_by_its_phrase(question: str, table: TableData, first: int) -> list[int]:
    """The value column one of whose phrases the question writes, where the headers differ only by
    small words ("rest at home base" names "Rest at Home Base", not "Rest away from Home Base"): a
    run of three words or more of one header that no other header has."""
    lowered = " ".join(words(question.lower()))
    headers = [" ".join(words(h.lower())) for h in table.headers]
    found = []
    for index in range(first, len(headers)):
        tokens = headers[index].split()
        runs = {" ".join(tokens[i:j]) for i in range(len(tokens)) for j in range(i + 3, len(tokens) + 1)}
        own = [r for r in runs if not any(r in headers[o] for o in range(first, len(headers)) if o != index)]
        if any(re.search(rf"(?<!\w){re.escape(r)}(?!\w)", lowered) for r in own):
            found.append(index)
    return found if len(found) == 1 else []


def _column_by_a_phrase_of_its_word(question: str, table: TableData, first: int) -> list[int]:
    """The one value column with a word the question writes as a phrase the lexicon gives for it
    ("per hour" names "Hourly rate", whose words are all common words that name no column on
    their own); none when two columns have such a word."""
    lowered = " ".join(words(question.lower()))
    found = []
    for index in range(first, len(table.headers)):
        for word in words(table.headers[index].lower()):
            phrases = [p for p in lexicon_group(word) if " " in p and p != word]
            if any(re.search(rf"(?<!\w){re.escape(p)}(?!\w)", lowered) for p in phrases):
                found.append(index)
                break
    return found if len(found) == 1 else []


def columns_named_by_numbers(question: str, table: TableData) -> tuple[int, ...]:
    """The value columns a quantity or a code of the question names by its header's span."""
    first = max(table.label_columns, 1)
    return _range_columns(question, table, first) or _code_span_columns(question, table, first)


def columns_spanning_codes(question: str, table: TableData) -> tuple[int, ...]:
    """The value columns whose header spans a code the question writes ("Grades G4-G6" for a G5)."""
    return _code_span_columns(question, table, max(table.label_columns, 1))


_NAMED_SPAN = re.compile(r"^([A-Za-z]{3,})\s+(\S.*)$")


def _header_span(header: str) -> tuple[tuple[str, ...], float, float] | None:
    """(the family's names, low, high) of a header spanning codes ("Grades 1 to 5": (grade,);
    "Grades G1-G3", its codes' family after its word: (g, grade), so "G2" and "grade 2" both
    fall in it; "Bands 7-8a", "Band 8b and above": sub-lettered codes, see _lettered_span), the
    span also after what the column holds ("Per diem: grades C1–C6", "Daily rate (grades 1-5)",
    "Rate - bands B1 to B4"); None for another header."""
    found = _header_span_itself(header)
    if found is None:
        tail = _HEADER_LEAD_IN.match(header.strip())
        found = _header_span_itself(tail.group(1)) if tail else None
    return found


# what a column holds, then the codes it is for: "Per diem: grades C1–C6", "Daily rate (grades
# 1-5)", "Rate – bands B1 to B4", "Enhancement for grades HT1 to HT4A"
_HEADER_LEAD_IN = re.compile(r"^[^:()]*?[A-Za-z][^:()]*?(?::\s*|\s+[-–—]\s+|\s*\(|"
                             r"\s+for\s+(?=(?:grades?|bands?|levels?|scales?|tiers?|classes?)\s))([^:()]+?)\)?$", re.IGNORECASE)


def what_a_header_gives(header: str) -> str:
    """A header without the codes it is for ("Per diem: grades C1–C6": "Per diem"; "Grades 1 to 5":
    ""); another header as it is."""
    if _header_span_itself(header) is not None:
        return ""
    tail = _HEADER_LEAD_IN.match(header.strip())
    if tail and _header_span_itself(tail.group(1)) is not None:
        return re.sub(r"\s+for$", "", header.strip()[: tail.start(1)].rstrip(" :(-–—"), flags=re.IGNORECASE)
    return header


def _header_span_itself(header: str) -> tuple[tuple[str, ...], float, float] | None:
    span = _code_span(header) or _lettered_span(header) or _prefixed_lettered_span(header)
    if span is not None:
        return (span[0],), span[1], span[2]
    m = _NAMED_SPAN.match(header.strip())
    inner = (_code_span(m.group(2)) or _prefixed_lettered_span(m.group(2))) if m else None
    if inner is None:
        return None
    word = m.group(1).lower()
    word = word[:-1] if word.endswith("s") and len(word) > 3 else word
    return tuple(dict.fromkeys((inner[0], word))), inner[1], inner[2]


def _header_code_spans(table: TableData, first: int) -> tuple[tuple[str, ...], list]:
    """(the family's names, spans of the value headers) when two or more headers span codes of
    one family ("Grades 1 to 5", "Grades 6 to 10"; "Grades G1-G3", "Grades G4-G6"); ((), [])
    otherwise."""
    spans = [_header_span(h) for h in table.headers[first:]]
    families = {sp[0] for sp in spans if sp is not None}
    if sum(sp is not None for sp in spans) < 2 or len(families) != 1:
        return (), []
    return families.pop(), spans


def _span_family_numbers(question: str, families: tuple[str, ...]) -> list[float]:
    return [n for family in families for n in _family_positions(question, family)]


# a span of codes some of which carry a sub-letter ("Bands 7-8a", "bands 8b to 8d"), or a code and
# every one above it ("Band 8b and above", "Grade 7+")
_LETTERED_SPAN = re.compile(r"^([A-Za-z]{3,})\s+(\d{1,2})([a-z]?)\s*(?:-|–|—|to|and)\s*(?:[A-Za-z]{3,}\s+)?(\d{1,2})([a-z]?)$", re.IGNORECASE)
_OPEN_SPAN = re.compile(r"^([A-Za-z]{3,})\s+(\d{1,2})([a-z]?)\s*(?:\+|(?:and|or)\s+(?:above|over|higher))$", re.IGNORECASE)


def _position(number: str, letter: str) -> float:
    """Where a code stands in its family's order: "8" is 8, "8a" 8.01, "8d" 8.04."""
    return int(number) + ((ord(letter.lower()) - 96) / 100 if letter else 0.0)


def _position_text(position: float) -> str:
    whole = int(position)
    letter = round((position - whole) * 100)
    return f"{whole}{chr(96 + letter)}" if letter else str(whole)


def _family_word(word: str) -> str:
    word = word.lower()
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


# a span of prefixed codes whose last (or first) carries a sub-letter: "HT1 to HT4A", "G2-G5b"
_PREFIXED_LETTERED_SPAN = re.compile(r"^([A-Za-z]{1,4})[ -]?(\d{1,2})([A-Za-z]?)\s*(?:-|–|—|to)\s*([A-Za-z]{1,4})[ -]?(\d{1,2})([A-Za-z]?)$")


def _prefixed_lettered_span(text: str) -> tuple[str, float, float] | None:
    """(prefix, low, high) of a span of one family's prefixed codes with a sub-letter ("HT1 to
    HT4A": ("ht", 1, 4.01)); None for another text."""
    m = _PREFIXED_LETTERED_SPAN.match(text.strip())
    if not m or m.group(1).lower() != m.group(4).lower() or not (m.group(3) or m.group(6)):
        return None
    low, high = _position(m.group(2), m.group(3)), _position(m.group(5), m.group(6))
    return (m.group(1).lower(), low, high) if low < high else None


def _lettered_span(text: str) -> tuple[str, float, float] | None:
    """(family, low, high) of a span whose codes carry sub-letters or that is open upwards ("Bands
    7-8a": 7 to 8.01; "Band 8b and above": 8.02 and up); None for another text (a span of plain
    numbers is _code_span's)."""
    text = text.strip()
    m = _LETTERED_SPAN.match(text)
    if m and (m.group(3) or m.group(5)):
        low, high = _position(m.group(2), m.group(3)), _position(m.group(4), m.group(5))
        return (_family_word(m.group(1)), low, high) if low < high else None
    m = _OPEN_SPAN.match(text)
    if m:
        return _family_word(m.group(1)), _position(m.group(2), m.group(3)), float("inf")
    return None


def _family_positions(question: str, family: str) -> list[float]:
    """The codes the question writes after a family's word, as positions ("band 8b": 8.02, "band 6": 6)."""
    return [_position(m.group(1), m.group(2) or "")  # (not "3.5", "3,000")
            for m in re.finditer(rf"\b{re.escape(family)}s?[ -]?(\d{{1,3}})([a-z])?(?![\d%]|[.,]\d)\b", question, re.IGNORECASE)]


def _absent_span_column(question: str, table: TableData) -> str:
    """A code of the family the value headers span that no header holds ("grade 12" where the
    columns are "Grades 1 to 5" and "Grades 6 to 10"), as the headers write the family."""
    families, spans = _header_code_spans(table, max(table.label_columns, 1))
    if not families:
        return ""
    for family in families:
        outside = [_position_text(n) for n in _family_positions(question, family)
                   if not any(sp is not None and sp[1] <= n <= sp[2] for sp in spans)]
        if outside:
            return f"{family.upper()}{outside[0]}" if len(family) <= 2 else f"{family.capitalize()} {outside[0]}"
    return ""


def _code_span_columns(question: str, table: TableData, first: int) -> tuple[int, ...]:
    """The value column whose header spans the codes of one family holding the code the question
    writes ("Grades 1 to 5" / "Grades 6 to 10": "I'm on grade 4" asks for the first; "Grades
    G1-G3": "a G2" and "grade 2" as well)."""
    families, spans = _header_code_spans(table, first)
    if not families:
        # spans of several families ("VS1–VS3" ... "SVN2 and RVN1–RVN3", "RVN4–RVN6"): the
        # header holding the code written, of whichever family
        return coded_columns(question, table)[0]
    written = _span_family_numbers(question, families)
    return tuple(first + i for i, sp in enumerate(spans)
                 if sp is not None and any(sp[1] <= n <= sp[2] for n in written))


def _range_columns(question: str, table: TableData, first: int) -> tuple[int, ...]:
    """The value column whose header is a range holding a quantity the question states, when
    the value headers are ranges of one measure ("First 5,000 km in tax year" / "Above 5,000 km
    in tax year": "I've already claimed 6,200 km" asks for the second)."""
    headers = list(table.headers[first:])
    spans = [_range(h) for h in headers]
    if len(headers) < 2 or sum(sp is not None for sp in spans) < 2:
        return ()
    ranged = [h for h, sp in zip(headers, spans) if sp is not None]
    measure = _measure_of(ranged)
    kinds = {sp.kind for sp in spans if sp is not None}
    counted = _own_unit_word(ranged) if not measure and kinds == {""} else ""
    if len(kinds) != 1 or (not measure and kinds == {""} and not counted):
        return ()
    kind = kinds.pop()
    unit = next(sp.unit for sp in spans if sp is not None)
    if counted:
        # spans of a count of the policy's own things ("1-2 sectors", "5-6 sectors"): the number
        # the question writes before that word, in digits or in words ("five sectors")
        values = [numbers(m.group(1))[0] for m in re.finditer(
            rf"\b(\d+|{_NUMBER_WORD_PATTERN})\s+{re.escape(counted.rstrip('s'))}s?\b", question, re.IGNORECASE)]
    else:
        values = _span_quantities(question, kind, unit, measure, spans)
    lows = sorted({sp.low for sp in spans if sp is not None and sp.low is not None})
    for value in values:
        hits = [first + i for i, sp in enumerate(spans) if sp is not None and _holds(sp, value, lows)]
        if len(hits) == 1:
            return tuple(hits)
    return ()


def _literal_before_synonym(out: list[int], own, literal: set[str], first: int, count: int,
                            names: list[set[str]] | None = None, naming: set[str] = frozenset()) -> list[int]:
    """A column named only through a synonym ("Saturday rate" for "Sunday": the lexicon joins the
    days) gives way to the column whose own word the question writes, when the lexicon joins the
    two words ("Sunday / bank holiday rate"), or to the columns holding a word the question writes
    that it lacks, when `names` (each header's words) are given."""
    result = []
    whole_synonyms = set().union(*(equivalents(w) for w in literal)) if names is not None and literal else set()
    for i in out:
        if own(i) & literal:
            result.append(i)
            continue
        instead = [j for j in range(first, count) if j != i and any(
            w in literal and (equivalents(w) & own(i)) for w in own(j))]
        if not instead and names is not None and len(out) == 1 and own(i) and not own(i) & whole_synonyms:
            # "progression step": "Pay conversations" is named only by "pay", a word of "pay
            # progression" (no synonym of "progression" by itself); the columns holding "step" as
            # the question writes it are asked (though no one of them alone holds it)
            instead = [j for j in range(first, count) if j != i and (names[j] - names[i] - naming) & literal]
        result.extend(instead or [i])
    return list(dict.fromkeys(result))


_RANGE_ENDS = frozenset(stem(w) for w in ("maximum", "minimum", "max", "min"))
# "the least I'd get": the minimum; "the most I can claim": the maximum ("at least 5 years" is a
# condition, not an end asked for)
_LEAST = re.compile(r"\bthe least\b(?=\s+(?:i|we|you|they|he|she|an?|one|someone|anyone|staff|employees?)\b)", re.IGNORECASE)
_MOST = re.compile(r"\bthe most\b(?=\s+(?:i|we|you|they|he|she|an?|one|someone|anyone|staff|employees?)\b)", re.IGNORECASE)


def _column_by_unique_word(asked: set[str], names: list[set[str]], common: set[str], first: int) -> list[int]:
    """The value columns (one, or two that the question names each by its own word: "funding %
    and how long is the clawback") whose header has a word the question uses and no other header
    has ("the removal firm" names "Removal cost cap", not "Lump sum")."""
    distinct = [names[i] - common for i in range(len(names))]
    hits = []
    for i in range(first, len(names)):
        others = set().union(*(distinct[j] for j in range(first, len(names)) if j != i))
        if (distinct[i] - others) & asked:
            hits.append(i)
    return hits if len(hits) <= 2 else []


# what a question asks for, and how the cells of the column that answers it read
# a "who" question, the roles that answer it, and the words of a header or rule naming who acts
_ASKS_WHO = re.compile(r"^\W*who\b|\bwho (?:has|needs|must|should|can|will|do|does|is|approves|signs|authori[sz]es)\b", re.IGNORECASE)
_ROLES = re.compile(r"\b(?:manager|director|head|officer|leader|lead|supervisor|owner|committee|board|team|chief|president|holder|"
                    r"partner|coordinator|dean|chancellor)\b", re.IGNORECASE)
_WHO_ACTS = re.compile(r"\b(?:approv\w*|authori[sz]\w*|sign(?:ed|s)?[ -]off|responsible|owner|approver)\b|\bby\s*$|^\W*who\b",
                       re.IGNORECASE)


def gives_who(question: str, sentence: str) -> bool | None:
    """For a "who" question, whether the sentence names a person or body ("must be approved by
    the Pro-Vice-Chancellor"); None when the question does not ask who."""
    if not _ASKS_WHO.search(question):
        return None
    return bool(_ROLES.search(sentence) or re.search(r"\b(?:approv\w*|authori[sz]\w*|sign\w*[ -]off|agreed) by\b", sentence, re.IGNORECASE))


_VALUE_KINDS = (
    (re.compile(r"\bhow (?:often|frequently)\b|\bwhen (?:do|does|will|can) .*\b(?:new|replace|refresh|renew)", re.IGNORECASE),
     re.compile(r"\b(?:every|each|daily|weekly|monthly|quarterly|annually|yearly|once|twice)\b", re.IGNORECASE),
     re.compile(r"\b(?:cycle|interval|frequency|refresh|renewal|replacement)\b", re.IGNORECASE)),
    (_ASKS_WHO, _ROLES, _WHO_ACTS),
    (re.compile(r"\bhow long\b", re.IGNORECASE),
     re.compile(r"\b\d+(?:\s*(?:to|-|–)\s*\d+)?\s*(?:working |business |calendar )?(?:minutes?|hours?|days?|weeks?|months?|years?)\b", re.IGNORECASE),
     re.compile(r"\b(?:period|duration|length|time)\b", re.IGNORECASE)),
    # "how heavy is a VC-6 truck": a weight; "how far", "how big": a distance, a size
    (re.compile(r"\bhow (?:heavy|light)\b|\bhow much (?:does|do|can|will) (?:it|they|\w+) weigh\b", re.IGNORECASE),
     re.compile(r"\b\d[\d,.]*\s*(?:kg|kilograms?|tonnes?|t|lbs?|pounds)\b", re.IGNORECASE),
     re.compile(r"\b(?:weight|mass|load|payload)\b", re.IGNORECASE)),
    (re.compile(r"\bhow (?:far|long a (?:distance|way))\b", re.IGNORECASE),
     re.compile(r"\b\d[\d,.]*\s*(?:km|kilomet(?:re|er)s?|miles?|metres?|meters?|m)\b", re.IGNORECASE),
     re.compile(r"\b(?:distance|radius|mileage)\b", re.IGNORECASE)),
    # "what happens at stage E2", "what do I do if ...": the action, named by the header alone
    (re.compile(r"\bwhat (?:happens|should|must|do|does|will|would)\b", re.IGNORECASE),
     re.compile(r"(?!x)x"),
     re.compile(r"^\s*(?:actions?|steps?|what happens|what to do|response|procedure|action required|required action)\b", re.IGNORECASE)),
    # "do they get anything for the lost rest?", "what do I get for a travel day?", "am I paid
    # for it?": what is paid, named by the header alone
    (re.compile(r"\b(?:do|does|will|would|can|could)\s+(?:i|we|they|he|she|you|(?:the|my|our)\s+\w+)\s+(?:get|receive)\s+"
                r"(?:anything|something|any(?:thing)?\s+(?:extra|more|money|payment|compensation))\b"
                r"|\bwhat\s+(?:do|does|will|would)\s+(?:i|we|they|he|she|you)\s+(?:get|receive)\b"
                r"|\b(?:am|are|is)\s+(?:i|we|they|he|she|you)\s+paid\b", re.IGNORECASE),
     re.compile(r"(?!x)x"),
     re.compile(r"\b(?:pay|payment|payments|paid|compensation|allowance|fee|remuneration)\b", re.IGNORECASE)),
    # "how are RT-11 records disposed of": the way it is done, named by the header alone
    (re.compile(r"\bhow (?:is|are|do|does|should|must|shall|will|can|would)\b", re.IGNORECASE),
     re.compile(r"(?!x)x"),
     re.compile(r"\b(?:method|methods|way|manner|procedure|process|how)\b", re.IGNORECASE)),
)

# "how much is a room in Stag Lodge per week": an amount of money (not "how much leave", a quantity
# of the noun written next, nor a weight); it puts the money column first among the columns the
# question names by words ("Room type" for "a room"), and names none by itself: which table is asked
# about is said by words, not by a wish for money
_AMOUNT_KIND = (
    re.compile(r"\bhow much\s+(?:is|are|was|were|will|would|does|do|did|can|could|should|money|cash)\b(?!.*\bweigh)"
               r"|\bhow much\s+(?:i|we|you|they|he|she)\s+(?:get|earn|receive|pay|claim)\b"
               r"|\bwhat\s+(?:does|do|will|would)\s+(?:\w+\s+){1,4}cost\b"
               # "what do aquarists get paid for each dive": how much, not how or when
               r"|^(?!.*\b(?:when|how soon|how often|how long|how is|how are|time|hours|minutes)\b).*\b(?:get|gets|getting)\s+paid\b",
               re.IGNORECASE),
    _MONEY,
    re.compile(r"(?!x)x"),
)


_ASKING = re.compile(r"\b(?:how\s+(?:long|often|many|much|far|soon|late|early|big|high|fast)|what(?:'s|\s+is|\s+are|\s+was)?|which)\b",
                     re.IGNORECASE)
_LEADING_FILLER = frozenset("a an the do does did we i you they get got is are was of my our your their".split())
_PHRASE_ENDS = frozenset("on in at for before after while during with to from by do does did can could will would should "
                         "must may might i we you they he she it is are was were if when where".split())


def _the_asked_thing(question: str, table: TableData, columns: list[int]) -> list[int]:
    """Of two or more columns the question names, the one naming the thing its question word asks
    for ("how long a warm-up break do I need" with "in the basket" said too: "Minimum warm-up break",
    not "Maximum continuous time in an Open Basket"; "how often do we get water breaks on the
    ramp": "Minimum water break"): the words right after "how long", "what's" and the like, up to
    the next preposition or verb."""
    asking = list(_ASKING.finditer(question))
    # (one question asked: "funding % and how long is the clawback" asks for both columns)
    if len(columns) < 2 or len(asking) != 1 or re.search(r"(?:\band|&)\s*(?:how|what|which|when|who)\b", question, re.IGNORECASE):
        return columns
    tokens = re.findall(r"[A-Za-z]+", question[asking[0].end():].lower())
    while tokens and tokens[0] in _LEADING_FILLER:
        tokens.pop(0)
    phrase = []
    for token in tokens:
        if token in _PHRASE_ENDS:
            break
        if token in ("and", "or", "plus"):
            return columns  # "the weekday overtime rate and the max toil balance": both asked
        phrase.append(stem(token))
    # (a unit says how it is measured, not what: "how many days of holiday")
    phrase = {s for s in phrase if s.rstrip("s") not in _TIME_UNITS and s not in _GENERIC_STEMS}
    # (two words of the header at least: "warm-up break", "water break"; one shared word, "fees",
    # may be any column's)
    naming = [i for i in columns if len(stems_of(table.headers[i]) & phrase) >= 2]
    if len(naming) != 1:
        return columns
    # the other columns are named outside the asking clause, or in it as where it happens ("on the
    # ramp"): "how many days of holiday can I carry over" asks for the carry-over too
    clause = re.split(r"[.?!,;]", question[asking[0].start():], maxsplit=1)[0]
    clause_tokens = re.findall(r"[A-Za-z]+", clause.lower())
    for j in columns:
        if j == naming[0]:
            continue
        other = stems_of(table.headers[j]) - _GENERIC_STEMS - STOP_STEMS - phrase
        for k, token in enumerate(clause_tokens):
            if stem(token) in other and not {"on", "in", "at", "inside", "near"} & set(clause_tokens[max(0, k - 2):k]):
                return columns
    return naming


def value_column(question: str, table: TableData, first: int, kinds: tuple = ()) -> int | None:
    """The one value column whose cells read as what the question asks for: a frequency for
    "how often", a duration for "how long" (of `kinds`, the value kinds when none are given)."""
    literal = stems_of(question)
    for asks, reads, named in kinds or _VALUE_KINDS:
        if not asks.search(question):
            continue
        fits = []
        for i in range(first, len(table.headers)):
            cells = [row.cells[i] for row in table.rows if i < len(row.cells) and row.cells[i]]
            if cells and (sum(bool(reads.search(c)) for c in cells) >= 0.6 * len(cells) or named.search(table.headers[i])):
                fits.append(i)
        if len(fits) > 1:
            # several cycles ("Laptop refresh cycle", "Phone refresh cycle"): the one whose
            # header has a word of the question that the others lack
            own = [i for i in fits if {stem(w) for w in words(table.headers[i])} & literal
                   - set().union(*({stem(w) for w in words(table.headers[j])} for j in fits if j != i))]
            fits = own or _plainest_header(table, fits, literal)
        if len(fits) == 1:
            return fits[0]
    return None


def _plainest_header(table: TableData, fits: list[int], literal: set[str]) -> list[int]:
    """Of several columns of the asked kind whose headers all hold the question's word ("how long
    can a seven-year-old perform": "Maximum time at place of performance", "Maximum performing
    time", "Maximum continuous performing time"), the one header with the fewest other words
    ("Maximum performing time"); none when no header holds a word of the question or two are as
    plain."""
    extra = {}
    for i in fits:
        stems = {stem(w) for w in words(table.headers[i])} - STOP_STEMS
        if stems & literal:
            extra[i] = len(stems - literal)
    if not extra:
        return []
    least = min(extra.values())
    plainest = [i for i, n in extra.items() if n == least]
    return plainest if len(plainest) == 1 else []


def _columns_in_notes(places, notes: tuple[str, ...], names: list[set[str]], common: set[str], first: int) -> tuple[int, ...]:
    """The one value column a note sentence names together with every asked place."""
    if not places:
        return ()
    for sentence in notes:
        lowered = sentence.lower()
        if not all(re.search(rf"(?<![\w]){re.escape(p.written.lower())}(?![\w])", lowered) for p in places):
            continue
        held = stems_of(sentence)
        columns = [i for i in range(first, len(names)) if names[i] - common and names[i] - common <= held]
        if len(columns) == 1:
            return tuple(columns)
        # "Tier 2 city: ... e.g. Jaipur" for a column "Tier 2 and Tier 3 cities": the header that
        # shares the most of its words with the note, when one does clearly
        shares = sorted(((len((names[i] - common) & held) / len(names[i] - common), i)
                         for i in range(first, len(names)) if names[i] - common), reverse=True)
        if shares and shares[0][0] >= 0.5 and (len(shares) == 1 or shares[0][0] > shares[1][0]):
            return (shares[0][1],)
    return ()


_NOTE_CLAUSES = re.compile(r"\s*(?:[,;]\s*(?:and\s+)?|\s+and\s+(?=the\s))", re.IGNORECASE)
_CALLED = re.compile(r"^(?:the\s+)?(?P<head>.+?)\s+(?:is|are)\s+(?:paid\s+at\s+|known\s+as\s+|called\s+)?(?P<what>.+?)\.?$",
                     re.IGNORECASE)


def _columns_a_note_calls(question: str, table: TableData, notes: tuple[str, ...], first: int) -> tuple[int, ...]:
    """The value column a note of the table's section calls by a phrase the question writes ("The
    overtime hourly rate is time and a half, and the bank holiday hourly rate is double time":
    "the time and a half rate for a dough mixer" asks for the overtime hourly rate). The note's
    clause names the column by its whole header; the phrase is of two words at least, one of
    them not a stop word."""
    if not notes:
        return ()
    headers = {" ".join(words(h)): i for i, h in enumerate(table.headers) if i >= first and words(h)}
    flat = " ".join(words(question))
    found: set[int] = set()
    for note in notes:
        for clause in _NOTE_CLAUSES.split(note):
            m = _CALLED.match(clause.strip())
            if not m:
                continue
            column = headers.get(" ".join(words(m.group("head"))))
            phrase = words(m.group("what"))
            if column is None or len(phrase) < 2 or all(w in STOP_WORDS for w in phrase) or len(phrase) > 6:
                continue
            if re.search(rf"\b{re.escape(' '.join(phrase))}\b", flat):
                found.add(column)
    return tuple(found) if len(found) == 1 else ()


def _match_bracketed_spans(question: str, table: TableData, labels: list[str]) -> RowMatch | None:
    """The row whose label gives, in brackets or after its words, a span of codes holding one the
    question writes ("Key Stage 3 (Years 7 to 9)": "year 8 canoeing" is that row; "Sixth Form
    (Years 12 and 13)"; "Premium for LC7 to LC9": "an LC8" is that row)."""
    spans = [_span_in_label(label) for label in labels]
    families = {sp[0] for sp in spans if sp is not None}
    if sum(sp is not None for sp in spans) < 2 or len(families) != 1:
        return None
    written = _family_positions(question, families.pop())
    rows = tuple(row for row, sp in zip(table.rows, spans) if sp is not None and any(sp[1] <= n <= sp[2] for n in written))
    return RowMatch(table, rows, how="label", exact=True) if len(rows) == 1 else None


# a span of codes after a label's words: "Premium for LC7 to LC9", "Staff on grades 1 to 5"
_SPAN_AFTER_WORDS = re.compile(r"(?<![\w£$€])((?:[A-Za-z]{1,8}\s?)?\d{1,2}[a-z]?\s*(?:to|-|–|—)\s*(?:[A-Za-z]{1,8}\s?)?\d{1,2}[a-z]?)\s*$")


def _span_in_label(label: str) -> tuple[str, float, float] | None:
    """(family, low, high) of the codes a label spans in its bracket ("Key Stage 3 (Years 7 to 9)")
    or at its end after its words ("Premium for LC7 to LC9"); None for another label (a span of
    plain numbers, "10 to 20", is a range, not codes)."""
    inside = re.search(r"\(([^)]*)\)", label)
    if inside:
        inner = re.sub(r"\band\b(?!\s+(?:above|over|higher))", "to", inside.group(1)).strip()
        return _code_span(inner) or _lettered_span(inner)
    tail = _SPAN_AFTER_WORDS.search(label.strip())
    if tail is None or tail.start() == 0:
        return None  # (a label that is a span itself, "G4-G6", is matched as a code span)
    return _code_span(tail.group(1)) or _lettered_span(tail.group(1))


def row_spans_a_written_code(question: str, table: TableData, row: TableRow) -> bool:
    """Whether the row's label spans a code the question writes ("Premium for LC7 to LC9" for "an
    LC8")."""
    span = _span_in_label(label_of(table, row))
    return span is not None and any(span[1] <= n <= span[2] for n in _family_positions(question, span[0]))


def _row_in_notes(question: str, table: TableData, labels: list[str], notes: tuple[str, ...]) -> RowMatch | None:
    """The row a note of the policy sends a place to, when the rows are kinds of destination
    ("Global Financial Centre — New York, Hong Kong, ... Dubai": "overnight in Dubai" is that
    row). The place as written first, then its country or region; the label a note starts with
    is the one it defines ("UK Regional — any location in the United Kingdom outside Greater
    London" defines UK Regional, not London)."""
    places = destinations(question)
    if not places or not notes:
        return None
    texts = [_note_text(sentence) for sentence in notes]
    for place in places:
        # the place as written, then its country, its country's other names, its region: the most
        # specific first ("Birmingham": the note on the United Kingdom, not the one on Europe)
        for name in dict.fromkeys(n for n in (place.written, place.country, *place.names, place.region) if n):
            for text in texts:
                if not _holds_phrase(text, name):
                    continue
                named = [i for i, label in enumerate(labels) if _holds_phrase(text, label)]
                leading = [i for i in named if text.startswith(labels[i].strip().lower())]
                chosen = leading if len(leading) == 1 else named if len(named) == 1 else []
                if chosen and labels[chosen[0]].strip().lower() != name.lower():
                    return RowMatch(table, (table.rows[chosen[0]],), how="label", exact=False)
    # a place no label and no note names: the row for everywhere else ("Rest of World — any
    # location not listed above"), when the rows are kinds of destination the notes define
    rest = [i for i, label in enumerate(labels) if _REST_OF_WORLD.search(label)]
    defined = sum(any(text.startswith(label.strip().lower()) for text in texts) for label in labels if label.strip())
    if len(rest) == 1 and defined >= 2:
        every = " ".join([*labels, *texts])
        if not any(_holds_phrase(every, n) for p in places for n in (p.written, p.country, *p.names) if n):
            return RowMatch(table, (table.rows[rest[0]],), how="label", exact=False)
    return None


def _note_text(sentence: str) -> str:
    """A note as plain lower-case text: no list marker, no bold ("- **Europe** — any ...")."""
    return sentence.strip().lstrip("-*• ").replace("*", "").strip().lower()


def _rows_by_their_other_cells(question: str, table: TableData, rows: tuple[TableRow, ...]) -> tuple[TableRow, ...]:
    """Of rows of one label ("Stethoscope" for "VS grades", "Stethoscope" for "RVN and SVN
    grades"), the one whose words in another column, those the other rows lack, the question
    writes ("a stethoscope for an RVN"); all of them when it writes none or several."""
    asked = stems_of(question)
    first = max(table.label_columns, 1)
    kept = []
    for row in rows:
        for column in range(first, len(row.cells)):
            own = stems_of(row.cells[column]) - STOP_STEMS - set().union(
                *(stems_of(other.cells[column]) for other in rows if other is not row and column < len(other.cells)))
            if own and any(not s.isdigit() for s in own) and own <= asked:
                kept.append(row)
                break
    return tuple(kept) if len(kept) == 1 else rows


DERIVED_MIN = 6  # letters of a stem whose noun or verb a header may write with a letter or two more


def _derived_forms(asked: set[str], header_stems: set[str]) -> set[str]:
    """Header stems that are a question stem's noun or verb, written with one or two letters more or
    fewer ("restrained" for "Restraint", "complaint" for "Complain by")."""
    return {h for h in header_stems for s in asked if h != s and min(len(h), len(s)) >= DERIVED_MIN
            and (h.startswith(s) or s.startswith(h)) and abs(len(h) - len(s)) <= 2}


def _words_only(text: str) -> str:
    """The text's words with single spaces between ("Schedule 3 (safe custody)": "schedule 3 safe custody")."""
    return " ".join(words(text))


def _holds_phrase(text: str, phrase: str) -> bool:
    """Whether the text holds the phrase as words of their own, any case."""
    phrase = phrase.strip().lower()
    return bool(phrase) and re.search(rf"(?<![\w]){re.escape(phrase)}(?![\w])", text.lower()) is not None


_REST_OF_WORLD = re.compile(r"\b(?:rest of (?:the )?world|other countries|other destinations|elsewhere|all other)\b", re.IGNORECASE)


def _names_place(header: str, place) -> bool:
    """Whether a column header names the place's country (or one of its other names), or by the
    country's adjective ("Basic hourly rate – Irish airports" for Cork)."""
    return any(re.search(rf"(?<![\w]){re.escape(n.lower())}(?![\w])", header)
               for n in (*place.names[:-1], *demonyms_of(place.country)))


def absent_name(question: str, table: TableData, known_words: set[str]) -> str | None:
    """A proper name the question gives where the table's row names are proper names ("Norway"
    against a table of countries), that no row, column or known word has; else None."""
    labels = [label_of(table, row) for row in table.rows]
    if not labels or not all(label[:1].isupper() and len(label.split()) <= 3 for label in labels):
        return None
    label_words = {w for label in labels for w in words(label)} | {w for h in table.headers for w in words(h)}
    tokens = re.findall(r"(?<![.?!]\s)(?<!^)\b([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)", question.strip())
    for token in tokens:
        lowered = [w for w in words(token)]
        if any(w in label_words or w in known_words for w in lowered):
            continue
        return token
    return None


def row_sentence_text(match: RowMatch, row: TableRow) -> str:
    """The row as an answer: caption, label, then the asked columns (all when none is named),
    each with its header."""
    table = match.table
    first = max(table.label_columns, 1)
    # the asked columns only, when the question names some; every column otherwise
    order = list(match.columns) or [i for i in range(first, len(row.cells)) if i != match.named_by]
    label_parts = []
    naming = list(range(min(first, len(row.cells))))
    if match.named_by >= first and match.named_by < len(row.cells):
        naming.append(match.named_by)  # "RT-08, Record type: Vehicle telematics and GPS data"
    for i in naming:
        name = table.headers[i] if i < len(table.headers) else ""
        value = row.cells[i]
        if value:
            glue = ": " if i >= first else " "
            label_parts.append(value if not name or value.lower().startswith(name.lower()) else f"{name}{glue}{value}")
    values = []
    for i in order:
        if i in naming:
            continue  # (a row shown for the column that named it: its label says it)
        if i < len(row.cells) and row.cells[i]:
            name = table.headers[i] if i < len(table.headers) else ""
            unit = table.units[i] if i < len(table.units) else ""
            name = f"{name} ({unit})" if name and unit else name  # "Band 2 (£ per hour): £2.97"
            values.append(f"{name}: {row.cells[i]}" if name else row.cells[i])
    lead = table.caption.rstrip(" .:;")
    body = ", ".join(label_parts) + (": " + "; ".join(values) if values else "")
    return f"{lead}: {body}." if lead else f"{body}."


def table_range_text(table: TableData) -> str:
    """What rows a table has, in a few words ("bands B1 to B20", "Germany, France and 8 more")."""
    labels = [label_of(table, row) for row in table.rows]
    header = table.headers[0].strip() if table.headers else ""
    noun = (header if header.isupper() and len(header) <= 5 else header.lower()) or "row"  # "SCP": "SCPs"
    plural = noun if noun.endswith(("s", "S")) else noun[:-1] + "ies" if re.search(r"[^aeiou]y$", noun) else noun + "s"
    if words(noun) and words(noun)[-1] in STOP_WORDS:
        plural = "rows"  # "Certificate studied for": no plural to make of it
    if all(_code(label) is not None for label in labels) and len(labels) > 2 \
            and len(families := list(dict.fromkeys(_code(label)[0] for label in labels))) > 1:
        # codes of several families ("LS1", "TO1", "HP2"): each family's stretch
        stretches = []
        for family in families:
            own = [label.strip() for label in labels if _code(label)[0] == family]
            stretches.append(own[0] if len(own) == 1 else f"{own[0]} to {own[-1]}")
        return f"{plural} " + ", ".join(stretches[:-1]) + f" and {stretches[-1]}"
    if all(_code(label) is not None or _code_span(label) is not None for label in labels) and len(labels) > 2:
        low = labels[0] if _code(labels[0]) is not None else _span_ends(labels[0])[0]
        high = labels[-1] if _code(labels[-1]) is not None else _span_ends(labels[-1])[1]
        return f"{plural} {low.strip()} to {high.strip()}"
    if len(labels) <= 6:
        return f"{plural} " + ", ".join(labels[:-1]) + f" and {labels[-1]}" if len(labels) > 1 else f"{plural} {labels[0]}"
    return f"{plural} " + ", ".join(labels[:5]) + f" and {len(labels) - 5} more"


def table_columns_text(table: TableData) -> str:
    """The table's value columns, in a few words ("figures for Gothenburg Hub, Helsingborg Port
    and Karlstad Terminal")."""
    first = max(table.label_columns, 1)
    names = [h for h in table.headers[first:] if h.strip()]
    # the columns of figures, when there are several ("Core Hours" beside the sites is not one)
    figures = [h for i, h in enumerate(table.headers[first:], start=first)
               if h.strip() and not _mostly_words([row.cells[i] if i < len(row.cells) else "" for row in table.rows])]
    countries = [h for h in names if is_country_name(h)]
    if len(countries) >= 2:
        names = countries
    elif len(figures) >= 2:
        names = figures
    if len(names) > 6:
        names = names[:5] + [f"{len(names) - 5} more"]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
    return f"figures for {listed}"
