"""The answerer as the app runs it: load evidence from the index, let the answer layer
(`policypal.answering`, plain Python) compose the answer, map it back to chunk rows.

Loading, in order:
1. the answer context of the hybrid search (ranked chunks, parent expansion, version notices);
2. chunks holding an identifier the question names ("B14", "EX-101"), so an exact row label is
   never buried under rows the embedding cannot tell apart;
3. the whole table (every row, with its headers) of each table or table row in the evidence;
4. for the words no evidence carries: whether the visible policies mention them at all;
5. after a first composition, the rule that uses a term a cited definition defines, and the
   section a cited rule refers to, then the answer is composed again with them.
"""
from __future__ import annotations

import datetime as dt
import logging
import re
from dataclasses import dataclass, field

from chunking.pipe_tables import read_tables
from chunking.tables import sentence_holds_row
from policypal.answering.ages import age_fits, told_age
from policypal.answering.compose import compose_answer, with_definitions
from policypal.answering.coverage import names_a_thing, owned_things, owner_of_term, owners_written, terms_to_look_up
from policypal.answering.definitions import (
    defined_terms, definition_spans, is_referral, listed_kinds, mentions, names_the_document, other_document_references,
    referenced_sections, writes_its_own_code,
)
from policypal.answering.initialisms import spelt_out
from policypal.answering.rows import with_row_codes
from policypal.answering.grade_ladders import code_family, ladder_header_codes, ladder_headers, ladder_of
from policypal.answering.table_codes import table_codes
from policypal.answering.quantities import decides_the_case, the_same_measure, told_quantities, told_units
from policypal.answering.evidence import (
    ROLE_CARRIES, ROLE_DEFINITION, ROLE_DEFINITION_USE, ROLE_HIT, ROLE_REFERENCE, Evidence, TableData, TableRow,
    header_rows_folded,
)
from chunking.sentences import split_sentences_quick
from policypal.answering.terms import GENERIC_WORDS, STOP_WORDS, agreements, as_the_company, equivalents, code_key, code_variants, organisation_short_names, contradicts, proper_names, equivalent_words, identifiers, key_terms, organisation_names, stem, stems_of, words
from policypal.answering.places import destinations
from policypal.answering.upcoming import upcoming_change
from retrieval import lookup
from retrieval.access import today
from retrieval.context import answer_context
from retrieval.embedding import get_embedder
from retrieval.chunk_rows import chunks_by_id
from retrieval.models import Chunk

logger = logging.getLogger(__name__)

NOT_COVERED = "The policies you can see do not cover this question."
ANSWER_FAILED = ("PolicyPal could not put an answer together for this question, so it gives none "
                 "(the error is in the server log for your policy team); the closest sections below may hold it.")
CLOSEST_ON_FAILURE = 3
USES_WEIGHED = 8  # rules using a defined term weighed against the question's words
MAX_ABOUT = 2  # defined terms a question may be about ("a contractor", "a passport store")
TERMS_LOOKED_UP = 8  # capitalised terms of the evidence whose definitions are looked up
REFERRAL_LOOKED_UP = 12  # chunks of the other policies read for a term another policy defines
MAX_EVIDENCE_CHUNKS = 4


@dataclass
class ComposedAnswer:
    """An answer ready to render: `text` with [n] markers numbering `citations` from 1.

    outcome: answered | partly | not_covered. closest: sections offered to read when not covered.
    missing: what the question asks that the sources do not mention. claims: for LLM answers,
    each sentence with its citations and whether the cited chunks support it. evidence: all the
    chunks given to the answer layer (the sources an LLM sees), `chunks` maps their keys to rows.
    """

    question: str
    as_of: dt.date
    text: str
    outcome: str = "not_covered"
    citations: list[Chunk] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    closest: list[Chunk] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    claims: list | None = None  # list[policypal.answering.evidence.Claim]
    evidence: list = field(default_factory=list)  # list[policypal.answering.evidence.Evidence]
    chunks: dict[int, Chunk] = field(default_factory=dict)
    answered_by: str = "extractive"  # extractive | llm
    failed: bool = False  # the answer layer failed: nothing answered, the closest sections offered

    @property
    def covered(self) -> bool:
        return self.outcome != "not_covered"


def answer_compose(*, question: str, user, as_of: dt.date | None = None, k: int = 5) -> ComposedAnswer:
    as_of = as_of or today()
    question = " ".join((question or "").split())
    if not question:
        return ComposedAnswer(question="", as_of=as_of, text="Please type a question.")
    vector = get_embedder().encode_one(question)
    context = answer_context(question=question, user=user, as_of=as_of, k=k, query_vector=vector)
    ranked = context.chunks[:MAX_EVIDENCE_CHUNKS]
    if not ranked:
        return ComposedAnswer(question=question, as_of=as_of, text=NOT_COVERED)
    try:
        return _answer_from(question, ranked, context, user=user, as_of=as_of, vector=vector)
    except Exception:  # a fault of the answer layer: never a server error, never a guess
        logger.exception("the answer layer failed on %r; the closest sections are offered instead", question)
        return ComposedAnswer(
            question=question, as_of=as_of, text=ANSWER_FAILED, closest=[item.chunk for item in ranked[:CLOSEST_ON_FAILURE]],
            failed=True,
        )


