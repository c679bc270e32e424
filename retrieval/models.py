"""Chunk storage: one table with a pgvector column (HNSW, cosine) and a generated tsvector (GIN)."""
from __future__ import annotations

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from pgvector.django import HnswIndex, VectorField

EMBEDDING_DIMENSIONS = 384


class Chunk(models.Model):
    class Level(models.TextChoices):
        DOCUMENT = "document", "Document"
        SECTION = "section", "Section"
        BLOCK = "block", "Block"

    class Kind(models.TextChoices):
        TEXT = "text", "Text"
        LIST = "list", "List"
        TABLE = "table", "Table"
        TABLE_ROW = "table_row", "Table row"
        CODE = "code", "Code"

    version = models.ForeignKey("policies.PolicyVersion", on_delete=models.CASCADE, related_name="chunks")
    policy = models.ForeignKey("policies.Policy", on_delete=models.CASCADE, related_name="chunks")
    source = models.ForeignKey("policies.SourceDocument", null=True, on_delete=models.CASCADE, related_name="chunks")
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="children")
    level = models.CharField(max_length=10, choices=Level.choices)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.TEXT)
    ordinal = models.PositiveIntegerField()
    breadcrumb = models.TextField()
    text = models.TextField(help_text="Clean display text, shown in citations and given to the answerer.")
    embed_text = models.TextField(help_text="Context prefix + breadcrumb + text: embedded and full-text indexed.")
    token_count = models.PositiveIntegerField()
    pages = ArrayField(models.PositiveIntegerField(), default=list, blank=True)
    block_ids = ArrayField(models.CharField(max_length=32), default=list, blank=True)
    content_hash = models.CharField(max_length=64, help_text="sha256 of embed_text; reuses embeddings")
    record_id = models.CharField(max_length=64, help_text="the chunker's content-addressed id")
    searchable = models.BooleanField(default=True)
    # The audience: the sorted group ids of the policy ('{}': open to every signed-in user), set
    # by database triggers (migration 0003) on every insert and when a policy's groups change.
    # It only picks the partial HNSW index that serves a search (retrieval/audience_indexes.py);
    # access is decided by the version filter, never by this column.
    access_groups = ArrayField(models.IntegerField(), blank=True, default=list, editable=False,
                               db_default=models.Value("{}"),
                               help_text="The policy's sorted group ids ('{}': open); kept by triggers.")
    warnings = ArrayField(models.CharField(max_length=300), default=list, blank=True)
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS, null=True, blank=True)
    search_vector = models.GeneratedField(
        expression=SearchVector("embed_text", config="english"),
        output_field=SearchVectorField(),
        db_persist=True,
    )

    class Meta:
        ordering = ["version", "ordinal"]
        indexes = [
            HnswIndex(
                name="chunk_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
            GinIndex(name="chunk_search_vector_gin", fields=["search_vector"]),
            models.Index(fields=["version", "searchable"], name="chunk_version_searchable"),
            models.Index(fields=["content_hash"], name="chunk_content_hash"),
        ]

    def __str__(self) -> str:
        return f"{self.breadcrumb} [{self.pk}]"

    @property
    def breadcrumb_parts(self) -> list[str]:
        return self.breadcrumb.split(" > ")


# The chunks that define something ("... means ...", "refers to", "is defined as", or a chunk under
# a definitions or glossary heading), as the partial index chunk_defining states them (migration
# 0005; the definition look-ups of retrieval/lookup.py state the same predicate, which is how
# PostgreSQL knows to use the index; an evaluation table gets the index too, sources.py). The
# words are one tsquery constant (the english configuration's lexemes of "mean", "refer" and "is
# defined as") and the heading pattern an opaque function: so written, a query stating the
# predicate plans in a tenth of a millisecond instead of 6 ms (migration 0005 says why).
# {c}: the table's alias and a dot, or nothing.
DEFINING_CHUNKS = (
    "{c}searchable AND {c}level = 'block' AND ({c}search_vector @@ '''mean'' | ''refer'' | ''defin'''::tsquery "
    "OR policypal_defining_heading({c}breadcrumb))"
)


HEAVY_FIELDS = ("embedding", "search_vector")  # never needed to show, expand or cite a chunk


def chunks_with_sources(model: type[Chunk] = Chunk):
    """Chunks (of `model`'s table) with their version, policy and source in the same query,
    without their vectors and without the source's converted tree (the whole document as JSON,
    read only to re-chunk)."""
    return model._default_manager.select_related("version__policy", "source").defer(*HEAVY_FIELDS, "source__tree")


# Per-version searchable chunk counts of the live chunk table live in the table
# retrieval_versionchunkcount (version_id, searchable), kept by triggers on retrieval_chunk
# (migration 0002: every INSERT, UPDATE, DELETE and TRUNCATE, whatever code runs it:
# ingestion's COPY, re-index swaps, cascades, fixtures). Derived data, so not a model: no dump,
# fixture or flush ever writes it except through those triggers. Search sums the asker's
# versions' counts to know how many chunks pass the access filter (retrieval/search.py).
VERSION_CHUNK_COUNTS = "retrieval_versionchunkcount"
