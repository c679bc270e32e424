"""Per-version searchable chunk counts (table retrieval_versionchunkcount, see retrieval/models.py),
kept by statement-level triggers on retrieval_chunk with transition tables (one aggregate per
statement: a COPY of a million rows costs one GROUP BY), filled once from the rows already there."""
from django.db import migrations

# The changes of one statement, as (version_id, +1/-1) rows, summed per version. In a PL/pgSQL
# trigger a transition table may only be named in the branch of the operation that has it.
_UPSERT = """
    INSERT INTO retrieval_versionchunkcount AS c (version_id, searchable)
    SELECT version_id, SUM(n) FROM ({changes}) changes
    GROUP BY version_id HAVING SUM(n) <> 0 ORDER BY version_id
    ON CONFLICT (version_id) DO UPDATE SET searchable = c.searchable + EXCLUDED.searchable;
"""
_ADDED = "SELECT version_id, 1 AS n FROM chunk_rows_new WHERE searchable"
_REMOVED = "SELECT version_id, -1 AS n FROM chunk_rows_old WHERE searchable"

FORWARD = f"""
CREATE TABLE retrieval_versionchunkcount (
    version_id bigint PRIMARY KEY,
    searchable bigint NOT NULL DEFAULT 0
);

CREATE FUNCTION retrieval_chunk_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        {_UPSERT.format(changes=_ADDED)}
    ELSIF TG_OP = 'DELETE' THEN
        {_UPSERT.format(changes=_REMOVED)}
        DELETE FROM retrieval_versionchunkcount c
        WHERE c.searchable = 0 AND c.version_id IN (SELECT version_id FROM chunk_rows_old);
    ELSIF TG_OP = 'UPDATE' THEN
        {_UPSERT.format(changes=_ADDED + " UNION ALL " + _REMOVED)}
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION retrieval_chunk_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM retrieval_versionchunkcount;
    RETURN NULL;
END
$$;

CREATE TRIGGER retrieval_chunk_count_insert AFTER INSERT ON retrieval_chunk
    REFERENCING NEW TABLE AS chunk_rows_new FOR EACH STATEMENT EXECUTE FUNCTION retrieval_chunk_count_rows();
CREATE TRIGGER retrieval_chunk_count_delete AFTER DELETE ON retrieval_chunk
    REFERENCING OLD TABLE AS chunk_rows_old FOR EACH STATEMENT EXECUTE FUNCTION retrieval_chunk_count_rows();
CREATE TRIGGER retrieval_chunk_count_update AFTER UPDATE ON retrieval_chunk
    REFERENCING OLD TABLE AS chunk_rows_old NEW TABLE AS chunk_rows_new
    FOR EACH STATEMENT EXECUTE FUNCTION retrieval_chunk_count_rows();
CREATE TRIGGER retrieval_chunk_count_truncate AFTER TRUNCATE ON retrieval_chunk
    FOR EACH STATEMENT EXECUTE FUNCTION retrieval_chunk_count_truncate();

INSERT INTO retrieval_versionchunkcount (version_id, searchable)
SELECT version_id, count(*) FROM retrieval_chunk WHERE searchable GROUP BY version_id;
"""

BACKWARD = """
DROP TRIGGER IF EXISTS retrieval_chunk_count_insert ON retrieval_chunk;
DROP TRIGGER IF EXISTS retrieval_chunk_count_delete ON retrieval_chunk;
DROP TRIGGER IF EXISTS retrieval_chunk_count_update ON retrieval_chunk;
DROP TRIGGER IF EXISTS retrieval_chunk_count_truncate ON retrieval_chunk;
DROP FUNCTION IF EXISTS retrieval_chunk_count_rows();
DROP FUNCTION IF EXISTS retrieval_chunk_count_truncate();
DROP TABLE IF EXISTS retrieval_versionchunkcount;
"""


class Migration(migrations.Migration):

    dependencies = [
        ("retrieval", "0001_initial"),
    ]

    operations = [
        migrations.RunSQL(FORWARD, BACKWARD),
    ]