def _answer_from(question: str, ranked: list, context, *, user, as_of: dt.date, vector) -> ComposedAnswer:
    versions = lookup.visible_versions(user, as_of)
    asked = question
    question = as_the_company(question, organisation_names(lookup.policy_titles(versions))
                              + organisation_short_names([item.text for item in ranked]))
    loader = EvidenceLoader()
    evidence = [loader.evidence(item.chunk, rank=i, similarity=item.similarity, text=item.text)
                for i, item in enumerate(ranked, start=1)]
    evidence += _identifier_evidence(question, versions, loader, evidence)
    evidence += _named_evidence(question, versions, loader, evidence)
    evidence += _table_evidence(context, loader, evidence)
    evidence += _carrying_evidence(question, versions, loader, evidence, vector, len(ranked))
    loader.attach_tables(evidence, places=destinations(question))  # notes may send a place to a column
    evidence = loader.with_tables(evidence)
    extra = _code_family_tables(question, evidence, loader, versions)
    if extra:
        loader.attach_tables([e for e in extra if e.table is None])
        evidence += loader.with_tables(extra)
    # "vs8 ooh rate": the initialism read as the phrase the evidence spells out ("Out-of-hours")
    question = spelt_out(question, [e.text for e in evidence] + [h for e in evidence if e.table for h in e.table.headers])
    mentions = _corpus_mentions(question, evidence, versions)
    answer = compose_answer(question, evidence, corpus_mentions=mentions, related=lookup.word_vectors.related)
    if answer.outcome != "answered" and not (answer.outcome == "not_covered" and answer.cited):
        # "a trainee ramp agent" is the row "RA1 – Ramp Agent (Trainee)", of which a rule speaks by
        # its code: asked again with the code written, kept only when that answers (never over a
        # row the table says it lacks: that answer cites the table)
        coded = with_row_codes(question, [e.table for e in evidence if e.table is not None])
        if coded != question:
            again = compose_answer(coded, evidence, corpus_mentions=mentions, related=lookup.word_vectors.related)
            if again.outcome == "answered":
                question, answer = coded, again
    follow, about = _follow_ups(answer, evidence, loader, versions=versions, vector=vector, question=question)
    if follow or about:
        # (a followed chunk the search had ranked stands in the evidence once, in its followed role)
        followed = {e.key for e in follow}
        evidence = [e for e in evidence if e.key not in followed] + follow
        mentions.update(_corpus_mentions(question, evidence, versions, known=mentions))
        answer = compose_answer(question, evidence, corpus_mentions=mentions, related=lookup.word_vectors.related,
                                about=about)
    # the definition of a term a cited rule uses, when it holds what the rule lacks: cited beside
    # the rule (not a term the question is about: every sentence using "tax year" is not the answer)
    cited_keys = {e.key for e in answer.cited}
    answer = with_definitions(answer, [(loader.evidence(chunk, role=ROLE_DEFINITION), paragraph)
                                       for chunk, paragraph in _definitions_of_cited_terms(question, answer, loader).values()
                                       if chunk.pk not in cited_keys])
    chunks = loader.rows_for([e.key for e in answer.cited + answer.closest])
    citations = [chunks[e.key] for e in answer.cited if e.key in chunks]
    closest = [chunks[e.key] for e in answer.closest if e.key in chunks]
    text = answer.text
    cited_policies = {c.policy_id for c in citations}
    notices = [n for n in context.notices if n.version.policy_id in cited_policies]
    text = _with_upcoming_changes(text, question, answer.cited, citations, notices, loader)
    return ComposedAnswer(
        question=asked, as_of=as_of, text=text, outcome=answer.outcome, citations=citations,
        notices=[n.message for n in notices], closest=closest, missing=answer.missing,
        evidence=evidence, chunks=chunks,
    )


# --------------------------------------------------------------------------- loading


class EvidenceLoader:
    """Chunk rows -> Evidence, with whole tables, remembering every row it has seen."""

    def __init__(self) -> None:
        self.rows: dict[int, Chunk] = {}
        self.tables: dict[tuple[int, str], TableData] = {}

    def evidence(self, chunk: Chunk, *, rank: int = 0, similarity: float | None = None, text: str = "",
                 role: str = ROLE_HIT) -> Evidence:
        self.rows[chunk.pk] = chunk
        version = chunk.version
        return Evidence(
            key=chunk.pk, breadcrumb=chunk.breadcrumb, text=text or chunk.text, kind=chunk.kind,
            policy=version.policy.key, policy_title=version.policy.title, version=version.number,
            effective_from=version.effective_from.isoformat(),
            effective_to=version.effective_to.isoformat() if version.effective_to else "",
            similarity=similarity, rank=rank, role=role, section_key=_section_key(chunk),
        )

    def attach_tables(self, evidence: list[Evidence], *, places: list | None = None) -> None:
        """Load the whole table of every table or row chunk in the evidence (two queries), and
        for the places a question names, the notes of each table's policy that name one of them
        with a column header (one query per table)."""
        holders = [self.rows[e.key] for e in evidence if e.kind in (Chunk.Kind.TABLE, Chunk.Kind.TABLE_ROW)]
        for key, (pieces, row_chunks) in lookup.table_parts(holders).items():
            for chunk in row_chunks:
                self.rows.setdefault(chunk.pk, chunk)
            table = table_from_chunks(pieces, row_chunks)
            if table is None:
                continue
            if places and pieces:
                headers = [re.sub(r"\([^)]*\)", " ", h).strip() for h in table.headers[max(table.label_columns, 1):]]
                # and the row labels: a note may send a place to a row ("Global Financial Centre — ... Dubai")
                headers += list(dict.fromkeys(r.cells[0] for r in table.rows if r.cells and not any(ch.isdigit() for ch in r.cells[0])))[:20]
                names = list(dict.fromkeys([p.written for p in places] + [n for p in places for n in p.names]))
                texts = lookup.texts_naming(version_id=pieces[0].version_id, names=names,
                                            headers=headers)
                table = _replace(table, notes=tuple(_note_sentences(texts)))
            self.tables[key] = table

    def with_tables(self, evidence: list[Evidence]) -> list[Evidence]:
        out = []
        for e in evidence:
            chunk = self.rows[e.key]
            blocks = chunk.block_ids[:1] if e.kind == Chunk.Kind.TABLE_ROW else chunk.block_ids if e.kind == Chunk.Kind.TABLE else []
            table = next((self.tables[(chunk.version_id, b)] for b in blocks if (chunk.version_id, b) in self.tables), None)
            out.append(_replace(e, table=table) if table is not None else e)
        return out

    def rows_for(self, keys: list[int]) -> dict[int, Chunk]:
        """Chunk rows for the keys (those not seen yet in one query), with their sources."""
        wanted = [k for k in keys if k not in self.rows or not _has_sources(self.rows[k])]
        if wanted:
            self.rows.update(chunks_by_id(wanted))
        return {k: self.rows[k] for k in keys if k in self.rows}


def _note_sentences(texts: list[str]) -> list[str]:
    """Each list item and sentence of the texts on its own."""
    return [s for text in texts for line in text.splitlines() if line.strip()
            for s in split_sentences_quick(line.strip().lstrip("-*• ").strip())]


def _replace(e: Evidence, **changes) -> Evidence:
    from dataclasses import replace

    return replace(e, **changes)


def _has_sources(chunk: Chunk) -> bool:
    return Chunk.version.is_cached(chunk) and Chunk.source.is_cached(chunk)


def _section_key(chunk: Chunk) -> int | None:
    if chunk.level == Chunk.Level.SECTION:
        return chunk.pk
    parent = chunk.parent if Chunk.parent.is_cached(chunk) else None
    if parent is not None and parent.level == Chunk.Level.SECTION:
        return parent.pk
    return None


