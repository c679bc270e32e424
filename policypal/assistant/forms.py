"""The question form, shared by the chat page and the JSON API."""
from __future__ import annotations

from django import forms

QUESTION_MAX_LENGTH = 2000


class AskForm(forms.Form):
    question = forms.CharField(
        max_length=QUESTION_MAX_LENGTH,
        strip=True,
        widget=forms.Textarea(
            attrs={
                "rows": 3,
                "placeholder": "e.g. What is the daily meal allowance in Mumbai for grade L4?",
                "autofocus": True,
            }
        ),
        error_messages={"required": "Please type a question."},
    )
    as_of = forms.DateField(
        required=False,
        label="As of",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text="Leave empty for today.",
        error_messages={"invalid": "Enter the date as YYYY-MM-DD."},
    )
