"""Standings groups, the rule sheets read again, and the games under them settled again.

1. Standings groups (成績グループ): the club's 4-player and 3-player rules share the club's
   group (白樺会); every other rule set gets a group of its own, named after it.
2. The shipped rule sets, read line by line against their sheets (../shared/rules/):
   - 三人打ち 30000持ち34000返し (sheet 003): 「チョンボは親・子関係なく5000点ALLの支払い」: paid at
     the table, so no P penalty; 「箱下精算はありません」: below zero settles as 0, taken off the
     top (``floor_at_zero``).
   - 日本健康麻将協会 (sheet 001): 「（供託はトップ取り）」: deposits are never held.
   - カンターン麻雀 (sheet 004): 「西場から 供託ルール追加」: a pot can stay on the table, so a short
     table stands (``short_allowed``).
   - Where a sheet is silent the description says what the app does.
3. Every game under a rule set whose parameters changed is settled again by ``rules.settle``;
   results that change are written with a history entry (reason 「ルール表の読み直しで再精算」).
   Under a rule that holds no deposits, deposits recorded as held are set to 0.
4. Each result carries its game's rule set (copied like its meet and date).
"""

import importlib
from decimal import Decimal

from django.db import migrations
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from scoring import rules

REASON = "ルール表の読み直しで再精算"
CLUB_GROUP = "白樺会"
CLUB_RULES = ("白樺会 四人打ち", "白樺会 三人打ち")

CHANGES = {
    "白樺会 四人打ち": {
        "description": "30,000点持ち30,000点返し、100点＝0.1P、順位点 +30/+10/−10/−30、"
        "同点は折半、錯和1回につき −10P（順位確定後）。供託が不明のときは預かり（ルール13）。",
    },
    "白樺会 三人打ち": {
        "description": "東・南・西の三人打ち。30,000点持ち30,000点返し、順位点 +30/0/−30、"
        "同点は折半。シートは「ルールは4人マージャンと同じ」とだけ書くので、錯和も四人打ちと同じく"
        "1回につき −10P、預かりも同じ扱い。成績は白樺会グループで四人打ちと合算"
        "（三人打ちのラスはラス）。",
    },
    "日本健康麻将協会": {
        "holds_deposits": False,
        "description": "25,000点持ち、順位点 +12,000/+4,000/−4,000/−12,000点、同点は起家に近い方が上位、"
        "合計が100,000点を超えた分はトップから引く（順位は変わらない）、不足はそのまま集計。"
        "チョンボは卓で精算済み（3,000点ずつ）。供託はトップ取りなので預かりは受け付けない。",
    },
    "三人打ち 30000持ち34000返し": {
        "chombo_penalty": Decimal(0),
        "floor_at_zero": True,
        "description": "30,000点持ち34,000点返し、オカ +12P はトップへ。順位点 +20/0/−20"
        "（0.5の順位ウマ 0P・1000P の読み）、同点は起家に近い方が上位。箱下精算なし："
        "0点未満は0点で精算し、その分はトップから引く。チョンボは卓で5,000点オール精算済み（P減点なし）。",
    },
    "カンターン麻雀 (1-0-0-0)": {
        "total_policy": "short_allowed",
        "description": "1位のみが勝ち。成績は勝ち数と勝率。トップは必ず一人。西場からの供託は卓に残ってよい"
        "ので、合計が100,000点に足りない卓はそのまま受け付け、超える卓は受け付けない。"
        "シートに持ち点の記載がないため、卓の確認には25,000点×4を使う。",
    },
}


def as_migrated():
    """(fields, group name) of each shipped rule set as the migrations leave it: made by 0002,
    read again here. For what must know that state: ``backups.data_found`` (a freshly migrated
    database holds no data) and the tests that put it back after a flush."""
    made = importlib.import_module("scoring.migrations.0002_rule_sets").RULE_SETS
    return [
        (
            {**values, **CHANGES.get(values["name"], {})},
            CLUB_GROUP if values["name"] in CLUB_RULES else values["name"],
        )
        for values in made
    ]


