"""Rule sets and the standings groups they belong to, the club's settings, and the messages
for a game or a rule set that ``rules.py`` refuses."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from members.models import OwnedByAClub, ScopedToClub, club_field
from scoring import rating, rules
from scoring.notation import SEAT_NAMES, seat_label

# Messages for rules.InvalidGame codes. Figures are formatted before they go in.
INVALID_GAME_MESSAGES = {
    "wrong_player_count": _(
        "This rule set is for %(expected)s players, but %(given)s were entered."
    ),
    "seat_twice": _("The seat %(seat)s is taken twice."),
    "seat_missing": _("Every seat (東 南 西 北 for 4 players, 東 南 西 for 3) must be taken once."),
    "score_out_of_range": _("%(seat)s: %(score)s points is beyond ±%(limit)s; please check."),
    "score_not_multiple": _("%(seat)s: %(score)s is not a multiple of %(unit)s points."),
    "chombo_negative": _("%(seat)s: the chombo count cannot be negative."),
    "chombo_too_many": _("%(seat)s: %(chombo)s chombo is more than %(limit)s; please check."),
    "bad_deposits": _("Deposits held must be whole %(unit)s-point sticks (%(deposits)s given)."),
    "table_short": _(
        "The table adds up to %(total)s points: %(difference)s short of %(expected)s."
    ),
    "table_over": _("The table adds up to %(total)s points: %(difference)s over %(expected)s."),
    "tied_top": _("Under this rule the game ends with a single top; two players have %(score)s."),
    "deposits_not_held": _(
        "Under this rule deposits always go to the top (供託はトップ取り), so none can be held."
    ),
    "finer_than_tenth": _("%(value)s cannot be written in tenths of a point."),
    "bad_rule_players": _("A rule set is for 3 or 4 players."),
    "bad_rule_rank_points": _("Give rank points for each of the %(players)s places."),
    "bad_rule_points_per_p": _("Points per 1 P must divide 1,000 (e.g. 1,000 or 100)."),
    "bad_rule_start": _("Start and return points must be multiples of 100."),
    "bad_rule_return": _("Return points cannot be below start points."),
}


def invalid_game_error(error: rules.InvalidGame) -> ValidationError:
    """Turn a rules.py error into a ValidationError with a message in the user's language."""
    params: dict[str, Any] = {}
    for key, value in error.params.items():
        if key == "seat" and isinstance(value, int) and 0 <= value < len(SEAT_NAMES):
            params[key] = seat_label(value)
            params["seat_no"] = value
        elif isinstance(value, int):
            params[key] = f"{value:,}"
        else:
            params[key] = value
    message = INVALID_GAME_MESSAGES.get(error.code, _("The game cannot be settled."))
    return ValidationError(message, code=error.code, params=params)


def ladder_validator(text: str) -> None:
    """A 段位 ladder must read (``rating.parse_ladder``)."""
    try:
        rating.parse_ladder(text)
    except rating.BadLadder as error:
        raise ValidationError(
            _(
                "“%(step)s” is not a rank and the rating it starts at, above the one before "
                "(e.g. 初段 1600、二段 1700)."
            ),
            code="bad_ladder",
            params={"step": str(error)},
        ) from error


