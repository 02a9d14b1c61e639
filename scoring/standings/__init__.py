"""Standings: the one place that aggregates stored results into plain rows.

Pages, PDF and Excel reports only lay out what these functions return; nothing else counts.
Each function runs a fixed number of queries, whatever the number of members or games.

Every standings table is for one standings group (成績グループ, DOMAIN.md): P from different rule
systems is never added together. The filters name the group (the club's by default) and,
within it, optionally one rule set. Only the games CSV reads every game of a period.

Places are those stored at settlement ("1 + the number of players with a strictly higher
score", DOMAIN.md); "last" is the last place of the game's own rule set (4th, or 3rd at a
3-player table), also stored at settlement (``is_last``), as are the meet's date
(``played_on``) and the game's rule set, so that a period's standings are one pass over a
covering index. Place counts keep 3- and 4-player games apart (a three-player last is a last,
never a four-player 3位); the last-avoid rate counts both. In a group where no rule set
counts scores (カンターン, 1-0-0-0) the standings count wins (1st places).

Sums of P come from the database. SQLite adds decimals in floating point, so each sum is
rounded to a tenth: exact while the accumulated error stays below 0.05 P, which holds far
beyond any club's or federation's number of games.

The package, by table: ``club`` (the filters, a row per member, the order shown), ``meet``
(one meet's sheet and the day's standings), ``member`` (a member's record), ``games`` (every
game, a row per player, and the big hands), ``awards`` (the season's awards), ``rating`` (the rating, レーティング). Other code imports from here.
"""

from __future__ import annotations

from scoring.notation import FIRST_DAY, LAST_DAY
from scoring.periods import Period, PeriodKind, PeriodOutOfRange
from scoring.standings.awards import (
    MEASURES,
    AwardResult,
    Season,
    Winner,
    award_notes,
    award_results,
    compute_awards,
    min_games_for,
    rule_text,
    season_for,
)
from scoring.standings.club import (
    SORT_KEYS,
    STANDINGS,
    Filters,
    PeriodSummary,
    PlaceColumns,
    StandingRow,
    compute_standings,
    counts_wins,
    guests_condition,
    latest_day,
    period_summary,
    results_for,
    selection,
    shown_for,
    sort_standings,
    tied_note,
)
from scoring.standings.columns import Column, Format, Medium, Shown, Table
from scoring.standings.games import GAMES, GameRow, big_hand_list, game_rows
from scoring.standings.meet import (
    MeetSheet,
    SheetGame,
    SheetLine,
    SheetRound,
    day_filters,
    meet_sheet,
    tables_for,
)
from scoring.standings.member import (
    MEMBER_GAMES,
    DayLine,
    GameLine,
    MemberRecord,
    MonthLine,
    SummaryItem,
    member_games,
    member_record,
    member_records,
    summary_items,
)
from scoring.standings.pairs import (
    BySeat,
    MatrixRow,
    Pair,
    PairMatrix,
    SeatLine,
    by_seat,
    head_to_head,
    pair_matrix,
)
from scoring.standings.rating import (
    RATING_SORT_KEYS,
    Promotion,
    RatedGame,
    Rating,
    RatingRow,
    compute_rating,
    main_players,
    promotions,
    rating_at_the_end,
    rating_cache_key,
    rating_players,
    rating_rows,
    ratings_disagreeing,
    sort_rating,
)

__all__ = [
    "FIRST_DAY",
    "GAMES",
    "LAST_DAY",
    "MEASURES",
    "MEMBER_GAMES",
    "RATING_SORT_KEYS",
    "SORT_KEYS",
    "STANDINGS",
    "AwardResult",
    "BySeat",
    "Column",
    "DayLine",
    "Filters",
    "Format",
    "GameLine",
    "GameRow",
    "MatrixRow",
    "Medium",
    "MeetSheet",
    "MemberRecord",
    "MonthLine",
    "Pair",
    "PairMatrix",
    "Period",
    "PeriodKind",
    "PeriodOutOfRange",
    "PeriodSummary",
    "PlaceColumns",
    "Promotion",
    "RatedGame",
    "Rating",
    "RatingRow",
    "Season",
    "SeatLine",
    "SheetGame",
    "SheetLine",
    "SheetRound",
    "Shown",
    "StandingRow",
    "SummaryItem",
    "Table",
    "Winner",
    "award_notes",
    "award_results",
    "big_hand_list",
    "by_seat",
    "compute_awards",
    "compute_rating",
    "compute_standings",
    "counts_wins",
    "day_filters",
    "game_rows",
    "guests_condition",
    "head_to_head",
    "latest_day",
    "main_players",
    "meet_sheet",
    "member_games",
    "member_record",
    "member_records",
    "min_games_for",
    "pair_matrix",
    "period_summary",
    "promotions",
    "rating_at_the_end",
    "rating_cache_key",
    "rating_players",
    "rating_rows",
    "ratings_disagreeing",
    "results_for",
    "rule_text",
    "season_for",
    "selection",
    "shown_for",
    "sort_rating",
    "sort_standings",
    "summary_items",
    "tables_for",
    "tied_note",
]