def table_from_chunks(pieces: list[Chunk], row_chunks: list[Chunk]) -> TableData | None:
    """A table read back from its pieces (Markdown pipes, header repeated in each), its rows
    paired with their row sentence chunks (a sentence holds its row's cells in order). The
    rows are those under the first header read: a column slice of a wide table has its own."""
    caption, headers, body = "", (), []
    for table in (table for piece in pieces for table in read_tables(piece.text)):
        caption = caption or table.caption
        headers = headers or table.header
        if table.header and table.header == headers:
            body.extend(table.rows)
    if not body and row_chunks:
        return None
    if not headers:
        return None
    headers, units, body = header_rows_folded(tuple(headers), [tuple(cells) for cells in body])
    rows = []
    unused = list(row_chunks)
    for cells in body:
        sentence_chunk = next((c for c in unused if sentence_holds_row(c.text, cells)), None)
        if sentence_chunk is not None:
            unused.remove(sentence_chunk)
        rows.append(TableRow(tuple(cells), sentence_chunk.text if sentence_chunk else "",
                             sentence_chunk.pk if sentence_chunk else None))
    return TableData(caption=caption, headers=tuple(headers), rows=tuple(rows), key=pieces[0].pk if pieces else None,
                     units=units)


def _table_evidence(context, loader: EvidenceLoader, evidence: list[Evidence]) -> list[Evidence]:
    """Tables among the ranked hits past the chunks shown (a table's rows rank in a crowd, and
    one of them is enough to bring the whole table to the row look-up)."""
    seen = {e.key for e in evidence}
    tables = {tuple(loader.rows[e.key].block_ids[:1]) for e in evidence if e.kind in (Chunk.Kind.TABLE, Chunk.Kind.TABLE_ROW)}
    out = []
    for hit in context.hits:
        chunk = hit.chunk
        if chunk.pk in seen or chunk.kind not in (Chunk.Kind.TABLE, Chunk.Kind.TABLE_ROW):
            continue
        key = tuple(chunk.block_ids[:1])
        if key in tables:
            continue
        tables.add(key)
        seen.add(chunk.pk)
        out.append(loader.evidence(chunk, role="row", similarity=hit.similarity))
        if len(out) == 3:
            break
    return out


def _identifier_evidence(question: str, versions: list[int], loader: EvidenceLoader, evidence: list[Evidence]) -> list[Evidence]:
    """Chunks holding each identifier the question names, table rows first."""
    seen = {e.key for e in evidence}
    out = []
    codes = [i for i in identifiers(question) if any(ch.isalpha() for ch in i)]  # "B14", "EX-101"; not "2"
    for identifier in codes[:4]:
        # "nc6" finds the row of "NC-06": the code in every form the policy may write it, one query
        found = lookup.chunks_with_identifier(versions=versions, forms=code_variants(identifier), limit=3)
        key = code_key(identifier)
        if not found and key is not None and len(key[0]) == 1:
            # "g9" where the policy writes "Grade 9": a word of that initial right before the number
            found = lookup.chunks_with_initial(versions=versions, letter=key[0], number=key[1])
        for chunk in found:
            if chunk.pk not in seen and chunk.kind in (Chunk.Kind.TABLE_ROW, Chunk.Kind.TABLE):
                seen.add(chunk.pk)
                out.append(loader.evidence(chunk, role="row"))
    return out


def _code_family_tables(question: str, evidence: list[Evidence], loader: EvidenceLoader, versions: list[int]) -> list[Evidence]:
    """The tables whose rows hold the codes a found table is written for, when no evidence holds
    them and the question names no code: the asker says what they are in its words ("a
    conductor", "a student nurse", "a third officer"), which only those rows give.

    - A found table's columns are for codes ("D1–D3", "G1–G5", "VN1-VN2", "VS-A-VS-B"): a table of
      each family of codes its headers write.
    - A found table's rows are the grades ("DO-4", "DO-3" ... with the certificate each needs), and
      the question writes words it lacks and no number: the table whose row of the first code may
      say them (its title: "DO-4 | Third officer").

    The table's own policy is searched first, then every policy the asker may read (the grades are
    often set in a pay policy that the on-call, travel or training policy refers to)."""
    if any(any(ch.isalpha() for ch in i) for i in identifiers(question)):
        return []
    tables = [e for e in evidence if e.table is not None]
    rows_of = set().union(*(table_codes(e.table).rows for e in tables)) if tables else set()
    known = {r.chunk_id for e in tables for r in e.table.rows} | {e.key for e in evidence}
    ladders = [ladder for e in tables if (ladder := ladder_of(e.table)) is not None]
    for e in tables:
        codes = table_codes(e.table)
        families = [f for f in codes.columns if codes.column_family(f) and f not in rows_of]
        # (or columns written for stretches of a ladder of grades, "FF-T to FF-C", "CM-WM", whose
        # table no evidence holds)
        stretches = [] if any(ladder_headers(e.table, ladder) for ladder in ladders) else ladder_header_codes(e.table)
        forms = [f"{f.upper()}{min(codes.columns[f], key=lambda v: (len(v), v))}" for f in families]
        forms += [c for c in stretches if code_family(c) not in {code_family(f) for f in forms}]
        if forms:
            return _tables_holding(forms, e, loader, versions, known)
    if re.search(r"\d", question):
        return []  # "a grade 11 manager": the asker's grade is named by its number
    asked = {stem(w) for w in words(question) if w not in STOP_WORDS and w not in GENERIC_WORDS}
    for ladder in ladders:
        held = stems_of(" ".join([ladder.table.caption, *ladder.table.headers, *(c for r in ladder.table.rows for c in r.cells)]))
        shared = [other for other in ladders if other is not ladder and set(ladder.codes) & set(other.codes)]
        if shared or not asked - held:
            continue  # another ladder of those codes is found, or the question writes nothing this one lacks
        e = next(t for t in tables if t.table == ladder.table)
        found = _tables_holding([ladder.codes[0]], e, loader, versions, known, as_label=True)[:1]
        loader.attach_tables(found)
        # (a table whose rows hold a word the question writes that the found one lacks: "Third
        # officer"; not any table of those codes, "G11 | EUR 12,500" for "a manager")
        return [f for f in loader.with_tables(found) if f.table is not None and (asked - held) & stems_of(
            " ".join(c for r in f.table.rows for c in r.cells))]
    return []


def _tables_holding(forms: list[str], e: Evidence, loader: EvidenceLoader, versions: list[int], known: set[int], *,
                    as_label: bool = False) -> list[Evidence]:
    """A row of each table holding one of the codes (of `e`'s policy first, then of the other
    visible policies; up to three tables), none of the known chunks; as_label: a row that opens
    with the code ("Grade DO-4, Typical post: ..."), not a row of a table whose header names it."""
    own = [loader.rows[e.key].version_id]
    out: dict[str, Evidence] = {}
    # (version, block): one row of each table is enough to load it; the tables loaded are not looked for
    tables_found = {(chunk.version_id, tuple(chunk.block_ids[:1])) for chunk in (loader.rows[k] for k in known if k in loader.rows)}
    for scope in (own, [v for v in versions if v not in own]):
        wanted = [f for f in forms if f not in out]
        if not wanted or not scope:
            continue
        for chunk in lookup.chunks_with_identifier(versions=scope, forms=wanted, limit=4 * len(wanted)):
            if chunk.pk in known or chunk.kind not in (Chunk.Kind.TABLE_ROW, Chunk.Kind.TABLE):
                continue
            form = next((f for f in wanted if f not in out and (
                _opens_a_row(chunk, f) if as_label else _code_written(chunk.text, f))), None)
            if form is not None:
                table_key = (chunk.version_id, tuple(chunk.block_ids[:1]))
                if table_key not in tables_found:
                    out[form] = loader.evidence(chunk, role="row")
                tables_found.add(table_key)
                known.add(chunk.pk)
    return list(out.values())[:3]


