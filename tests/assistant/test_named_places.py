"""A place the asker names ("the Kelso station") is a fact to find: the register row that holds it
is fetched by full text even when the search ranks it low, and its band leads to the column of
the rate table the question asks about. On the real pipeline: a small policy ingested here."""
import pytest

from policypal.assistant.answering import answer_compose

from .single_policy import only_policy

pytestmark = pytest.mark.django_db

STATIONS = """# Coastguard Station Allowances

## 2 Station register

2.1 Every station is placed in an allowance band according to its remoteness.

| Station code | Station name | Town | Allowance band |
|---|---|---|---|
""" + "\n".join(
    f"| ST-{n:02d} | {name} Point | {town} | Band {band} |"
    for n, (name, town, band) in enumerate([
        ("Gull", "Aberdeen", 1), ("Heron", "Dundee", 1), ("Tern", "Perth", 2), ("Puffin", "Stirling", 2),
        ("Osprey", "Falkirk", 2), ("Gannet", "Oban", 3), ("Skua", "Kelso", 3), ("Shag", "Wick", 4),
        ("Eider", "Thurso", 4), ("Curlew", "Lerwick", 4), ("Plover", "Brora", 3), ("Dunlin", "Nairn", 2),
    ], start=1)
) + """

## 3 Watch allowances

3.1 Watch allowances are paid per watch kept, at the rate of the station's band.

| Watch | Band 1 | Band 2 | Band 3 | Band 4 |
|---|---|---|---|---|
| *(units)* | £ per watch | £ per watch | £ per watch | £ per watch |
| Day watch | £11.40 | £13.20 | £15.75 | £18.10 |
| Night watch | £19.30 | £22.60 | £26.45 | £30.80 |
| Storm watch | £27.00 | £31.50 | £36.90 | £42.20 |
"""


@pytest.fixture
def coastguard(settings, tmp_path, django_user_model):
    settings.MEDIA_ROOT = tmp_path
    only_policy(key="stations", title="Coastguard Station Allowances", name="stations.md", content=STATIONS.encode())
    return django_user_model.objects.create_user("watchkeeper", password="pw-watchkeeper-12345")


def test_a_town_named_finds_its_register_row_and_the_bands_column(coastguard):
    answer = answer_compose(question="I'm posted at the Kelso station, what do I get for a night watch?", user=coastguard)
    assert answer.outcome == "answered"
    assert "£26.45" in answer.text and "ST-07" in answer.text
    assert not any(v in answer.text for v in ("£19.30", "£22.60", "£30.80"))


def test_the_units_row_is_no_answer(coastguard):
    answer = answer_compose(question="How much is the storm watch allowance in Band 4?", user=coastguard)
    assert answer.outcome == "answered" and "£42.20" in answer.text
    assert "(units)" not in answer.text and "£36.90" not in answer.text


def test_a_name_no_evidence_holds_brings_the_table_row_holding_it(coastguard):
    from policypal.assistant.answering import EvidenceLoader, _named_evidence
    from retrieval import lookup
    from retrieval.models import Chunk

    versions = lookup.visible_versions(coastguard, None)
    question = "I'm posted at the Kelso station, what do I get for a night watch?"
    found = _named_evidence(question, versions, EvidenceLoader(), [])
    assert [e.kind for e in found] == ["table_row"] and "Kelso" in found[0].text and "Band 3" in found[0].text
    # a name the evidence already holds is not looked up again
    assert _named_evidence(question, versions, EvidenceLoader(), found) == []
    # a name written nowhere brings nothing; a sentence's first word is no name
    assert _named_evidence("What do I get at the Portree station?", versions, EvidenceLoader(), []) == []
    assert _named_evidence("Kelso?", versions, EvidenceLoader(), []) == []
    assert Chunk.objects.filter(text__contains="Kelso").exists()
