"""The one error conversion raises: its message is shown to policy admins."""
from __future__ import annotations

REASONS = (
    "unsupported",  # not a format we convert
    "empty",  # zero bytes or whitespace only
    "corrupt",  # the file is damaged or not what it claims to be
    "encrypted",  # password-protected PDF
    "no_text_layer",  # scanned PDF: images, no text
    "no_text",  # converted, but nothing to index
    "too_large",  # past one of the input limits (chunking.config.InputLimits)
)


class ConversionError(Exception):
    """A file could not be turned into a document.

    ``str(error)`` is a complete sentence for a policy admin, e.g.
    "leave.pdf: this PDF is encrypted; remove the password and upload again".
    ``reason`` is one of ``REASONS``, for code that needs to branch on it.
    """

    def __init__(self, message: str, *, reason: str) -> None:
        if reason not in REASONS:
            raise ValueError(f"unknown conversion failure reason {reason!r}")
        super().__init__(message)
        self.message = message
        self.reason = reason


FORMAT_LABELS = {
    "docx": "DOCX",
    "pdf": "PDF",
    "html": "HTML",
    "md": "Markdown",
    "xlsx": "XLSX",
    "csv": "CSV",
    "pptx": "PPTX",
}


def unsupported(name: str, detected: str = "") -> ConversionError:
    what = f" ({detected})" if detected else ""
    return ConversionError(
        f"{name}{what} is not a supported format; upload DOCX, PDF, HTML, Markdown, XLSX, CSV or PPTX",
        reason="unsupported",
    )


def empty(name: str) -> ConversionError:
    return ConversionError(f"{name}: the file is empty; upload the document again", reason="empty")


def too_large(name: str, sentence: str) -> ConversionError:
    """``sentence`` names the limit and the value found ("The document has 1,204 columns in
    table 3; the limit is 200 columns."); ``name`` (may be empty) is the name the user uploaded."""
    return ConversionError(_named(name, sentence), reason="too_large")


def corrupt(name: str, fmt: str, detail: str = "") -> ConversionError:
    label = FORMAT_LABELS.get(fmt, fmt.upper())
    tail = f" ({detail})" if detail else ""
    return ConversionError(
        _named(
            name,
            f"The file is damaged or is not a valid {label} file and could not be read{tail}; "
            f"open it, save it again as {label} and upload the new copy",
        ),
        reason="corrupt",
    )


def encrypted(name: str) -> ConversionError:
    return ConversionError(
        f"{name}: this PDF is encrypted; remove the password and upload again", reason="encrypted"
    )


def no_text_layer(name: str) -> ConversionError:
    return ConversionError(
        f"{name}: this PDF has no text layer; it needs OCR before it can be used", reason="no_text_layer"
    )


def no_text(name: str) -> ConversionError:
    return ConversionError(
        f"{name}: the document contains no text that could be extracted; check that it is the right file",
        reason="no_text",
    )


def _named(name: str, sentence: str) -> str:
    """ "name: the sentence ..." or, without a name, the sentence as it is."""
    return f"{name}: {sentence[:1].lower()}{sentence[1:]}" if name else sentence
