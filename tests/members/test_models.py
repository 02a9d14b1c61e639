"""Finding a member by what the organizer types (members/models.py): ``normalise_name``,
``name_key`` and ``MemberQuerySet.matching``. Every case can be checked by eye."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from members.models import Member, name_key, normalise_name


class TestNormaliseName:
    @pytest.mark.parametrize(
        ("typed", "folded"),
        [
            ("さとう", "さとう"),
            ("サトウ", "さとう"),  # katakana as hiragana
            ("ｻﾄｳ", "さとう"),  # half-width katakana: NFKC makes it full-width first
            ("さとう かずこ", "さとうかずこ"),  # no spaces
            ("さとう\u3000かずこ", "さとうかずこ"),  # nor full-width ones
            ("ラーメン", "らーめん"),  # the long-vowel mark stays
            ("ＪＯＨＮ", "john"),  # full-width letters folded, then lower case
            ("John", "john"),
            ("佐藤 和子", "佐藤和子"),  # kanji stay as they are
        ],
    )
    def test_it_folds_what_does_not_matter(self, typed, folded):
        assert normalise_name(typed) == folded


class TestNameKey:
    def test_a_full_width_space_is_the_same_name(self):
        assert name_key("山田\u3000花子") == name_key("山田 花子") == "山田花子"

    def test_no_space_at_all_is_the_same_name_too(self):
        assert name_key("山田花子") == name_key("山田 花子")

    def test_full_width_letters_and_digits_are_folded(self):
        assert name_key("ＡＢＣ１２") == "ABC12"

    def test_kana_and_case_still_tell_two_names_apart(self):
        # A name as written: サトウ and さとう are two spellings, unlike in matching().
        assert name_key("サトウ") != name_key("さとう")
        assert name_key("Abe") != name_key("abe")


@pytest.fixture
def club(db) -> dict[str, Member]:
    people = [
        ("佐藤 和子", "さとう かずこ"),
        ("佐野 次郎", "さの じろう"),
        ("山田 花子", "やまだ はなこ"),
        ("John Smith", "じょん すみす"),
    ]
    return {name: Member.objects.create(name=name, furigana=kana) for name, kana in people}


def names(found: list[Member]) -> list[str]:
    return sorted(m.name for m in found)


class TestMatching:
    @pytest.mark.parametrize("typed", ["さとう", "サトウ", "ｻﾄｳ", "佐藤"])
    def test_hiragana_katakana_and_kanji_find_sato_kazuko(self, club, typed):
        assert names(Member.objects.matching(typed)) == ["佐藤 和子"]

    @pytest.mark.parametrize("typed", ["佐藤 和子", "佐藤\u3000和子", "佐藤和子", "さとうかずこ"])
    def test_the_whole_name_with_any_space_or_none(self, club, typed):
        assert names(Member.objects.matching(typed)) == ["佐藤 和子"]

    def test_a_prefix_of_the_furigana(self, club):
        assert names(Member.objects.matching("やま")) == ["山田 花子"]

    def test_a_prefix_shared_by_several_finds_them_all(self, club):
        assert names(Member.objects.matching("さ")) == ["佐藤 和子", "佐野 次郎"]
        assert names(Member.objects.matching("佐")) == ["佐藤 和子", "佐野 次郎"]

    def test_full_width_and_half_width_letters_are_one(self, club):
        for typed in ("john", "JOHN", "ＪＯＨＮ", "ｊｏｈｎ"):
            assert names(Member.objects.matching(typed)) == ["John Smith"], typed

    def test_an_exact_name_wins_over_the_names_it_begins(self, club):
        Member.objects.create(name="佐藤", furigana="さとう")
        # 佐藤 is a whole name and the beginning of 佐藤 和子: only the whole name is meant.
        assert names(Member.objects.matching("佐藤")) == ["佐藤"]
        assert names(Member.objects.matching("さとう")) == ["佐藤"]
        assert names(Member.objects.matching("さとうか")) == ["佐藤 和子"]

    @pytest.mark.parametrize("typed", ["", " ", "\u3000"])
    def test_nothing_typed_finds_nobody(self, club, typed):
        assert Member.objects.matching(typed) == []

    def test_no_such_name_finds_nobody(self, club):
        assert Member.objects.matching("たなか") == []
        assert Member.objects.matching("和子") == []  # the given name alone does not begin it

    def test_it_looks_only_in_the_queryset_it_is_given(self, club):
        club["佐野 次郎"].is_active = False
        club["佐野 次郎"].save()
        assert names(Member.objects.active().matching("さ")) == ["佐藤 和子"]


NAMESAKES = [
    ("山田 勝", "山田\u3000勝"),
    ("山田 勝", "山田勝"),
    ("=1+1", "＝1+1"),
    ("ABC", "ＡＢＣ"),
]


class TestNamesakes:
    """Two names that differ only in spaces or widths are one name (``name_key``): the second
    is refused wherever an organizer adds or renames a member, naming the one already there.
    (Both accepted, neither could be entered by name in the game form any more.)"""

    @pytest.mark.parametrize(("there", "added"), NAMESAKES)
    def test_the_model_refuses_a_name_that_differs_only_in_spaces_or_width(self, db, there, added):
        Member.objects.create(name=there, furigana="かな")
        with pytest.raises(ValidationError) as refused:
            Member(name=added, furigana="かな").full_clean()
        assert refused.value.message_dict["name"] == [
            f"「{there}」という会員がすでにいます。空白や全角・半角だけが違う名前は同じ名前です。"
        ]

    def test_the_same_name_exactly_is_refused_with_the_same_words(self, db):
        Member.objects.create(name="山田 勝", furigana="かな")
        with pytest.raises(ValidationError, match="「山田 勝」という会員がすでにいます"):
            Member(name="山田 勝", furigana="かな").full_clean()

    def test_a_member_keeps_and_respaces_its_own_name(self, db):
        member = Member.objects.create(name="山田 勝", furigana="かな")
        member.full_clean()
        member.name = "山田\u3000勝"
        member.full_clean()

    def test_kana_and_case_still_make_another_name(self, db):
        Member.objects.create(name="Abe", furigana="かな")
        Member(name="ABE", furigana="かな").full_clean()

    def test_the_member_form_refuses_it_and_names_the_member(self, organizer_client, four_members):
        response = organizer_client.post(
            "/members/new/", {"name": "東山\u3000一郎", "furigana": "ひがしやま", "is_active": "on"}
        )
        assert response.status_code == 400
        assert "「東山 一郎」という会員がすでにいます。" in response.content.decode()
        assert Member.objects.count() == 4

    def test_renaming_into_another_members_name_is_refused(self, organizer_client, four_members):
        pk = four_members[1].pk
        response = organizer_client.post(
            f"/members/{pk}/edit/", {"name": "東山一郎", "furigana": "みなみの", "is_active": "on"}
        )
        assert response.status_code == 400
        assert Member.objects.get(pk=pk).name == "南野 花子"

    def test_the_admin_refuses_it_and_names_the_member(self, organizer_client, four_members):
        response = organizer_client.post(
            reverse("admin:members_member_add"),
            {"name": "北村　三郎", "furigana": "きたむら", "is_active": "on"},
        )
        assert response.status_code == 200  # the admin shows its form again
        assert "「北村 三郎」という会員がすでにいます。" in response.content.decode()
        assert Member.objects.count() == 4


class TestFormatCharacters:
    """Invisible format characters (Unicode category Cf) are refused like control characters:
    U+202E turns 「山田 勝」 around on screen while the stored text says otherwise."""

    @pytest.mark.parametrize(
        "hidden",
        ["\u202e", "\u202a", "\u2066", "\u200b", "\u200e", "\ufeff", "\u061c", "\U000e0041"],
    )
    def test_a_name_with_one_is_refused(self, db, hidden):
        with pytest.raises(ValidationError) as refused:
            Member(name=f"山田{hidden}勝", furigana="やまだ").full_clean()
        assert refused.value.message_dict["name"] == [
            "制御文字や見えない書式文字（タブ、エスケープ、文字の向きを変える記号など）は"
            "入力できません。"
        ]

    def test_the_member_form_refuses_it(self, organizer_client):
        response = organizer_client.post(
            "/members/new/", {"name": "山田\u202e勝", "furigana": "やまだ", "is_active": "on"}
        )
        assert response.status_code == 400
        assert not Member.objects.exists()

    @pytest.mark.parametrize("text", ["山田 勝", "ｻﾄｳ", "John O'Neil", "🀄 白", "Ａｂｅ"])
    def test_ordinary_names_still_pass(self, db, text):
        Member(name=text, furigana="かな").full_clean()
