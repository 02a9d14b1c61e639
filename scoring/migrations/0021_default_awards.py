"""Every standings group there is gets the default awards (groups made later get them when
they are made: ``scoring.models.awards.make_default_awards``). The list is written out here
as it was when this migration was made, as a migration should."""

from decimal import Decimal

from django.db import migrations

DEFAULTS = (
    ("total", "最高ポイント賞", Decimal(0)),
    ("wins", "最多トップ賞", Decimal(0)),
    ("average_place", "最高平均順位賞", Decimal(70)),
    ("attendance", "皆勤賞", Decimal(0)),
    ("yakuman", "役満賞", Decimal(0)),
    ("big_hands", "最多満貫以上賞", Decimal(0)),
    ("highest_score", "最高得点賞", Decimal(0)),
    ("rating", "最高レーティング賞", Decimal(70)),
)


def add_defaults(apps, schema_editor):
    StandingsGroup = apps.get_model("scoring", "StandingsGroup")
    Award = apps.get_model("scoring", "Award")
    for group in StandingsGroup.objects.all():
        for position, (measure, name, share) in enumerate(DEFAULTS, start=1):
            Award.objects.get_or_create(
                group=group,
                measure=measure,
                name=name,
                defaults={"position": position, "min_share": share, "games_per_meet": 2},
            )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0020_awards"),
    ]

    operations = [
        migrations.RunPython(add_defaults, migrations.RunPython.noop),
    ]
