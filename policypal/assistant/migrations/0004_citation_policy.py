"""The cited chunk's policy on each Citation, so reviewer scope survives the chunk's deletion.

Existing citations take the policy of the chunk they still point at; a citation whose chunk is
already gone keeps a null policy, which hides its answer from reviewers who are not superusers
(fail closed: nobody can tell any more whose text it quotes)."""

import django.db.models.deletion
from django.db import migrations, models


def policy_from_chunk(apps, schema_editor):
    Citation = apps.get_model("assistant", "Citation")
    Chunk = apps.get_model("retrieval", "Chunk")
    Citation.objects.filter(chunk__isnull=False).update(
        policy_id=models.Subquery(Chunk.objects.filter(pk=models.OuterRef("chunk_id")).values("policy_id")[:1])
    )


class Migration(migrations.Migration):

    dependencies = [
        ("assistant", "0003_answer_layer_fields_and_feedback"),
        ("policies", "0001_initial"),
        ("retrieval", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="citation",
            name="policy",
            field=models.ForeignKey(
                blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to="policies.policy"
            ),
        ),
        migrations.RunPython(policy_from_chunk, migrations.RunPython.noop),
    ]
