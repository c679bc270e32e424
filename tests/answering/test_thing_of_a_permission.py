"""A question asking whether the asker may do something with a thing ("Can I take my bakery
tunic home and wash it myself?") is not a look-up of that thing's row: a table that lacks a row
of that name ("Polo shirt or tunic", "Fleece", ...) does not make the answer "no row for bakery
tunic" when a rule answers the ask. A code or number the table lacks is still absent."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import Evidence

from .row_helpers import ranked_tables, table

CHARGES = table(["Item", "Charge if not returned"],
                [["Polo shirt or tunic", "£8"], ["Fleece", "£15"], ["Gilet", "£12"], ["Thermal jacket", "£30"]],
                caption="Table 2: Charges for unreturned uniform items")
BANDS = table(["Band", "Allowance"], [["B1", "£10"], ["B2", "£12"], ["B3", "£14"]], caption="Table 4: Uniform allowance by band")
LAUNDRY = Evidence(5, "Uniform Policy > 5. Uniform care and return",
                   "Colleagues launder their own uniform, except for food handling roles. Tunics, hats and aprons for food "
                   "handling roles are laundered by the contracted laundry service and must not be taken home.",
                   policy="uniform", rank=2, similarity=0.5)


def test_a_permission_about_a_thing_is_answered_by_the_rule():
    evidence = ranked_tables(("Uniform Policy > 5. Uniform care and return", CHARGES)) + [LAUNDRY]
    # (the policies launder, they never wash: the question's other words are the row's)
    answer = compose_answer("Can I take my bakery tunic home and wash it myself?", evidence, corpus_mentions={"wash": False})
    assert "no row for" not in answer.text
    assert "must not be taken home" in answer.text


def test_a_code_the_table_lacks_is_still_absent():
    evidence = ranked_tables(("Uniform Policy > 4. Allowance", BANDS)) + [LAUNDRY]
    answer = compose_answer("Can I get the uniform allowance for band B7?", evidence, corpus_mentions={})
    assert answer.outcome == "not_covered" and "no row for B7" in answer.text
