"""A thing the asker writes as their own ("my own iPad") is the defined term of their side whose
definition holds it ("Personal Device means any phone, tablet or computer that has not been
issued by the Firm"): the definition is found by the thing's words even when the search did not
rank it, and the question is about the term (the rules that use it are then fetched as for any
term a question is about). On the real pipeline: a small policy ingested here, the real index
and full-text look-up."""
import pytest

from policypal.answering.terms import key_terms
from policypal.assistant.answering import EvidenceLoader, _definitions_of_owned_things, _terms_about
from retrieval.models import Chunk

from .single_policy import only_policy

pytestmark = pytest.mark.django_db

HANDLING = b"""# Client Information Handling Policy

## 2 Definitions

- "Client Information" means any information the Firm holds about a client or a client's matter.
- "Personal Device" means any phone, tablet or computer that has not been issued by the Firm.
- "Firm Device" means a laptop, tablet or phone issued and managed by the Firm.
- "Matter Workspace" means the area of the document system set up for one matter.

## 6 Storage

6.1 Client Information must be stored only in the Matter Workspace. It must not be saved to Personal Devices.

6.2 Printed copies are shredded in the confidential waste bins.

6.3 Draft contracts and advice notes kept outside the Matter Workspace are deleted at the end of each month.

## 7 Travel

7.1 Firm Devices taken abroad must be switched off at border controls.

7.2 A screen used on a train or in another public place must have a privacy filter, and papers must not be read where others can see them.
"""


@pytest.fixture
def handling(settings, tmp_path, django_user_model):
    settings.MEDIA_ROOT = tmp_path
    version = only_policy(key="handling", title="Client Information Handling Policy", name="handling.md", content=HANDLING)
    user = django_user_model.objects.create_user("associate", password="pw-associate-12345")
    return version, user


def test_the_definition_of_the_askers_side_is_found_by_the_thing(handling):
    version, _ = handling
    loader = EvidenceLoader()
    shredding = Chunk.objects.get(version=version, level="block", text__contains="6.2 Printed copies")
    evidence = [loader.evidence(shredding, rank=1)]  # the search ranked only an unrelated chunk
    question = "Can I keep client papers on my own iPad?"
    found = _definitions_of_owned_things(question, evidence, loader)
    assert "Personal Device" in found and "Firm Device" not in found  # the Firm's tablet is not the asker's own
    asked = [t for t in key_terms(question) if not t.generic]
    assert _terms_about(asked, found, question=question) == ["Personal Device"]
    assert _definitions_of_owned_things("Can I keep client papers on a company iPad?", evidence, loader).keys() == {"Firm Device"}
    assert _definitions_of_owned_things("Can I keep client papers on an iPad?", evidence, loader) == {}  # whose, it does not say
