"""Workplace words an asker uses for the policy's own: each pair is carried by the lexicon (their
word vectors are too far apart to say so), and "let" asks what "allowed" asks."""
import pytest

from policypal.answering.coverage import decide
from policypal.answering.terms import key_terms


@pytest.mark.parametrize("question, unit, word", [
    ("Should I chase a shoplifter out of the shop?", "Never run after a person suspected of theft once they leave the shop.", "shoplift"),
    ("Should I chase a shoplifter out of the shop?", "Never run after a person suspected of theft once they leave the shop.", "chase"),
    ("Can I skip my tea break?", "A break that is not taken cannot be added to the end of the shift.", "skip"),
    ("Does a lorry need a permit to come on site?", "Every delivery vehicle needs a gate permit to come on site.", "lorri"),
    ("Can my director approve a rush order?", "In an emergency a director may approve an order by email.", "rush"),
    ("How often must the sharps bin be swapped?", "Sharps bins are replaced when three-quarters full.", "swap"),
    ("Can I follow two courses simultaneously?", "No employee may follow two funded courses concurrently.", "simultan"),
    ("Can I paste client notes into a chatbot?", "Client data must never be entered into an AI tool.", "chatbot"),
    ("Can I paste client notes into a chatbot?", "Client data must never be entered into an AI tool.", "paste"),
    ("Must flammable waste be kept away from grinding?", "No hot work within 10 metres of combustible materials.", "grind"),
    ("Who has to be in the cockpit during a tow?", "A brake operator must be in the flight deck during a tow.", "cockpit"),
    ("Can both staff on the trip be women?", "The trip must include at least one male and one female member of staff.", "women"),
    ("We're taking boys and girls on the trip. Who must come?", "A trip with a mixed group must include a first aider.", "girl"),
])
def test_the_askers_word_is_carried_by_the_policys(question, unit, word):
    decision = decide(question, [[unit]])
    assert word in decision.asks[0].carried, (word, decision.asks[0].carried)


def test_let_is_asked_as_allowed_is():
    assert "let" not in {t.stem for t in key_terms("Can I let a friend use my discount card?") if not t.generic}



def test_sick_pay_is_one_thing():
    # "illness" in one sentence and "payments" in another do not say what sick pay is
    unit = [["Emergency swaps of a rota week caused by illness may be recorded afterwards. "
             "Standby payments follow the person on the rota."]]
    assert decide("How much sick pay do I get if I'm off ill?", unit).outcome != "answered"
    assert decide("How much sick pay do I get if I'm off ill?",
                  [["Statutory sick pay of GBP 116.75 a week is paid from the fourth day of illness."]]).outcome == "answered"


def test_working_from_home_is_carried_by_the_phrase_not_by_a_home_base():
    from policypal.answering.coverage import carried_by
    from policypal.answering.terms import key_terms, stems_of

    home = [t for t in key_terms("Can transport planners work from home a couple of days a week?") if t.stem == "home"]
    assert home and home[0].phrases
    assert not carried_by(home, stems_of("15% of Drivers per Home Base"))
    assert carried_by(home, stems_of("Staff may work remotely for up to two days a week"))


def test_a_long_service_award_is_not_carried_by_another_award():
    # "long service" is one thing: an award for something else does not answer for it
    award = ("A Head of Service may award one accelerated increment in any 12-month period where an employee has "
             "performed well above the expectations of their post. The award must be supported by a written record.")
    service = "Continuous service is counted from the start date with the council, including other local authorities."
    decision = decide("Is there a long service award when I reach 25 years with the council?", [[award], [service]])
    assert decision.outcome == "not_covered"  # "service" of one unit and "award" of another are no long service award
    assert decide("How much is the long-service voucher after 10 years?",
                  [["The long service voucher is worth GBP 120.00 after 10 years."]]).outcome == "answered"


def test_a_noun_of_its_own_is_not_a_generic_word_it_looks_like():
    # "a type rating" is no "rate"; "the timing" is no "time" (seen in holdout25: "Will Corran pay
    # for my type rating ...?" lost its topic and was answered with a duty payment rule); the verb
    # in -ing stays generic ("a job she is applying for")
    from policypal.answering.terms import key_terms

    def generic(question, word):
        return {t.word: t.generic for t in key_terms(question)}[word]

    assert not generic("Will the company pay for my type rating?", "rating")
    assert not generic("What about the timing of payments?", "timing")
    assert generic("A volunteer asked for a reference for a job she is applying for", "applying")
    assert generic("Which staff are working from home?", "working")


def test_a_generic_word_in_a_phrase_of_substance_is_a_topic():
    # "time off" says leave: "time" written in it is what the question asks about, not a filler
    # (seen in holdout9: "how much time off do I get back?" kept only its verbs and was refused)
    from policypal.answering.terms import key_terms

    terms = {t.word: t.generic for t in key_terms("If I work an hour on a Sunday, how much time off do I get back?")}
    assert terms["time"] is False and terms["hour"] is True
    assert {t.word: t.generic for t in key_terms("What time does the office open?")}["time"] is True


def test_a_baby_being_born_is_a_birth():
    # "How much leave does the partner get when a baby is born?" against "Per birth, adoption or
    # surrogacy" (the shipped set's one row lookup left partly answered)
    from policypal.answering.terms import equivalents, stem

    assert stem("birth") in equivalents(stem("baby")) and stem("child") in equivalents(stem("baby"))


def test_getting_to_site_is_attending():
    # "priority 2 callout - how long have I got to get to site?" asks for the "Attendance target"
    # (seen in holdout15, answered with the escalation time alone)
    from tests.answering.row_helpers import named, table

    targets = table(["Priority", "Typical incidents", "Attendance target", "Progress updates", "Escalate to Duty Manager if unresolved after"],
                    [["P1", "Loss of supply", "45 minutes", "every 10 minutes", "6 hours"],
                     ["P2", "Internal flooding", "90 minutes", "every 30 minutes", "9 hours"],
                     ["P3", "Low pressure", "5 hours", "hourly", "12 hours"]],
                    caption="Table 2: Call-out attendance and escalation targets by incident priority")
    how, rows, _, columns = named("priority 2 callout - how long have I got to get to site?", targets)
    assert rows == ["P2"] and "Attendance target" in columns and "Progress updates" not in columns
