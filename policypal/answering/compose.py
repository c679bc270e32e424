"""The built-in answer: the sentences of the evidence that answer, every group cited as [n].

In order:
1. Table rows the question names exactly (``rows.py``) are answered first, with their column
   headers and the asked column first; no other row of that table is given. A label the table
   lacks is said to be absent, with the table's range, the table cited.
2. The outcome is decided from the words (``coverage.py``): answered, partly (what is not
   mentioned is named) or not covered (up to three closest sections are offered to read,
   never cited as an answer).
3. Sentences are scored by their chunk's nearness to the question plus the share of the
   question's rarer terms they hold; each chosen sentence keeps the conditions and exceptions
   that follow it and the lead-in it depends on.
4. A chosen definition brings the rule that uses the defined term, and a rule that refers to a
   section brings that section (when the app fetched them: roles in ``evidence.py``).
"""
from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

from chunking.pipe_tables import is_delimiter_line
from chunking.rules import is_lead_in, is_qualifier
from chunking.sentences import split_sentences_quick

from .coverage import (
    Decision, Related, asks_with_context, carried_by, clauses, decide, is_yes_no, missing_phrases, missing_value,
    gives_money, names_a_thing, question_terms,
)
from .defined_rows import row_by_definition
from .definitions import defined_terms, definition_spans, mentions, other_document_references, referenced_sections
from .evidence import (
    ANSWERED, NOT_COVERED, PARTLY, ROLE_CARRIES, ROLE_DEFINITION, ROLE_DEFINITION_USE, ROLE_HIT, ROLE_REFERENCE, Answer, Evidence, TableData, TableRow,
)
from .places import places_in
from .quantities import decides_the_case, told_quantities
from .time_windows import parts_of_day_held, unheld_days
from .grade_ladders import ladder_column
from .table_codes import families_named, family_span, table_codes
from .rows import (
    RowMatch, absent_name, clipped_words, spelt_family_words, columns_named_by_numbers, what_a_header_gives, columns_spanning_codes, kin_covered, gives_who, label_of, labels_are_names, match_table, measure_words, names_label_column, quantity_words, row_sentence_text, row_spans_a_written_code, table_columns_text, table_range_text, value_column, writes_a_currency,
)
from .terms import (
    GENERIC_WORDS, STOP_STEMS, STOP_WORDS, agreements, code_key, code_keys_in, equivalents, key_terms, numbers, polarity, proper_names, readings, stem,
    stems_of, words,
)

NOT_COVERED_TEXT = "The policies you can see do not cover this question."
SENTENCE_WINDOW = 0.12  # keep sentences scoring within this of the best one
LEXICAL_WEIGHT = 0.35  # weight of the share of the question's (rarer) terms a sentence holds
MAX_SENTENCES = 5
MAX_EVIDENCE = 4  # ranked chunks whose sentences compete (rows and fetched rules come on top)
MAX_CLOSEST = 3
_FETCHED_RULES = (ROLE_DEFINITION_USE, ROLE_REFERENCE, ROLE_DEFINITION)
_GENERIC_STEMS = frozenset(stem(w) for w in GENERIC_WORDS)


@dataclass
class _Candidate:
    unit: int  # index of its evidence
    position: int  # sentence index within its evidence
    text: str
    paragraph: int = 0
    lead_in: bool = False
    row: bool = False
    similarity: float = 0.0
    shared: float = 0.0
    score: float = 0.0


def compose_answer(
    question: str, evidence: list[Evidence], *, corpus_mentions: Mapping[str, bool] | None = None,
    related: Related | None = None, about: list[str] | tuple[str, ...] = (),
) -> Answer:
    """The answer to `question` from `evidence` (ranked hits first, then fetched rows and rules).

    about: defined terms the question is about (its words match their definitions): sentences
    using them score as if the question named them."""
    question = " ".join((question or "").split())
    ranked = [e for e in evidence if e.rank > 0 and e.role != ROLE_CARRIES][:MAX_EVIDENCE]
    ranked += [e for e in evidence if e.role == ROLE_CARRIES]
    fetched = [e for e in evidence if e.rank <= 0]
    if not ranked and not fetched:
        return Answer(NOT_COVERED_TEXT, NOT_COVERED)
    every = ranked + fetched

    # 1. rows named exactly (in a table the question is about)
    # "a nurse" where a grade table's RVN and SVN rows are all nurses (read once, for the rows and the outcome)
    families, family_words = families_named(question, [e.table for e in every if e.table is not None])
    matches = _row_matches(question, every, corpus_mentions or {}, families=families, family_words=family_words)
    absent = [m for m in matches if m.how == "absent"]
    found = [m for m in matches if m.how != "absent"]
    if about and found:
        # "Table 1 does not apply to Young Workers" when the asker is one ("I'm 17"): its row is
        # not their answer
        excluded = _tables_not_applying(every, about)
        found = [m for m in found if not _table_number(m.table) or _table_number(m.table) not in excluded]
    if found and all(m.partial for m in found) and is_yes_no(question) \
            and not (_ASKS_WHETHER_THERE_IS.match(question) and any(m.columns for m in found)):
        # "Can a patient ask us to erase their records?" shares words with the "Deceased patient
        # record" row; a value found by some of a label's words does not answer a yes/no question
        # (one asking whether there is the value a column gives does: "Is there a limit on how
        # much of my pro bono time counts?", the Pro bono row's credit cap)
        found = []
    if absent and not found and _spoken_of_outside_its_table(absent[0], every):
        # "How many people are allowed up an extension ladder?": no row of the aerial appliances
        # table, but a rule of the evidence speaks of extension ladders; it answers, not the range
        absent = []
    if absent and not found and _thing_of_a_permission(question, absent[0]):
        # "Can I take my bakery tunic home and wash it myself?": the thing the asker names is not
        # a row asked for; whether they may do it is the question
        absent = []
    if absent and not found and (_absent_is_the_question(absent[0], ranked) or absent[0].column_absent
                                 or absent[0].unmentioned or _absent_code_nowhere(question, absent[0], every)):
        return _absent_answer(absent[0], _table_evidence(absent[0].table, every), ranked)

    # 2. outcome, from the units of evidence (definitions travel with the rules that use them)
    pool = ranked + [e for e in fetched if e.role in _FETCHED_RULES]
    carried = set()
    rows_text = []
    for m in found:
        if families and _writes_a_family(m, families):
            carried |= family_words  # "a nurse": the "RVN and SVN grades" row carries the nurse
        row_text = [row_sentence_text(m, r) for r in m.rows]
        rows_text += row_text
        carried |= stems_of(" ".join(row_text + [_table_evidence(m.table, every).breadcrumb]))
        carried |= {stem(short) for short, _ in clipped_words(question, row_text)}  # "postgrad" for "postgraduate"
        carried |= {stem(part) for part in parts_of_day_held(question, " ".join(row_text))}  # "afternoon": "from 13:00"
        if m.how == "range" or m.columns:
            carried |= {stem(w) for w in measure_words(question)}  # "1.6 litre": the row's 1,201-1,800cc
    if about:
        # the asker's own words for a defined thing ("a big floating assault course" for an
        # Inflatable session, "a floating inflatable obstacle course ...")
        carried |= _described_by_definitions(question, about, every)
    own, entries = _glossary_units(pool)
    pairs = _paired_units(pool) + entries
    decision = decide(question, own + [texts for texts, _ in pairs],
                      corpus_mentions=corpus_mentions, related=related, carried_anyway=carried, rows_text=" ".join(rows_text),
                      pinned=any(((m.exact or m.how == "range") and not m.partial) or m.by_definition for m in found))
    decision.members = {len(pool) + n: pieces for n, (_, pieces) in enumerate(pairs)}
    if decision.outcome == NOT_COVERED and not found:
        return _not_covered(decision, ranked)
    if decision.outcome == NOT_COVERED and all(m.how == "label" and not m.exact for m in found) \
            and any(t in a.focus_missing for a in decision.asks for t in a.unmentioned):
        # "Who should I contact to raise a whistleblowing concern about a Site Supervisor?": the
        # Site Supervisor row, named by its words, is real, but no policy speaks of whistleblowing:
        # no row answers it (a row named by a quantity or a code is asked for: "a £40 bottle of
        # whisky ... which form?")
        return _not_covered(decision, ranked)

    # 3. the named rows, then the sentences
    cited: list[Evidence] = []
    paragraphs: list[str] = []
    for match in found:
        host = _table_evidence(match.table, every)
        for row in match.rows:
            cited.append(_row_evidence(host, row))
            paragraphs.append(f"{row_sentence_text(match, row)} [{len(cited)}]")
    beside = _beside_rows(found, pool, every, decision, about)
    # a table whose row the question names ("a Cat C site") but that is not what it asks about:
    # none of its other rows may answer ("Cat E ... asbestos survey area" for a survey question)
    beside["skip_tables"] = set(beside["skip_tables"]) | _tables_naming_a_row(question, every, found)
    chosen = _choose(" ".join([question, *about]), pool, **beside, about=list(about))
    if not found:
        # no row is named by the question's code ("8b" where the rows are B8a to B8d): a row
        # that does not hold the code is another row, never the answer to it
        chosen = [c for c in chosen if not c.row or not (unheld_codes(question, c.text) or unheld_days(question, c.text))]
    if chosen and not found and all(_points_elsewhere(c.text, pool[c.unit].policy_title) for c in chosen) \
            and not _ASKS_SCOPE.search(question):
        # "It does not cover service credits for outages, which are set out in the Service Level
        # Agreement": the only words carrying the question say another document answers it
        return _covered_elsewhere(decision, [pool[c.unit] for c in chosen], ranked, chosen[0].text)
    for unit in sorted({c.unit for c in chosen}, key=lambda u: (pool[u].rank <= 0, pool[u].rank, u)):
        cited.append(pool[unit])
        paragraphs.append(_join_sentences([c.text for c in chosen if c.unit == unit]) + f" [{len(cited)}]")
    if not paragraphs:
        return _not_covered(decision, ranked)
    outcome = _outcome(decision, found)
    missing = decision.missing
    if found and outcome == ANSWERED:
        # "Is there a company car for grade G11?": the G11 rows are real, but nothing found
        # carries the car; the rows are not the answer to it
        lacking = _asked_nouns_nothing_carries(decision, pool, carried)
        if lacking:
            outcome, missing = PARTLY, lacking
    if found and outcome == ANSWERED and all(m.rows for m in found):
        # "What is the maximum weight a refuse loader may lift?": the Refuse loader row and its
        # "Maximum salary" are real, but what is asked for is a weight, which they do not give
        lacking = _asked_object_the_rows_lack(decision, carried)
        if lacking:
            outcome, missing = PARTLY, lacking
    if outcome == ANSWERED and len(decision.asks) > 1:
        # "How many days of annual leave do I get, and is there paternity leave?": an ask whose own
        # nouns nothing given carries is not answered by it, though a unit of the evidence holds them
        lacking = _asks_the_answer_leaves(decision, paragraphs, cited, carried)
        if lacking:
            outcome, missing = PARTLY, lacking
    elsewhere = _home_outside_scope(question, cited)
    if elsewhere and outcome == ANSWERED:
        # "on the UK payroll" answered only from a policy for India: not the asker's policy
        outcome, missing = PARTLY, elsewhere
    text = "\n\n".join(paragraphs)
    if outcome == PARTLY and missing:
        text += "\n\n" + _not_mentioned_sentence(missing, cited)
    return Answer(text, outcome, cited=cited, missing=missing if outcome != ANSWERED else [])


DESCRIPTION_SPAN = 3  # words from the first to the last of a description a definition writes ("floating ... course")


def _described_by_definitions(question: str, about: list[str] | tuple[str, ...], every: list[Evidence]) -> set[str]:
    """The stems of the words the asker puts inside a description of a defined thing ("assault" of
    "a floating assault course", where the definition of the term the question is about reads "a
    floating inflatable obstacle course"): a word between two the definition holds, the second a
    noun (no stop or generic words). The asker's own name for the thing is no part the sources
    lack; a word before the described words is ("the probationary period": what is asked)."""
    paragraphs = [p for e in every if e.role in (ROLE_DEFINITION, ROLE_HIT) for t, p in definition_spans(e.text) if t in about]
    held = stems_of(" ".join(paragraphs))
    sequences = [[stem(w) for w in words(p)] for p in paragraphs]

    def described_together(first: str, last: str) -> bool:
        # the definition writes the two words as one description ("floating inflatable obstacle
        # course"), not apart ("excluding any ... enhancement ... pay point")
        return any(0 < j - i <= DESCRIPTION_SPAN for seq in sequences for i, a in enumerate(seq) if a == first
                   for j, b in enumerate(seq) if b == last)

    tokens = words(question)
    # (a capitalised word is a name, the subject of what follows: "does Tessellate keep Customer Data")
    names = {w.lower() for w in re.findall(r"\b[A-Z][\w-]*", question)}
    out = set()
    for before, modifier, noun in zip(tokens, tokens[1:], tokens[2:]):
        if before in names or not {"NOUN", "ADJ"} & set(readings(modifier)):
            continue
        if stem(noun) in held and stem(before) in held and stem(modifier) not in held \
                and before not in STOP_WORDS and before not in GENERIC_WORDS \
                and modifier not in STOP_WORDS and modifier not in GENERIC_WORDS and modifier.isalpha() \
                and noun not in STOP_WORDS and noun not in GENERIC_WORDS and "NOUN" in readings(noun) \
                and described_together(stem(before), stem(noun)):
            out.add(stem(modifier))
    return out


