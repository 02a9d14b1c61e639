"""How the club writes things: seats, meet kinds, hand levels, scores, P and points, dates, and
the record sheet's columns.

Below the models: it imports Django, the members' validators and the pure core only, never
``scoring.models`` or anything above it. The models, the forms, the import, the history and
every report read and write through it; the template tags only register its functions.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from functools import lru_cache

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import dateformat
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from members.models import no_control_characters
from scoring.hands import Level

# --- seats -------------------------------------------------------------------------------


class Seat(models.IntegerChoices):
    EAST = 0, "東"
    SOUTH = 1, "南"
    WEST = 2, "西"
    NORTH = 3, "北"


SEAT_NAMES: tuple[str, ...] = tuple(str(label) for label in Seat.labels)
"""東 南 西 北, by seat number: the labels of ``Seat``, the words of the record sheet."""

SEAT_LABELS = (
    pgettext_lazy("seat", "E"),
    pgettext_lazy("seat", "S"),
    pgettext_lazy("seat", "W"),
    pgettext_lazy("seat", "N"),
)


def seat_label(seat: int) -> str:
    """A seat as the page's language writes it: 東 南 西 北 in Japanese, E S W N in English."""
    return str(SEAT_LABELS[seat])


# --- meets -------------------------------------------------------------------------------


class MeetKind(models.TextChoices):
    WEDNESDAY = "wed", _("Wednesday meet")
    SATURDAY = "sat", _("Saturday meet")
    OTHER = "other", _("Other")


MEET_WEEKDAYS: dict[str, int] = {MeetKind.WEDNESDAY: 2, MeetKind.SATURDAY: 5}
"""The day of the week (Monday 0) each kind of meet is held on."""
CLUB_WEEKS: dict[str, tuple[int, ...]] = {MeetKind.WEDNESDAY: (1, 3), MeetKind.SATURDAY: (2, 4)}
"""The weeks of the month the club holds each meet, as it plans them: the 1st and 3rd
Wednesday, the 2nd and 4th Saturday (the schedule's default, and the demo club's)."""

KIND_LABELS = {MeetKind.WEDNESDAY: "水曜会", MeetKind.SATURDAY: "土曜会", MeetKind.OTHER: "その他"}
"""A meet's kind as the record sheet writes it."""

KIND_WORDS = {
    **{label: kind for kind, label in KIND_LABELS.items()},
    **{kind.value: kind for kind in MeetKind},
}
"""What the record sheet may write for a meet's kind: 水曜会 or wed, …"""

MEET_DATES = (date(1990, 1, 1), date(2099, 12, 31))
"""The days a meet may have: a meet dated in 9999 would break every period after it."""

FIRST_DAY, LAST_DAY = MEET_DATES[0], date(MEET_DATES[1].year + 1, 3, 31)
"""The days a period may reach: the meets' dates and the fiscal year (April to March) the last
of them falls in."""


def meet_date(value: date | None, style: str = "") -> str:
    """2025年4月9日（水） in Japanese; Wed 9 Apr 2025 in English. ``"short"`` leaves out the
    year (4月9日（水）, Wed 9 Apr), for a table under a heading that names the period.

    Remembered for each language: the half-year report writes some three thousand dates, most
    of them the same few meets' (Django's date format took a fifth of its members' HTML)."""
    if value is None:
        return ""
    return _meet_date(value, style, get_language() or "ja")


@lru_cache(maxsize=4096)
def _meet_date(value: date, style: str, language: str) -> str:
    japanese = language.startswith("ja")
    if style == "short":
        return dateformat.format(value, "n月j日（D）" if japanese else "D j M")
    return dateformat.format(value, "Y年n月j日（D）" if japanese else "D j M Y")


# --- big hands (満貫以上) ------------------------------------------------------------------


class HandLevel(models.TextChoices):
    """A big hand's level as a game records it: the score table's levels (``hands.Level``)
    from mangan up, with the page's word for each."""

    MANGAN = Level.MANGAN.value, _("Mangan")
    HANEMAN = Level.HANEMAN.value, _("Haneman")
    BAIMAN = Level.BAIMAN.value, _("Baiman")
    SANBAIMAN = Level.SANBAIMAN.value, _("Sanbaiman")
    YAKUMAN = Level.YAKUMAN.value, _("Yakuman")


GUEST_MARK = "（ゲスト）"
"""What the standings and the exports write after a guest's name (a Member marked is_guest:
体験・ゲスト), and what the games import reads back as the mark."""

GUEST_MARKS = (GUEST_MARK, "(ゲスト)")


def split_guest_mark(name: str) -> tuple[str, bool]:
    """A name as the exports write it, and whether it was marked a guest's: 大野 音（ゲスト） is
    (大野 音, True); the half-width (ゲスト) is read too."""
    for mark in GUEST_MARKS:
        if name.endswith(mark) and len(name) > len(mark):
            return name[: -len(mark)].rstrip(), True
    return name, False


HAND_LABELS_JA = {
    HandLevel.MANGAN: "満貫",
    HandLevel.HANEMAN: "跳満",
    HandLevel.BAIMAN: "倍満",
    HandLevel.SANBAIMAN: "三倍満",
    HandLevel.YAKUMAN: "役満",
}
"""A hand level as the record sheet writes it."""

