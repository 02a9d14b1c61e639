"""Every form of the app, by subject (one module a subject), each name read from
``scoring.forms``:

- ``rule_sets``: a rule set's copy;
- ``fields``: the fields they share;
- ``meets``: a meet, the plan, 出欠, reopening, the draw;
- ``games``: the game form and its check;
- ``imports``: record sheets uploaded;
- ``filters``: the standings' filters read from the query string;
- ``awards``: the awards.
"""

from scoring.forms.awards import (
    AwardForm,
    AwardFormSet,
    ByHandAwardForm,
    CertificateDayForm,
    award_periods,
)
from scoring.forms.fields import (
    ROW_ID,
    IdChoiceField,
    IdMultipleChoiceField,
)
from scoring.forms.filters import (
    filters_from,
    query_number,
)
from scoring.forms.games import (
    GAME_FORM_MESSAGES,
    LIMITS,
    SAID,
    SETTLEMENT_MESSAGES,
    GameForm,
    ScoreUnit,
    SeatForm,
    SeatFormSet,
    SeatRows,
    SentForm,
    initial_for_game,
    settlement_lines,
    settlement_rows,
)
from scoring.forms.imports import (
    ImportForm,
)
from scoring.forms.meets import (
    SEED_LIMIT,
    WEEK_CHOICES,
    AnswerForm,
    DrawForm,
    MeetForm,
    PlanForm,
    ReopenForm,
)
from scoring.forms.rule_sets import (
    RuleSetCopyForm,
)

__all__ = [
    "GAME_FORM_MESSAGES",
    "LIMITS",
    "ROW_ID",
    "SAID",
    "SEED_LIMIT",
    "SETTLEMENT_MESSAGES",
    "WEEK_CHOICES",
    "AnswerForm",
    "AwardForm",
    "AwardFormSet",
    "ByHandAwardForm",
    "CertificateDayForm",
    "DrawForm",
    "GameForm",
    "IdChoiceField",
    "IdMultipleChoiceField",
    "ImportForm",
    "MeetForm",
    "PlanForm",
    "ReopenForm",
    "RuleSetCopyForm",
    "ScoreUnit",
    "SeatForm",
    "SeatFormSet",
    "SeatRows",
    "SentForm",
    "award_periods",
    "filters_from",
    "initial_for_game",
    "query_number",
    "settlement_lines",
    "settlement_rows",
]