def with_definitions(answer: Answer, definitions: list[tuple[Evidence, str]]) -> Answer:
    """The answer with definitions of terms its cited rules use appended, each cited: (the
    definition's evidence, its paragraph). Partly answered text keeps its closing sentence last."""
    if not definitions or answer.outcome == NOT_COVERED:
        return answer
    paragraphs = answer.text.split("\n\n")
    closing = paragraphs.pop() if answer.outcome == PARTLY and answer.missing and not _MARKER.search(paragraphs[-1]) else None
    cited = list(answer.cited)
    seen = set()
    for evidence, paragraph in definitions:
        if paragraph in seen:
            continue
        seen.add(paragraph)
        cited.append(evidence)
        paragraphs.append(f"{paragraph} [{len(cited)}]")
    if closing is None:
        return replace(answer, text="\n\n".join(paragraphs), cited=cited)
    # what the cited rules did not mention and an appended definition does ("supplement" in
    # "Duty Allowance means the fixed supplement paid for each shift") is mentioned now
    said = stems_of(" ".join(p for _, p in definitions))
    missing = [m for m in answer.missing if not _said_in(m, said)]
    if not missing:
        return replace(answer, text="\n\n".join(paragraphs), cited=cited, outcome=ANSWERED, missing=[])
    paragraphs.append(closing if missing == answer.missing else _not_mentioned_sentence(missing, cited))
    return replace(answer, text="\n\n".join(paragraphs), cited=cited, missing=missing)


def _said_in(phrase: str, said: frozenset[str]) -> bool:
    """Whether every content word of the phrase (a synonym will do) is among the stems."""
    content = [w for w in words(phrase) if w not in STOP_WORDS]
    return bool(content) and all(equivalents(stem(w)) & said for w in content)


_MARKER = re.compile(r"\[\d+\]\s*$")


def _home_outside_scope(question: str, cited: list[Evidence]) -> list[str]:
    """Where the asker is based ("on the UK payroll", "based in Lyon") when every cited source
    belongs to a policy scoped to another country (its title or headings name one) and names
    neither the place nor its country."""
    out = []
    for place in places_in(question):
        if not place.home or not cited:
            continue
        names = {place.written, *place.names[:-1]}
        outside = 0
        for e in cited:
            scope = f"{e.policy_title} {e.breadcrumb}"
            others = [p for p in places_in(scope) if p.country != place.country]
            named = any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", f"{scope} {e.text}", re.IGNORECASE) for n in names)
            outside += bool(others) and not named
        if outside == len(cited):
            out.append(f"the {place.written}" if place.written.isupper() else place.written)
    return out


def _asked_nouns_nothing_carries(decision: Decision, pool: list[Evidence], carried: set[str]) -> list[str]:
    """The nouns a yes/no ask names itself ("Is there a company car ...", "Do G11s get a car?")
    that neither the named rows (with their table's caption, headers and section) nor any unit of
    evidence carries, as phrases of the question. A question asking for a value ("Band 3 rate for
    a trip to Denver?") is answered by the row whatever scene its other nouns set."""
    units = [stems_of(" ".join([e.text, e.breadcrumb])) for e in pool]
    out: list[str] = []
    for ask in decision.asks:
        if not is_yes_no(ask.text):
            continue
        lacking = [t for t in ask.focus_missing
                   if not carried_by([t], carried) and not any(carried_by([t], stems) for stems in units)]
        if lacking:
            out += missing_phrases(ask.text, lacking)
    return list(dict.fromkeys(out))


# what a question asks for, as it names it: "What is the maximum weight a ...", "How long is the
# probationary period ...", "How many job evaluation points are needed ..."
_OBJECT_END = (r"(?=\s+(?:for|of|in|at|on|when|if|do|does|did|can|could|should|would|will|is|are|was|to|that|i|we|you|"
               r"applies|apply|per|a|an|the|my|your|our|may|must|need|needed|required|after|before|with|from|by|good|valid|"
               r"last)\b|\s*[?,.!;]|$)")
_ASKED_OBJECT = (
    re.compile(r"\b(?:what|which)(?:'s|\s+is|\s+are|\s+was)?\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+)?"
               r"((?:[\w-]+\s+){0,3}?[\w-]+?)" + _OBJECT_END, re.IGNORECASE),
    re.compile(r"\bhow\s+(?:long|much|many|often|soon|far)\s+(?:is|are|was|were|will\s+be)\s+(?:the|a|an|my|our)\s+"
               r"((?:[\w-]+\s+){0,3}?[\w-]+?)" + _OBJECT_END, re.IGNORECASE),
    re.compile(r"\bhow\s+many\s+((?:[\w-]+\s+){0,3}?[\w-]+?)" + _OBJECT_END, re.IGNORECASE),
)


def _asked_object_the_rows_lack(decision: Decision, carried: set[str]) -> list[str]:
    """The word naming what an ask asks for ("What is the maximum weight a refuse loader may lift?":
    weight) when no visible policy mentions it, as a phrase of the question: the named row ("Refuse loader", its
    "Maximum salary") was found by the question's other words, and cannot give a thing the policies
    never speak of. (A word the policies do use but the row's table lacks is not enough: tables
    name what they give in their own words, "Initial training" for "the initial course".)"""
    unmentioned = {t.stem for ask in decision.asks for t in ask.unmentioned}
    out: list[str] = []
    for ask in decision.asks:
        match = next((m for pattern in _ASKED_OBJECT if (m := pattern.search(ask.text))), None)
        if match is None:
            continue
        # its head, the last word, a noun where it stands ("weight" of "the maximum weight"); a
        # modifier the policies do not write may be the asker's spelling ("an ensuite single room")
        head = words(match.group(1))[-1:]
        asked = {stem(w) for w in head if w not in STOP_WORDS and (not readings(w) or "NOUN" in readings(w))}
        lacking = [t for t in ask.terms if t.stem in asked and t.stem in unmentioned and not carried_by([t], carried)]
        if lacking:
            out += missing_phrases(ask.text, lacking)
    return list(dict.fromkeys(out))


def _asks_the_answer_leaves(decision: Decision, paragraphs: list[str], cited: list[Evidence], carried: set[str]) -> list[str]:
    """The nouns of an ask, among several, that nothing the answer gives carries (its paragraphs
    and their breadcrumbs, and the words the named rows carry: "postgrad" for "postgraduate"), as
    phrases of the question."""
    said = stems_of(" ".join(paragraphs + [e.breadcrumb for e in cited])) | carried
    out: list[str] = []
    for ask in decision.asks:
        own = [t for t in ask.terms if not t.generic and t.stem not in ask.context and names_a_thing(t.word, ask.text)]
        lacking = [t for t in own if not carried_by([t], said)]
        if lacking:
            out += missing_phrases(ask.text, lacking)
    return list(dict.fromkeys(out))


def _beside_rows(found: list[RowMatch], pool: list[Evidence], every: list[Evidence], decision: Decision,
                 about: list[str] | tuple[str, ...] = ()) -> dict:
    """What sentences may join named rows: no row of any table (another table's row would be
    another answer), and only the notes of the rows' sections and, from the tables' policies,
    the units that carry an ask, fetched rules and rules using a term the question is about ("I'm
    17": "Table 1 does not apply to Young Workers"; another sentence would answer another
    question under a real citation)."""
    if not found:
        return {"skip_tables": set(), "decision": decision, "only": None}
    hosts = [_table_evidence(m.table, every) for m in found]
    refer_to = {n for m in found for r in m.rows for n in referenced_sections(" ".join(r.cells))}
    # and only from the tables' own policies: a sentence of another policy beside a row answers
    # another question ("the CPD budget is paid in the currency of ..." beside a travel supplement)
    policies = {host.policy for host in hosts}
    # (but a section fetched because a rule sends the reader to it, whatever its policy, and the rule
    # that does: "payable only while ... under section 4.1 of WFRS-OPS-03" and 4.1's rule)
    only = {i for i, e in enumerate(pool)
            if e.role == ROLE_REFERENCE or _refers_to_a_fetched_section(e, pool)
            or (e.policy in policies and (i in decision.carried_pieces or e.role in _FETCHED_RULES or _numbered(e, refer_to)
                                          or any(mentions(e.text, t) and t not in defined_terms(e.text) for t in about)))
            or any(_in_section(e, host) for host in hosts)}
    return {"skip_tables": {_table_id(e.table) for e in pool if e.table is not None}, "decision": None, "only": only,
            "rows_refer_to": refer_to}


def _tables_naming_a_row(question: str, evidence: list[Evidence], found: list[RowMatch]) -> set:
    """Tables (ids) of the evidence in which the question names a row exactly (a code, a
    number in a range), other than the tables answered from."""
    answered = {_table_id(m.table) for m in found}
    out = set()
    for e in evidence:
        if e.table is None or _table_id(e.table) in answered or _table_id(e.table) in out:
            continue
        match = match_table(question, e.table)
        if match is not None and match.rows and match.how in ("label", "range") and not match.partial and not match.named_by:
            labels = [label_of(e.table, r) for r in e.table.rows]
            if match.how == "range" or all(re.search(r"\d|^\w+ [A-Z]$", label) for label in labels):
                out.add(_table_id(e.table))
    return out


def _outcome(decision: Decision, found: list[RowMatch]) -> str:
    """A row and a column named answer the question (the cell); a row named exactly (a code, a
    number in a range, a place) answers it, unless it asks about something the policies never
    mention; a row named by words ("sick leave")
    answers only what the decision says ("Can I donate sick leave?" is partly answered)."""
    if not found:
        return decision.outcome
    if all(m.rows and m.columns for m in found):
        # a row and a value column named: the cell answers the ask that names them, the rest of
        # that ask ("on a Tuesday", "at the weekend") setting the scene for the look-up; another
        # ask of the question ("..., and does the company pay for my gym?") is answered only
        # when the evidence carries it
        others = [a for a in decision.asks if not _names_found_rows(a.text, found)]
        # ... but not when what the ask asks for is a thing the policies never use ("What's the
        # hourly overtime rate when the Duty Manager extends my Duty Period?": no policy speaks of
        # overtime; "a £40 bottle of whisky ... which form?" asks for the form)
        foreign = any(t.stem in _asked_for(a.text) for a in decision.asks for t in a.unmentioned)
        return ANSWERED if all(a.covered for a in others) and not foreign else PARTLY
    unmentioned = any(a.unmentioned_asked for a in decision.asks)
    named_exactly = all(m.exact for m in found)
    # "How many on-call weeks before I can be promoted to E6?": the E6 row of the stipends is named
    # exactly, but what is asked for is a count of weeks, which no given cell holds. A unit the
    # caption or headers write as a word of its own counts ("Annual leave days: 27"; "Weekly" is
    # no count of weeks); amounts are left alone (the currency may be the caption's, "GBP per day")
    rows_text = " ".join(row_sentence_text(m, r) for m in found for r in m.rows)
    headed = " ".join(h for m in found for h in (m.table.caption, *m.table.headers))
    unvalued = any(a.value_missing and (kind := missing_value(a.text, rows_text)).startswith("how many ")
                   and not re.search(rf"\b{re.escape(kind.split()[-1].rstrip('s'))}s?\b", headed, re.IGNORECASE)
                   for a in decision.asks)
    # "What daily fee does a stunt performer get for a Tier 3 high fall?": the Tier 3 row is named
    # exactly, but a sum of money is asked for and the table gives none anywhere (no currency, no
    # share or multiple of pay in its cells, headers, caption or units)
    unpaid = any(_ASKS_FOR_MONEY.search(a.text) for a in decision.asks) and not any(_gives_money(m.table) for m in found)
    return PARTLY if unmentioned or unvalued or unpaid or (not named_exactly and decision.outcome != ANSWERED) else ANSWERED


_ASKS_FOR_MONEY = re.compile(
    r"\b(?:what|which)(?:'s|\s+is|\s+are)?\s+(?:the\s+|my\s+|our\s+|a\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:fees?|pay|salary|salaries|wages?|allowances?|stipends?|per diems?|reimbursement|payments?|price|cost)\b"
    r"|\bhow much\b[^?]*\b(?:paid|pay|earn|earns|cost|costs|fee|reimbursed)\b",
    re.IGNORECASE,
)
# pay written as a word or a multiple ("1.5 × daily rate", "Unpaid")
_PAY_WRITTEN = re.compile(r"×|\b(?:unpaid|paid|pay|rate|salary|fee)\b", re.IGNORECASE)


def _gives_money(table: TableData) -> bool:
    """Whether a table gives sums of money or shares of pay anywhere: a currency, a percentage, a
    multiple, or pay written in its cells, headers, caption or units."""
    texts = [table.caption, *table.headers, *table.units, *(c for r in table.rows for c in r.cells)]
    return any(writes_a_currency(t) or gives_money(t) or _PAY_WRITTEN.search(t) for t in texts if t)


