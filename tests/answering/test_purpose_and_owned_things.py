"""What the asker wants a thing for ("... so I can read it on the train") sets the scene of the
ask, as a sentence before the question does: its words weigh half, so a rule that carries the ask
itself is a partial answer, not "not covered". Things written as someone's ("my own iPad", "a
company laptop") are read with their owner's side."""
from policypal.answering.coverage import decide, owned_things, purpose_of

RULE = ["Client Information must be stored only on Firm systems. It must not be saved to Personal Devices. "
        "A Personal Device is any phone, tablet or computer not issued by the Firm.", "Data Handling > 6.1"]


def test_the_purpose_of_a_question():
    assert purpose_of("Can I save it onto my iPad so I can read it on the train?") == "so I can read it on the train?"
    assert purpose_of("Can we book the hall in order to hold a leaving do?") == "in order to hold a leaving do?"
    assert purpose_of("Can I work so long that I miss my break?") == ""


def test_the_purpose_weighs_as_the_scene():
    mentioned = {"draft": True, "contract": True, "read": True, "train": True}
    with_purpose = decide("Can I save a client's draft contract onto my own iPad so I can read it on the train?", [RULE],
                          corpus_mentions=mentioned)
    assert with_purpose.outcome == "partly"
    # the same words asked for themselves are the ask: not carried, not covered
    asked = decide("Can I save a client's draft contract onto my own iPad and read it on the train?", [RULE],
                   corpus_mentions=mentioned)
    assert asked.outcome == "not_covered"


def test_things_written_as_someones():
    assert owned_things("can i download student records onto my own ipad to work on at home?") == {"ipad": "personal"}
    assert owned_things("Can I use a company laptop abroad?") == {"laptop": "employer"}
    assert owned_things("Can I use an iPad at home?") == {}
