"""A small partial index of the chunks that define something (retrieval/lookup.py, DEFINES_SQL:
"... means ...", "refers to", "is defined as", or a chunk under a definitions or glossary
heading), by version: the answer layer looks for definitions in the versions of its evidence
(definitions_carrying), and without it each look-up read every row of those versions, vectors
and all (14 ms for four versions of 900 chunks, from disk). The predicate is written here as
retrieval/models.py DEFINING_CHUNKS writes it for the look-ups and for evaluation tables:
PostgreSQL uses a partial index only for a query that states its predicate.
Built CONCURRENTLY, so a large live table stays writable (non-atomic migration)."""
from django.db import migrations

PREDICATE = (
    "searchable AND level = 'block' AND (search_vector @@ (to_tsquery('english', 'mean') || "
    "to_tsquery('english', 'refer') || phraseto_tsquery('english', 'is defined as')) "
    "OR breadcrumb ~* '(definition|glossary|interpretation|key terms)')"
)


class Migration(migrations.Migration):
    atomic = False

    dependencies = [("retrieval", "0003_chunk_access_groups")]

    operations = [
        migrations.RunSQL(
            f"CREATE INDEX CONCURRENTLY IF NOT EXISTS chunk_defining_version ON retrieval_chunk (version_id) WHERE {PREDICATE}",
            "DROP INDEX CONCURRENTLY IF EXISTS chunk_defining_version",
        ),
    ]
