"""manage.py export_onnx [--int8]: export the embedding model to ONNX (and int8) ahead of time,
so that EMBEDDING_BACKEND=onnx|onnx-int8 does not export on its first request."""
from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand

from retrieval.onnx_export import export_onnx


class Command(BaseCommand):
    help = "Export the bundled embedding model to ONNX (fp32, fused) and int8 from local files."

    def handle(self, *args, **options):
        for quantized in (False, True):
            path = export_onnx(settings.EMBEDDING_MODEL, quantized=quantized, root=settings.ONNX_DIR)
            self.stdout.write(f"{'int8' if quantized else 'fp32'}: {path} ({path.stat().st_size // 1024} KB)")
