"""The fake language-model endpoint, for the tests of the optional LLM answerer."""
from __future__ import annotations

import pytest

from .llm_server import FakeLLMServer


@pytest.fixture
def llm(settings):
    """A running FakeLLMServer that the app is configured to use (script it per test)."""
    with FakeLLMServer() as server:
        settings.LLM_BASE_URL = server.base_url
        settings.LLM_MODEL = "test-model"
        settings.LLM_API_KEY = "test-key"
        settings.LLM_TIMEOUT = 10
        yield server
