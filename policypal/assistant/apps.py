from django.apps import AppConfig


class AssistantConfig(AppConfig):
    name = "policypal.assistant"
    label = "assistant"
    verbose_name = "Assistant"