_WH_OBJECT = re.compile(
    r"\b(?:what|which)(?:'s|\s+is|\s+are|\s+was)?\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+)?"
    r"((?:[\w-]+\s+){0,3}?[\w-]+?)(?=\s+(?:for|of|in|at|on|when|if|do|does|did|can|could|should|would|will|is|are|to|"
    r"that|i|we|you|applies|apply|per)\b|\s*[?,.!]|$)",
    re.IGNORECASE,
)


# "How long does a pupil's passport need to be valid ...", "How much will the course cost?": the
# thing a how-question measures is its subject, between the auxiliary and the verb
_HOW_SUBJECT = re.compile(
    r"\bhow\s+(?:long|much|many|often|soon|far|old)\s+(?:\w+\s+)?(?:does|do|did|must|should|will|would|can|could|is|are)\s+"
    r"(?:the\s+|a\s+|an\s+|my\s+|our\s+|your\s+|their\s+|his\s+|her\s+)?((?:[\w'-]+\s+){0,3}?[\w'-]+?)"
    r"(?=\s+(?:need|needs|have|has|take|takes|last|lasts|stay|stays|remain|remains|be|get|cost|costs|run|runs|keep|"
    r"normally|usually|typically|generally|actually|currently|still|really)\b)",
    re.IGNORECASE,
)


def _asked_for(text: str) -> set[str]:
    """Stems of what a wh-question asks for ("What's the hourly overtime rate when ...":
    hourly, overtime, rate), or of the thing a how-question measures ("How long does a pupil's
    passport need to be valid": pupil, passport); empty for another kind of question."""
    m = _WH_OBJECT.search(text) or _HOW_SUBJECT.search(text)
    return {stem(w) for w in words(m.group(1))} if m else set()


def _names_found_rows(text: str, found: list[RowMatch]) -> bool:
    """Whether this part of the question names one of the found rows itself."""
    for m in found:
        match = match_table(text, m.table)
        if match is not None and set(match.rows) & set(m.rows):
            return True
    return False


# --------------------------------------------------------------------------- rows


_ASKS_WHETHER_THERE_IS = re.compile(r"\s*(?:is|are)\s+there\b", re.IGNORECASE)


def _table_number(table: TableData) -> str:
    """"1" of a table captioned "Table 1: ..."; "" for another caption."""
    m = re.match(r"\s*Table\s+(\w+)\b", table.caption)
    return m.group(1).lower() if m else ""


def _tables_not_applying(evidence: list[Evidence], about: list[str] | tuple[str, ...]) -> set[str]:
    """Numbers of the tables a rule says do not apply to a term the question is about ("Table 1
    does not apply to Young Workers")."""
    out = set()
    for e in evidence:
        for term in about:
            pattern = rf"\bTables?\s+(\w+)\s+(?:does|do)\s+not\s+apply\s+to\s+(?:an?\s+|the\s+|any\s+)?{re.escape(term)}"
            out |= {m.group(1).lower() for m in re.finditer(pattern, e.text, re.IGNORECASE)}
    return out


def _table_id(table: TableData) -> tuple:
    return (table.caption, table.headers, len(table.rows), table.rows[0].cells if table.rows else ())


def _row_matches(question: str, evidence: list[Evidence], corpus_mentions: Mapping[str, bool], *,
                 families: list[str] = (), family_words: set[str] = frozenset()) -> list[RowMatch]:
    """The rows the question names in the tables it is most about (two at most); else the
    first absent label. families: the code families the question names by a word of their rows
    (`families_named`): a column or row written for "RVN and SVN grades" is the nurse's."""
    seen, matched = set(), []
    glossary = _glossary(evidence)
    tables = [e.table for e in evidence if e.table is not None]
    told = f"{question} ({' and '.join(families)})" if families else question
    # (and, for a table whose headers span the family's codes, "G1–G5", the family's span)
    spans = [span for f in families if (span := family_span(f, tables))]
    for e in evidence:
        if e.table is None or _table_id(e.table) in seen:
            continue
        seen.add(_table_id(e.table))
        host = _table_evidence(e.table, evidence)
        notes = _section_notes(host, evidence)
        spanned = spans and any(f.lower() in table_codes(e.table).columns and f.lower() not in table_codes(e.table).rows
                                for f in families)
        match = match_table(f"{told} ({', '.join(spans)})" if spanned else told, e.table, notes=notes)
        match = _named_through_a_definition(question, e.table, match, glossary) or match
        if match is not None and match.rows and match.how != "absent":
            match = _by_the_askers_grade(question, match, tables)
        if match is None:
            match = _unmentioned_label(question, e.table, corpus_mentions)
        if match is not None:
            matched.append((match, host, notes))
    # a table about what the asker says they do not do ("If I stay at my sister's instead of a
    # hotel": the hotel caps) is not the one asked about
    denied, _ = polarity(question)
    matched = [(m, h, n) for m, h, n in matched if not _about_the_denied(denied, m, question)]
    hop = _through_another_table(question, [m for m, _, _ in matched], evidence)
    if hop and not _asked_of_another_table(question, hop, [m for m, _, _ in matched], evidence):
        return hop
    scored, weak_absent = [], []
    for match, host, notes in matched:
        # words naming a row of another table set the scene ("after completing my honours
        # degree" names the asker's qualification; the repayment table is what is asked)
        elsewhere = set().union(*(_row_words(m) for m, _, _ in matched if m is not match and m.rows)) - _row_words(match)
        if families and _writes_a_family(match, families):
            elsewhere |= family_words  # "a nurse": the row or column of "RVN and SVN grades" is for one
        score = _about_table(question, match, host, corpus_mentions, notes=notes, elsewhere=elsewhere)
        if score >= 0.5:
            scored.append((score, match))
        elif match.how == "absent":
            weak_absent.append(match)
    found = [(score, m) for score, m in scored if m.how != "absent"]
    absent = [(score, m) for score, m in scored if m.how == "absent" and not _another_table_is_about(m, found)]
    if found:
        best = max(score for score, _ in found)
        top_absent = max(absent, key=lambda p: p[0]) if absent else None
        # the thing asked for is given only by a table that lacks the named row ("the per diem in
        # Paris for a C5": the rate card's C5 row gives day rates): that table's range is the answer
        gives_asked = next((m for m in [a for _, a in sorted(absent, key=lambda p: -p[0])] + weak_absent
                            if _asks_what_only_the_absent_table_gives(question, m, [f for _, f in found])), None)
        if gives_asked is not None:
            return [gives_asked]
        if top_absent and (top_absent[0] > best or (top_absent[0] == best and (
                _unanswered_code(top_absent[1], found, question) or _asker_has_a_column_of(question, top_absent[1], tables)
                or _row_written_whole_of_an_absent_column(question, top_absent[1], [m for score, m in found if score == best])))):
            # "the band minimum for an L3": the table of band minimums lacks L3; another table's L3 is not it
            # ("the hotel cap in London for a G9": the grade table lacks G9; the London row of a
            # table without grades does not answer for one, however alike the two tables read)
            return [top_absent[1]]
        tied = _tables_only_the_words_point_at(question, _by_cells(question, [m for score, m in found if score == best]), evidence)
        tied = _cells_giving_the_asked_object(question, tied)
        return _tables_the_words_point_at(question, _by_written_codes(question, tied), evidence)[:2]
    return [m for _, m in scored[:1]]


def _row_written_whole_of_an_absent_column(question: str, absent: RowMatch, tied: list[RowMatch]) -> bool:
    """Whether the table lacking the asked column ("Minster Yard Offices" beside the other sites)
    has a row whose whole label, of two words or more, the question writes ("keyholder attendance
    target"), while no tied row's label is written whole: the question asks that table."""
    flat = " ".join(words(question))

    def written(table: TableData, rows) -> bool:
        return any(len(words(label_of(table, r))) >= 2 and re.search(rf"\b{re.escape(' '.join(words(label_of(table, r))))}\b", flat)
                   for r in rows)

    return absent.column_absent and written(absent.table, absent.table.rows) \
        and not any(written(m.table, m.rows) for m in tied)


def _asker_has_a_column_of(question: str, absent: RowMatch, tables: list[TableData]) -> bool:
    """Whether the table lacking the named place has a column for the asker's grade ("the overnight
    subsistence in Tobermory for an MR2": its "MR1-MR3" column): the grade says which column of
    that table, not that the grade table's MR2 row is asked."""
    return absent.unmentioned and bool(columns_spanning_codes(question, absent.table)
                                       or ladder_column(question, absent.table, tables) is not None)


def _by_the_askers_grade(question: str, match: RowMatch, tables: list[TableData]) -> RowMatch:
    """The named row under the one column written for the asker's grade ("a watch manager" where
    the columns are "FF-T to FF-C", "CM-WM" and "SM-GM" of the role table's ladder), when the
    question names no other column and writes the row's label (or a number in its range)."""
    if match.how != "range" and not all(_label_written(question, match.table, r) for r in match.rows):
        return match  # a row named by a few of its words, or by its bracket ("per hour"), is not asked by the grade
    found = ladder_column(question, match.table, tables) or _column_of_the_askers_code(question, match.table, tables)
    if found is None:
        return match
    column, written_for = found
    if match.columns and not set(match.columns) <= written_for:
        return match  # a column named by its own words ("Eligible role codes")
    return replace(match, columns=(column,), by_ladder=True)


@lru_cache(maxsize=2048)
def _spanning_columns(table: TableData) -> frozenset[int]:
    """The value columns whose header spans codes ("Bands 2-3"); cached per table."""
    return frozenset(c for c in range(max(table.label_columns, 1), len(table.headers))
                     if columns_spanning_codes(f"({table.headers[c]})", table) == (c,))


def _column_of_the_askers_code(question: str, table: TableData, tables: list[TableData]) -> tuple[int, frozenset[int]] | None:
    """(the value column whose header spans the code of the row the question names in another
    table, the columns spanning codes) when the question writes no code itself: "an emergency care
    assistant" is the role table's "Band 3" row, which the "Bands 2-3" column spans."""
    spanning = _spanning_columns(table)
    if len(spanning) < 2 or columns_spanning_codes(question, table):
        return None
    for other in dict.fromkeys(tables):
        if other is table or other == table:
            continue
        named = match_table(question, other)
        if named is None or named.how == "absent" or not named.rows or named.partial:
            continue
        codes = {cell for r in named.rows for cell in r.cells[:2] if code_key(cell) is not None}
        columns = {c for code in codes for c in columns_spanning_codes(f"{question} ({code})", table)}
        if len(columns) == 1:
            return columns.pop(), spanning
    return None


def _asked_of_another_table(question: str, hop: list[RowMatch], matched: list[RowMatch], evidence: list[Evidence]) -> bool:
    """Whether what the question asks for ("What percentage enhancement ...") is written by the
    caption, headers or breadcrumb of a named table the hop does not reach, and by none of the hop's (the
    role's entry pay point leads to a pay point's hourly rate; the enhancements table is asked)."""
    wanted = _asked_object_stems(question)
    reached = {_table_id(m.table) for m in hop}

    def written(table: TableData) -> set[str]:
        # (its caption, headers and heading: "3. Shift premiums" above a table without a caption;
        # its own heading, not the policy's title above it, which every table of the policy shares)
        heading = _table_evidence(table, evidence).breadcrumb.split(" > ")[-1]
        return stems_of(" ".join([table.caption, *table.headers, heading])) & wanted

    return bool(wanted) and not any(written(m.table) for m in hop) \
        and any(written(m.table) for m in matched if _table_id(m.table) not in reached and m.rows)


def _through_another_table(question: str, matches: list[RowMatch], evidence: list[Evidence]) -> list[RowMatch]:
    """[the cell asked, the row that leads to it] when the row a question names in one table gives
    a label of another table that the question asks about ("a G5 heading to Amsterdam ... per
    diem": Amsterdam is "Tier B" in the table of city tiers, and the per diem table's "Tier B" row
    and "Grades G4-G6" column hold it; "a deep underground mine in zone 2 ... weekly site
    allowance": the mine is site class SC5, whose row of the weekly allowances the zone names a
    column of). The second table must be about words of the question the first one is not."""
    tables = {}
    for e in evidence:
        if e.table is not None and e.table.rows:
            tables.setdefault(_table_id(e.table), e)
    asked = {s for s in stems_of(question) if s not in STOP_STEMS and len(s) > 2}
    written = set(words(question))
    for first in matches:
        if first.how == "absent" or len(first.rows) != 1:
            continue
        row = first.rows[0]
        own = stems_of(" ".join([first.table.caption, *first.table.headers]))
        written_column = any((stems_of(first.table.headers[c]) - STOP_STEMS - _GENERIC_STEMS) & asked
                             for c in first.columns if c < len(first.table.headers))
        for key, host in tables.items():
            other = host.table
            if key == _table_id(first.table):
                continue
            labels = {label_of(other, r).strip().lower(): r for r in other.rows}
            for column, cell in enumerate(row.cells):
                by_span = False
                if column < max(first.table.label_columns, 1) and first.named_by == 0:
                    continue  # (a label that named its own row links only when another column named it)
                linked = labels.get(cell.strip().lower())
                if linked is None and code_key(cell) is not None and not written_column:
                    # (a row whose label spans the cell's code: "LC7" leads to "Premium for LC7 to LC9";
                    # not when the first table has a column the question writes a word of: "basic pay"
                    # of the CW1 row, "sleep in payment" of its "Sleep-in (per night)")
                    spanning = [r for r in other.rows if row_spans_a_written_code(cell, other, r)]
                    linked = spanning[0] if len(spanning) == 1 else None
                    by_span = linked is not None
                heads = () if linked is not None else _headers_naming(other, cell)
                if linked is None and not heads:
                    continue
                notes = _section_notes(host, evidence)
                about = stems_of(" ".join([other.caption, *other.headers])) - own - stems_of(cell)
                if linked is not None and not asked & about:
                    continue
                second = match_table(f"{question} ({cell})", other, notes=notes)
                if second is None or second.how == "absent" or not second.columns:
                    continue
                if linked is not None and second.rows != (linked,):
                    continue
                if by_span and not any(w in written for c in second.columns for w in words(other.headers[c])
                                       if w not in STOP_WORDS and w not in GENERIC_WORDS):
                    continue  # (a column reached by a span is one the question writes a word of as written:
                    # "working a Sunday"; not "notice period" for "Periodic medical")
                if linked is None:
                    # the cell names a column ("Band 2"): the question names the row on its own
                    # ("a bank holiday at the Slough depot": Bank holiday working)
                    alone = match_table(question, other, notes=notes)
                    if len(second.rows) != 1 or second.columns != heads or alone is None or alone.rows != second.rows:
                        continue
                link = (column,) if column >= max(first.table.label_columns, 1) else (first.named_by,)
                return [second, replace(first, columns=link)]
    return []


