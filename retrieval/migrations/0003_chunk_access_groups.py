"""The audience of each chunk (retrieval_chunk.access_groups: the sorted group ids of its policy,
'{}' = open to every signed-in user), kept by triggers, and per-(version, audience) searchable
chunk counts (table retrieval_audiencechunkcount), kept by statement-level triggers on
retrieval_chunk as retrieval_versionchunkcount is (migration 0002).

The column only chooses which partial HNSW index serves a search (retrieval/audience_indexes.py,
retrieval/search.py); access is always decided by the version filter, so a stale audience can
cost recall, never show a chunk to someone who may not read it.

- chunk INSERT (any writer: ingestion's COPY, fixtures, the scale corpus): a BEFORE ROW trigger
  sets the column from policies_policy_groups, whatever the writer put there (one indexed
  look-up a row; a row trigger because only it can set the row being written without a second
  row version in every index);
- chunk UPDATE OF policy_id: the same, for the row;
- policies_policy_groups INSERT / DELETE / UPDATE: one UPDATE per statement of the chunks of the
  policies touched (transition tables), only of the rows whose audience changes;
  TRUNCATE: every chunk is open;
- filled once here for the rows already there (only rows of policies with groups change: on a
  large existing table that UPDATE writes a new version of each of those rows, with an entry in
  every index; at 158,000 rows about 4 minutes on 2 busy cores: run VACUUM (ANALYZE)
  retrieval_chunk afterwards).
"""
from django.contrib.postgres.fields import ArrayField
from django.db import migrations, models

_AUDIENCE_UPSERT = """
    INSERT INTO retrieval_audiencechunkcount AS c (version_id, access_groups, searchable)
    SELECT version_id, access_groups, SUM(n) FROM ({changes}) changes
    GROUP BY version_id, access_groups HAVING SUM(n) <> 0 ORDER BY version_id, access_groups
    ON CONFLICT (version_id, access_groups) DO UPDATE SET searchable = c.searchable + EXCLUDED.searchable;
"""
_ADDED = "SELECT version_id, access_groups, 1 AS n FROM chunk_rows_new WHERE searchable"
_REMOVED = "SELECT version_id, access_groups, -1 AS n FROM chunk_rows_old WHERE searchable"
_DROP_ZEROS = """
        DELETE FROM retrieval_audiencechunkcount c
        WHERE c.searchable = 0 AND c.version_id IN (SELECT version_id FROM chunk_rows_old);
"""

