"""A game's history as people read it (scoring/history.py): per-seat differences, the editor
by member name, chombo and P each with its own label."""

from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from simple_history.models import HistoricalRecords

from members.models import Member
from scoring.history import editor_name, game_history
from scoring.models import Hanchan, HandLevel
from tests.builders import worked_table


@pytest.fixture
def as_alice(alice: User) -> Iterator[User]:
    """Saves made while alice is signed in (what the history middleware does for a request);
    alice is the login of the member 佐藤 和子."""
    Member.objects.create(name="佐藤 和子", furigana="さとう かずこ", user=alice)
    alice.refresh_from_db()
    HistoricalRecords.context.request = SimpleNamespace(user=alice)
    yield alice
    if hasattr(HistoricalRecords.context, "request"):  # a test's own request ends it too
        del HistoricalRecords.context.request


def edit(game: Hanchan, entries) -> None:
    game = Hanchan.objects.get(pk=game.pk)
    game.record(entries, expected_version=game.version)


def test_a_new_game_reads_as_its_four_seats(as_alice, recorded_game):
    [entry] = game_history(recorded_game)
    assert entry.action == "created"
    assert entry.who == "佐藤 和子"
    assert entry.lines == [
        "東 東山 一郎：32,600 点、満貫以上：満貫、合計 +32.6 P",
        "南 南野 花子：30,000 点、合計 0.0 P",
        "西 西川 次郎：30,000 点、合計 0.0 P",
        "北 北村 三郎：27,400 点、合計 −32.6 P",
    ]


def test_one_changed_name_is_one_line(as_alice, recorded_game, four_members):
    other = Member.objects.create(name="鈴木 一郎", furigana="すずき いちろう")
    entries = worked_table([other, *four_members[1:]], hands_east=[(HandLevel.MANGAN, "")])
    edit(recorded_game, entries)
    latest, first = game_history(recorded_game)
    assert latest.action == "changed"
    assert latest.lines == ["東 東山 一郎 → 鈴木 一郎"]
    assert first.action == "created"


def test_a_changed_score_reads_per_seat_with_its_p(as_alice, recorded_game, four_members):
    entries = worked_table(four_members, hands_east=[(HandLevel.MANGAN, "")])
    entries[1].score, entries[2].score = 31_000, 29_000  # 2nd +1.0+10, 3rd −1.0−10 (uma)
    edit(recorded_game, entries)
    assert game_history(recorded_game)[0].lines == [
        "南 30,000 → 31,000",
        "南 合計 0.0 P → +11.0 P",
        "西 30,000 → 29,000",
        "西 合計 0.0 P → −11.0 P",
    ]


def test_chombo_and_p_are_labelled_apart(as_alice, recorded_game, four_members):
    edit(recorded_game, worked_table(four_members, chombo_east=1))
    assert game_history(recorded_game)[0].lines == [
        "東 錯和 0 回 → 1 回",
        "東 満貫以上：満貫 → なし",
        "東 合計 +32.6 P → +22.6 P",
    ]


def test_the_game_page_shows_the_readable_history(as_alice, organizer_client, recorded_game):
    other = Member.objects.create(name="鈴木 一郎", furigana="すずき いちろう")
    members = [r.member for r in recorded_game.results.order_by("seat")]
    edit(recorded_game, worked_table([other, *members[1:]], hands_east=[(HandLevel.MANGAN, "")]))
    html = organizer_client.get(f"/games/{recorded_game.pk}/").content.decode()
    history = html.split("変更履歴</h2>")[1]
    assert "東 東山 一郎 → 鈴木 一郎" in history
    assert '<td class="who">佐藤 和子</td>' in history and "alice" not in history
    assert "削除" not in history


def test_the_editor_is_named_by_member_then_full_name_then_login(db):
    plain = User.objects.create_user("tanaka", first_name="田中 花子")
    bare = User.objects.create_user("yamada")
    linked = User.objects.create_user("kiroku", first_name="記録係")
    Member.objects.create(name="山本 一郎", furigana="やまもと いちろう", user=linked)
    assert editor_name(User.objects.get(pk=linked.pk)) == "山本 一郎"
    assert editor_name(plain) == "田中 花子"
    assert editor_name(bare) == "yamada"
    assert editor_name(None) == "—"


def test_english_history_writes_seats_as_letters(as_alice, recorded_game):
    """Issue 16 §6: the English pages use E/S/W/N for the seats, the history too."""
    with translation.override("en"):
        [entry] = game_history(recorded_game)
        assert [line.split(" ", 1)[0] for line in entry.lines] == ["E", "S", "W", "N"]
