"""The kinds a definition lists, read as short names: the list it opens with, a list of
examples after "such as", and a sentence opening with a list; who or what a clause names in
passing is no kind of the term."""
from policypal.answering.definitions import listed_kinds


def test_the_kinds_a_definition_lists():
    assert listed_kinds('"Personal Device" means any phone, tablet or computer that has not been issued by the Firm.') == \
        ["phone", "tablet", "computer"]
    assert listed_kinds("Confined space means an enclosed place, such as a tank, sewer, chamber or silo, where there is a risk.") == \
        ["tank", "sewer", "chamber", "silo"]
    assert listed_kinds("Confined space means an enclosed place where there is a risk. Service reservoirs, chambers, wet "
                         "wells, sewers and tanks are confined spaces.") == ["Service reservoirs", "chambers", "wet wells", "sewers"]
    # who calls is no kind of call-out
    assert listed_kinds('"Call-out" means an occasion when the employee is contacted by the Hub, a colleague or a patient.') == []