FORWARD = f"""
ALTER TABLE retrieval_chunk ADD COLUMN access_groups integer[] NOT NULL DEFAULT '{{}}';

-- the audience of a policy: its sorted group ids, '{{}}' when it has none
CREATE FUNCTION retrieval_policy_audience(p bigint) RETURNS integer[] LANGUAGE sql STABLE AS $$
    SELECT COALESCE(array_agg(pg.group_id ORDER BY pg.group_id), '{{}}')::integer[]
    FROM policies_policy_groups pg WHERE pg.policy_id = p
$$;

CREATE FUNCTION retrieval_chunk_audience_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.access_groups := retrieval_policy_audience(NEW.policy_id);
    RETURN NEW;
END
$$;

CREATE TRIGGER retrieval_chunk_audience_insert BEFORE INSERT ON retrieval_chunk
    FOR EACH ROW EXECUTE FUNCTION retrieval_chunk_audience_row();
CREATE TRIGGER retrieval_chunk_audience_policy BEFORE UPDATE OF policy_id ON retrieval_chunk
    FOR EACH ROW WHEN (OLD.policy_id IS DISTINCT FROM NEW.policy_id) EXECUTE FUNCTION retrieval_chunk_audience_row();

-- the chunks of these policies get their policy's audience (rows already right are not touched)
CREATE FUNCTION retrieval_chunk_audience_refresh(policies bigint[]) RETURNS void LANGUAGE sql AS $$
    UPDATE retrieval_chunk c SET access_groups = a.groups
    FROM (SELECT p.id, retrieval_policy_audience(p.id) AS groups
          FROM (SELECT DISTINCT unnest(policies) AS id) p) a
    WHERE c.policy_id = a.id AND c.access_groups IS DISTINCT FROM a.groups
$$;

CREATE FUNCTION retrieval_policy_groups_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM retrieval_chunk_audience_refresh(ARRAY(SELECT policy_id FROM groups_rows_new));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM retrieval_chunk_audience_refresh(ARRAY(SELECT policy_id FROM groups_rows_old));
    ELSIF TG_OP = 'UPDATE' THEN
        PERFORM retrieval_chunk_audience_refresh(
            ARRAY(SELECT policy_id FROM groups_rows_new UNION SELECT policy_id FROM groups_rows_old));
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION retrieval_policy_groups_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE retrieval_chunk SET access_groups = '{{}}' WHERE access_groups <> '{{}}';
    RETURN NULL;
END
$$;

CREATE TRIGGER retrieval_policy_groups_insert AFTER INSERT ON policies_policy_groups
    REFERENCING NEW TABLE AS groups_rows_new FOR EACH STATEMENT EXECUTE FUNCTION retrieval_policy_groups_changed();
CREATE TRIGGER retrieval_policy_groups_delete AFTER DELETE ON policies_policy_groups
    REFERENCING OLD TABLE AS groups_rows_old FOR EACH STATEMENT EXECUTE FUNCTION retrieval_policy_groups_changed();
CREATE TRIGGER retrieval_policy_groups_update AFTER UPDATE ON policies_policy_groups
    REFERENCING OLD TABLE AS groups_rows_old NEW TABLE AS groups_rows_new
    FOR EACH STATEMENT EXECUTE FUNCTION retrieval_policy_groups_changed();
CREATE TRIGGER retrieval_policy_groups_truncate AFTER TRUNCATE ON policies_policy_groups
    FOR EACH STATEMENT EXECUTE FUNCTION retrieval_policy_groups_truncated();

-- the rows already there
SELECT retrieval_chunk_audience_refresh(ARRAY(SELECT DISTINCT policy_id FROM policies_policy_groups));

-- searchable chunks per (version, audience): what each audience's partial index holds, and how
-- many of an asker's allowed chunks are in each audience
CREATE TABLE retrieval_audiencechunkcount (
    version_id bigint NOT NULL,
    access_groups integer[] NOT NULL,
    searchable bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (version_id, access_groups)
);

CREATE FUNCTION retrieval_chunk_audience_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        {_AUDIENCE_UPSERT.format(changes=_ADDED)}
    ELSIF TG_OP = 'DELETE' THEN
        {_AUDIENCE_UPSERT.format(changes=_REMOVED)}
        {_DROP_ZEROS}
    ELSIF TG_OP = 'UPDATE' THEN
        {_AUDIENCE_UPSERT.format(changes=_ADDED + " UNION ALL " + _REMOVED)}
        {_DROP_ZEROS}
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION retrieval_chunk_audience_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM retrieval_audiencechunkcount;
    RETURN NULL;
END
$$;

CREATE TRIGGER retrieval_chunk_audience_count_insert AFTER INSERT ON retrieval_chunk
    REFERENCING NEW TABLE AS chunk_rows_new FOR EACH STATEMENT EXECUTE FUNCTION retrieval_chunk_audience_count_rows();
CREATE TRIGGER retrieval_chunk_audience_count_delete AFTER DELETE ON retrieval_chunk
    REFERENCING OLD TABLE AS chunk_rows_old FOR EACH STATEMENT EXECUTE FUNCTION retrieval_chunk_audience_count_rows();
CREATE TRIGGER retrieval_chunk_audience_count_update AFTER UPDATE ON retrieval_chunk
    REFERENCING OLD TABLE AS chunk_rows_old NEW TABLE AS chunk_rows_new
    FOR EACH STATEMENT EXECUTE FUNCTION retrieval_chunk_audience_count_rows();
CREATE TRIGGER retrieval_chunk_audience_count_truncate AFTER TRUNCATE ON retrieval_chunk
    FOR EACH STATEMENT EXECUTE FUNCTION retrieval_chunk_audience_count_truncate();

INSERT INTO retrieval_audiencechunkcount (version_id, access_groups, searchable)
SELECT version_id, access_groups, count(*) FROM retrieval_chunk WHERE searchable GROUP BY version_id, access_groups;
"""

BACKWARD = """
DROP TRIGGER IF EXISTS retrieval_chunk_audience_count_insert ON retrieval_chunk;
DROP TRIGGER IF EXISTS retrieval_chunk_audience_count_delete ON retrieval_chunk;
DROP TRIGGER IF EXISTS retrieval_chunk_audience_count_update ON retrieval_chunk;
DROP TRIGGER IF EXISTS retrieval_chunk_audience_count_truncate ON retrieval_chunk;
DROP FUNCTION IF EXISTS retrieval_chunk_audience_count_rows();
DROP FUNCTION IF EXISTS retrieval_chunk_audience_count_truncate();
DROP TABLE IF EXISTS retrieval_audiencechunkcount;
DROP TRIGGER IF EXISTS retrieval_policy_groups_insert ON policies_policy_groups;
DROP TRIGGER IF EXISTS retrieval_policy_groups_delete ON policies_policy_groups;
DROP TRIGGER IF EXISTS retrieval_policy_groups_update ON policies_policy_groups;
DROP TRIGGER IF EXISTS retrieval_policy_groups_truncate ON policies_policy_groups;
DROP FUNCTION IF EXISTS retrieval_policy_groups_changed();
DROP FUNCTION IF EXISTS retrieval_policy_groups_truncated();
DROP FUNCTION IF EXISTS retrieval_chunk_audience_refresh(bigint[]);
DROP TRIGGER IF EXISTS retrieval_chunk_audience_insert ON retrieval_chunk;
DROP TRIGGER IF EXISTS retrieval_chunk_audience_policy ON retrieval_chunk;
DROP FUNCTION IF EXISTS retrieval_chunk_audience_row();
DROP FUNCTION IF EXISTS retrieval_policy_audience(bigint);
ALTER TABLE retrieval_chunk DROP COLUMN IF EXISTS access_groups;
"""


class Migration(migrations.Migration):

    dependencies = [
        ("retrieval", "0002_version_chunk_counts"),
        ("policies", "0005_reindex_recovery_audit_filters"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(FORWARD, BACKWARD)],
            state_operations=[
                migrations.AddField(
                    model_name="chunk",
                    name="access_groups",
                    field=ArrayField(models.IntegerField(), blank=True, default=list, editable=False,
                                     db_default=models.Value("{}"), size=None,
                                     help_text="The policy's sorted group ids ('{}': open); kept by triggers."),
                ),
            ],
        ),
    ]
