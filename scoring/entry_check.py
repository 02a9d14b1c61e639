"""What the game form's live check needs on the device: the rule sets' parameters (what
``rules.settle`` settles with, so the device shows places and points offline too), the
members to match names against, the limits, and every text the check shows, translated.

What it is for: "The live sum check, the name check and the plausibility warnings work offline. The
page carries the rule set's parameters as data, and one table of cases runs against both the
Python check and the JavaScript check, so the two cannot drift apart."

``entry_check_data`` is put on the game form's page as JSON (``json_script``) and read by
static/js/entry_check.js, which checks a game as ``GameForm`` and ``rules.check_game`` do
and settles it as ``rules.settle`` does.
Each text is the server's own, taken from where the server says it (the forms' messages and
the live check's lines, ``notation``, the models' ``INVALID_GAME_MESSAGES``, Django's fields),
translated and left with its ``%(name)s`` placeholders for the script to fill; the limits the
messages name come with them (``limits``).
tests/scoring/entry_check_cases.json is the one table of cases both checks are held to.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils import timezone

from members.models import CONTROL_CHARACTERS, NAME_LENGTH, Member
from scoring import rules
from scoring.forms import GAME_FORM_MESSAGES, LIMITS, SETTLEMENT_MESSAGES, GameForm
from scoring.hands import Level
from scoring.models import INVALID_GAME_MESSAGES, LAST_ROUND, LAST_TABLE, BigHand, Meet, RuleSet
from scoring.models.games import MEMBER_TWICE, YAKUMAN_NAME_LONG
from scoring.notation import (
    BAD_HAND,
    BAD_SCORE,
    HAND_LABELS_JA,
    HAND_WORDS,
    NAMED_HAND,
    SCORE_SIGNS,
    Seat,
    seat_label,
)

MESSAGES: dict[str, Any] = {
    # SeatForm's and GameForm's cleans
    **GAME_FORM_MESSAGES,
    "control_character": CONTROL_CHARACTERS,
    "bad_score": BAD_SCORE,
    # notation.parse_big_hands (SeatForm.clean_hands)
    "bad_hand": BAD_HAND,
    "named_hand": NAMED_HAND,
    # Hanchan.settle
    "member_twice": MEMBER_TWICE,
    "yakuman_name_long": YAKUMAN_NAME_LONG,
    # Django's own field messages (its catalogue translates them)
    "required": forms.Field.default_error_messages["required"],
    "invalid_choice": forms.ModelChoiceField.default_error_messages["invalid_choice"],
    "whole_number": forms.IntegerField.default_error_messages["invalid"],
    "min_value": MinValueValidator.message,
    "max_value": MaxValueValidator.message,
    "unit_invalid": forms.ChoiceField.default_error_messages["invalid_choice"],
    "save_anyway": GameForm.base_fields["confirm_scores"].label,
    # the live check's own lines (the partial ``settlement`` of templates/scoring/game_form.html)
    **SETTLEMENT_MESSAGES,
}
"""The texts the script shows, by the key it knows them by: each the server's own, taken from
where the server says it (the forms, ``notation``, the models, Django's fields), never spelled
here again."""

GAME_CODES = (
    "wrong_player_count",
    "seat_missing",
    "bad_deposits",
    "deposits_not_held",
    "table_short",
    "table_over",
    "tied_top",
)
"""The ``rules.check_game`` (and ``settle``) refusals the device can tell without the server."""


def entry_check_messages() -> dict[str, str]:
    """Every text of the live check in the active language, placeholders left in."""
    said = {key: str(text) for key, text in MESSAGES.items()}
    said |= {code: str(INVALID_GAME_MESSAGES[code]) for code in GAME_CODES}
    return said


def tenths(value: Decimal) -> int:
    """A P figure of a rule set (rank points, the chombo penalty) in whole tenths: −10.0 → −100.
    ``RuleParams`` refuses a figure finer than a tenth."""
    return int(value * 10)


def entry_check_data(meet: Meet) -> dict[str, Any]:
    """What static/js/entry_check.js checks a game of ``meet`` with (JSON-able).

    The members are the pool ``SeatForm.clean_player`` matches against: every member
    (``Member.objects.all()``, in its order), each marked when the meet's attendance lists
    them; the attendees are tried first, as there."""
    attending = set(meet.attendees.values_list("pk", flat=True)) if meet.pk else set()
    return {
        "rule_sets": {
            str(r.pk): {
                "name": r.name,
                "players": r.players,
                "start_points": r.start_points,
                "total_policy": r.total_policy,
                "holds_deposits": r.holds_deposits,
                "single_top": r.single_top,
                # what rules.settle settles with (P in whole tenths: no float on the device)
                "return_points": r.return_points,
                "points_per_p": r.points_per_p,
                "rank_tenths": [tenths(p) for p in r.params().rank_points],
                "tie_break": r.tie_break,
                "split_rounding": r.split_rounding,
                "chombo_tenths": tenths(r.params().chombo_penalty),
                "scores_count": r.scores_count,
                "floor_at_zero": r.floor_at_zero,
            }
            for r in RuleSet.objects.all()
        },
        "members": [
            {"name": m.name, "furigana": m.furigana, "attendee": m.pk in attending}
            for m in Member.objects.only("pk", "name", "furigana")
        ],
        # a meet dated ahead asks before its results are taken (GameForm's confirm_date):
        # the device counts the days to it from its own today in the club's time zone
        "meet_date": meet.date.isoformat(),
        "time_zone": timezone.get_current_timezone_name(),
        "score_limit": rules.SCORE_LIMIT,
        "score_unit": rules.SCORE_UNIT,
        "deposit_unit": rules.DEPOSIT_UNIT,
        "chombo_limit": rules.CHOMBO_LIMIT,
        "likely_scores": list(rules.LIKELY_SCORES),
        "filled_gap": rules.FILLED_GAP,
        "score_signs": SCORE_SIGNS,
        "name_length": NAME_LENGTH,
        "last_table": LAST_TABLE,
        "last_round": LAST_ROUND,
        "seat_labels": [seat_label(seat) for seat in Seat],
        "hand_words": {word: level.value for word, level in HAND_WORDS.items()},
        "hand_labels": {level.value: label for level, label in HAND_LABELS_JA.items()},
        "yakuman": Level.YAKUMAN.value,
        "yakuman_name_length": BigHand.NAME_LENGTH,
        "limits": LIMITS,
        "messages": entry_check_messages(),
    }
