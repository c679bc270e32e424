"""Seen in the blind run of holdout30 (a software company): a row named by more of its words than
another ("read-write access" beside "Read-only access", under a caption that is a sentence about
access); a column named by its initials ("EU" for "European Union"); a spelt number after the
label column's name ("level twelve" for E12); a cell the asker tells ("I'm an E6 Staff Engineer")
is not what they ask; and a row named exactly answers only when its cells give the kind of value
asked for ("how many on-call weeks" is no stipend)."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED, PARTLY

from .row_helpers import named, ranked_tables, table

TIERS = table(
    ["Tier", "What it allows", "Who approves"],
    [["Tier 0", "Aggregated metrics with no customer identifiers", "Self-service"],
     ["Tier 2", "Read-only access to Customer Data", "Engineering manager"],
     ["Tier 3", "Read-write access to Customer Data", "Director of Engineering"],
     ["Tier R", "Any access to Restricted Data", "CISO"]],
    caption="All access to the production environment is requested through the access portal at one of the tiers below",
)


def test_the_row_holding_more_of_the_askers_words_is_named():
    assert named("Who has to sign off when I need read-write access to a customer's data?", TIERS)[1] == ["Tier 3"]
    assert named("Who approves read-only access to customer data?", TIERS)[1] == ["Tier 2"]


STIPENDS = table(["Level", "United States", "Canada", "United Kingdom", "European Union"],
                 [["E4", "$490", "$436", "$455", "$428"], ["E6", "$595", "$527", "$553", "$516"]],
                 caption="Table 2: Weekly on-call stipend by level and region")


def test_a_column_is_named_by_its_initials_in_capitals():
    assert named("weekly on-call stipend E4 EU", STIPENDS)[3] == ["European Union"]
    assert named("E6 stipend in the UK", STIPENDS)[3] == ["United Kingdom"]
    assert named("E6 stipend, eu", STIPENDS)[3] != ["European Union"]  # lower case is a word, not initials


BANDS = table(["Level", "Typical engineering title", "Band minimum", "Band maximum", "Target bonus"],
              [[f"E{i}", "Staff Engineer" if i == 6 else f"Engineer {i}", f"${100 + i},000", f"${200 + i},000", f"{3 * i}%"]
               for i in range(1, 13)])


def test_a_spelt_number_after_the_label_columns_name_is_its_code():
    assert named("What's the bonus target for someone at level twelve?", BANDS)[1:4:2] == (["E12"], ["Target bonus"])
    assert named("band maximum at level three", BANDS)[1] == ["E3"]
    assert named("I am at level one hundred", BANDS) is None or named("I am at level one hundred", BANDS)[1] != ["E1"]


def test_a_cell_the_asker_tells_is_not_the_column_asked():
    how, rows, _, columns = named("I'm an E6 Staff Engineer - what's the most my base salary can be within the band?", BANDS)
    assert rows == ["E6"] and "Typical engineering title" not in columns
    assert named("What is the engineering title for E6?", BANDS)[3] == ["Typical engineering title"]


def test_a_row_named_exactly_does_not_answer_a_count_its_cells_do_not_give():
    evidence = ranked_tables(("On-call > 5 Stipend", STIPENDS))
    counted = compose_answer("How many on-call weeks do I need to have done before I can be promoted to E6?", evidence,
                             corpus_mentions={})
    assert counted.outcome == PARTLY
    asked = compose_answer("What is the weekly on-call stipend for E6 in the UK?", evidence, corpus_mentions={})
    assert asked.outcome == ANSWERED and "$553" in asked.text