def params_of(rule_set):
    """rules.RuleParams of a historical RuleSet row (the model's ``params()`` is not here)."""
    ranks = [rule_set.rank_point_1, rule_set.rank_point_2, rule_set.rank_point_3]
    if rule_set.players == 4:
        ranks.append(rule_set.rank_point_4)
    return rules.RuleParams(
        players=rule_set.players,
        start_points=rule_set.start_points,
        return_points=rule_set.return_points,
        points_per_p=rule_set.points_per_p,
        rank_points=tuple(Decimal(v) for v in ranks),
        tie_break=rules.TieBreak(rule_set.tie_break),
        split_rounding=rules.SplitRounding(rule_set.split_rounding),
        chombo_penalty=Decimal(rule_set.chombo_penalty),
        total_policy=rules.TotalPolicy(rule_set.total_policy),
        scores_count=rule_set.scores_count,
        single_top=rule_set.single_top,
        holds_deposits=rule_set.holds_deposits,
        floor_at_zero=rule_set.floor_at_zero,
    )


def snapshot(history_model, instance, when):
    """A '~' history row of ``instance`` as it is now, with this migration's reason."""
    values = {
        f.attname: getattr(instance, f.attname)
        for f in history_model._meta.fields
        if not f.name.startswith("history_") and hasattr(instance, f.attname)
    }
    history_model.objects.create(
        **values, history_date=when, history_type="~", history_change_reason=REASON
    )


def forwards(apps, schema_editor):
    StandingsGroup = apps.get_model("scoring", "StandingsGroup")
    RuleSet = apps.get_model("scoring", "RuleSet")
    Hanchan = apps.get_model("scoring", "Hanchan")
    HanchanResult = apps.get_model("scoring", "HanchanResult")
    HistoricalRuleSet = apps.get_model("scoring", "HistoricalRuleSet")
    HistoricalHanchan = apps.get_model("scoring", "HistoricalHanchan")
    HistoricalHanchanResult = apps.get_model("scoring", "HistoricalHanchanResult")
    now = timezone.now()

    club, _created = StandingsGroup.objects.get_or_create(
        name=CLUB_GROUP, defaults={"description": "白樺会の四人打ちと三人打ち（P を合算する）。"}
    )
    changed_rules = []
    for rule_set in RuleSet.objects.order_by("pk"):
        if rule_set.is_default or rule_set.name in CLUB_RULES:
            rule_set.group = club
        else:
            name, n = rule_set.name, 1
            while StandingsGroup.objects.filter(name=name).exists():
                n += 1
                name = f"{rule_set.name} ({n})"
            rule_set.group = StandingsGroup.objects.create(name=name)
        before = params_of(rule_set)
        for field, value in CHANGES.get(rule_set.name, {}).items():
            setattr(rule_set, field, value)
        rule_set.save()
        if Hanchan.objects.filter(rule_set=rule_set).exists():
            # In a score book with games the change is kept in the history; a new one has
            # nothing to explain (and a restore counts history as data).
            snapshot(HistoricalRuleSet, rule_set, now)
            if params_of(rule_set) != before:
                changed_rules.append(rule_set)

    for rule_set in changed_rules:
        params = params_of(rule_set)
        games = Hanchan.objects.filter(rule_set=rule_set).order_by("pk")
        for game in games:
            results = list(HanchanResult.objects.filter(hanchan=game).order_by("seat"))
            deposits = game.deposits_held if params.holds_deposits else 0
            seats = [rules.SeatScore(r.seat, r.score, r.chombo) for r in results]
            try:
                settlement = rules.settle(params, seats, deposits)
            except rules.InvalidGame:
                continue  # left as it was; `manage.py check_results` lists it
            by_seat = {p.seat: p for p in settlement.results}
            changed_rows = []
            for row in results:
                p = by_seat[row.seat]
                new = {
                    "final_score": p.final_score,
                    "place": p.place,
                    "score_points": p.score_points,
                    "rank_points": p.rank_points,
                    "chombo_points": p.chombo_points,
                    "total_points": p.total,
                    "is_last": p.place == params.players,
                }
                if any(getattr(row, k) != v for k, v in new.items()):
                    for k, v in new.items():
                        setattr(row, k, v)
                    changed_rows.append(row)
            if not changed_rows and deposits == game.deposits_held:
                continue
            game.deposits_held = deposits
            game.version += 1
            game.save()
            snapshot(HistoricalHanchan, game, now)
            for row in changed_rows:
                row.save()
                snapshot(HistoricalHanchanResult, row, now)

    HanchanResult.objects.update(
        rule_set_id=Subquery(
            Hanchan.objects.filter(pk=OuterRef("hanchan_id")).values("rule_set_id")[:1]
        )
    )


class Migration(migrations.Migration):
    dependencies = [("scoring", "0006_standings_groups")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
