"""manage.py chunk_preview PATH [--json]: convert and chunk a file without storing anything."""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from chunking.errors import ConversionError


class Command(BaseCommand):
    help = "Show how a document would be chunked: ids, breadcrumbs, token counts, first/last sentences, warnings."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--json", action="store_true", help='print {"chunks": [...]}')
        parser.add_argument("--category", default="", help="document type for the context prefix")
        parser.add_argument("--overlap", type=int, default=None, help="blocks of overlap (default: the setting)")

    def handle(self, *args, **options):
        from django.conf import settings

        from chunking.convert import convert_file
        from chunking.preview import preview_rows
        from policypal.policies.ingestion import chunk_records_for

        try:
            document = convert_file(options["path"], pdf_artifacts_path=settings.PDF_ARTIFACTS_PATH)
        except (ConversionError, FileNotFoundError) as exc:
            raise CommandError(f"{options['path']}: {exc}") from exc
        records = chunk_records_for(document, category=options["category"], overlap_blocks=options["overlap"])
        rows = preview_rows(records)
        if options["json"]:
            keys = ("id", "level", "kind", "parent_id", "breadcrumb", "text", "embed_text", "token_count", "pages", "warnings")
            self.stdout.write(json.dumps({"chunks": [{k: row[k] for k in keys} for row in rows]}, ensure_ascii=False))
            return
        self._print_table(document, rows)

    def _print_table(self, document, rows) -> None:
        searchable = [r for r in rows if r.get("searchable", r["level"] == "block")]
        warned = [r for r in rows if r["warnings"]]
        self.stdout.write(self.style.MIGRATE_HEADING(f"{document.title}: {len(rows)} chunks ({len(searchable)} searchable), {len(warned)} with warnings"))
        for row in rows:
            indent = {"document": "", "section": "  ", "block": "    "}.get(row["level"], "")
            head = f"{indent}{row['id']}  {row['level']:<8} {row['kind']:<9} {row['token_count']:>4} tok  {row['breadcrumb']}"
            self.stdout.write(head)
            if row["level"] == "block":
                self.stdout.write(f"{indent}    first: {_short(row['first_sentence'])}")
                if row["last_sentence"] != row["first_sentence"]:
                    self.stdout.write(f"{indent}    last:  {_short(row['last_sentence'])}")
            for warning in row["warnings"]:
                self.stdout.write(self.style.WARNING(f"{indent}    ! {warning}"))


def _short(text: str, limit: int = 110) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