def _headers_naming(table: TableData, cell: str) -> tuple[int, ...]:
    """The one value column whose header is the cell or holds it whole as a code ("Band 2" names
    the column "Band 2"; "Z2" names "Night premium Z2"), as a tuple; () when none or several do.
    A cell of plain words links only to a header that is the cell itself."""
    text = cell.strip()
    if len(text) < 2 or not re.search(r"[a-z]", text, re.IGNORECASE) or len(text.split()) > 4:
        return ()
    coded = bool(re.search(r"\d", text))
    pattern = re.compile(rf"(?<![\w-]){re.escape(text)}(?![\w-])", re.IGNORECASE)
    first = max(table.label_columns, 1)
    found = tuple(
        i for i, header in enumerate(table.headers)
        if i >= first and (header.strip().lower() == text.lower() or (coded and pattern.search(header)))
    )
    return found if len(found) == 1 else ()


def _glossary(evidence: list[Evidence]) -> dict[str, str]:
    """term -> definition, of every definition the evidence holds (the first of a term)."""
    out: dict[str, str] = {}
    for e in evidence:
        if e.table is None:
            for term, paragraph in definition_spans(e.text):
                out.setdefault(term, paragraph)
    return out


def _named_through_a_definition(question: str, table: TableData, match: RowMatch | None,
                                glossary: dict[str, str]) -> RowMatch | None:
    """The row a definition ties to the question ("my grandad" and "Bereavement of a Close
    Relative", whose definition lists grandparents), when the question's own words name no one
    row of the table exactly (none, some words of several, or a kind the table lacks by words)."""
    if not glossary or (match is not None and (match.exact or match.how == "range" or code_key(match.asked) is not None)):
        return None
    if match is not None and match.how != "absent" and len(match.rows) == 1 and not match.partial:
        return None
    defined = row_by_definition(question, table, glossary)
    if defined is None or (match is not None and match.how != "absent" and defined.rows[0] not in match.rows
                           and not match.partial):
        return None
    return defined


def _another_table_is_about(absent: RowMatch, found: list[tuple[float, RowMatch]]) -> bool:
    """Whether the kind of row a table lacks ("annual leave" among other kinds of leave) is what
    another table whose row the question names is about, by its caption or headers ("Annual leave
    entitlement by Continuous Service"): that table answers, the first lacks nothing asked."""
    if absent.column_absent or code_key(absent.asked) is not None:
        return False
    asked = stems_of(absent.asked)

    def about(table: TableData) -> set[str]:
        # what the table gives: its caption before "by" and its value headers ("Annual leave
        # entitlement by Continuous Service" gives annual leave, by service: not "service")
        what = re.split(r"\s+by\s+", table.caption, maxsplit=1)[0]
        return stems_of(" ".join([what, *table.headers[max(table.label_columns, 1):]]))

    return bool(asked) and any(m.rows and asked <= about(m.table) for _, m in found)


def _by_cells(question: str, matches: list[RowMatch]) -> list[RowMatch]:
    """Of tables alike, those where the question names a cell: a row, and a column by a number
    or a code its header spans ("grade 8 with 12 years service": the leave table's "10 years or
    more" row under "Grades 6 to 10", not the grade table's Grade 8 row); all when none does."""
    cells = [m for m in matches if m.rows and (set(m.columns) & set(columns_named_by_numbers(question, m.table))
                                               or (m.by_ladder and m.columns))]  # (or the column of the asker's grade)
    # (a table where the question names a cell as well, "the hotel cap for a G5 in Frankfurt", stays)
    if cells:
        return [m for m in matches if m in cells or m.columns]
    # rows named exactly in each (an "IS2" in a table of bands and in one of roles whose bracket
    # spans IS1 to IS3): the table where the question also names the column ("the capital
    # office") names a cell, the other only a row
    if len(matches) > 1 and all(m.exact and m.rows for m in matches):
        named_cell = [m for m in matches if m.columns]
        if named_cell:
            return named_cell
    return matches


def _cells_giving_the_asked_object(question: str, matches: list[RowMatch]) -> list[RowMatch]:
    """Of cells named in several tables (a row and a column each), those whose row label and
    column header write what the question asks for ("I'm a CW4 ... on my sleep-in ... What's the
    disturbance rate per hour?": the "Disturbance during a sleep-in" row under "CW3–CW4", not the
    CW4 row's "Sleep-in" column); all of them when every one or none writes it."""
    if len(matches) < 2 or not all(m.rows and m.columns for m in matches):
        return matches
    # ("daily per diem": a Latin phrase is one thing, not the end of "daily")
    wanted = _asked_object_stems(re.sub(r"\bper\s+(diems?|annum|cent)\b", r"per\1", question, flags=re.IGNORECASE))
    if not wanted:
        return matches
    giving = [m for m in matches if wanted <= stems_of(" ".join(
        [label_of(m.table, r) for r in m.rows] + [m.table.headers[c] for c in m.columns if c < len(m.table.headers)]))]
    return giving if giving and len(giving) < len(matches) else matches


def _asked_object_stems(question: str) -> set[str]:
    """The stems of what the question asks for, as it names it ("What's the disturbance rate per
    hour?": disturbance), without stop and generic words; empty when it names nothing so."""
    asked = next((m for pattern in _ASKED_OBJECT if (m := pattern.search(question))), None)
    if asked is None:
        return set()
    return {stem(w) for w in words(asked.group(1)) if w not in STOP_WORDS and w not in GENERIC_WORDS}


def _by_written_codes(question: str, matches: list[RowMatch]) -> list[RowMatch]:
    """Of tables alike, those whose named rows (or asked columns) hold a code the question writes
    ("G7" beside a London row of a table without grades): the identifier decides; all of them
    when none does."""
    written = code_keys_in(question)
    if not written:
        return matches
    # (or a column whose header spans the code: "G7 and above" of a relocation table by distance)
    coded = [m for m in matches if any(code_key(label_of(m.table, r)) in written for r in m.rows)
             or set(m.columns) & set(columns_spanning_codes(question, m.table))
             or any(code_keys_in(m.table.headers[c]) & written for c in m.columns if c < len(m.table.headers))]
    return coded or matches


_WHATS = re.compile(r"\bwhats\b", re.IGNORECASE)  # "whats the most ...", written without its apostrophe
_ASKS_A_VALUE = re.compile(r"\b(?:how (?:many|much|long|often|far|soon|fast)|what(?:'s| is| are)?|which|when (?:does|do|is|are|will))\b",
                           re.IGNORECASE)


def _unmentioned_label(question: str, table: TableData, corpus_mentions: Mapping[str, bool]) -> RowMatch | None:
    """A row the table lacks, named by a thing no visible policy mentions where a row label
    stands: the question asks for a value column of the table ("How many tronc points ...") of
    "a barista", and no policy says "barista". The table's range is then the answer, not another
    row's value nor a guess. Only a question asking for a value (not a yes/no one: "Do tronc
    points count towards my pension?" asks about the pension, not for a row)."""
    # (whether the question is about this table is weighed with every match: _about_table)
    if not labels_are_names(table) or not any(_ASKS_A_VALUE.search(clause) for _, clause in asks_with_context(question)):
        return None  # a table of bands or codes has no row for "a locksmith": which band is what it lacks
    # the whole question: the row may be named before the question proper ("concierge - how many points?")
    place_words = {w for p in places_in(question) for w in words(p.written)}
    proper = {w for name in proper_names(question) for w in words(name)}  # "in Campbeltown": a name
    unmentioned = [t for t in question_terms(question) if corpus_mentions.get(t.stem, True) is False
                   and t.word not in place_words and (names_a_thing(t.word, question) or t.word in proper)]
    for phrase in missing_phrases(question, unmentioned) if unmentioned else []:
        # with the noun written right before it ("a pot washer": not "washer" alone)
        before = re.search(rf"\b([a-z]+)\s+{re.escape(phrase)}\b", question.lower())
        if before and before.group(1) not in STOP_WORDS and names_a_thing(before.group(1), question):
            phrase = f"{before.group(1)} {phrase}"
        if _stands_as_a_label(phrase, question, where=bool(table.headers and _PLACE_HEADER.search(table.headers[0]))):
            written = re.search(r"\s+".join(re.escape(w) for w in phrase.split()), question, re.IGNORECASE)
            return RowMatch(table, (), how="absent", asked=written.group(0) if written else phrase, unmentioned=True)
    return None


# a label column of places ("Port", "Location", "Depot"): "in Campbeltown" names a row as "for a
# barista" does in a table of roles
_PLACE_HEADER = re.compile(r"\b(?:ports?|locations?|cit(?:y|ies)|towns?|sites?|offices?|depots?|regions?|countr(?:y|ies)|stations?"
                           r"|bases?|destinations?|places?|branch(?:es)?|airports?|harbours?)\b", re.IGNORECASE)


# where a question names the row it asks about: "does a barista get", "for the spa team", "as a
# concierge", or first, before the question ("concierge - how many points?"); not "on the shop
# floor" (where), "how much extra" (how much), "a record fits" (a verb)
_LABEL_PLACE = r"(?:\b(?:a|an)\s+|\b(?:for|as)\s+(?:a\s+|an\s+|the\s+|(?:my|our)\s+(?:own\s+)?)?)"


# "do alumni get", "does the night porter receive": the one a value is given to
_ASKED_SUBJECT = r"\b(?:do|does|did|will|would|can|could|should|are|is)\s+(?:the\s+|our\s+|all\s+)?"
_GETTING = r"(?:get|gets|receive|receives|have|has|earn|earns|qualify|qualifies|accrue|accrues|keep|keeps)\b"


def _stands_as_a_label(phrase: str, clause: str, *, where: bool = False) -> bool:
    if numbers(phrase) or any(w.endswith("s") and w != phrase.split()[-1] for w in phrase.split()):
        return False  # "a record fits two categories": a verb and a count, no name of a row
    text = clause.lower().strip()
    escaped = re.escape(phrase)
    if phrase.split()[-1].endswith("ing") and re.search(rf"\b{escaped}\s+(?:my|your|our|their|his|her|its|the|a|an|this|that|these|those)\b", text):
        return False  # a verb taking its object: "for washing my uniform", "for cleaning the van"
    if re.search(rf"{_LABEL_PLACE}{escaped}\b", text):
        return True
    if where and re.search(rf"\b(?:in|at|to|from)\s+{escaped}\b", text):
        return True  # a table of places: "the hotel cap in Campbeltown"
    if re.search(rf"{_ASKED_SUBJECT}{escaped}\s+{_GETTING}", text):
        return True  # the subject of what is given: "how much storage do alumni get"
    return re.match(rf"^{escaped}\s*[-–—,:]", text) is not None


_SUFFIXED_CODE = re.compile(r"[A-Z]{1,4}-?\d{1,3}[A-Z]{1,2}")


def _unanswered_code(absent: RowMatch, found: list[tuple[float, RowMatch]], question: str = "") -> bool:
    """Whether the absent label is a code ("G9", "Band 25") that none of the found rows' labels
    is: an identifier the question names is a fact to match, and a row found by other words
    leaves it unanswered."""
    key = code_key(absent.asked)
    if key is None and _SUFFIXED_CODE.fullmatch(absent.asked.strip()):
        # a code with a letter after its number ("M2C" beside M2 and M3C): a fact as much as "G9"
        return not any(label_of(m.table, r).strip().upper() == absent.asked.strip().upper() for _, m in found for r in m.rows)
    if key is None or any(code_key(label_of(m.table, r)) == key for _, m in found for r in m.rows):
        return False
    # "the Level 5 leadership diploma": a found row writes "Level 5" as the question does ("Level 5
    # Diploma in Leadership ..."); the "CW5" a level table reads it as is not what is asked
    phrases = {" ".join(m.group(0).lower().split()) for m in re.finditer(r"\b[A-Za-z]{3,}\s+\d{1,2}\b", question)}
    if phrases and any(re.search(rf"(?<!\w){re.escape(p)}(?!\w)", " ".join(c.lower() for c in r.cells))
                       for _, m in found for r in m.rows for p in phrases):
        return False
    # "the ergonomic budget for tier 3": the "CT3" row of a table whose labels are Cost Tiers
    # answers "tier 3" (the question writes the label column's name before the row's number);
    # the letters of a "City tier" table (Tier A to D) do not hold it
    number = re.search(r"\d+$", absent.asked.strip())
    return not (number and any(
        m.exact and not m.partial and names_label_column(absent.asked, m.table)
        and any(re.search(rf"(?<!\d)0*{number.group(0)}$", label_of(m.table, r).strip()) for r in m.rows)
        for _, m in found))


