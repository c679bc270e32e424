"""The question form (shared by the chat page and the JSON API), feedback and reviewer forms."""
from __future__ import annotations

from django import forms

from .models import AnswerFeedback, Review
from .reviews import COMMENT_MAX_LENGTH, EVIDENCE_MAX_LENGTH, NOTE_MAX_LENGTH
from .services import FEEDBACK_COMMENT_MAX_LENGTH

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
        error_messages={"required": "Please type a question.",
                        "max_length": "Keep the question to %(limit_value)d characters or fewer (it has %(show_value)d)."},
    )
    as_of = forms.DateField(
        required=False,
        label="As of",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text="Leave empty for today.",
        error_messages={"invalid": "Enter the date as YYYY-MM-DD."},
    )


class FeedbackForm(forms.Form):
    """The asker's feedback on an answer: one of three buttons and an optional comment.
    The page renders its own buttons; the service checks the choice and the length again."""

    verdict = forms.ChoiceField(
        choices=AnswerFeedback.Verdict.choices,
        error_messages={
            "required": "Choose Helpful, Wrong or Missing caveat.",
            "invalid_choice": "“%(value)s” is not a choice; choose Helpful, Wrong or Missing caveat.",
        },
    )
    comment = forms.CharField(
        required=False,
        strip=True,
        max_length=FEEDBACK_COMMENT_MAX_LENGTH,
        error_messages={"max_length": "Keep the comment to %(limit_value)d characters or fewer (it has %(show_value)d)."},
    )


class ReviewForm(forms.Form):
    """A reviewer's verdict; the service checks the choice again."""

    verdict = forms.ChoiceField(
        choices=Review.Verdict.choices,
        widget=forms.RadioSelect,
        error_messages={"required": "Choose a verdict.", "invalid_choice": "“%(value)s” is not a verdict; choose one of the four."},
    )
    comment = forms.CharField(
        required=False,
        strip=True,
        max_length=COMMENT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "What is wrong or missing, and where the right text is."}),
    )


class RegressionQuestionForm(forms.Form):
    evidence = forms.CharField(
        required=False,
        label="Expected evidence",
        widget=forms.Textarea(attrs={"rows": 5, "spellcheck": "false",
                                     "placeholder": "e.g.\nMetro city (includes Mumbai, Delhi, Bengaluru)\nL4\n1,800"}),
        help_text=f"One string per line, each copied verbatim from the policy text (at most {EVIDENCE_MAX_LENGTH} characters). "
                  "Every string must be found in the retrieved chunks.",
    )
    expect_no_answer = forms.BooleanField(
        required=False,
        label="Expect no answer",
        help_text="The policies in the asker's scope should not answer it (leave the evidence empty).",
    )
    note = forms.CharField(
        required=False,
        strip=True,
        max_length=NOTE_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "Why this question is kept, e.g. cited version 1 after April 2027."}),
    )

    def evidence_lines(self) -> list[str]:
        return self.cleaned_data["evidence"].splitlines()
