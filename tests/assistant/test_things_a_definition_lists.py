"""A thing the question names that the answer's evidence does not speak of ("my smartwatch") is
the defined term whose definition lists it ("Personal Device means any mobile phone, smartwatch,
tablet ... not issued by the academy"), found in any policy the asker may read, though the
search ranked another policy: the question is then about the term, and its rules are fetched.
On the real pipeline: two small policies ingested here, the real full-text look-up."""
import pytest

from policypal.answering.terms import key_terms
from policypal.assistant.answering import _definitions_listing_a_thing, _lists_a_thing, _terms_about
from retrieval.models import Chunk

from .single_policy import another_policy, only_policy

pytestmark = pytest.mark.django_db

SAFEGUARDING = b"""# Safeguarding Policy

## 2 Definitions

2.6 "Allegation" means information that an adult working in the academy has harmed a child.

2.7 "Personal Device" means any mobile phone, smartwatch, tablet, laptop or camera that is not owned and issued by the academy.

## 9 Images

9.1 Staff must not use a Personal Device to photograph or film pupils.
"""

PAY = b"""# Teachers' Pay Policy

## 7 Allowances

7.1 A class teacher who leads a subject receives an allowance from the first day of the role.
"""


@pytest.fixture
def policies(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    pay = only_policy(key="pay", title="Teachers' Pay Policy", name="pay.md", content=PAY)
    safeguarding = another_policy(key="safeguarding", title="Safeguarding Policy", name="safeguarding.md", content=SAFEGUARDING)
    return pay, safeguarding


def test_the_definition_listing_an_uncarried_thing_is_found_in_any_visible_policy(policies):
    pay, safeguarding = policies
    question = "Can I take a photo of the class on my smartwatch?"
    found = _definitions_listing_a_thing(question, ["smartwatch"], [pay.pk, safeguarding.pk])
    assert list(found) == ["Personal Device"]
    asked = [t for t in key_terms(question) if not t.generic]
    assert _terms_about(asked, found, question=question, listing={"Personal Device"}) == ["Personal Device"]
    # one held word is not enough for a definition that only mentions it, not in a list
    assert _terms_about(asked, found, question=question) == []


def test_a_definition_listing_the_thing_as_the_other_owners_is_not_it(policies):
    _, safeguarding = policies
    chunk = Chunk.objects.filter(version=safeguarding, text__contains="smartwatch").first()
    assert chunk is not None
    paragraph = '"Personal Device" means any mobile phone, smartwatch, tablet, laptop or camera that is not issued by the academy.'
    assert _lists_a_thing("Can I use my smartwatch?", ["smartwatch"], "Personal Device", paragraph)
    assert not _lists_a_thing("Can I use my work smartwatch?", ["smartwatch"], "Personal Device", paragraph)
    assert not _lists_a_thing("Can I use my smartwatch?", ["tablet"], "Allegation", "Allegation means a report of harm.")
    # a word inside a longer item is not the item ("email" of "email address"), nor is the term's own word
    personal = "Personal Data means a person's name, email address, phone number or IP address."
    assert not _lists_a_thing("How long are emails kept?", ["email"], "Personal Data", personal)
    assert _lists_a_thing("Who sees my phone number?", ["number"], "Personal Data", personal)
    assert not _lists_a_thing("Is there a discount on mortgages?", ["discount"], "Discounted Absence",
                              "Discounted Absence means any absence, such as jury service, discount days or leave.")

