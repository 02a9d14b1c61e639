"""What the game form's live check needs on the device (issue 31): the rule sets' parameters,
the members to match names against, the limits, and every text the check shows, translated.

Issue 31: "The live sum check, the name check and the plausibility warnings work offline. The
page carries the rule set's parameters as data, and one table of cases runs against both the
Python check and the JavaScript check, so the two cannot drift apart."

``entry_check_data`` is put on the game form's page as JSON (``json_script``) and read by
static/js/entry_check.js, which checks a game as ``GameForm`` and ``rules.check_game`` do.
Each text is ``gettext`` of the msgid the server uses (the forms, the models'
``INVALID_GAME_MESSAGES`` and the template's ``blocktranslate``, whose ``{{ total }}`` is
``%(total)s`` in the msgid), left with its ``%(name)s`` placeholders for the script to fill.
tests/scoring/entry_check_cases.json is the one table of cases both checks are held to.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop

from members.models import NAME_LENGTH, Member
from scoring import rules
from scoring.hands import Level
from scoring.models import INVALID_GAME_MESSAGES, LAST_ROUND, LAST_TABLE, BigHand, Meet, RuleSet
from scoring.notation import HAND_WORDS, SCORE_SIGNS, Seat, seat_label

MESSAGE_IDS: dict[str, str] = {
    # SeatForm.clean_player, _new_guest, clean_score, clean; GameForm.clean, clean_deposits_held
    "several": gettext_noop("Several members match %(text)s: %(names)s. Type more."),
    "unknown": gettext_noop("No member is called %(text)s."),
    "guest_exists": gettext_noop(
        "There is a member called %(name)s already: untick 「New guest」 to choose them."
    ),
    "guest_twice": gettext_noop("This guest is entered twice."),
    "control_character": gettext_noop(
        "Control characters and invisible format characters (such as a tab, an escape "
        "or a mark that turns the text around) cannot be part of this text."
    ),
    "who_sat_here": gettext_noop("Who sat here?"),
    "bad_score": gettext_noop("Type the score as a number (%(value)s given)."),
    "score_beyond": gettext_noop("%(score)s points is beyond ±1,000,000; please check."),
    "score_not_hundreds": gettext_noop(
        "%(score)s is not a multiple of 100 points. Did you mean to type in hundreds?"
    ),
    "deposits_unit": gettext_noop(
        "Deposits held: %(deposits)s points is not a multiple of 1,000 points."
    ),
    "nothing_entered": gettext_noop("Enter the players and their scores."),
    "enter_score": gettext_noop("Enter the score."),
    "doubtful": gettext_noop("Check the scores, or tick 「Save anyway」 to keep them."),
    "doubt_under": gettext_noop("%(seat)s: %(score)s points is under 1,000."),
    "doubt_over": gettext_noop("%(seat)s: %(score)s points is over 100,000."),
    "doubt_far": gettext_noop(
        "%(seat)s: %(score)s points (the blank, filled in) is more than 30,000 points "
        "away from the scores typed."
    ),
    # notation.parse_big_hands (SeatForm.clean_hands)
    "bad_hand": gettext_noop("%(word)s is not a hand level (満貫, 跳満, 倍満, 三倍満, 役満)."),
    "named_hand": gettext_noop("Only a yakuman carries a name."),
    # Hanchan.settle
    "member_twice": gettext_noop("%(name)s is entered twice."),
    "yakuman_name_long": gettext_noop("A yakuman name has at most %(n)s characters."),
    # Django's own field messages (its catalogue translates them)
    "required": "This field is required.",
    "invalid_choice": "Select a valid choice. That choice is not one of the available choices.",
    "whole_number": "Enter a whole number.",
    "min_value": "Ensure this value is greater than or equal to %(limit_value)s.",
    "max_value": "Ensure this value is less than or equal to %(limit_value)s.",
    "unit_invalid": "Select a valid choice. %(value)s is not one of the available choices.",
    # templates/scoring/game_form.html, partial ``settlement``
    "name_guest_taken": gettext_noop("%(seat)s “%(text)s”: a member already; untick 「New guest」"),
    "name_several": gettext_noop("%(seat)s “%(text)s”: which one? %(names)s"),
    "name_close": gettext_noop("%(seat)s “%(text)s”: no such member (close: %(names)s)"),
    "name_nobody": gettext_noop("%(seat)s “%(text)s”: no such member"),
    "guest_hint": gettext_noop(
        "A guest new to the score book? Tick 「New guest」 for the seat in the section below "
        "the save button."
    ),
    "seat_message": gettext_noop("%(seat)s: %(message)s"),
    "total_short": gettext_noop("Total %(total)s points: %(short)s points short"),
    "total_over": gettext_noop("Total %(total)s points: %(over)s points over"),
    "taken_off_top": gettext_noop("(taken off the top)"),
    "total_ok": gettext_noop("Total %(total)s points ✓"),
    "so_far": gettext_noop("%(n)s of %(players)s scores in: %(total)s points so far"),
    "filled": gettext_noop("%(seat)s: %(score)s points, the rest of the table total (left blank)"),
    "save_anyway": gettext_noop("Save anyway"),
    "settled_when_sent": gettext_noop("Places and points are worked out when the game is sent."),
    "placeholder": gettext_noop("Places and points appear here as you type."),
}
"""The texts the script shows, by the key it knows them by: each the server's own msgid.
``gettext_noop`` marks ours for makemessages; Django's own field messages are left
unmarked (Django's catalogue has them)."""

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
    said = {key: gettext(msgid) for key, msgid in MESSAGE_IDS.items()}
    said |= {code: str(INVALID_GAME_MESSAGES[code]) for code in GAME_CODES}
    return said


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
            }
            for r in RuleSet.objects.all()
        },
        "members": [
            {"name": m.name, "furigana": m.furigana, "attendee": m.pk in attending}
            for m in Member.objects.only("pk", "name", "furigana")
        ],
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
        "yakuman": Level.YAKUMAN.value,
        "yakuman_name_length": BigHand.NAME_LENGTH,
        "messages": entry_check_messages(),
    }
