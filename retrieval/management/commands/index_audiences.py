"""manage.py index_audiences [--dry-run]

Creates the partial HNSW index of every large audience (a policy group set holding at least
AUDIENCE_INDEX_MIN_CHUNKS searchable chunks, by default the exact-sort threshold at the current
size, and at most AUDIENCE_INDEX_MAX_FRACTION of all) and
drops those no longer wanted (retrieval/audience_indexes.py). Builds run CONCURRENTLY: search
and ingestion go on meanwhile. Prints the audiences, what it does, and the time of each build.
--dry-run: print the plan only.
"""
from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand

from retrieval.audience_indexes import (
    AUDIENCE_INDEX_MAX_FRACTION,
    audience_indexes_sync,
    index_name,
    minimum_chunks,
    sync_plan,
)


class Command(BaseCommand):
    help = "Create / drop the partial HNSW indexes per audience (policy group set)."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="print what would be created or dropped")

    def handle(self, *args, dry_run: bool = False, **options):
        fraction = float(getattr(settings, "AUDIENCE_INDEX_MAX_FRACTION", AUDIENCE_INDEX_MAX_FRACTION))
        plan = sync_plan()
        minimum = minimum_chunks(plan.total)
        self.stdout.write(f"{plan.total:,} searchable chunks in {len(plan.sizes)} audiences; an audience is indexed "
                          f"from {minimum:,} chunks up to {fraction:.0%} of all ({int(fraction * plan.total):,})")
        kept = {ix.audience for ix in plan.keep}
        created = set(plan.create)
        for audience, size in sorted(plan.sizes.items(), key=lambda item: (-item[1], item[0])):
            state = "index kept" if audience in kept else "to build" if audience in created else "no index"
            self.stdout.write(f"  {list(audience) or 'open'}: {size:,} chunks  {index_name(audience)}  {state}")
        for ix in plan.drop:
            self.stdout.write(f"  to drop: {ix.name} ({list(ix.audience)}{'' if ix.valid else ', not valid or of another form'})")
        if dry_run:
            self.stdout.write(f"dry run: {len(plan.create)} to build, {len(plan.drop)} to drop")
            return
        if not plan.changes:
            self.stdout.write("nothing to do")
            return
        start = time.perf_counter()
        done = audience_indexes_sync(log=self.stdout.write)
        self.stdout.write(self.style.SUCCESS(
            f"{len(done.create)} built, {len(done.drop)} dropped in {time.perf_counter() - start:.1f} s"))
