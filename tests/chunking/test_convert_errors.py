"""Every way an upload can fail gives the admin a specific, readable reason."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from reportlab.lib.pdfencrypt import StandardEncryption

from chunking.convert import convert_file, detect_format
from chunking.errors import ConversionError
from tests.chunking.docs_factory import PdfFlow, image_only_pdf, policy_docx, policy_pdf

SUPPORTED = "upload DOCX, PDF, HTML, Markdown, XLSX, CSV or PPTX"


def failure(path: Path) -> ConversionError:
    with pytest.raises(ConversionError) as caught:
        convert_file(path)
    return caught.value


def test_empty_file(tmp_path: Path):
    path = tmp_path / "leave.docx"
    path.write_bytes(b"")
    error = failure(path)
    assert error.reason == "empty"
    assert str(error) == "leave.docx: the file is empty; upload the document again"


def test_whitespace_only_markdown_is_empty(tmp_path: Path):
    path = tmp_path / "notes.md"
    path.write_text("\n  \n\t\n")
    assert failure(path).reason == "empty"


def test_markdown_without_text_yields_no_text(tmp_path: Path):
    path = tmp_path / "rules.md"
    path.write_text("---\n\n***\n")
    error = failure(path)
    assert error.reason == "no_text"
    assert "contains no text" in str(error)


@pytest.mark.parametrize(
    ("name", "payload"),
    [
        ("photo.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64),
        ("notes.txt", b"Just some plain text notes.\n"),
        ("archive.zip", None),
    ],
)
def test_unsupported_formats(tmp_path: Path, name: str, payload: bytes | None):
    if payload is None:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr("readme.txt", "hello")
        payload = buffer.getvalue()
    path = tmp_path / name
    path.write_bytes(payload)
    error = failure(path)
    assert error.reason == "unsupported"
    assert str(error).startswith(name)
    assert str(error).endswith(f"is not a supported format; {SUPPORTED}")


def test_corrupt_docx(tmp_path: Path):
    good = policy_docx(tmp_path / "good.docx").read_bytes()
    path = tmp_path / "broken.docx"
    path.write_bytes(good[: len(good) // 3])
    error = failure(path)
    assert error.reason == "corrupt"
    assert "broken.docx: the file is damaged or is not a valid DOCX file" in str(error)


def test_text_file_named_docx_is_corrupt(tmp_path: Path):
    path = tmp_path / "policy.docx"
    path.write_text("this is not a word document")
    assert failure(path).reason == "corrupt"


def test_corrupt_pdf(tmp_path: Path):
    good = policy_pdf(tmp_path / "good.pdf").read_bytes()
    path = tmp_path / "broken.pdf"
    path.write_bytes(good[:400])
    error = failure(path)
    assert error.reason == "corrupt"
    assert "broken.pdf: the file is damaged or is not a valid PDF file" in str(error)


def test_encrypted_pdf(tmp_path: Path):
    encryption = StandardEncryption(userPassword="secret", ownerPassword="owner", strength=128)
    path = policy_pdf(tmp_path / "locked.pdf", encrypt=encryption)
    error = failure(path)
    assert error.reason == "encrypted"
    assert str(error) == "locked.pdf: this PDF is encrypted; remove the password and upload again"


def test_pdf_with_only_an_owner_password_still_converts(tmp_path: Path):
    encryption = StandardEncryption(userPassword="", ownerPassword="owner", canCopy=0)
    doc = convert_file(policy_pdf(tmp_path / "restricted.pdf", encrypt=encryption))
    assert doc.title == "Leave and Travel Policy"


def test_scanned_pdf_without_text_layer(tmp_path: Path):
    error = failure(image_only_pdf(tmp_path / "scan.pdf"))
    assert error.reason == "no_text_layer"
    assert str(error) == "scan.pdf: this PDF has no text layer; it needs OCR before it can be used"


def test_blank_pdf_yields_no_text(tmp_path: Path):
    flow = PdfFlow()
    flow.space(10)
    path = flow.save(tmp_path / "blank.pdf")
    assert failure(path).reason == "no_text"


def test_pdf_with_only_furniture_yields_no_text(tmp_path: Path):
    flow = PdfFlow(footer="Confidential. Page {page} of {pages}")
    flow.new_page()
    path = flow.save(tmp_path / "footers.pdf")
    assert failure(path).reason == "no_text"


@pytest.mark.parametrize(
    ("name", "head", "expected"),
    [
        ("a.md", b"# Title\n", "md"),
        ("a.markdown", b"Title\n", "md"),
        ("a.HTM", b"<p>x</p>", "html"),
        ("a.csv", b"a,b\n1,2\n", "csv"),
        ("upload", b"<!DOCTYPE html><html><body>x</body></html>", "html"),
        ("scan.docx", b"%PDF-1.7\n", "pdf"),
    ],
)
def test_detect_format(name: str, head: bytes, expected: str):
    assert detect_format(head, name) == expected