def _opens_a_row(chunk: Chunk, code: str) -> bool:
    """Whether a row of the chunk's table opens with the code: a row sentence's label ("Grade DO-4,
    Typical post: ..."), a table's first cell ("| DO-4 | ..."); not a header naming it."""
    if chunk.kind == Chunk.Kind.TABLE_ROW:
        return _code_written(chunk.text.split(",")[0], code)
    forms = {form.upper() for form in code_variants(code)}
    return any(line.strip().strip("|").split("|")[0].strip().upper() in forms
               for line in chunk.text.splitlines() if line.strip().startswith("|"))


def _code_written(text: str, code: str) -> bool:
    """Whether the text writes the code in one of its forms ("VN1", "VN 1", "VN-1")."""
    return any(re.search(rf"(?<![\w-]){re.escape(form)}(?![\w])", text, re.IGNORECASE) for form in code_variants(code))


def _named_evidence(question: str, versions: list[int], loader: EvidenceLoader, evidence: list[Evidence]) -> list[Evidence]:
    """Table rows holding a name the question writes and no evidence holds ("the Glasgow hub":
    the depot register's Glasgow row, which gives its band): a name is a fact to find, and the
    vector search, which reads the whole question, ranks a one-word name low."""
    held = " ".join(e.text for e in evidence).lower()
    names = [name for name in proper_names(question)[:3]
             if not re.search(rf"(?<!\w){re.escape(name.lower())}(?!\w)", held)]
    if not names:
        return []
    seen = {e.key for e in evidence}
    # (one full-text query for every name, table rows first)
    found = lookup.chunks_with_identifier(versions=versions, forms=names, limit=2 * len(names))
    return [loader.evidence(chunk, role="row") for chunk in found if chunk.pk not in seen and chunk.kind == Chunk.Kind.TABLE_ROW]


