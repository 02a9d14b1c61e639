"""The five rule sets the club's sheets describe (../shared/rules/, DOMAIN.md).

Readings taken where a sheet leaves a figure open (the organizer can copy and change them
before first use; once a game uses a rule set it is frozen):

- 白樺会 三人打ち (sheet 000): "the rules are those of the 4-player game": 30,000 start and
  return like the club's 4-player rule, rank points +30 / 0 / −30, ties shared.
- 日本健康麻将協会 (sheet 001): 25,000 start (four scores sum to 100,000), rank points
  +12,000 / +4,000 / −4,000 / −12,000 points = +12 / +4 / −4 / −12 P, ties by seat from the
  first dealer, an excess over 100,000 off the top, chombo paid at the table (0 P here).
- 三人打ち 30000持ち34000返し (sheet 003): oka 4,000 × 3 = +12 P to the top; "順位ウマは
  0P・1000P" read as 2nd pays nothing, 3rd pays 1,000P at the parlor's rate 0.5 (50P per
  1,000 points), i.e. 20,000 points: +20 / 0 / −20 P; ties by seat.
- カンターン麻雀 (sheet 004): 1-0-0-0, only the win counts; no start is given, 25,000 is
  used for the table check; a single top always.
"""

from decimal import Decimal

from django.db import migrations

D = Decimal

RULE_SETS = [
    {
        "name": "白樺会 四人打ち",
        "is_default": True,
        "description": "30,000点持ち30,000点返し、100点＝0.1P、順位点 +30/+10/−10/−30、"
        "同点は折半、錯和1回につき −10P（順位確定後）。",
        "players": 4,
        "start_points": 30_000,
        "return_points": 30_000,
        "rank_point_1": D(30),
        "rank_point_2": D(10),
        "rank_point_3": D(-10),
        "rank_point_4": D(-30),
        "tie_break": "split",
        "chombo_penalty": D(10),
        "total_policy": "exact",
    },
    {
        "name": "白樺会 三人打ち",
        "description": "東・南・西の三人打ち。30,000点持ち30,000点返し、順位点 +30/0/−30、"
        "同点は折半、錯和1回につき −10P。",
        "players": 3,
        "start_points": 30_000,
        "return_points": 30_000,
        "rank_point_1": D(30),
        "rank_point_2": D(0),
        "rank_point_3": D(-30),
        "rank_point_4": None,
        "tie_break": "split",
        "chombo_penalty": D(10),
        "total_policy": "exact",
    },
    {
        "name": "日本健康麻将協会",
        "description": "25,000点持ち、順位点 +12,000/+4,000/−4,000/−12,000点、同点は起家に近い方が上位、"
        "合計が100,000点を超えた分はトップから引く（順位は変わらない）。チョンボは卓で精算済み。",
        "players": 4,
        "start_points": 25_000,
        "return_points": 25_000,
        "rank_point_1": D(12),
        "rank_point_2": D(4),
        "rank_point_3": D(-4),
        "rank_point_4": D(-12),
        "tie_break": "seat",
        "chombo_penalty": D(0),
        "total_policy": "excess_off_top",
    },
    {
        "name": "三人打ち 30000持ち34000返し",
        "description": "30,000点持ち34,000点返し、オカ +12P はトップへ。順位点 +20/0/−20、"
        "同点は起家に近い方が上位。",
        "players": 3,
        "start_points": 30_000,
        "return_points": 34_000,
        "rank_point_1": D(20),
        "rank_point_2": D(0),
        "rank_point_3": D(-20),
        "rank_point_4": None,
        "tie_break": "seat",
        "chombo_penalty": D(10),
        "total_policy": "exact",
    },
    {
        "name": "カンターン麻雀 (1-0-0-0)",
        "description": "1位のみが勝ち。成績は勝ち数と勝率。トップは必ず一人。",
        "players": 4,
        "start_points": 25_000,
        "return_points": 25_000,
        "rank_point_1": D(0),
        "rank_point_2": D(0),
        "rank_point_3": D(0),
        "rank_point_4": D(0),
        "tie_break": "seat",
        "chombo_penalty": D(0),
        "total_policy": "exact",
        "scores_count": False,
        "single_top": True,
    },
]


def create_rule_sets(apps, schema_editor):
    RuleSet = apps.get_model("scoring", "RuleSet")
    for values in RULE_SETS:
        RuleSet.objects.update_or_create(name=values["name"], defaults=values)


def remove_rule_sets(apps, schema_editor):
    RuleSet = apps.get_model("scoring", "RuleSet")
    RuleSet.objects.filter(name__in=[v["name"] for v in RULE_SETS], hanchan__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("scoring", "0001_initial")]

    operations = [migrations.RunPython(create_rule_sets, remove_rule_sets)]
