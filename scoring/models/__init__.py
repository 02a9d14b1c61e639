"""The scoring app's models, by subject:

- ``rule_sets``: rule sets and the standings groups they belong to;
- ``club``: the club's settings (what the organizer chooses in the app);
- ``meets``: meets, their attendance and their table draw;
- ``games``: games (hanchan), their results and big hands, and the settlement guard;
- ``report_jobs``: the reports and report parts the workers make;
- ``preferences``: what a login keeps on the game form (the scores' unit);
- ``awards``: the season's awards of a standings group (表彰);
- ``workers``: the report workers' beat (who is alive, for the health page).

Every name is read from ``scoring.models`` as before the split, the club's notation
(``scoring.notation``) that was first written here included.
"""

from scoring.models.awards import (
    CIRCLE_GAMES_PER_MEET,
    CIRCLE_SHARE,
    DEFAULT_AWARDS,
    Award,
    AwardQuerySet,
    Measure,
    default_awards_as_made,
    make_default_awards,
)
from scoring.models.club import HEAD_TO_HEAD_MOST, ClubSettings
from scoring.models.games import (
    BigHand,
    Hanchan,
    HanchanQuerySet,
    HanchanResult,
    PlayerEntry,
    Recorded,
    SentBefore,
    SettledRecord,
    settlement_writes,
)
from scoring.models.meets import (
    LAST_ROUND,
    LAST_TABLE,
    Answer,
    AnswerChoice,
    CalendarLink,
    DrawMode,
    DrawnPlace,
    Meet,
    finalised_error,
)
from scoring.models.preferences import EntryPreference
from scoring.models.report_jobs import (
    ABANDONED_AFTER,
    MadeByWorker,
    Report,
    ReportPart,
    ReportStatus,
)
from scoring.models.rule_sets import (
    INVALID_GAME_MESSAGES,
    RuleSet,
    RuleSetQuerySet,
    StandingsGroup,
    invalid_game_error,
)
from scoring.models.workers import WorkerBeat
from scoring.notation import (
    HAND_LABELS_JA,
    HAND_WORDS,
    MEET_DATES,
    SCORE_SIGNS,
    SEAT_LABELS,
    SEAT_NAMES,
    HandLevel,
    MeetKind,
    Seat,
    format_big_hands,
    parse_big_hands,
    parse_score,
    seat_label,
)

__all__ = [
    "ABANDONED_AFTER",
    "CIRCLE_GAMES_PER_MEET",
    "CIRCLE_SHARE",
    "DEFAULT_AWARDS",
    "HAND_LABELS_JA",
    "HAND_WORDS",
    "HEAD_TO_HEAD_MOST",
    "INVALID_GAME_MESSAGES",
    "LAST_ROUND",
    "LAST_TABLE",
    "MEET_DATES",
    "SCORE_SIGNS",
    "SEAT_LABELS",
    "SEAT_NAMES",
    "Answer",
    "AnswerChoice",
    "Award",
    "AwardQuerySet",
    "BigHand",
    "CalendarLink",
    "ClubSettings",
    "DrawMode",
    "DrawnPlace",
    "EntryPreference",
    "Hanchan",
    "HanchanQuerySet",
    "HanchanResult",
    "HandLevel",
    "MadeByWorker",
    "Measure",
    "Meet",
    "MeetKind",
    "PlayerEntry",
    "Recorded",
    "Report",
    "ReportPart",
    "ReportStatus",
    "RuleSet",
    "RuleSetQuerySet",
    "Seat",
    "SentBefore",
    "SettledRecord",
    "StandingsGroup",
    "WorkerBeat",
    "default_awards_as_made",
    "finalised_error",
    "format_big_hands",
    "invalid_game_error",
    "make_default_awards",
    "parse_big_hands",
    "parse_score",
    "seat_label",
    "settlement_writes",
]
