"""Words that look like the question's but speak of something else: a unit listing other kinds of
a general word ("maternity, adoption or shared parental leave") does not carry the kind asked
("paternity"); "leave" in a policy is time off, never "resign" through word vectors; and a word
after an article and an adjective ("a new uniform") is a thing the question asks about."""
from policypal.answering.coverage import _carries, decide, names_a_thing, question_terms, unit_stems
from policypal.answering.evidence import ANSWERED, NOT_COVERED, PARTLY


def _term(question, word):
    return next(t for t in question_terms(question) if t.word == word)


def test_a_unit_naming_other_kinds_of_the_general_word_does_not_carry_the_asked_kind():
    paternity = _term("How long is paternity leave?", "paternity")
    siblings = unit_stems(["Carry-over is allowed after sickness absence or maternity, adoption or shared parental leave."])
    assert not _carries(paternity, siblings)


def test_the_general_word_alone_still_carries_a_kind_of_it():
    paternity = _term("How long is paternity leave?", "paternity")
    assert _carries(paternity, unit_stems(["Parental leave of two weeks is paid to either parent."]))
    assert _carries(paternity, unit_stems(["Paternity leave is two weeks at full pay."]))


def test_a_question_about_a_kind_the_unit_only_lists_beside_others_is_not_answered():
    unit = [["7.2 The carry-over limit does not apply after maternity, adoption or shared parental leave."]]
    decision = decide("How long is paternity leave?", unit, corpus_mentions={})
    assert decision.outcome != ANSWERED


def _vectors(pairs):
    def related(word, others):
        return max((pairs.get((word, o), 0.0) for o in others), default=0.0)
    return related


def test_leave_never_stands_for_resign_through_word_vectors():
    table = [["Holiday booking rules: Notice for 5 or more days: 4 weeks; Maximum on leave at once: 12%."]]
    related = _vectors({("resign", "leave"): 0.64})
    decision = decide("What notice do I have to give if I want to resign?", table, corpus_mentions={}, related=related)
    assert decision.outcome in (PARTLY, NOT_COVERED)
    assert "resign" in " ".join(decision.missing)


def test_another_close_word_still_reads_as_a_synonym():
    unit = [["Employees who quit must give four weeks' notice."]]
    related = _vectors({("resign", "quit"): 0.7})
    assert decide("What notice do I have to give if I resign?", unit, corpus_mentions={}, related=related).outcome == ANSWERED


def test_a_word_after_an_article_and_an_adjective_is_a_thing():
    assert names_a_thing("uniform", "how often can I get a new uniform issued")
    assert names_a_thing("laptop", "can I take my old laptop home")
    assert not names_a_thing("pay", "will they pay for it")


def test_the_sentence_after_gives_the_value_only_when_it_goes_on_about_the_same_thing():
    other_kind = [["No engineer is put on call during approved annual leave. Engineers returning from parental "
                   "leave are exempt from the rotation for their first 30 days back."]]
    assert decide("How many days of annual leave do I get each year?", other_kind, corpus_mentions={}).outcome != ANSWERED
    continued = [["Annual leave is booked through the HR portal. The entitlement is 25 days each year."]]
    assert decide("How many days of annual leave do I get each year?", continued, corpus_mentions={}).outcome == ANSWERED
