"""Migration 0007 reads the rule sheets again and settles the stored games again.

A scratch database (SQLite file, or PostgreSQL when the suite runs there) is migrated to
0005, given games as the old code stored them, then migrated to the end, in separate
processes as a real upgrade would run."""

import json

import pytest

from tests.builders import manage, run_python

OLD_GAMES = """
import django
django.setup()
from decimal import Decimal as D
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
apps = MigrationExecutor(connection).loader.project_state(
    [("scoring", "0005_club_settings"), ("members", "0001_initial")]).apps
Member = apps.get_model("members", "Member")
RuleSet = apps.get_model("scoring", "RuleSet")
Meet = apps.get_model("scoring", "Meet")
Hanchan = apps.get_model("scoring", "Hanchan")
Result = apps.get_model("scoring", "HanchanResult")
people = [Member.objects.create(name=n, furigana="かな") for n in ("甲", "乙", "丙", "丁")]

def game(rule_name, day, scores, settled, chombo=(), deposits=0):
    rule = RuleSet.objects.get(name=rule_name)
    meet = Meet.objects.create(date=day, kind="sat", rule_set=rule)
    g = Hanchan.objects.create(meet=meet, table_no=1, round_no=1, rule_set=rule,
                               deposits_held=deposits, note="", version=1)
    for seat, (score, (final, place, sp, rp, cp, total)) in enumerate(zip(scores, settled)):
        Result.objects.create(
            hanchan=g, member=people[seat], seat=seat, score=score,
            chombo=1 if seat in chombo else 0, final_score=final, place=place,
            score_points=D(sp), rank_points=D(rp), chombo_points=D(cp), total_points=D(total),
            meet=meet, played_on=meet.date, is_last=place == len(scores))

# Sheet 003 as the old code settled it: no floor at zero, -10 P for the chombo.
game("三人打ち 30000持ち34000返し", "2025-04-05", [70000, 25000, -5000],
     [(70000, 1, 36, 32, -10, 58), (25000, 2, -9, 0, 0, -9), (-5000, 3, -39, -20, 0, -59)],
     chombo=(0,))
# The 協会 with 1,000 held, as the old code settled it: 1,000 taken off the top.
game("日本健康麻将協会", "2025-04-12", [40000, 30000, 20000, 10000],
     [(39000, 1, 14, 12, 0, 26), (30000, 2, 5, 4, 0, 9), (20000, 3, -5, -4, 0, -9),
      (10000, 4, -15, -12, 0, -27)], deposits=1000)
# The club's rule is unchanged: this game must not be touched.
game("白樺会 四人打ち", "2025-04-19", [40000, 30000, 30000, 20000],
     [(40000, 1, 10, 30, 0, 40), (30000, 2, 0, 0, 0, 0), (30000, 2, 0, 0, 0, 0),
      (20000, 4, -10, -30, 0, -40)])
print("ok")
"""

AFTER = """
import json, django
django.setup()
from scoring.models import Hanchan, HanchanResult
out = {}
for g in Hanchan.objects.select_related("rule_set").order_by("meet__date"):
    out[g.rule_set.name] = {
        "totals": [str(r.total_points) for r in g.results.order_by("seat")],
        "finals": [r.final_score for r in g.results.order_by("seat")],
        "deposits": g.deposits_held,
        "version": g.version,
        "reasons": sorted({h.history_change_reason or "" for h in
                           HanchanResult.history.filter(hanchan_id=g.pk)}),
        "rule_sets": sorted({r.rule_set_id == g.rule_set_id for r in g.results.all()}),
    }
print(json.dumps(out, ensure_ascii=False))
"""


@pytest.mark.slow
def test_migration_settles_the_stored_games_again_as_the_sheets_say(databases, tmp_path):
    live, _restored = databases
    manage(live, tmp_path, "migrate", "scoring", "0005", "-v0")
    manage(live, tmp_path, "migrate", "members", "0006", "-v0")
    assert run_python(live, tmp_path, OLD_GAMES) == "ok"
    manage(live, tmp_path, "migrate", "-v0")
    games = json.loads(run_python(live, tmp_path, AFTER))

    parlor = games["三人打ち 30000持ち34000返し"]
    assert parlor["totals"] == ["63.0", "-9.0", "-54.0"]  # sheet 003, chombo paid at the table
    assert parlor["finals"] == [65_000, 25_000, 0]
    assert parlor["version"] == 2
    assert "ルール表の読み直しで再精算" in parlor["reasons"]

    jkma = games["日本健康麻将協会"]  # no deposits held under 供託はトップ取り
    assert (jkma["deposits"], jkma["totals"]) == (0, ["27.0", "9.0", "-9.0", "-27.0"])

    club = games["白樺会 四人打ち"]
    assert club["version"] == 1 and "ルール表の読み直しで再精算" not in club["reasons"]
    assert all(g["rule_sets"] == [True] for g in games.values())
    assert "All 3 games agree" in manage(live, tmp_path, "check_results")


@pytest.mark.slow
def test_the_clubs_migration_moves_a_filled_database_into_the_default_club_unchanged(
    databases, tmp_path
):
    """members 0007 and scoring 0028 put today's data in the default club: what the club sees
    (the standings pages, the half-year PDF's text, the Excel's cells and the games CSV of the
    demo and a played half-year) is the same before and after. The database is filled, taken
    back to before the clubs (the columns and the table go), and migrated forward again."""
    live, _restored = databases
    manage(live, tmp_path / "data-before", "snapshot_outputs", str(tmp_path / "before"))
    manage(live, tmp_path / "data-before", "migrate", "members", "0006", "-v0")
    tables = run_python(
        live,
        tmp_path,
        "import django; django.setup(); from django.db import connection as c; "
        "print(sorted(t for t in c.introspection.table_names() if 'club' in t))",
    )
    assert "members_club" not in tables and "scoring_clubsettings" in tables
    # A fresh data folder: nothing kept from the first run answers for the second.
    manage(live, tmp_path / "data-after", "snapshot_outputs", "--as-is", str(tmp_path / "after"))

    before = {p.name: p.read_text() for p in (tmp_path / "before").iterdir()}
    after = {p.name: p.read_text() for p in (tmp_path / "after").iterdir()}
    assert any(name.endswith(".csv") for name in before) and len(before) >= 10
    assert sorted(after) == sorted(before)
    changed = [name for name in before if after[name] != before[name]]
    assert changed == []
    owned = run_python(
        live,
        tmp_path,
        "from members.models import Club, Member; from members.scopes import scopes_disabled; "
        "from scoring.models import Meet, RuleSet; _every_club = scopes_disabled(); "
        "_every_club.__enter__(); "
        "print(list(Club.objects.values_list('pk', 'slug')), "
        "Member.objects.exclude(club_id=1).count() + Meet.objects.exclude(club_id=1).count() "
        "+ RuleSet.objects.exclude(club_id=1).count(), Member.objects.count())",
    )
    assert owned.startswith("[(1, 'default')] 0 ") and not owned.endswith(" 0")
