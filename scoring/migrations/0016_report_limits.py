"""Limits on reports (issue 26): who asked for a report (how many one person may have waiting
is limited), the size of each kept part (the kept files are bounded in total size, and the
parts kept already are measured here), and the status of a report a newer one replaced."""

from pathlib import Path

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def measure_kept_parts(apps, schema_editor):
    ReportPart = apps.get_model("scoring", "ReportPart")
    parts = Path(settings.REPORTS_DIR) / "parts"
    for part in ReportPart.objects.filter(status="ready").only("pk", "digest").iterator():
        try:
            size = (parts / f"{part.digest}.pdf").stat().st_size
        except OSError:
            continue  # gone: made again when next needed
        ReportPart.objects.filter(pk=part.pk).update(size=size)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0015_text_without_format_characters"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="report",
            name="asked_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="reportpart",
            name="size",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AlterField(
            model_name="report",
            name="status",
            field=models.CharField(
                choices=[
                    ("queued", "queued"),
                    ("making", "being made"),
                    ("ready", "ready"),
                    ("failed", "failed"),
                    ("replaced", "replaced"),
                ],
                default="queued",
                max_length=8,
            ),
        ),
        migrations.AlterField(
            model_name="reportpart",
            name="status",
            field=models.CharField(
                choices=[
                    ("queued", "queued"),
                    ("making", "being made"),
                    ("ready", "ready"),
                    ("failed", "failed"),
                    ("replaced", "replaced"),
                ],
                default="queued",
                max_length=8,
            ),
        ),
        migrations.RunPython(measure_kept_parts, migrations.RunPython.noop),
    ]
