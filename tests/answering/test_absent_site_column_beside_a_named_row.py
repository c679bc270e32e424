"""Seen in the blind run of holdout44: "What's the keyholder attendance target for Minster Yard
Offices?" against a table of sites across the top (no Minster Yard Offices) was answered with
the Wendmoor Record Office column, named by "offices" alone, and then with a row of an
escalation table that names keyholders. A site the columns lack, written with the plural of
their head word, is an absent column; the table whose row the question writes whole is the one
asked, and it has no column for that site."""
from policypal.answering.compose import compose_answer
from policypal.answering.evidence import ANSWERED

from .row_helpers import named, ranked_tables, table

SITES = table(
    ["Attribute", "Fellgate Hall", "Castle Wray", "Wendmoor Record Office", "Kilnworth Stores Depot"],
    [["Keyholder attendance target", "30 minutes", "45 minutes", "15 minutes", "40 minutes"],
     ["Overnight guarding", "None", "None", "None", "Manned guard"],
     ["Lockdown refuge point", "Great Kitchen", "Gatehouse", "Strongroom lobby", "Loading bay office"]],
)

TIERS = table(
    ["Tier", "Who", "Must attend the site?", "Called when"],
    [["Tier 1", "Site Keyholder on the rota", "Yes, within the attendance target in section 6.2", "Any alarm"],
     ["Tier 2", "Duty manager", "Only if asked", "No answer from Tier 1 within 10 minutes"]],
    caption="Alarm activations are escalated through the tiers below.",
)


def test_a_site_the_columns_lack_in_the_plural_of_their_head_is_absent():
    assert named("What's the keyholder attendance target for Minster Yard Offices?", SITES)[::2] == ("absent", "Minster Yard Offices")
    assert named("What's the keyholder attendance target for Castle Wray?", SITES)[1:4:2] == (
        ["Keyholder attendance target"], ["Castle Wray"])


def test_the_table_whose_row_is_written_whole_says_it_lacks_the_site():
    evidence = ranked_tables(("Security > 5.3 Escalation", TIERS), ("Security > 6.2 Security arrangements by site", SITES))
    answer = compose_answer("What's the keyholder attendance target for Minster Yard Offices?", evidence, corpus_mentions={})
    assert answer.outcome != ANSWERED
    assert "no row for Minster Yard Offices" in answer.text and "15 minutes" not in answer.text
    answer = compose_answer("What's the keyholder attendance target for Castle Wray?", evidence, corpus_mentions={})
    assert answer.outcome == ANSWERED and "45 minutes" in answer.text
