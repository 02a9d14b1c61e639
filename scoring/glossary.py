"""The club's hard words, each once: the word as the page shows it, how the club reads it
(ふりがな, shown over it when a member turns ruby on) and what it means in one line (said when
the word is tapped or focused). Templates mark a word with ``{% term "chombo" %}``
(``scoring_tags.term``); the readings are the club's (DOMAIN.md, the rule sheets: 錯和 is
read さくほー and called チョンボ)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Term:
    word: Promise  # as the page shows it (the same text as where it stood before)
    reading: str  # in kana, shown over the word in Japanese only
    meaning: Promise  # one line


GLOSSARY: dict[str, Term] = {
    "chombo": Term(
        _("Chombo"),
        "さくほー",
        _("A foul (チョンボ): the hand is void, and the rule set's penalty comes off the P."),
    ),
    "sitting_out": Term(
        _("Sitting out"),
        "ぬけばん",
        _("Not playing this round: the people present do not fill the tables, so some wait."),
    ),
    "deposits": Term(
        _("Deposits"),
        "きょうたく",
        _("Riichi sticks (1,000 points each) on the table; the next winner takes them."),
    ),
    "deposits_held": Term(
        _("deposits held"),
        "あずかりきょうたく",
        _("Deposits nobody took at the end: kept aside, so the table's total is that much short."),
    ),
    "mangan": Term(
        _("Mangan or better"),
        "まんがんいじょう",
        _("A win worth 満貫 or more (跳満, 倍満, 三倍満, 役満); the awards count them."),
    ),
    "below_zero": Term(
        _("Below zero"),
        "はこわれ",
        _("The score went under 0 points; the game goes on."),
    ),
    "hanchan": Term(
        _("game"),
        "はんちゃん",
        _("One game of 東 and 南 rounds; a meet plays three or four."),
    ),
    "meet": Term(
        _("Meets"),
        "れいかい",
        _("The club's day of play: 水曜会 and 土曜会, each twice a month."),
    ),
    "finalised": Term(
        _("Finalised"),
        "かくていずみ",
        _("The organizer has closed the meet: its games cannot change unless it is reopened."),
    ),
}