def _asks_what_only_the_absent_table_gives(question: str, absent: RowMatch, found: list[RowMatch]) -> bool:
    """Whether the thing the question asks for is a value column of the table that lacks the named
    row and of no table whose row it names ("the per diem in Paris for a C5": the per-diem table
    has no Paris row; the rate card's C5 row gives day rates, no per diem): the absent row is the
    answer, not another table's row that does not give what is asked."""
    if absent.column_absent or not found or not absent.asked:
        return False
    first = max(absent.table.label_columns, 1)
    gives = stems_of(" ".join(what_a_header_gives(h) for h in absent.table.headers[first:]))
    asked = {t.stem for t in key_terms(question) if not t.generic and names_a_thing(t.word, question)}
    wanted = (asked & gives) - stems_of(absent.asked) - STOP_STEMS
    if not wanted:
        return False
    return not any(wanted & stems_of(" ".join([m.table.caption, *m.table.headers])) for m in found)


def _about_the_denied(denied: frozenset[str], match: RowMatch, question: str = "") -> bool:
    """Whether the table's caption names a thing the question denies and its named rows do not
    (nor a column the question names by its own words, none denied: "staying at my cousin's instead
    of a hotel" asks for the "Staying with friends or relatives" column of a table of hotel caps)."""
    # ("no meals provided": what nobody else provides is what the asker must pay for, not a thing
    # they do without; the meal allowance is asked)
    denied = denied - _not_provided(question)
    if not denied:
        return False
    said = stems_of(question) - denied - STOP_STEMS - _GENERIC_STEMS
    if match.rows and any(c < len(match.table.headers) and stems_of(match.table.headers[c]) & said
                          and not _equivalents_any(denied, stems_of(match.table.headers[c])) for c in match.columns):
        return False
    caption = stems_of(match.table.caption)
    rows = _row_words(match)
    return any(equivalents(s) & caption and not equivalents(s) & rows for s in denied)


_PROVIDED = r"(?:provided|supplied|included|laid\s+on|given|offered|available|free)"
_NOT_PROVIDED = re.compile(
    rf"\b(?:no|without)\s+(?:\w+\s+){{0,2}}?(\w+)\s+(?:being\s+)?{_PROVIDED}\b"
    rf"|\b(\w+)\s+(?:are|is|were|was|will|won't|wasn't|weren't|isn't|aren't)\s+(?:not\s+|n't\s+)?(?:be\s+|being\s+)?{_PROVIDED}\b",
    re.IGNORECASE)


def _not_provided(question: str) -> set[str]:
    """The things the question says nobody provides ("no meals provided", "lunch wasn't
    included"): stems."""
    out = set()
    for m in _NOT_PROVIDED.finditer(question):
        word = m.group(1) or m.group(2)
        if m.group(2) and not re.search(r"\bnot\b|n't\b", m.group(0), re.IGNORECASE):
            continue  # "meals are provided": stated, not denied
        out.add(stem(word.lower()))
    return out


def _equivalents_any(stems: frozenset[str], held: set[str]) -> bool:
    return any(equivalents(s) & held for s in stems)


def _tables_the_words_point_at(question: str, matches: list[RowMatch], evidence: list[Evidence]) -> list[RowMatch]:
    """Of tables that all have the named row ("grade 9" in a table of overtime rates and in one
    of relocation entitlements), those whose caption, headers and section hold at least half as
    many of the question's own words as the best one ("removal volume limit": the relocation
    table, whose caption shares only "limits" with the other); every one when none holds two."""
    if len(matches) < 2:
        return matches
    held = _own_words_held(question, matches, evidence)
    top = max(held)
    if top < 2:
        return matches
    return [m for m, n in zip(matches, held) if n * 2 >= top]


def _tables_only_the_words_point_at(question: str, matches: list[RowMatch], evidence: list[Evidence]) -> list[RowMatch]:
    """Of tables alike, the one whose caption, headers and section hold two of the question's own
    words or more when the others hold none ("the hotel cap in London for a B3": the table of
    hotel caps by country, not the band table of daily subsistence, though "B3" is a code only
    that one has); every one otherwise (the code then decides)."""
    if len(matches) < 2:
        return matches
    held = _own_words_held(question, matches, evidence)
    top = max(held)
    if top < 2 or sorted(held)[-2] > 0:
        return matches
    return [m for m, n in zip(matches, held) if n == top]


def _own_words_held(question: str, matches: list[RowMatch], evidence: list[Evidence]) -> list[int]:
    """For each table, how many of the question's words (not its labels' words) its caption,
    headers and breadcrumb hold."""
    asked = stems_of(question)
    held = []
    for m in matches:
        labels = stems_of(" ".join(label_of(m.table, r) for r in m.table.rows) + " " + " ".join(m.table.headers[:1]))
        own = stems_of(" ".join([m.table.caption, *m.table.headers, _table_evidence(m.table, evidence).breadcrumb]))
        held.append(len({s for s in (asked & own) - labels if len(s) > 2 and s not in STOP_STEMS}))
    return held


def _section_notes(host: Evidence, evidence: list[Evidence]) -> tuple[str, ...]:
    """The sentences of text evidence from the table's own section (its notes)."""
    out = list(host.table.notes) if host.table is not None else []
    for e in evidence:
        if e.table is None and e.kind != "table_row" and _in_section(e, host):
            out += split_sentences_quick(e.text)
    return tuple(out)


def _in_section(e: Evidence, host: Evidence) -> bool:
    """Whether the evidence is in the host's section (or below it), in the same policy."""
    return e.policy == host.policy and (e.breadcrumb == host.breadcrumb or e.breadcrumb.startswith(host.breadcrumb + " > "))


def _about_table(question: str, match: RowMatch, host: Evidence, corpus_mentions: Mapping[str, bool],
                 notes: tuple[str, ...] = (), elsewhere: set[str] = frozenset()) -> float:
    """How much the question is about this table, not only naming one of its labels ("the
    salary band of an L5" names L5, which a table of meal allowances also has): the best share,
    over the question's clauses, of its other key terms (those the policies use) held by the
    table's caption, headers, breadcrumb or the sentences of its own section (`notes`: a table
    without a caption is introduced by them, "An employee who resigns ... must repay part of the
    funding ... set out in the table below"); 1 when the clauses name nothing but the row."""
    if names_label_column(question, match.table) and (match.columns or not is_yes_no(question)):
        # "Band 3 rate ...": the question says which table's labels it gives (not when it asks
        # whether it may do a thing: "I'm on grade G9. Could I stand in the council elections?"
        # tells the asker's grade; what the table is about must be asked too)
        return 1.0
    if match.rows and match.columns and set(match.columns) & set(columns_spanning_codes(question, match.table)):
        return 1.0  # "an S3 ... for working an early": a row, and the column a code names by its span ("S1–S4")
    if match.rows and match.by_ladder:
        return 1.0  # "day-crewed allowance for a watch manager": a row, and the column written for the asker's grade
    if (match.rows and _names_a_long_code(question, match) or _names_a_numbered_name(question, match)) \
            and not _value_asked_the_table_lacks(question, stems_of(" ".join(
                [match.table.caption, *match.table.headers, host.breadcrumb, *notes, *(c for r in match.table.rows for c in r.cells)])),
                corpus_mentions):
        # "time logged under nc6": a code of two letters or more names its table ("L5" may be any
        # grade's); so does a numbered name of the table's own ("a Ducklings 2 class" beside
        # Ducklings 1 and 3), or one it lacks ("Ducklings 4")
        return 1.0
    # the named rows' own words (and their synonyms) name the row, and the places name a column:
    # they do not say what the table is about
    # a row and one of its value columns named: the question asks for a cell of this table
    # (not when one word of the label names the row: "an account" is not the "Account credit" row;
    # a place is a whole name: "Malta" names the "Valletta (Malta)" row)
    cell_named = bool(match.rows and match.columns) \
        and not (match.partial and match.named_words < 2 and not _a_place_names_the_row(question, match)) \
        and _column_named_as_written(question, match)
    row_words = _row_words(match) | elsewhere | stems_of(" ".join(spelt_family_words(question, match.table)))
    # (the people a row is for name it too: "my dad" of "a partner or close relative")
    row_words |= {k for r in match.rows for k in kin_covered(question, label_of(match.table, r))}
    if match.how == "range":
        # ("six years qualified": what the number measures names the range row with it)
        # (and the unit a measure is told in: "1.6 litre" for the "1,401-2,000 cc" row)
        row_words |= {stem(w) for w in [*quantity_words(question), *measure_words(question)]}
    if match.how == "absent":
        # "the Sunday premium in Belgium": the Sunday row is named, the Belgium column is what is absent
        asked = stems_of(question)
        row_words |= {s for r in match.table.rows for s in stems_of(label_of(match.table, r)) if s in asked}
        # "an LS4 linesman": the words of the absent code's family's rows (LS1 "Linesman") say
        # who the asker is, not what the table is about
        key = code_key(match.asked)
        if key is not None:
            row_words |= {s for r in match.table.rows if (k := code_key(label_of(match.table, r))) and k[0] == key[0]
                          for s in stems_of(" ".join(r.cells)) if s in asked}
            # and the words written right after the code name its holder ("a BH3 baggage supervisor")
            after = re.search(rf"\b{re.escape(match.asked)}\b((?:\s+[A-Za-z-]+){{1,3}})", question, re.IGNORECASE)
            if after:
                held = []
                for w in words(after.group(1)):
                    if w in STOP_WORDS:
                        break
                    held.append(stem(w))
                row_words |= set(held)
    places = {stem(w) for p in places_in(question) for w in words(p.written)}
    # (a range row's table by its own words: the policy's title above it, "Equipment and Home-Office
    # Allowance Policy", is shared by every table of the policy)
    trail = host.breadcrumb.split(" > ", 1)[-1] if match.how == "range" else host.breadcrumb
    table_stems = stems_of(" ".join([match.table.caption, *match.table.headers, trail, *notes]))
    cell_stems = stems_of(" ".join(c for r in match.table.rows for c in r.cells))
    # (what an ask names is held by the table's own words, cells and section, not by a sentence of
    # another section that names one of its places and columns: "the employee may claim the cost
    # of a taxi" of a call-out rule does not make a table of airport weightings give taxis)
    # (the table's notes come first in `notes`; a note that the section's own text also says is kept)
    from_elsewhere = set(match.table.notes) - set(notes[len(match.table.notes):])
    own_stems = stems_of(" ".join([match.table.caption, *match.table.headers, trail, *(n for n in notes if n not in from_elsewhere)]))

    def share(pieces: list[str], *, asking: bool = False) -> tuple[float, bool]:
        best, any_terms = 0.0, False
        holding = own_stems | cell_stems if asking else table_stems
        for clause in pieces:
            # (a thing the ask names that no policy mentions is still asked: "who has to be in the
            # cockpit" is not answered by a table of wind limits, whatever the scene names of it)
            terms = [t for t in question_terms(clause) if not t.generic
                     and not carried_by([t], row_words) and t.stem not in places
                     and (corpus_mentions.get(t.stem, True) or (asking and names_a_thing(t.word, clause)))]
            if not terms:
                continue
            # a noun names what the table is about; a verb or adverb ("staying overnight") sets the scene
            weight = {t.stem: 1.0 if names_a_thing(t.word, clause) else 0.5 for t in terms}
            if all(w < 1.0 for w in weight.values()) and not any(carried_by([t], table_stems) for t in terms):
                continue  # only verbs, none the table's ("just picked up another 3 points"): the scene
            any_terms = True
            held = sum(weight[t.stem] for t in terms if _held_with_its_phrase(t, terms, holding, cell_stems))
            best = max(best, held / sum(weight.values()))
        return best, any_terms

    # a question in two parts, a scene and then an ask: the asking sentence says what the table must
    # give ("My shift starts at 04:30 at Bristol ... Can I claim a taxi?": the Bristol row of a table
    # of shift allowances is named by the scene, and holds no taxi). When an ask that does not ask
    # for a value (a yes or no, "who has to ...") names things, none of them the table's own words,
    # the table is not what is asked, whatever the scene names. (An ask for a value is the table's
    # when the scene names its cell, however it calls the value: "What's the pay rate?" of a table
    # of "× basic hourly rate", "How long before I get a share of the tips?" of a "Minimum service"
    # column.)
    asking = [ask for context, ask in asks_with_context(question) if context]
    if asking and not any(_ASKS_A_VALUE.search(ask) or _WHATS.search(ask) for ask in asking):
        held_by_ask, ask_terms = share([piece for ask in asking for piece in clauses(ask)], asking=True)
        if ask_terms and held_by_ask == 0.0:
            return 0.0
    if cell_named and _value_asked_the_table_lacks(question, table_stems | cell_stems | row_words, corpus_mentions):
        # "How much notice do I have to give if I resign from an HT4 post?": the HT4 row's "Typical
        # posts" cell is named, but the value asked (notice) is no word of the table
        cell_named = False
    if cell_named:
        return 1.0
    best, any_terms = share(clauses(question))
    if not any_terms:
        # the question names nothing but the row: enough for a label of the label column, not
        # for a row found by some words of another column ("our rota" is not the retention row
        # of "shift Rosters")
        # (a row named by three words of its label or more is named, partly or not)
        return 0.0 if (match.partial and match.named_words < 3) or match.named_by else 1.0
    return best