class StandingsGroup(OwnedByAClub, models.Model):
    """成績グループ: rule sets whose points may be added up in one standings table.

    P from different rule systems is never added together (DOMAIN.md, "Standings groups"):
    every standings page, member page and report is for one group. The club's 4-player and
    3-player rules share the club's group; every other rule system has a group of its own.
    """

    club = club_field("standings_groups")
    name = models.CharField(_("name"), max_length=60)
    description = models.TextField(_("description"), blank=True)
    dan_ladder = models.CharField(
        _("段位 ladder"),
        max_length=200,
        blank=True,
        validators=[ladder_validator],
        help_text=_(
            "Optional: each rank and the rating it starts at, lowest first, e.g. "
            "初段 1600、二段 1700、三段 1800. The half-year report lists the promotions."
        ),
    )

    history = HistoricalRecords()
    objects = ScopedToClub()

    class Meta:
        verbose_name = _("standings group")
        verbose_name_plural = _("standings groups")
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "name"],
                name="standings_group_name_unique_in_club",
                violation_error_message=_("A standings group of this name exists already."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def clubs_own(cls) -> StandingsGroup:
        """The club's group: the one the default rule set belongs to."""
        return cls.objects.get(rule_sets__is_default=True)


class RuleSetQuerySet(models.QuerySet["RuleSet"]):
    def default(self) -> RuleSet:
        """The club's default rule set (one is always marked: raises when none is)."""
        return self.get(is_default=True)

    def default_or_none(self) -> RuleSet | None:
        """The default rule set, or None where there may be none yet (an empty database)."""
        return self.filter(is_default=True).first()

    def asked(self, pk: int | None, problems: list[str]) -> tuple[RuleSet | None, list[RuleSet]]:
        """The rule set a page's address asks for (``rule=``), or else the club's default,
        saying so among ``problems`` when the one asked for is not there; and every rule set,
        to choose from (the calculator, 点数を調べる). None only when there is no rule set."""
        rule_sets = list(self.all())
        chosen = next((r for r in rule_sets if r.pk == pk), None)
        if chosen is None:
            if pk is not None and not problems:
                problems.append(str(_("There is no such rule set; the club's default is shown.")))
            default = next((r for r in rule_sets if r.is_default), None)
            chosen = default or (rule_sets[0] if rule_sets else None)
        return chosen, rule_sets


RuleSetManager = ScopedToClub.from_queryset(RuleSetQuerySet)


class RuleSet(OwnedByAClub, models.Model):
    """A rule system's parameters. Once a game uses it, it is frozen: copy it instead."""

    PARAMETER_FIELDS = (
        "players",
        "start_points",
        "return_points",
        "points_per_p",
        "rank_point_1",
        "rank_point_2",
        "rank_point_3",
        "rank_point_4",
        "tie_break",
        "split_rounding",
        "chombo_penalty",
        "total_policy",
        "scores_count",
        "single_top",
        "holds_deposits",
        "floor_at_zero",
    )

    club = club_field("rule_sets")
    name = models.CharField(_("name"), max_length=60)
    description = models.TextField(_("description"), blank=True)
    group = models.ForeignKey(
        StandingsGroup,
        verbose_name=_("standings group"),
        on_delete=models.RESTRICT,
        related_name="rule_sets",
        help_text=_("Games under rule sets of one group are added up in one standings table."),
    )
    is_default = models.BooleanField(_("club default"), default=False)
    players = models.PositiveSmallIntegerField(
        _("players"), choices=[(4, _("4 players")), (3, _("3 players"))], default=4
    )
    start_points = models.IntegerField(_("start points"), default=30_000)
    return_points = models.IntegerField(_("return points"), default=30_000)
    points_per_p = models.PositiveIntegerField(
        _("points per 1 P"), default=1_000, help_text=_("1,000: 100 points = 0.1 P")
    )
    rank_point_1 = models.DecimalField(_("rank points, 1st"), max_digits=6, decimal_places=1)
    rank_point_2 = models.DecimalField(_("rank points, 2nd"), max_digits=6, decimal_places=1)
    rank_point_3 = models.DecimalField(_("rank points, 3rd"), max_digits=6, decimal_places=1)
    rank_point_4 = models.DecimalField(
        _("rank points, 4th"), max_digits=6, decimal_places=1, null=True, blank=True
    )
    tie_break = models.CharField(
        _("ties"),
        max_length=12,
        choices=[
            (rules.TieBreak.SPLIT, _("Tied players share the points evenly")),
            (rules.TieBreak.SEAT, _("The seat nearer the first dealer ranks higher")),
        ],
        default=rules.TieBreak.SPLIT,
    )
    split_rounding = models.CharField(
        _("rounding of a shared split"),
        max_length=12,
        choices=[
            (rules.SplitRounding.SEAT, _("Odd tenths to the players nearest the first dealer")),
            (rules.SplitRounding.REVERSE_SEAT, _("Odd tenths to the players farthest from it")),
        ],
        default=rules.SplitRounding.SEAT,
    )
    chombo_penalty = models.DecimalField(
        _("P per chombo"), max_digits=6, decimal_places=1, default=Decimal(10)
    )
    total_policy = models.CharField(
        _("table total"),
        max_length=16,
        choices=[
            (rules.TotalPolicy.EXACT, _("Must equal players × start, less deposits held")),
            (rules.TotalPolicy.EXCESS_OFF_TOP, _("An excess is taken off the top score")),
            (rules.TotalPolicy.SHORT_ALLOWED, _("A pot may be left on the table; no excess")),
        ],
        default=rules.TotalPolicy.EXACT,
    )
    scores_count = models.BooleanField(
        _("scores count"), default=True, help_text=_("Off for 1-0-0-0: only the win counts.")
    )
    single_top = models.BooleanField(
        _("single top"), default=False, help_text=_("A tie for first is an error.")
    )
    holds_deposits = models.BooleanField(
        _("deposits may be held"),
        default=True,
        help_text=_("Off when deposits always go to the top (供託はトップ取り)."),
    )
    floor_at_zero = models.BooleanField(
        _("no settlement below zero"),
        default=False,
        help_text=_("箱下精算なし: a score below zero settles as 0, the rest comes off the top."),
    )

    history = HistoricalRecords()
    objects = RuleSetManager()

    class Meta:
        verbose_name = _("rule set")
        verbose_name_plural = _("rule sets")
        ordering = ["-is_default", "players", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "name"],
                name="rule_set_name_unique_in_club",
                violation_error_message=_("A rule set of this name exists already."),
            ),
            models.UniqueConstraint(
                fields=["club"],
                condition=models.Q(is_default=True),
                name="one_default_rule_set_in_club",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The lock holds whatever path the change takes (forms, admin, shell).
        if self.is_in_use() and self.changed_parameters():
            raise ValidationError(
                _("Games were played under this rule set, so it cannot be changed. Copy it."),
                code="rule_set_in_use",
            )
        super().save(*args, **kwargs)

    @property
    def rank_points(self) -> tuple[Decimal, ...]:
        values = (self.rank_point_1, self.rank_point_2, self.rank_point_3, self.rank_point_4)
        return tuple(Decimal(v) for v in values[: self.players] if v is not None)

    def params(self) -> rules.RuleParams:
        """This rule set as rules.py parameters. Raise ValidationError if they do not fit."""
        try:
            return rules.RuleParams(
                players=self.players,
                start_points=self.start_points,
                return_points=self.return_points,
                points_per_p=self.points_per_p,
                rank_points=self.rank_points,
                tie_break=rules.TieBreak(self.tie_break),
                split_rounding=rules.SplitRounding(self.split_rounding),
                chombo_penalty=Decimal(self.chombo_penalty),
                total_policy=rules.TotalPolicy(self.total_policy),
                scores_count=self.scores_count,
                single_top=self.single_top,
                holds_deposits=self.holds_deposits,
                floor_at_zero=self.floor_at_zero,
            )
        except rules.InvalidGame as error:
            raise invalid_game_error(error) from error

    def is_in_use(self) -> bool:
        return self.pk is not None and self.hanchan_set.exists()

    def changed_parameters(self) -> list[str]:
        """The parameter fields that differ from the stored row."""
        if self.pk is None:
            return []
        stored = type(self).objects.filter(pk=self.pk).values(*self.PARAMETER_FIELDS).first()
        if stored is None:
            return []
        return [f for f in self.PARAMETER_FIELDS if stored[f] != getattr(self, f)]

    def clean(self) -> None:
        if self.players == 3:
            self.rank_point_4 = None
        elif self.rank_point_4 is None:
            raise ValidationError({"rank_point_4": _("A 4-player rule set needs 4th place.")})
        self.params()
        if self.is_in_use() and self.changed_parameters():
            raise ValidationError(
                _("Games were played under this rule set, so it cannot be changed. Copy it.")
            )

    def copy(self, name: str) -> RuleSet:
        """A new, unused rule set of the same club, with the same parameters and group (never
        the default), named ``name``, or ``name (2)``, ``(3)``… when the club has that name."""
        values = {f: getattr(self, f) for f in self.PARAMETER_FIELDS}
        taken = set(RuleSet._base_manager.filter(club=self.club_id).values_list("name", flat=True))
        free = next(
            n
            for i in range(1, len(taken) + 2)
            if (n := name if i == 1 else f"{name} ({i})") not in taken
        )
        return RuleSet.objects.create(
            club_id=self.club_id,
            name=free,
            description=self.description,
            group=self.group,
            **values,
        )
