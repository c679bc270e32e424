"""The predicate of the chunks that define something (retrieval/models.py DEFINING_CHUNKS),
written so that planning a query that states it costs what planning any query costs.

Written as in 0004 it cost about 6 ms of planning on every definition look-up, more than the
look-up itself (measured at 100,000 chunks, a warm connection): the planner estimated the
selectivity of the case-insensitive heading pattern by running it on every value of the
breadcrumb's statistics (3.7 ms), and folding the three OR-ed tsquery calls in the query while
proving the partial index's predicate cost 2.5 ms. The words are now one tsquery constant, the same
lexemes ('mean' | 'refer' | 'defin': what the english configuration makes of "mean", "refer" and
"is defined as"), and the heading pattern sits in an immutable function that the planner does
not look into (plpgsql is never inlined), so it gives it a fixed selectivity instead of running the
pattern. The partial index is rebuilt with the new predicate; both are built CONCURRENTLY, so a
large live table stays writable (non-atomic migration)."""
from importlib import import_module

from django.db import migrations

HEADING_FUNCTION = """
CREATE OR REPLACE FUNCTION policypal_defining_heading(breadcrumb text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN breadcrumb ~* '(definition|glossary|interpretation|key terms)';
END
$$
"""

PREDICATE = (
    "searchable AND level = 'block' AND (search_vector @@ '''mean'' | ''refer'' | ''defin'''::tsquery "
    "OR policypal_defining_heading(breadcrumb))"
)

# what 0004 built, for the reverse migration
OLD_PREDICATE = import_module("retrieval.migrations.0004_chunk_defining_index").PREDICATE


class Migration(migrations.Migration):
    atomic = False

    dependencies = [("retrieval", "0004_chunk_defining_index")]

    operations = [
        migrations.RunSQL(HEADING_FUNCTION, "DROP FUNCTION IF EXISTS policypal_defining_heading(text)"),
        migrations.RunSQL(
            f"CREATE INDEX CONCURRENTLY IF NOT EXISTS chunk_defining ON retrieval_chunk (version_id) WHERE {PREDICATE}",
            "DROP INDEX CONCURRENTLY IF EXISTS chunk_defining",
        ),
        migrations.RunSQL(
            "DROP INDEX CONCURRENTLY IF EXISTS chunk_defining_version",
            f"CREATE INDEX CONCURRENTLY IF NOT EXISTS chunk_defining_version ON retrieval_chunk (version_id) WHERE {OLD_PREDICATE}",
        ),
    ]