# "how much notice do I ...", "how many days do we ...": the thing counted, right after the question word
_HOW_MUCH_OF = re.compile(r"\bhow\s+(?:much|many)\s+([a-z][\w-]*)\s+(?:do|does|did|will|would|can|could|should|must|have|has|had|is|are|am)\b",
                          re.IGNORECASE)


def _value_asked_the_table_lacks(question: str, holding: set[str], corpus_mentions: Mapping[str, bool]) -> bool:
    """Whether the question asks for a value it names by a noun ("How much notice ...", "What's
    the notice period ...") that no word of the table, its cells or its named row holds, nor a
    synonym of it, and that the policies do use elsewhere (a value no policy mentions is named as
    missing beside the row instead: `_asked_object_the_rows_lack`)."""
    m = _HOW_MUCH_OF.search(question)
    word = m.group(1).lower() if m else ""
    if word and word not in STOP_WORDS and word not in GENERIC_WORDS and "NOUN" in readings(word):
        asked = {stem(word)}
    else:
        asked = _asked_object_stems(question)
    asked = {s for s in asked if not s.isdigit() and corpus_mentions.get(s, True)}
    return bool(asked) and not any(equivalents(s) & holding for s in asked)


def _label_written(question: str, table: TableData, row) -> bool:
    """Whether the question writes a word of the row's label outside its bracket, in any word
    form ("weekend standby" of "Weekend standby, Saturday or Sunday (per day)"; not "basic pay per
    hour" of "Disturbance during a sleep-in (per hour or part hour)")."""
    own = {stem(w) for w in words(re.sub(r"\s*\([^)]*\)", " ", label_of(table, row))) if not w.isdigit()} \
        - STOP_STEMS - _GENERIC_STEMS
    return bool(own & stems_of(question))


def _held_with_its_phrase(term, terms: list, stems: set[str], cells: set[str]) -> bool:
    """Whether the table's words hold the term, and the table (its cells too) the other words of
    the lexicon phrase it is written in ("annual" of "annual leave" is not held by "Annual location
    allowance", whose table says nothing of leave; "allowance" of "daily allowance" is held by
    "Fixed allowances" whose rows give "the daily per diem")."""
    if not carried_by([term], stems):
        return False
    every = stems | cells
    for phrase in term.phrases:
        if equivalents(phrase) & every:
            continue
        partners = [t for t in terms if t is not term and t.stem in phrase.split("_")]
        if partners and not all(carried_by([t], every) for t in partners):
            return False
    return True


def _names_a_long_code(question: str, match: RowMatch) -> bool:
    """Whether the question writes the code of a named row whose prefix has two letters or more
    ("nc6" for "NC-06", "EX101"), however it pads or joins it."""
    written = code_keys_in(question, min_prefix=2)
    return any(code_key(label_of(match.table, row)) in written for row in match.rows)


_NUMBERED_NAME = re.compile(r"^([A-Za-z][A-Za-z'-]+(?:\s+[A-Za-z][A-Za-z'-]+)?)\s+(\d{1,3}[a-z]?)$")


def _names_a_numbered_name(question: str, match: RowMatch) -> bool:
    """Whether the question writes, whole, the label of a named row that is a name and a number
    ("Ducklings 2", "Stage 3") of a family the table numbers (another label is the name with
    another number), or such a label the table lacks (the absent "Ducklings 4")."""
    labels = [label_of(match.table, r).strip() for r in match.table.rows]
    names = [m.group(1).lower() for label in labels if (m := _NUMBERED_NAME.match(label))]
    asked = [match.asked.strip()] if match.how == "absent" else [label_of(match.table, r).strip() for r in match.rows]
    for label in asked:
        m = _NUMBERED_NAME.match(label)
        if m and names.count(m.group(1).lower()) >= (2 if match.how != "absent" else 1) \
                and re.search(rf"(?<![\w-]){re.escape(label)}(?![\w-])", question, re.IGNORECASE):
            return True
    return False


def _writes_a_family(match: RowMatch, families: list[str]) -> bool:
    """Whether the matched rows' cells or the asked columns' headers write one of the code families."""
    text = " ".join([c for r in match.rows for c in r.cells] + [match.table.headers[i] for i in match.columns
                                                               if i < len(match.table.headers)])
    return bool(stems_of(text) & {f.lower() for f in families})


def _row_words(match: RowMatch) -> set[str]:
    """Stems of the words that name the matched rows (their labels, or the cells that named them)."""
    named = [label_of(match.table, r) + " " + (r.cells[match.named_by] if match.named_by < len(r.cells) else "")
             for r in match.rows]
    return stems_of(" ".join(named) + " " + match.asked)


def _column_named_as_written(question: str, match: RowMatch) -> bool:
    """Whether an asked column is named by a word of its header as the question writes it, or by
    a place, or by the kind of value asked for (not only through a synonym: "limit" is not
    "Maximum TOIL balance")."""
    if places_in(question):
        return True
    if value_column(question, match.table, max(match.table.label_columns, 1)) in match.columns:
        return True  # "how long", "how often", "who": the kind of value names the column
    asked = stems_of(question)
    # (a header word written in a phrase the table does not hold names no column: "annual leave"
    # is not the "Maximum leave" of a table of research leave)
    terms = question_terms(question)
    table_words = stems_of(" ".join([match.table.caption, *match.table.headers]))
    cells = stems_of(" ".join(c for r in match.table.rows for c in r.cells))
    for i in match.columns:
        if i >= len(match.table.headers):
            continue
        for shared in stems_of(match.table.headers[i]) & asked:
            term = next((t for t in terms if t.stem == shared), None)
            if term is None and shared in _WHOLENESS_STEMS:
                continue  # "full sick pay" names no "Annual leave (full-time)" column
            if term is None or _phrase_written_whole(term, terms, table_words | cells):
                return True
    return False


_WHOLENESS_STEMS = frozenset(stem(w) for w in ("full", "whole", "entire"))


def _a_place_names_the_row(question: str, match: RowMatch) -> bool:
    """Whether a place the question names is written in a named row's label: a place is a whole
    name ("Malta" names the "Valletta (Malta)" row, though one word of two)."""
    written = {stem(w) for p in places_in(question) for w in words(p.written)}
    return bool(written) and any(written & stems_of(label_of(match.table, r)) for r in match.rows)


def _phrase_written_whole(term, terms: list, stems: set[str]) -> bool:
    """Whether the table's words hold, as written, the other words of each lexicon phrase the term
    is written in ("annual" of "annual leave": not "years" in the rows of a research leave table)."""
    for phrase in term.phrases:
        partners = [t for t in terms if t is not term and t.stem in phrase.split("_")]
        if partners and not all(t.stem in stems for t in partners):
            return False
    return True


def _table_evidence(table: TableData, evidence: list[Evidence]) -> Evidence:
    """The best-ranked evidence showing this table (a table chunk before a row chunk)."""
    holding = [e for e in evidence if e.table is not None and _table_id(e.table) == _table_id(table)]
    holding.sort(key=lambda e: (e.rank <= 0, e.kind != "table", e.rank))
    return holding[0]


def _row_evidence(host: Evidence, row: TableRow) -> Evidence:
    if row.chunk_id is None or row.chunk_id == host.key:
        return host
    return replace(host, key=row.chunk_id, kind="table_row", text=row.sentence or host.text, rank=0, role="row")


def _absent_code_nowhere(question: str, match: RowMatch, evidence: list[Evidence]) -> bool:
    """An absent code the question writes ("C5 data" where the classes run C1 to C4) that no
    evidence holds: the table of its family is what the question is about, ranked or fetched."""
    key = code_key(match.asked)
    if key is None or key not in code_keys_in(question):
        return False
    return not any(key in code_keys_in(e.text) for e in evidence)


_ASKS_PERMISSION = re.compile(r"^\W*(?:can|could|may|should|must)\s+(?:i|we|you|they|he|she|staff|colleagues)\b", re.IGNORECASE)


def _thing_of_a_permission(question: str, absent: RowMatch) -> bool:
    """Whether a row label the table lacks is only the thing a question asking permission names
    ("Can I take my bakery tunic home ...?"), by words (a code or number is asked for) and with no
    value column of the table named."""
    return (bool(_ASKS_PERMISSION.match(question)) and not absent.columns and not absent.column_absent
            and not re.search(r"\d", absent.asked))


def _spoken_of_outside_its_table(match: RowMatch, evidence: list[Evidence]) -> bool:
    """Whether a kind of thing a table has no row for (two words or more, not a code nor a column)
    is written whole in a unit of text evidence: a rule that speaks of it answers the question."""
    asked = words(match.asked)
    if match.column_absent or len(asked) < 2 or code_key(match.asked) is not None \
            or _SUFFIXED_CODE.fullmatch(match.asked.strip()):
        return False
    phrase = f" {' '.join(asked)} "
    return any(e.table is None and e.kind != "table_row" and phrase in f" {' '.join(words(e.text))} " for e in evidence)


def _absent_is_the_question(match: RowMatch, ranked: list[Evidence]) -> bool:
    """An absent code is the question's subject: its table is among the ranked evidence."""
    return any(e.table is not None and _table_id(e.table) == _table_id(match.table) for e in ranked)


def _absent_answer(match: RowMatch, host: Evidence, ranked: list[Evidence]) -> Answer:
    """"Table 1 “...” covers bands B1 to B20; it has no row for B25.", the whole table cited
    (not one of its rows, which would read as an answer)."""
    label = _table_label(match.table, host.breadcrumb)
    if match.column_absent:
        text = f"{label} gives {table_columns_text(match.table)}; it has no row for {match.asked} and no {match.asked} column. [1]"
    else:
        text = f"{label} covers {table_range_text(match.table)}; it has no row for {match.asked}. [1]"
    table = match.table
    if table.key is not None and table.key != host.key:
        host = replace(host, key=table.key, kind="table", text=host.text, rank=0, role="row")
    return Answer(text, NOT_COVERED, cited=[host], missing=[match.asked])


def _table_label(table: TableData, breadcrumb: str = "") -> str:
    caption = table.caption.strip().rstrip(".:")
    m = re.match(r"^(Table\s+[\w.-]+)\s*[:.\-–]\s*(.+)$", caption)
    if m:
        return f"{m.group(1)}, “{m.group(2)}”,"
    if caption and len(caption.split()) <= 12:
        return f"The table “{caption}”"
    # no caption, or a sentence before the table taken for one: the section names the table
    section = breadcrumb.rsplit(" > ", 1)[-1].strip()
    return f"The table in “{section}”" if section else "The table"


def absent_names(question: str, evidence: list[Evidence], known_words: set[str]) -> list[RowMatch]:
    """Proper names the question gives that a table of names lacks (for the app's decision)."""
    out = []
    for e in evidence:
        if e.table is not None:
            name = absent_name(question, e.table, known_words)
            if name:
                out.append(RowMatch(e.table, (), how="absent", asked=name))
    return out


# --------------------------------------------------------------------------- outcomes


# a code written with letters and digits ("8b", "B14", "AG-09", "RZ1"), not a time, an ordinal
# or a quantity with its unit ("9am", "3rd", "24h", "5km", "10k")
_MIXED_CODE = re.compile(r"(?<![\w.-])(?=[A-Za-z-]*\d)(?=[\d-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*(?![\w-])")
_NOT_A_CODE = re.compile(r"^\d+(?:st|nd|rd|th|am|pm|h|hr|hrs|hours?|mins?|m|km|kms|mi|kg|g|mg|ml|l|cm|mm|k|x|s|yrs?|y|d|w|wks?|mo|p|gb|mb|tb)$"
                         r"|^(?:covid-?19|mp3|mp4|4x4|a4|a3|p60|p45|p11d|2fa|h2s|co2|no2|so2|o2|b2b|b2c|h1|h2)$", re.IGNORECASE)


def unheld_codes(question: str, text: str) -> list[str]:
    """The codes the question writes ("8b", "B14", "AG-09") that the text holds in no form it may
    write them in ("B14" as "b14", "AG-09" as "AG9")."""
    lowered = text.lower()
    keys = code_keys_in(text)
    out = []
    for m in _MIXED_CODE.finditer(question):
        token = m.group(0)
        if _NOT_A_CODE.match(token):
            continue
        if re.search(rf"(?<![\w-]){re.escape(token.lower())}(?![\w-])", lowered) or code_key(token) in keys:
            continue
        out.append(token)
    return out