HAND_WORDS = {
    **{label: level for level, label in HAND_LABELS_JA.items()},
    "満": HandLevel.MANGAN,
    "跳": HandLevel.HANEMAN,
    "倍": HandLevel.BAIMAN,
    "三倍": HandLevel.SANBAIMAN,
    "三": HandLevel.SANBAIMAN,
    "役": HandLevel.YAKUMAN,
    **{level.value: level for level in HandLevel},
}
"""What the record sheet and the game form may write for a hand level: 満貫, 満, mangan, …"""
HAND_SEPARATORS = re.compile(r"[;；,，、\s]+")
HAND_WITH_NAME = re.compile(r"^(?P<word>[^()（）]+)(?:[(（](?P<name>[^()（）]*)[)）])?$")


def hand_level_label(level: str) -> str:
    """A hand level in the page's language (Mangan, 満貫); "" for a hand below mangan."""
    return str(HandLevel(level).label) if level else ""


def format_big_hands(hands: Sequence[tuple[str, str]]) -> str:
    """The record-sheet text of big hands: 満貫;役満(国士無双) (what parse_big_hands reads)."""
    return ";".join(
        f"{HAND_LABELS_JA[HandLevel(level)]}({name})" if name else HAND_LABELS_JA[HandLevel(level)]
        for level, name in hands
    )


BAD_HAND = _("%(word)s is not a hand level (満貫, 跳満, 倍満, 三倍満, 役満).")
NAMED_HAND = _("Only a yakuman carries a name.")


def parse_big_hands(text: str) -> list[tuple[str, str]]:
    """Read 満貫;跳満;役満(国士無双) (or short 満 跳 倍 三 役, separated by ; 、 , or spaces).

    Returns (level, yakuman name) pairs; raises ValidationError naming the word not understood.
    """
    hands: list[tuple[str, str]] = []
    for word in HAND_SEPARATORS.split(text.strip()):
        if not word:
            continue
        match = HAND_WITH_NAME.match(word)
        level = HAND_WORDS.get(match.group("word").strip().lower()) if match else None
        if match is None or level is None:
            raise ValidationError(
                BAD_HAND,
                code="bad_hand",
                params={"word": word},
            )
        name = (match.group("name") or "").strip()
        no_control_characters(name)
        if name and level != HandLevel.YAKUMAN:
            raise ValidationError(NAMED_HAND, code="named_hand")
        hands.append((level.value, name))
    return hands


# --- scores, P and points ----------------------------------------------------------------

SCORE_SIGNS = "-−ー▲"
"""Minus as the record sheet writes it: -3200, −3200 (U+2212), ー3200 (the long-vowel mark, as a
Japanese keyboard types it), ▲3,200 (the accountant's triangle)."""

MINUS = "\u2212"  # − (a real minus sign, as printed score sheets use)


BAD_SCORE = _("Type the score as a number (%(value)s given).")


def parse_score(text: str) -> int:
    """Read a score as the organizer or a record sheet writes it: 32600, 32,600, ３２６００,
    ▲3,200, −3200, ー3200, +2,000. The one reader of score notation (game form and import).

    Raises ValidationError (code ``bad_score``) for anything else.
    """
    folded = unicodedata.normalize("NFKC", text).strip().replace(",", "").replace(" ", "")
    sign = 1
    if folded[:1] in SCORE_SIGNS:
        sign, folded = -1, folded[1:]
    elif folded[:1] == "+":
        folded = folded[1:]
    if not re.fullmatch(r"\d{1,9}", folded):
        raise ValidationError(
            BAD_SCORE,
            code="bad_score",
            params={"value": text.strip()},
        )
    return sign * int(folded)


def signed_p(value: Decimal | int | None) -> str:
    """+2.6 / −33.2 / 0.0: one decimal, a sign unless zero."""
    if value is None or value == "":
        return ""
    number = Decimal(value).quantize(Decimal("0.1"))
    if number == 0:
        return "0.0"
    return f"+{number}" if number > 0 else f"{MINUS}{-number}"


def signed(value: int) -> str:
    """A whole number with its sign: +4 / −4 / 0 (a head-to-head lead)."""
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


def points(value: int | str | None) -> str:
    """32,600 / −3,200."""
    if value is None or value == "":
        return ""
    number = int(value)
    return f"{number:,}" if number >= 0 else f"{MINUS}{-number:,}"


def sign_class(value: Decimal | int | None) -> str:
    """A CSS class for a figure's sign (negative figures are shown in dark red)."""
    if value is None or value == "":
        return ""
    return "neg" if Decimal(value) < 0 else "pos" if Decimal(value) > 0 else "zero"


def rate(value: Decimal | None) -> str:
    """0.333 → 33.3%; an empty rate (below the minimum of games) → —."""
    if value is None:
        return "—"
    return f"{(Decimal(value) * 100).quantize(Decimal('0.1'))}%"


# --- the record sheet (import and games CSV) ----------------------------------------------

COLUMNS = {
    "date": ("日付", "date"),
    "meet": ("例会", "meet"),
    "table": ("卓", "table"),
    "round": ("回戦", "round"),
    "seat": ("席", "seat"),
    "name": ("氏名", "name"),
    "score": ("持ち点", "score"),
    "chombo": ("錯和", "chombo"),
    "big_hands": ("満貫以上", "big_hands"),
    "rule_set": ("ルール", "rule_set"),
    "deposits": ("供託", "deposits"),
    "note": ("備考", "note"),
}
"""The record sheet's columns in order: key → (Japanese header, English header)."""

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting so would be run as a formula by a spreadsheet; the games CSV writes it
behind an apostrophe (``neutralise``) and the import takes that off again."""


def neutralise(text: str) -> str:
    """Text for a CSV cell that no spreadsheet runs as a formula: an apostrophe before it when
    it starts with = + - @, a tab or a CR (the import takes the apostrophe off)."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text