def _carrying_evidence(question: str, versions: list[int], loader: EvidenceLoader, evidence: list[Evidence], vector,
                       ranked: int) -> list[Evidence]:
    """The chunks that hold the most of the question's key terms (any word form), when no
    ranked chunk holds them all: the search ranks by nearness, this looks for the words."""
    from policypal.answering.coverage import ANSWERED_SHARE, carried_by, names_a_thing, question_terms, unit_stems

    terms = question_terms(question)
    if len(terms) < 2:
        return []
    units = [unit_stems([e.text, e.breadcrumb]) for e in evidence]
    best = max((len(carried_by(terms, stems)) for stems in units), default=0)
    nouns = [t for t in terms if names_a_thing(t.word, question)]
    held_somewhere = set().union(*(carried_by(nouns, stems) for stems in units)) if units else set()
    unheld = [t for t in nouns if t.stem not in held_somewhere]
    if best >= ANSWERED_SHARE * len(terms) and not unheld:
        return []  # a ranked chunk holds enough of them already, and every noun is held somewhere
    # within the policies the search found: the section it missed, not another policy's words
    found_versions = _found_versions(evidence, loader)
    exclude = [e.key for e in evidence]
    if best >= ANSWERED_SHARE * len(terms):
        # a noun no evidence holds ("MFA"): the chunk nearest the question that holds it (its synonyms too)
        words = [w for t in unheld for w in equivalent_words(t.word)]
        found = lookup.chunks_carrying(versions=found_versions, words=words, min_words=1, query_vector=vector,
                                       exclude=exclude, limit=1)
    else:
        need = max(best + 1, -(-2 * len(terms) // 3))
        words = [t.word for t in terms]  # the question's own words: synonyms would find chunks by accident
        found = lookup.chunks_carrying(versions=found_versions, words=words, min_words=need, query_vector=vector,
                                       exclude=exclude, limit=2)
        if unheld and not found and best * 2 < len(terms):
            # nothing holds even half the words, and a noun is held by no evidence ("the visitor
            # sign-in log"): the chunk nearest the question that holds one (the "Visitor log" row)
            # and at least one other word of the question with it ("project" alone is another topic)
            nearest = lookup.chunks_carrying(versions=found_versions, words=[w for t in unheld for w in equivalent_words(t.word)],
                                             min_words=1, query_vector=vector, exclude=exclude, limit=3)
            found = [(chunk, similarity) for chunk, similarity in nearest
                     if len(carried_by(terms, unit_stems([chunk.text, chunk.breadcrumb]))) >= 2][:1]
            if not found:
                found = _buried_nearer(terms, unheld, versions, evidence, vector, exclude)
    return [loader.evidence(chunk, rank=ranked + n, similarity=similarity, role=ROLE_CARRIES)
            for n, (chunk, similarity) in enumerate(found, start=1)]


def _buried_nearer(terms, unheld, versions: list[int], evidence: list[Evidence], vector, exclude: list[int]) -> list:
    """In any policy the asker may read: the chunk holding a noun no evidence holds and another
    of the question's words that is nearer to the question than every ranked chunk ("Can I keep
    work files on a USB stick?": the fusion ranks five shift-work chunks full of "work" above
    the records rule on USB sticks that the vector list put first). Nearer than all the search
    ranked, it was buried by the word list, not unrelated."""
    from policypal.answering.coverage import carried_by, unit_stems

    ranked = [e.similarity for e in evidence if e.rank > 0 and e.similarity is not None]
    if not ranked:
        return []
    words = [w for t in unheld for w in equivalent_words(t.word)]
    nearest = lookup.chunks_carrying(versions=versions, words=words, min_words=1, query_vector=vector,
                                     exclude=exclude, limit=3)
    return [(chunk, similarity) for chunk, similarity in nearest
            if similarity > max(ranked) and len(carried_by(terms, unit_stems([chunk.text, chunk.breadcrumb]))) >= 2][:1]


def _corpus_mentions(question: str, evidence: list[Evidence], versions: list[int], known: dict | None = None) -> dict[str, bool]:
    units = [[e.text, e.breadcrumb] + ([" ".join(" ".join(r.cells) for r in e.table.rows)] if e.table else [])
             for e in evidence]
    terms = [t for t in terms_to_look_up(question, units) if not known or t.stem not in known]
    return lookup.terms_mentioned(versions=versions, alternatives={t.stem: equivalent_words(t.word) for t in terms})


_TITLE_TERM = re.compile(r"(?<![\w-])([A-Z][a-z]+(?:-[A-Z][a-z]+)*(?:\s+[A-Z][a-z]+(?:-[A-Z][a-z]+)*){0,3})(?![\w-])")
_ARTICLE = re.compile(r"^(?:The|A|An|Each|Every|Any|All|No|This|That|These|Those|For|In|On|If|When|Only)\s+")


def _capitalised_terms(evidence: list[Evidence], loader: EvidenceLoader) -> list[tuple[str, list[int]]]:
    """Capitalised terms the ranked evidence uses, written as policies write a defined term:
    two to four capitalised words or a hyphenated one ("Restricted System", "Third-Party
    User"), a leading article left out; each with the versions whose evidence uses it."""
    out: dict[str, list[int]] = {}
    for e in evidence:
        if e.rank > 0:
            for m in _TITLE_TERM.finditer(e.text):
                term = _ARTICLE.sub("", m.group(1))
                if " " in term or "-" in term:
                    term = _singular(term, out)
                    version = loader.rows[e.key].version_id
                    if version not in out.setdefault(term, []):
                        out[term].append(version)
    return list(out.items())


def _singular(term: str, seen: dict) -> str:
    """"Restricted Systems" as "Restricted System" (a policy defines the singular)."""
    if term.endswith("s") and not term.endswith("ss"):
        return term[:-1]
    return term


def _versions_of(evidence: list[Evidence], loader: EvidenceLoader, term: str) -> list[int]:
    """The versions of the evidence that defines or uses the term."""
    return list(dict.fromkeys(loader.rows[e.key].version_id for e in evidence if mentions(e.text, term)))


def _follow_ups(answer, evidence: list[Evidence], loader: EvidenceLoader, *, versions: list[int], vector,
                question: str = "") -> tuple[list[Evidence], list[str]]:
    """Definitions and references to follow, and the defined terms the question is about.

    A defined term is followed when its definition shares two of the question's key terms
    ("the card payments database" against "a Restricted System means any system that holds
    payment card data"), whether the definition was ranked or a ranked rule uses the term
    ("For a Restricted System the review is quarterly"): the definition and the rule using the
    term that fits the question best are both brought in. A cited rule's "see 4.2" brings
    section 4.2, and so does a fetched rule's."""
    have = {e.key for e in evidence}
    definitions = _definitions_known(answer, evidence, loader, question)
    asked = [t for t in key_terms(question) if not t.generic]
    if answer.outcome != "answered" or _uncarried_by_cited(question, answer):
        # only when the first answer leaves words of the question out: a look-up more per question
        for term, found in _definitions_described(question, evidence, loader).items():
            definitions.setdefault(term, found)
        for term, found in _definitions_of_owned_things(question, evidence, loader).items():
            definitions.setdefault(term, found)
        things = _things_uncarried(question, answer)
        for term, found in _definitions_listing_a_thing(question, things, versions).items():
            definitions.setdefault(term, found)
        listing = {t for t, (_, paragraph) in definitions.items() if _lists_a_thing(question, things, t, paragraph)}
    else:
        listing = set()
    if told_age(question) is not None:
        # "I'm 17 ...": the term whose definition bounds the asker's age, whatever the first answer
        for term, found in _definitions_of_the_askers_age(question, evidence, loader).items():
            definitions.setdefault(term, found)
    # "I'm contracted for 32 hours a week": the term whose definition's bound the told quantity
    # meets ("Part-time employee means ... fewer than 40 hours per week")
    for term, found in _definitions_of_told_quantities(question, versions).items():
        definitions.setdefault(term, found)
    definitions.update(_referred_definitions(definitions, versions))
    about = _terms_about(asked, definitions, question=question, listing=listing)
    out: list[Evidence] = []
    for chunk in _definitions_widening(question, definitions, evidence, about):
        if chunk.pk not in have:
            have.add(chunk.pk)
            out.append(loader.evidence(chunk, role=ROLE_DEFINITION))
    for term in about:
        chunk, _ = definitions[term]
        if chunk is not None and chunk.pk not in have:
            have.add(chunk.pk)
            out.append(loader.evidence(chunk, role=ROLE_DEFINITION))
        home = [chunk.version_id] if chunk is not None else _versions_of(evidence, loader, term)
        # its other names, defined in the same words ("the Incident Commander (the "IC")")
        aliases = [other for other, (_, paragraph) in definitions.items() if paragraph == definitions[term][1]]
        for use in _rules_using(term, about, question, home=home, vector=vector, have=have, aliases=aliases):
            have.add(use.pk)
            out.append(loader.evidence(use, role=ROLE_DEFINITION_USE))
    # each cited chunk's own references, looked up in its own version ("see 3.3" in a leave table
    # row is the leave policy's 3.3, not the 3.3 of another cited policy)
    referring = [(loader.rows.get(e.key), e.text) for e in answer.cited]
    referring += [(loader.rows.get(e.key), e.text) for e in out if e.role == ROLE_DEFINITION_USE]
    # (a section of another policy that the search ranked but the answer did not quote is brought
    # again, as the section the cited rule sends the reader to: "Mileage rate in section 3.3 of
    # MSH-FIN-04"; a ranked section of the rule's own policy already answers as ranked)
    quoted = {e.key for e in answer.cited} | {e.key for e in out}
    for chunk in _sections_referred_to(referring, vector=vector, have=have, versions=versions, quoted=quoted):
        have.add(chunk.pk)
        out.append(loader.evidence(chunk, role=ROLE_REFERENCE))
    if out:
        loader.attach_tables(out)
        out = loader.with_tables(out)
    return out, about


def _definitions_widening(question: str, definitions: dict[str, tuple], evidence: list[Evidence],
                          about: list[str]) -> list[Chunk]:
    """The fetched definitions of terms a ranked rule uses that hold a question word no evidence
    holds ("my monitor and chair" against "return all Company Equipment ... within 10 working
    days", where "Company Equipment means any item ..., including laptops, monitors, furniture"):
    the rule speaks of the asker's thing by its defined name, so the definition reads with it
    (the two form one unit of evidence) and is cited beside it."""
    if not definitions:
        return []
    ranked = [e for e in evidence if e.rank > 0]
    # the things the asker names ("monitor"), not their verbs ("the retention period has run out")
    lacking = [t for t in terms_to_look_up(question, [[e.text, e.breadcrumb] for e in evidence])
               if not t.generic and names_a_thing(t.word, question)]
    if not lacking or not ranked:
        return []
    out: list[Chunk] = []
    for term, (chunk, paragraph) in definitions.items():
        if chunk is None or term in about or chunk in out or not _held_terms(lacking, paragraph):
            continue
        if any(mentions(e.text, term) and term not in defined_terms(e.text) for e in ranked):
            out.append(chunk)
    return out[:MAX_ABOUT]


def _referred_definitions(definitions: dict[str, tuple], versions: list[int]) -> dict[str, tuple]:
    """term -> (chunk, definition) for the terms whose definition only sends the reader to another
    document ("“Connected Person” has the meaning given in the Personal Account Dealing Policy"):
    the other visible policies' definition of the term, which says what it stands for (the
    asker's "my husband" is a Connected Person by that list, not by the referral)."""
    out: dict[str, tuple] = {}
    for term, (chunk, paragraph) in definitions.items():
        if not is_referral(paragraph):
            continue
        others = [v for v in versions if chunk is None or v != chunk.version_id]
        for found in lookup.chunks_using_phrase(versions=others, phrase=term, query_vector=None, exclude=[],
                                               limit=REFERRAL_LOOKED_UP):
            spans = [p for t, p in definition_spans(found.text) if t == term and not is_referral(p)]
            if spans:
                out[term] = (found, spans[0])
                break
    return out


def _definitions_known(answer, evidence: list[Evidence], loader: EvidenceLoader, question: str) -> dict[str, tuple]:
    """term -> (chunk or None, definition paragraph): the definitions in the evidence, and when
    the evidence does not answer yet, those of the capitalised terms its rules use (a policy
    defines its terms in itself: the look-up stays in the versions of the evidence); every
    term a fetched glossary chunk defines is kept."""
    definitions = _definitions_in(evidence)
    if answer.outcome == "answered" and not _uncarried_by_cited(question, answer):
        return definitions
    wanted = {term: v for term, v in _capitalised_terms(evidence, loader)[:TERMS_LOOKED_UP] if term not in definitions}
    for chunk in lookup.chunks_defining(terms=wanted) if wanted else []:
        for term, paragraph in definition_spans(chunk.text):
            definitions.setdefault(term, (chunk, paragraph))
    for term, found in _glossary_terms_used(evidence, loader, definitions).items():
        definitions.setdefault(term, found)
    return definitions


def _glossary_terms_used(evidence: list[Evidence], loader: EvidenceLoader, known: dict[str, tuple]) -> dict[str, tuple]:
    """term -> (chunk, definition) for the terms the glossaries of the ranked policies define that a
    ranked rule uses in its own case ("During an inflatable session, one extra lifeguard ...",
    where '"Inflatable session" means any session in which a floating inflatable obstacle course
    ... is in the water'): a term written in lower case is not looked up by its capitals, and the
    asker describes it ("a big floating assault course") without its name."""
    ranked = [e for e in evidence if e.rank > 0 and e.key in loader.rows and e.kind not in ("table", "table_row")]
    versions = list(dict.fromkeys(loader.rows[e.key].version_id for e in ranked))
    out: dict[str, tuple] = {}
    for chunk in lookup.glossary_chunks(versions=versions, limit=GLOSSARY_CHUNKS):
        for term, paragraph in definition_spans(chunk.text):
            if term in known or term in out or len(term) < 4:
                continue
            if any(loader.rows[e.key].version_id == chunk.version_id and mentions(e.text, term)
                   and term not in defined_terms(e.text) for e in ranked):
                out[term] = (chunk, paragraph)
    return out


def _rules_using(term: str, about: list[str], question: str, *, home: list[int], vector, have: set[int],
                 aliases: list[str] | None = None) -> list[Chunk]:
    """The rule using the defined term that uses the most of the terms the question is about
    ("Third-Party Users may not hold a Privileged Account on a Restricted System"), then shares
    the most of its words ("when a Third-Party User's work ends, the account is disabled" for
    "a contractor finished ..."), nearest first among equals."""
    asked = [t for t in key_terms(question) if not t.generic]
    phrasing = [t for t in key_terms(question) if t.generic]  # "used", "work": a tie-breaker only
    names = list(dict.fromkeys([term, *(aliases or [])]))
    uses = [use for use in lookup.chunks_using_phrase(versions=home, phrase=names, query_vector=vector,
                                                      exclude=list(have), limit=USES_WEIGHED)
            if not set(names) & set(defined_terms(use.text))]
    # a rule denying what the asker denies ("has not been used for 45 days" for "a login I haven't
    # used") is about their case
    def used(text: str, about_term: str) -> bool:  # by its name or another of its names
        return any(mentions(text, name) for name in (names if about_term == term else [about_term]))

    uses.sort(key=lambda use: (-sum(used(use.text, t) for t in about), -agreements(question, use.text),
                               -_shared_terms(asked, use.text), -_shared_terms(phrasing, use.text)))
    return uses[:1]


def _sections_referred_to(referring: list[tuple], *, vector, have: set[int], versions: list[int],
                          quoted: set[int] | None = None) -> list[Chunk]:
    """The sections that rules refer to ("see 4.2", "as set out in 6.2"), one hop, each once; a
    section of another policy ("see section 6.1 of TLP-PRD-01", "section 2 of the On-Set Health
    and Safety Policy") in that policy's version the asker may read. Chunks in `have` are not
    brought again, except a section of another policy that is not in `quoted`."""
    out, followed = [], set()
    for host_chunk, text in referring:
        if host_chunk is None:
            continue
        targets = [(host_chunk.version_id, number, have) for number in referenced_sections(text)[:2]]
        for number, name, code in other_document_references(text)[:2]:
            targets += [(version, number, have if quoted is None else quoted)
                        for version in _documents_named(name, code, versions, host_chunk.version_id)]
        for version, number, known in targets:
            if (version, number) in followed:
                continue
            followed.add((version, number))
            out += [c for c in lookup.section_blocks(version_id=version, number=number, query_vector=vector)
                    if c.pk not in known and c not in out]
    return out


def _documents_named(name: str, code: str, versions: list[int], own: int) -> list[int]:
    """The visible version (one) of the policy a reference names: by its reference code written in
    its text, else by its title; never the referring policy's own version."""
    others = [v for v in versions if v != own]
    if code:
        holding = lookup.texts_holding(versions=others, phrase=code)
        found = sorted({v for v, _ in holding})
        if len(found) == 1:
            return found
        # several hold the code: the one that gives it as its own reference, not those that cite it
        owning = {v for v, text in holding if writes_its_own_code(text, code)}
        if len(owning) == 1:
            return list(owning)
    if name:
        found = [v for v, title in lookup.version_titles(others) if names_the_document(name, title)]
        if len(found) == 1:
            return found
    return []


GLOSSARY_CHUNKS = 12  # defining chunks of the ranked policies read for the terms their rules use
DESCRIBED_MIN_TERMS = 3  # key terms of the question a definition the search did not rank must hold


def _definitions_described(question: str, evidence: list[Evidence], loader: EvidenceLoader) -> dict[str, tuple]:
    """term -> (chunk, definition) for definitions in the policies the search found whose words
    describe what the question tells ("I haven't operated a forklift at any company site for 14
    months" against "Lapsed licence means a licence ... not operated at any company site for 12
    months or more"): the asker describes the thing without its defined name, so neither the
    search nor the term look-up reaches it. It must hold DESCRIBED_MIN_TERMS of the question's key
    terms, two of them specific ("company" and "months" alone describe nothing)."""
    terms = key_terms(question)
    specific = [t for t in terms if not t.generic]
    if len(terms) < DESCRIBED_MIN_TERMS or len(specific) < 2:
        return {}
    found_versions = _found_versions(evidence, loader)
    chunks = lookup.definitions_carrying(versions=found_versions, words=[t.word for t in terms], min_words=DESCRIBED_MIN_TERMS)
    out: dict[str, tuple] = {}
    for chunk in chunks:
        for term, paragraph in definition_spans(chunk.text):
            if len(_held_terms(terms, paragraph)) >= DESCRIBED_MIN_TERMS and len(_held_terms(specific, paragraph)) >= 2:
                out.setdefault(term, (chunk, paragraph))
    return out


def _definitions_of_cited_terms(question: str, answer, loader: EvidenceLoader) -> dict[str, tuple]:
    """term -> (chunk, definition) for terms a cited rule uses whose definition holds a word of the
    question that no cited chunk holds ("the count starts again at the beginning of the next tax
    year" for "I work in Scotland": the definition of "tax year" says when it starts in Scotland).
    One definitions-only full-text query over the cited versions, only when such words exist."""
    cited = [e for e in answer.cited if e.key in loader.rows]
    if not cited or answer.outcome == "not_covered":
        return {}
    lacking = _uncarried_terms(question, cited)
    if not lacking:
        return {}
    versions = list(dict.fromkeys(loader.rows[e.key].version_id for e in cited))
    out: dict[str, tuple] = {}
    for chunk in lookup.definitions_carrying(versions=versions, words=[t.word for t in lacking], min_words=1):
        for term, paragraph in definition_spans(chunk.text):
            uses = [e for e in cited if loader.rows[e.key].version_id == chunk.version_id and mentions(e.text, term)
                    and term not in defined_terms(e.text)]
            if uses and _held_terms(lacking, paragraph):
                out.setdefault(term, (chunk, paragraph))
    return out


def _shared_phrasing(question: str, paragraph: str) -> int:
    """Word pairs the question and a definition write alike ("operated at any company site"):
    among definitions holding as many of the question's terms, the one it describes."""
    def pairs(text: str) -> set[tuple[str, str]]:
        tokens = [stem(w) for w in words(text)]
        return set(zip(tokens, tokens[1:]))
    return len(pairs(question) & pairs(paragraph))


def _terms_about(asked, definitions: dict[str, tuple], *, question: str = "", listing: set[str] = frozenset()) -> list[str]:
    """The defined terms the question is about: those whose definition holds two of its key
    terms, or lists a thing the question names that no evidence found speaks of (`listing`:
    "my smartwatch" and "Personal Device means any mobile phone, smartwatch, tablet ..."), the
    best first, each next one only if it holds a key term the ones before do not ("a
    contractor" adds Third-Party User to Restricted System; the Information Owner's "Head of
    Payroll" adds nothing to a Restricted System's "payroll records")."""
    held = {term: _held_terms(asked, paragraph) | _owner_agreeing(question, term, paragraph)
            for term, (_, paragraph) in definitions.items()}
    # a definition that says the opposite of what the asker tells is not what they describe
    # ("a car that isn't allocated to anybody" is not a car "allocated to one named employee")
    # (a definition bounding the age the asker tells is what they are: "I'm 17" and a Young Worker)
    # (and one whose bound a quantity the asker tells meets: "32 hours a week" and a Part-time
    # employee's "fewer than 40 hours per week")
    told = told_quantities(question) if question else []
    aged = {t for t, (_, paragraph) in definitions.items() if question and age_fits(question, paragraph)} | set(listing)
    # (said of the same thing: a word after the quantity and the bound alike, or two key terms held;
    # "two hours straight in the freezer" is not the "less than 24 hours before the shift" of a call-in)
    fitted = {t for t, (_, paragraph) in definitions.items() if decides_the_case(told, paragraph)
              and (len(held[t]) >= 2 or the_same_measure(question, paragraph))} - aged
    ranked = sorted((t for t in definitions if (len(held[t]) >= 2 or t in aged or t in fitted)
                     and not (question and contradicts(question, definitions[t][1])) and not _owned_otherwise(question, t)),
                    key=lambda t: (t not in aged, t not in fitted, -len(held[t]), -_shared_phrasing(question, definitions[t][1])))
    out: list[str] = []
    covered: set[str] = set()
    for term in ranked:
        if out and held[term] <= covered and term not in aged and term not in fitted:
            continue
        out.append(term)
        covered |= held[term]
        if len(out) == MAX_ABOUT:
            break
    return out


def _owner_agreeing(question: str, term: str, paragraph: str) -> set[str]:
    """{"owner:personal"} when the term names the owner's side the question writes a thing as
    ("Personal Device" for "my own iPad") and its definition holds that thing: the thing and
    whose it is are two facts the definition and the question share."""
    owner = owner_of_term(term)
    if not owner:
        return set()
    held = stems_of(paragraph)
    things = [w for w, side in owned_things(question).items() if side == owner]
    return {f"owner:{owner}"} if any(equivalents(stem(w)) & held for w in things) else set()


AGE_WORDS = ["age", "aged", "years old", "young", "older"]


def _definitions_of_the_askers_age(question: str, evidence: list[Evidence], loader: EvidenceLoader) -> dict[str, tuple]:
    """term -> (chunk, definition) for the defined terms whose age bounds hold the age the asker
    tells ("a Young Worker is an employee ... under 18" for "I'm 17"), in the policies the search
    found: one definitions-only full-text query, only when the question tells an age."""
    return _definitions_found_by(_found_versions(evidence, loader), AGE_WORDS,
                                 lambda term, paragraph: age_fits(question, paragraph))


def _definitions_of_told_quantities(question: str, versions: list[int]) -> dict[str, tuple]:
    """term -> (chunk, definition) for the defined terms whose condition a quantity the asker tells
    meets ("Part-time employee means an employee contracted to work fewer than 40 hours per week"
    for "I'm contracted for 32 hours a week"; "within 40 miles of base" for "13 miles away"), in
    any policy the asker may read (the search may have found only the rules, in another policy):
    one definitions-only full-text query for the told units, only when the question tells a
    quantity."""
    told = told_quantities(question)
    units = told_units(question)
    if not told or not units:
        return {}
    return _definitions_found_by(versions, units, lambda term, paragraph: decides_the_case(told, paragraph))


def _definitions_of_owned_things(question: str, evidence: list[Evidence], loader: EvidenceLoader) -> dict[str, tuple]:
    """term -> (chunk, definition) for the defined terms of the owner's side that the question
    writes a thing as ("my own iPad") whose definition holds the thing ("Personal Device means any
    laptop, tablet or phone ..."), in the policies the search found: the rules speak of the
    asker's iPad by that name. One definitions-only full-text query, only when the question
    writes a thing as someone's."""
    things = owned_things(question)
    if not things:
        return {}
    words = list(dict.fromkeys(w for thing in things for w in equivalent_words(thing)))
    return _definitions_found_by(_found_versions(evidence, loader), words,
                                 lambda term, paragraph: bool(_owner_agreeing(question, term, paragraph)))


LISTED_THINGS_MAX = 3  # things named by the question that a definition's list may hold, looked up at once


def _things_uncarried(question: str, answer) -> list[str]:
    """The nouns of substance the question names that the first answer's cited evidence does not
    carry (a few at most)."""
    return [t.word for t in _uncarried_terms(question, answer.cited)
            if not t.generic and len(t.word) > 3 and names_a_thing(t.word, question)][:LISTED_THINGS_MAX]


def _definitions_listing_a_thing(question: str, things: list[str], versions: list[int]) -> dict[str, tuple]:
    """term -> (chunk, definition) for the defined terms whose definition lists one of the things
    ("Can I take a photo on my smartwatch?" and "Personal Device means any mobile phone,
    smartwatch, tablet ... not issued by the Trust"), in any policy the asker may read (the search
    may have found other policies by the question's other words): the rules speak of the thing by
    the term. One definitions-only full-text query; a definition of the other owner's thing is not
    it."""
    if not things:
        return {}
    return _definitions_found_by(versions, things, lambda term, paragraph: _lists_a_thing(question, things, term, paragraph))


def _lists_a_thing(question: str, things: list[str], term: str, paragraph: str) -> bool:
    """Whether the definition is a list of kinds one of which is the thing ("Personal Device
    means any mobile phone, smartwatch, tablet ...": not "email" of "name, email address", nor the
    patient of "an occasion when the employee is contacted by a colleague or a patient"), the term
    not being the thing's own word, and is not of the other owner's thing."""
    own = stems_of(term)
    heads = {stem(item.split()[-1]) for item in listed_kinds(paragraph)}
    return not _owned_otherwise(question, term) and any(stem(w) not in own and stem(w) in heads for w in things)


def _definitions_found_by(versions: list[int], words: list[str], keep) -> dict[str, tuple]:
    """term -> (chunk, definition) of the definitions in these versions that hold one of the words
    (one definitions-only full-text query) and that `keep(term, definition)` accepts."""
    out: dict[str, tuple] = {}
    for chunk in lookup.definitions_carrying(versions=versions, words=words, min_words=1):
        for term, paragraph in definition_spans(chunk.text):
            if keep(term, paragraph):
                out.setdefault(term, (chunk, paragraph))
    return out


def _found_versions(evidence: list[Evidence], loader: EvidenceLoader) -> list[int]:
    """The versions of the chunks the search ranked, best first, each once."""
    return list(dict.fromkeys(loader.rows[e.key].version_id for e in evidence if e.rank > 0 and e.key in loader.rows))


def _owned_otherwise(question: str, term: str) -> bool:
    """Whether a defined term names the other owner's thing than the question: "my own iPhone" is
    not a "Company Device", "my work laptop" is not a "Personal Device"."""
    sides, owner = owners_written(question), owner_of_term(term)
    return len(sides) == 1 and owner != "" and owner not in sides


def _held_terms(terms, sentence: str) -> set[str]:
    from policypal.answering.terms import equivalents

    held = stems_of(sentence)
    return {t.stem for t in terms if equivalents(t.stem) & held}


def _shared_terms(terms, sentence: str) -> int:
    """How many of the terms the sentence holds (word forms and synonyms count)."""
    from policypal.answering.terms import equivalents

    held = stems_of(sentence)
    return sum(1 for t in terms if equivalents(t.stem) & held)


def _uncarried_by_cited(question: str, answer) -> bool:
    """Whether the cited evidence leaves some of the question's key terms out ("the payroll
    system" when the rule says "a Restricted System"): a definition may be what links them."""
    return bool(_uncarried_terms(question, answer.cited))


def _uncarried_terms(question: str, cited: list[Evidence]) -> list:
    """The question's key terms that no cited chunk (text or breadcrumb) carries."""
    from policypal.answering.coverage import carried_by, question_terms, unit_stems

    held = unit_stems([e.text for e in cited] + [e.breadcrumb for e in cited])
    terms = question_terms(question)
    carried = carried_by(terms, held)
    return [t for t in terms if t.stem not in carried]


def _definitions_in(evidence: list[Evidence]) -> dict[str, tuple]:
    """term -> (None, its definition) for the terms the evidence defines (already loaded); a
    definition is the paragraph whose first sentence defines the term (what follows in the
    paragraph belongs to it: "Database superusers ... are all Privileged Accounts.")."""
    out: dict[str, tuple] = {}
    for e in evidence:
        for term, paragraph in definition_spans(e.text):
            out.setdefault(term, (None, paragraph))
    return out


def _sentences(text: str) -> list[str]:
    return [s for line in text.splitlines() if line.strip() for s in split_sentences_quick(line.strip())]


def _with_upcoming_changes(text: str, question: str, cited: list[Evidence], citations: list[Chunk], notices, loader) -> str:
    """For each cited policy with a newer version not yet in force: what it changes, and when."""
    for notice in notices:
        if not notice.candidates:
            continue
        current = [e for e, c in zip(cited, citations) if c.policy_id == notice.version.policy_id]
        if not current:
            continue
        announced = [loader.evidence(c) for c in notice.candidates]
        loader.attach_tables(announced, places=destinations(question))
        announced = loader.with_tables(announced)
        change = upcoming_change(question, current, announced)
        if change is None:
            continue
        sentences, source = change
        chunk = loader.rows_for([source.key]).get(source.key)
        if chunk is None:
            continue
        citations.append(chunk)
        date = notice.version.effective_from.strftime("%-d %B %Y")
        text += f"\n\nFrom {date} (version {notice.version.number}, announced, not yet in force): {sentences} [{len(citations)}]"
    return text