def _not_covered(decision: Decision, ranked: list[Evidence]) -> Answer:
    if decision.missing and all(1 <= len(m.split()) <= 4 for m in decision.missing):
        text = f"The policies you can see do not mention {_listing(decision.missing)}."
    else:
        text = NOT_COVERED_TEXT
    return Answer(text, NOT_COVERED, closest=_closest(ranked), missing=decision.missing)


# a sentence putting a topic outside the policy and naming the document that covers it
_OUTSIDE = re.compile(r"\b(?:does|do|will|shall) not (?:cover|apply to|deal with|include)\b|\bnot (?:covered|dealt with) (?:by|in|under)\b"
                      r"|\b(?:outside|beyond) the scope\b", re.IGNORECASE)
_ELSEWHERE = re.compile(r"\b(?:set out|covered|dealt with|described|handled|found|governed) (?:in|by|under)\s+(?:the|our|a separate)\s+"
                        r"(?:[A-Z][\w-]*\s+){1,6}?(?:Policy|Agreement|Procedure|Standard|Handbook|Guide|Terms|Schedule|Code)\b"
                        r"|\bsee (?:the|our) (?:[A-Z][\w-]*\s+){1,6}?(?:Policy|Agreement|Procedure|Standard|Handbook|Guide)\b")
# a question about what a policy covers is answered by the sentence saying it does not
_ASKS_SCOPE = re.compile(r"\b(?:cover|covers|covered|apply|applies|scope|included|include|excluded|exclude)\b", re.IGNORECASE)


def _points_elsewhere(sentence: str, own_title: str = "") -> bool:
    """Whether the sentence says its policy does not deal with the thing ("... a clothing
    allowance through the payroll, which is not covered by this policy") or names another
    document that does ("Season ticket loans ... are covered by the Travel Policy"), not the
    policy it is in."""
    if _NOT_DEALT_WITH_HERE.search(sentence):
        return True  # (not "This policy does not apply to contractors, who have no paid leave": that answers)
    own = " ".join(words(own_title.lower()))
    for m in _ELSEWHERE.finditer(sentence):
        named = " ".join(w for w in words(m.group(0).lower()) if w not in _POINTING_WORDS)
        if not own or not named or named not in own:
            return True
    return False


_NOT_DEALT_WITH_HERE = re.compile(r"\b(?:(?:is|are)\s+not|isn't|aren't)\s+(?:covered|dealt with|addressed)\s+(?:by|in|under)\s+"
                                  r"this\s+(?:policy|procedure|scheme|handbook|document)\b|\boutside the scope of this\b", re.IGNORECASE)
_POINTING_WORDS = frozenset("set out covered dealt with described handled found governed in by under the our a separate see".split())


def _covered_elsewhere(decision: Decision, pointing: list[Evidence], ranked: list[Evidence], sentence: str) -> Answer:
    """Not covered here: the sentence saying which document covers it is quoted, and its section
    comes first among the closest (never cited as an answer)."""
    text = f"The policies you can see do not cover this question. The closest section says where it is dealt with: “{sentence.strip()}”"
    first = {e.key for e in pointing}
    closest = _closest(pointing + [e for e in ranked if e.key not in first])
    return Answer(text, NOT_COVERED, closest=closest, missing=decision.missing)


def _closest(ranked: list[Evidence]) -> list[Evidence]:
    """Up to three distinct sections of the ranked evidence, best first."""
    out, seen = [], set()
    for e in ranked:
        place = e.section_key if e.section_key is not None else e.breadcrumb
        if place in seen:
            continue
        seen.add(place)
        out.append(e)
        if len(out) == MAX_CLOSEST:
            break
    return out


def _not_mentioned_sentence(missing: list[str], cited: list[Evidence]) -> str:
    """What the cited sections leave out: the things they do not mention, and the kind of value
    they do not give ("how much", "how many phd students"), said as such."""
    del cited
    values = [m for m in missing if _VALUE_KIND.match(m)]
    things = [m for m in missing if m not in values]
    parts = ([f"do not mention {_listing(things)}"] if things else []) + \
        ([f"do not say {_listing(values, quote=False)}"] if values else [])
    return f"The cited sections {' and '.join(parts)}."


_VALUE_KIND = re.compile(r"(?:how|which|who)\b")


def _listing(items: list[str], quote: bool = True) -> str:
    items = [i if len(i) <= 60 else i[:57] + "…" for i in items if i.strip()]
    items = [f"“{i}”" if quote and len(i.split()) > 3 else i for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" or {items[-1]}"


def _glossary_units(pool: list[Evidence]) -> tuple[list[list[str]], list[tuple[list[str], tuple[int, ...]]]]:
    """Each piece of evidence as a unit, except that a glossary (a chunk defining two terms or
    more) is read one definition at a time: its words together describe nothing ("doctorate",
    "conference grant" and "funding" from three definitions do not say what a grant is worth).
    Returns the units of the pieces (a glossary's: what it says besides its definitions) and
    each definition as a unit of its own, with the index of its piece."""
    own: list[list[str]] = []
    entries: list[tuple[list[str], tuple[int, ...]]] = []
    for i, e in enumerate(pool):
        spans = definition_spans(e.text)
        if len({term for term, _ in spans}) < 2:
            own.append([e.text, e.breadcrumb])
            continue
        defined = {p for _, p in spans}
        rest = [p for p in e.text.splitlines() if p.strip() and not any(p.strip() in d or d in p for d in defined)]
        own.append(["\n".join(rest), e.breadcrumb])
        entries += [([paragraph, e.breadcrumb], (i,)) for paragraph in dict.fromkeys(defined)]
    return own, entries


def _paired_units(pool: list[Evidence]) -> list[tuple[list[str], tuple[int, int]]]:
    """A definition and a rule that uses its term read as one unit, whichever of them the
    search ranked and whichever was fetched: together they carry a question about the thing
    defined ("the system that stores card data") and the rule. A fetched referenced section
    reads with each definition too. Each unit comes with the indices of its two pieces."""
    out = []
    for i, d in enumerate(pool):
        paragraphs = definition_spans(d.text)
        if not paragraphs:
            continue
        for j, use in enumerate(pool):
            if use is d:
                continue
            # only the definitions of the terms the rule uses (a glossary defines many things)
            said = [p for term, p in paragraphs if mentions(use.text, term)]
            if use.role == ROLE_REFERENCE and not said:
                said = [p for _, p in paragraphs]
            if said:
                out.append(([*dict.fromkeys(said), d.breadcrumb, _using_text(use, said, paragraphs), use.breadcrumb], (i, j)))
    return out


def _using_text(use: Evidence, said: list[str], paragraphs: list[tuple[str, str]]) -> str:
    """What of a piece uses the defined terms: all of a rule, but of a glossary only the
    definitions naming them ("Discounted spend means ... bought with the discount card"): the
    glossary's other entries say nothing of the term (the words of a lost-card definition and a
    price in another do not make a fee for replacing the card)."""
    entries = definition_spans(use.text)
    if len({term for term, _ in entries}) < 2:
        return use.text
    terms = [term for term, p in paragraphs if p in said]
    return "\n".join(dict.fromkeys(p for _, p in entries if any(mentions(p, t) for t in terms)))


# --------------------------------------------------------------------------- sentences


def _choose(question: str, pool: list[Evidence], *, skip_tables: set, decision: Decision | None,
            about: list[str] | None = None, only: set[int] | None = None,
            rows_refer_to: set[str] = frozenset()) -> list[_Candidate]:
    candidates = [c for i, e in enumerate(pool) if only is None or i in only for c in _candidates(i, e, skip_tables)]
    if not candidates:
        return []
    relevance = _relevance(pool)
    _score(question, candidates, relevance)
    every_candidate = candidates  # a section a chosen sentence refers to may carry no ask itself
    if decision is not None:
        # only the units that carry an ask take part
        allowed = {u for u in decision.carried_pieces if u < len(pool)} or None
        if allowed is not None:
            must = {i for i, e in enumerate(pool) if e.role in _FETCHED_RULES}
            must |= {i for i, e in enumerate(pool) if about and any(mentions(e.text, t) for t in about)}
            keep = [c for c in candidates if c.unit in allowed or c.unit in must or _pairs_with(pool, c.unit, allowed)]
            candidates = keep or candidates
    best = max(c.score for c in candidates)
    ranked = sorted(candidates, key=lambda c: -c.score)
    chosen = _best_rows_only([c for c in ranked if c.score >= best - SENTENCE_WINDOW])[:MAX_SENTENCES]
    chosen += _about_terms(question, candidates, chosen, about) if about else _fetched_rules(question, pool, candidates, chosen)
    chosen += _referenced(pool, every_candidate, chosen, rows_refer_to)
    chosen += _value_sentences(decision, every_candidate, chosen)
    chosen += _conditions_met(question, pool, every_candidate, chosen)
    by_unit: dict[int, list[_Candidate]] = {}
    for c in every_candidate:
        by_unit.setdefault(c.unit, []).append(c)
    keep_ids = {id(c) for c in chosen}
    for c in list(chosen):
        _keep_context(by_unit[c.unit], c, keep_ids)
        if c.lead_in:
            _keep_what_it_introduces(by_unit[c.unit], c, keep_ids)
    return [c for c in every_candidate if id(c) in keep_ids]


CONDITIONS_MET_MAX = 2  # sentences whose condition the asker's told quantity meets, added to an answer


def _conditions_met(question: str, pool: list[Evidence], candidates: list[_Candidate], chosen: list[_Candidate]) -> list[_Candidate]:
    """Sentences, in the policies of the chosen ones, that set a condition a quantity the asker
    tells meets, or a limit it breaks ("... the job only took me 40 minutes": "Section 7.1 does
    not apply where the call-out work was less than one hour"), sharing a word of substance with
    the question besides the measure: they decide the asker's case."""
    told = told_quantities(question) if chosen else []
    if not told:
        return []
    policies = {pool[c.unit].policy for c in chosen}
    # (the measure's own words are no shared topic: "five separate times", "three shifts")
    measures = {stem(q.measure.split()[-1]) for q in told} | _QUANTITY_WORDS
    asked = {t.stem for t in key_terms(question) if not t.generic} - measures
    have = {id(c) for c in chosen}
    found = [c for c in candidates if id(c) not in have and not c.row and pool[c.unit].policy in policies
             and asked & stems_of(c.text) and decides_the_case(told, c.text)]
    return sorted(found, key=lambda c: -c.score)[:CONDITIONS_MET_MAX]


_QUANTITY_WORDS = frozenset(stem(w) for w in ("minute", "hour", "day", "week", "month", "year", "time", "occasion", "separate"))


def _value_sentences(decision: Decision | None, candidates: list[_Candidate], chosen: list[_Candidate]) -> list[_Candidate]:
    """For an ask whose rule lacks the kind of value asked for and another unit gives it ("and
    how much?"), that unit's best sentence giving it."""
    if decision is None:
        return []
    out = []
    have = {id(c) for c in chosen}
    for ask in decision.asks:
        if ask.value_unit is None or ask.best_unit not in decision.carried_units:
            continue
        pieces = set(decision.members.get(ask.value_unit, (ask.value_unit,)))
        giving = [c for c in candidates if c.unit in pieces and not missing_value(ask.text, c.text)]
        if giving:
            best = max(giving, key=lambda c: c.score)
            if id(best) not in have:
                have.add(id(best))
                out.append(best)
    return out


def _pairs_with(pool: list[Evidence], unit: int, allowed: set[int]) -> bool:
    """A definition whose rule is allowed (the pair carries the ask together)."""
    e = pool[unit]
    return bool(defined_terms(e.text)) and any(pool[a].role in _FETCHED_RULES for a in allowed)


def _about_terms(question: str, candidates: list[_Candidate], chosen: list[_Candidate], about: list[str]) -> list[_Candidate]:
    """For each defined term the question is about: the best sentence of a rule that uses it,
    and the sentence that defines it (both are cited)."""
    out = []
    have = {id(c) for c in chosen}
    for term in about:
        asked = [t for t in key_terms(question) if not t.generic and t.stem not in stems_of(term)]
        definitions = [c for c in candidates if term in defined_terms(c.text)]
        glossary = {c.unit for c in definitions}
        uses = [c for c in candidates if mentions(c.text, term) and term not in defined_terms(c.text)]
        # a rule, not the glossary's own next sentence ("... are all Privileged Accounts")
        uses = [c for c in uses if c.unit not in glossary] or uses
        agree = {u: agreements(question, " ".join(c.text for c in candidates if c.unit == u)) for u in {c.unit for c in uses}}
        for group in (uses, definitions):
            if group:
                # every use holds the term: the one holding most of the question's own words,
                # then the one whose rule denies what the asker denies
                best = max(group, key=lambda c: (len(carried_by(asked, stems_of(c.text))), _gives_asked_kind(question, c.text),
                                                 agree.get(c.unit, 0), c.score))
                if id(best) not in have:
                    have.add(id(best))
                    out.append(best)
                if group is uses:
                    # the rule's sentence that denies what the asker denies ("One that has not been
                    # used for 45 days is disabled" for "a login I haven't used")
                    for c in candidates:
                        if c.unit == best.unit and id(c) not in have and agreements(question, c.text):
                            have.add(id(c))
                            out.append(c)
    return out


def _gives_asked_kind(question: str, sentence: str) -> bool:
    """Whether the sentence gives the kind of value the question asks for: a person or body for
    "who" ("must be approved by the Pro-Vice-Chancellor"), a duration for "how long", and so on."""
    who = gives_who(question, sentence)
    return who if who is not None else not missing_value(question, sentence)


def _fetched_rules(question: str, pool: list[Evidence], candidates: list[_Candidate], chosen: list[_Candidate]) -> list[_Candidate]:
    """Each fetched rule (that uses a defined term, or a referenced section) gives its best
    sentence: the one holding the term when it is a definition's rule."""
    out = []
    chosen_units = {c.unit for c in chosen}
    definitions = [t for c in chosen for t in defined_terms(pool[c.unit].text)] or [
        t for e in pool if e.rank > 0 for t in defined_terms(e.text)
    ]
    for unit, e in enumerate(pool):
        if e.role not in _FETCHED_RULES or unit in chosen_units:
            continue
        own = [c for c in candidates if c.unit == unit]
        if e.role == ROLE_DEFINITION_USE:
            own = [c for c in own if any(mentions(c.text, t) for t in definitions)] or own
        if own:
            out.append(max(own, key=lambda c: c.score))
    return out


def _referenced(pool: list[Evidence], candidates: list[_Candidate], chosen: list[_Candidate],
                rows_refer_to: set[str] = frozenset()) -> list[_Candidate]:
    """The best sentence of each section that a chosen sentence refers to, fetched or ranked in
    the same policy ("asks for an exception as described in 9.1" brings 9.1's rule), and of each
    section of the evidence that a named row refers to ("Up to a balance of 30 days (see 3.3)"):
    the reference alone answers nothing."""
    numbers = {n for c in chosen for n in referenced_sections(c.text)}
    # a section the search ranked too is the one referred to when it is in the referring policy
    own_numbers = {(pool[c.unit].policy, n) for c in chosen for n in referenced_sections(c.text)}
    chosen_units = {c.unit for c in chosen}
    out = []
    for unit, e in enumerate(pool):
        if unit in chosen_units:
            # "... salary safeguarding as set out in 8.3" with 8.3 further down the same chunk:
            # its clause joins the sentences chosen from it
            mine = {n for c in chosen if c.unit == unit for n in referenced_sections(c.text)}
            paragraph = _numbered_paragraph(e, mine)
            if paragraph is not None and not any(c.unit == unit and c.paragraph == paragraph for c in chosen):
                out += _clause_rule([c for c in candidates if c.unit == unit and c.paragraph == paragraph])
            continue
        if e.role == ROLE_REFERENCE:
            wanted = rows_refer_to | numbers
        else:
            wanted = rows_refer_to | {n for policy, n in own_numbers if policy == e.policy}
        if _numbered(e, wanted):
            own = [c for c in candidates if c.unit == unit]
        else:  # a clause numbered in the text ("6.4 Late recording. The Committee will ...")
            paragraph = _numbered_paragraph(e, wanted)
            if paragraph is None:
                continue
            out += _clause_rule([c for c in candidates if c.unit == unit and c.paragraph == paragraph])
            continue
        if own:
            out.append(max(own, key=lambda c: (c.position == 0, c.score)))
    return out


def _sections_named(text: str, e: Evidence, section: Evidence) -> set[str]:
    """The section numbers the text (of evidence e) sends the reader to in the policy of `section`:
    its own numbers ("see 4.2") in its own policy, another document's ("section 4.1 of
    WFRS-OPS-03") in another."""
    if e.policy == section.policy:
        return set(referenced_sections(text))
    return {number for number, _, _ in other_document_references(text)}


def _refers_to_a_fetched_section(e: Evidence, pool: list[Evidence]) -> bool:
    """Whether the evidence sends the reader to a section fetched as a reference."""
    return e.role != ROLE_REFERENCE and any(
        r.role == ROLE_REFERENCE and _numbered(r, _sections_named(e.text, e, r)) for r in pool)


def _clause_rule(own: list[_Candidate]) -> list[_Candidate]:
    """The best sentence of a numbered clause's paragraph: its rule, not its title ("6.4 Late
    recording."); none for an empty paragraph."""
    own = [c for c in own if len(words(c.text)) > CLAUSE_TITLE_WORDS] or own
    return [max(own, key=lambda c: (c.position == 0, c.score))] if own else []


CLAUSE_TITLE_WORDS = 4  # "6.4 Late recording.": a numbered clause's title, not its rule


def _numbered_paragraph(e: Evidence, numbers: set[str]) -> int | None:
    """The index of the evidence's paragraph (as its sentence candidates count them) that opens
    with one of the section numbers, when the evidence is text."""
    if e.table is not None or not numbers:
        return None
    for i, line in enumerate(_text_lines(e.text)):
        if any(re.match(rf"(?:\*\*)?{re.escape(n)}\.?(?:\*\*)?\s", line) for n in numbers):
            return i
    return None


def _numbered(e: Evidence, numbers: set[str]) -> bool:
    """Whether the evidence's own heading carries one of the section numbers."""
    last = e.breadcrumb.rsplit(" > ", 1)[-1]
    return any(re.match(rf"{re.escape(n)}\.?\s", last) for n in numbers)


def _row_text(table: TableData, row: TableRow) -> str:
    """A row without its own sentence, read with its headers."""
    return row_sentence_text(RowMatch(table, (row,)), row).rstrip(".")


def _relevance(pool: list[Evidence]) -> list[float]:
    known = [e.similarity for e in pool if e.similarity is not None]
    floor = min(known) if known else 0.3
    return [float(e.similarity) if e.similarity is not None else floor for e in pool]


def _candidates(unit: int, e: Evidence, skip_tables: set) -> list[_Candidate]:
    if e.table is not None:
        if _table_id(e.table) in skip_tables:
            return []
        if e.kind == "table_row" and e.text:
            return [_Candidate(unit, 0, e.text, row=True)]
        out = _lead_sentences(unit, e)
        rows = [r.sentence or _row_text(e.table, r) for r in e.table.rows]
        first = len(out)
        paragraphs = max((c.paragraph for c in out), default=-1) + 1
        return out + [_Candidate(unit, first + i, text, paragraph=paragraphs + i, row=True) for i, text in enumerate(rows)]
    return _sentence_candidates(unit, _text_lines(e.text))


def _text_lines(text: str) -> list[str]:
    """The paragraphs of a text chunk, one a line, as its sentence candidates number them."""
    return [line.strip() for line in text.splitlines() if line.strip() and not is_delimiter_line(line)]


def _sentence_candidates(unit: int, lines: list[str]) -> list[_Candidate]:
    """Each sentence of the lines (one paragraph a line), in order."""
    out: list[_Candidate] = []
    for paragraph, line in enumerate(lines):
        for sentence in split_sentences_quick(line):
            out.append(_Candidate(unit, len(out), sentence, paragraph=paragraph, lead_in=is_lead_in(sentence)))
    return out


def _lead_sentences(unit: int, e: Evidence) -> list[_Candidate]:
    """The sentences a table's chunk states before the table ("Resident On-Call is paid as a flat
    amount per period, not as a percentage"): rules of their own, read as any text is."""
    caption = e.table.caption.strip()
    lines = []
    for line in e.text.splitlines():
        line = line.strip()
        if line.startswith("|") or (caption and line == caption):
            break
        if line:
            lines.append(line)
    return _sentence_candidates(unit, lines)


def _score(question: str, candidates: list[_Candidate], relevance: list[float]) -> None:
    """Chunk nearness (already computed by the search) plus the share of the question's terms a
    sentence holds, each term weighted by how rare it is among the candidates: "L4" (in one
    row) counts for much more than "Mumbai" (in every row's header)."""
    terms = {s for s in stems_of(question) if s not in STOP_STEMS}
    said = {t: equivalents(t) for t in terms}  # a term is held by any of its synonyms
    candidate_terms = [stems_of(c.text) for c in candidates]
    held = [{t for t in terms if said[t] & ct} for ct in candidate_terms]
    weights = {t: math.log(1 + len(candidates) / (1 + sum(t in h for h in held))) for t in terms}
    total = sum(weights.values())
    for c, present in zip(candidates, held):
        rank_bonus = 0.03 / (1 + c.unit)
        c.similarity = relevance[c.unit]
        c.shared = sum(weights[t] for t in present) / total if total else 0.0
        c.score = c.similarity + rank_bonus + LEXICAL_WEIGHT * c.shared




def _best_rows_only(chosen: list[_Candidate]) -> list[_Candidate]:
    """Of one table's rows, only those holding the most of the question; when none holds more
    than the others (the question names no row), all of them stay."""
    best: dict[int, float] = {}
    for c in chosen:
        if c.row:
            best[c.unit] = max(best.get(c.unit, 0.0), c.shared)
    return [c for c in chosen if not c.row or c.shared >= best[c.unit] - 1e-9]


def _keep_what_it_introduces(siblings: list[_Candidate], lead_in: _Candidate, keep: set[int], limit: int = 12) -> None:
    for sibling in siblings[lead_in.position + 1 : lead_in.position + 1 + limit]:
        if sibling.lead_in:
            break
        keep.add(id(sibling))


def _keep_context(siblings: list[_Candidate], chosen: _Candidate, keep: set[int]) -> None:
    """The conditions and exceptions after a chosen sentence (in its paragraph, and following
    paragraphs that open by qualifying it), the rest of a chosen definition (up to the next
    definition in its paragraph), the rule a chosen qualifier refers back to, and the lead-in a
    chosen list item depends on."""
    position = chosen.position
    following = position + 1
    defines = bool(defined_terms(chosen.text))
    while following < len(siblings) and siblings[following].paragraph == chosen.paragraph:
        if defines and not defined_terms(siblings[following].text):
            # a definition goes on until the next one ("A course agreed only verbally ... is not an
            # approved course"): the whole definition is the evidence
            keep.add(id(siblings[following]))
            following += 1
            continue
        if not is_qualifier(siblings[following].text) and not states_its_conditions(siblings[following].text):
            break
        keep.add(id(siblings[following]))
        following += 1
    paragraph = chosen.paragraph + 1
    while (opener := next((s for s in siblings if s.paragraph == paragraph), None)) is not None and is_qualifier(opener.text):
        keep.update(id(s) for s in siblings if s.paragraph == paragraph)
        paragraph += 1
    if not defines:
        # a sentence that goes on with a definition brings the sentence that defines the term
        for sibling in reversed(siblings[:position]):
            if sibling.paragraph != chosen.paragraph:
                break
            if defined_terms(sibling.text):
                keep.add(id(sibling))
                break
    back = position
    while back > 0 and is_qualifier(siblings[back].text):
        back -= 1
        keep.add(id(siblings[back]))
    for sibling in reversed(siblings[:position]):
        if sibling.lead_in:
            keep.add(id(sibling))
            break
        if sibling.paragraph != chosen.paragraph and not any(s.lead_in and s.paragraph < sibling.paragraph for s in siblings):
            break


# "It is paid only when ...", "They are not payable where ...", "This is reduced if ...": a
# sentence whose subject is the thing the sentence before it is about, stating when it holds
_ITS_CONDITIONS = re.compile(
    r"^(?:it|they|this|these|such\s+\w+)\s+(?:is|are|will\s+be|may\s+be|can\s+be|must\s+be|shall\s+be)\s+"
    r"(?:not\s+|only\s+|also\s+)?(?:\w+\s+){0,3}?(?:only\s+)?(?:when|where|if|unless|after|before|until|once|provided)\b",
    re.IGNORECASE)


def states_its_conditions(sentence: str) -> bool:
    """Whether a sentence goes on about the thing the sentence before it names, saying when it
    holds ("It is paid only when the shift was a Short-Notice Shift"): a condition of that rule."""
    return _ITS_CONDITIONS.match(sentence.strip()) is not None


def join_sentences(sentences: list[str]) -> str:
    """Join sentences; table rows that share a caption ("Table 1: ...: row") state it once."""
    return _join_sentences(sentences)


def _join_sentences(sentences: list[str]) -> str:
    prefix = _shared_label(sentences)
    if prefix:
        rows = [s[len(prefix):].strip() for s in sentences]
        return prefix.rstrip() + " " + "; ".join(r.rstrip(".") for r in rows) + "."
    out = ""
    for sentence in sentences:
        separator = "\n" if _ITEM.match(sentence) else " "
        out = f"{out}{separator}{_as_sentence(sentence)}" if out else _as_sentence(sentence)
    return out


_ITEM = re.compile(r"^(?:[-*\u2022]\s|\(?\w{1,3}[.)]\s)")


def _shared_label(sentences: list[str]) -> str:
    if len(sentences) < 2:
        return ""
    common = os.path.commonprefix(sentences)
    cut = common.rfind(": ")
    return common[: cut + 2] if cut >= 8 else ""


def _as_sentence(text: str) -> str:
    text = text.strip()
    return text if text[-1:] in ".!?:;" else text + "."


def candidate_sentences(e: Evidence) -> list[str]:
    """The sentences of one piece of evidence as the answerer reads them (for version notices)."""
    return [c.text for c in _candidates(0, e, set())]


__all__ = ["compose_answer", "candidate_sentences", "join_sentences", "NOT_COVERED_TEXT", "words"]
