"""Rule sets, meets, games (hanchan), their results and big hands.

The way a game goes in: :meth:`Hanchan.record` checks the entries, asks ``rules.settle`` for
the points and stores the game, its results and big hands in one transaction. Stored points
are always what ``rules.py`` gives for the stored scores; nothing else writes them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.db.models.signals import m2m_changed
from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from members.models import Member, no_control_characters
from scoring import rules

# The club's notation was first written here; its names are still read from here too.
from scoring.notation import HAND_LABELS_JA as HAND_LABELS_JA
from scoring.notation import HAND_WORDS as HAND_WORDS
from scoring.notation import MEET_DATES as MEET_DATES
from scoring.notation import SCORE_SIGNS as SCORE_SIGNS
from scoring.notation import SEAT_LABELS as SEAT_LABELS
from scoring.notation import SEAT_NAMES as SEAT_NAMES
from scoring.notation import HandLevel as HandLevel
from scoring.notation import MeetKind as MeetKind
from scoring.notation import Seat as Seat
from scoring.notation import format_big_hands as format_big_hands
from scoring.notation import meet_date
from scoring.notation import parse_big_hands as parse_big_hands
from scoring.notation import parse_score as parse_score
from scoring.notation import seat_label as seat_label
from scoring.signals import meet_finalised


class DrawMode(models.TextChoices):
    """What the table draw does with an attendance that is not a multiple of 4 (the values
    are ``scoring.draw.Mode``'s)."""

    THREE_PLAYER_TABLES = "three_player_tables", _("Tables of three (3-player rules)")
    SIT_OUT = "sit_out", _("Sit out in turn (抜け番)")


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
    "bad_deposits": _("Deposits held must be whole 1,000-point sticks (%(deposits)s given)."),
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


class StandingsGroup(models.Model):
    """成績グループ: rule sets whose points may be added up in one standings table.

    P from different rule systems is never added together (DOMAIN.md, "Standings groups"):
    every standings page, member page and report is for one group. The club's 4-player and
    3-player rules share the club's group; every other rule system has a group of its own.
    """

    name = models.CharField(_("name"), max_length=60, unique=True)
    description = models.TextField(_("description"), blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("standings group")
        verbose_name_plural = _("standings groups")
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def club(cls) -> StandingsGroup:
        """The club's group: the one the default rule set belongs to."""
        return cls.objects.get(rule_sets__is_default=True)


class RuleSetQuerySet(models.QuerySet["RuleSet"]):
    def default(self) -> RuleSet:
        return self.get(is_default=True)


class RuleSet(models.Model):
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

    name = models.CharField(_("name"), max_length=60, unique=True)
    description = models.TextField(_("description"), blank=True)
    group = models.ForeignKey(
        StandingsGroup,
        verbose_name=_("standings group"),
        on_delete=models.PROTECT,
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
    objects = RuleSetQuerySet.as_manager()

    class Meta:
        verbose_name = _("rule set")
        verbose_name_plural = _("rule sets")
        ordering = ["-is_default", "players", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["is_default"],
                condition=models.Q(is_default=True),
                name="one_default_rule_set",
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
        """A new, unused rule set with the same parameters and group (never the default)."""
        values = {f: getattr(self, f) for f in self.PARAMETER_FIELDS}
        return RuleSet.objects.create(
            name=name, description=self.description, group=self.group, **values
        )


class ClubSettings(models.Model):
    """Choices the organizer makes in the app (one row)."""

    standings_public = models.BooleanField(
        _("standings open to visitors"),
        default=False,
        help_text=_("Visitors who have not signed in may read the standings page."),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("club settings")
        verbose_name_plural = _("club settings")

    def __str__(self) -> str:
        return str(_("club settings"))

    @classmethod
    def load(cls) -> ClubSettings:
        """The one row; the defaults (not yet saved) until the organizer first changes one."""
        found = cls.objects.filter(pk=1).first()
        return found if found is not None else cls(pk=1)


def finalised_error() -> ValidationError:
    return ValidationError(
        _("This meet is finalised; reopen it to change games."), code="finalised"
    )


_settlement_writes: ContextVar[bool] = ContextVar("settlement_writes", default=False)


@contextmanager
def settlement_writes() -> Iterator[None]:
    """Inside this block (``Hanchan.record`` and ``remove``), games, results and big hands may
    be written. Anywhere else (the admin, a history revert, the shell) their ``save`` and
    ``delete`` refuse, so a stored result is always what ``rules.settle`` gave for its game."""
    token = _settlement_writes.set(True)
    try:
        yield
    finally:
        _settlement_writes.reset(token)


class SettledRecord(models.Model):
    """A row that only settlement writes (see ``settlement_writes``)."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        _refuse_outside_settlement()
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        _refuse_outside_settlement()
        return super().delete(*args, **kwargs)


def _refuse_outside_settlement() -> None:
    if not _settlement_writes.get():
        raise ValidationError(
            _("Games are changed only by entering them again in the score book."),
            code="settled_only",
        )


class Meet(models.Model):
    """A meet (例会): one day's play, usually three rounds at several tables."""

    ROUNDS = 3
    """The rounds (回戦) a meet plays as a rule: sheet 002, 「何れも一半荘70分の三回戦体制」
    (three hanchan of 70 minutes each). A meet may play more; its page offers them."""

    date = models.DateField(
        _("date"),
        validators=[MinValueValidator(MEET_DATES[0]), MaxValueValidator(MEET_DATES[1])],
    )
    kind = models.CharField(
        _("kind"), max_length=8, choices=MeetKind.choices, default=MeetKind.WEDNESDAY
    )
    rule_set = models.ForeignKey(
        RuleSet,
        verbose_name=_("rule set"),
        on_delete=models.PROTECT,
        help_text=_("The rule set new games of this meet start with."),
    )
    attendees = models.ManyToManyField(
        Member, verbose_name=_("attendees"), blank=True, related_name="meets"
    )
    is_final = models.BooleanField(_("finalised"), default=False)
    note = models.CharField(
        _("note"), max_length=200, blank=True, validators=[no_control_characters]
    )
    draw_mode = models.CharField(
        _("when the attendance is not a multiple of 4"),
        max_length=20,
        choices=DrawMode.choices,
        default=DrawMode.THREE_PLAYER_TABLES,
        help_text=_("How the table draw seats the players left over from tables of four."),
    )

    history = HistoricalRecords(m2m_fields=[attendees])

    class Meta:
        verbose_name = _("meet")
        verbose_name_plural = _("meets")
        ordering = ["-date", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["date", "kind"],
                name="one_meet_per_day_and_kind",
                violation_error_message=_("A meet of this kind exists on this day already."),
            ),
        ]

    def __str__(self) -> str:
        return f"{meet_date(self.date)} {self.get_kind_display()}"

    FROZEN_FIELDS = ("date", "kind", "rule_set_id", "note", "draw_mode")
    """What a finalised meet keeps as it is (its games and attendance too) until reopened."""

    _reopening = False

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, refusing any change to a finalised meet, by whatever path (form, admin,
        history revert, shell): it must be reopened with a reason first (``reopen``)."""
        with transaction.atomic():
            stored = (
                Meet.objects.select_for_update()
                .filter(pk=self.pk)
                .values("is_final", *self.FROZEN_FIELDS)
                .first()
                if self.pk is not None
                else None
            )
            if stored is not None and stored["is_final"]:
                changed = [f for f in self.FROZEN_FIELDS if stored[f] != getattr(self, f)]
                if changed or (not self.is_final and not self._reopening):
                    raise finalised_error()
            super().save(*args, **kwargs)
            # The results carry the meet's date for the standings; keep it in step.
            HanchanResult.objects.filter(meet=self).exclude(played_on=self.date).update(
                played_on=self.date
            )

    def get_absolute_url(self) -> str:
        return reverse("scoring:meet-detail", kwargs={"pk": self.pk})

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        with transaction.atomic():
            self.lock_open()
            return super().delete(*args, **kwargs)

    def finalise(self) -> None:
        """確定: from now on its games cannot change until an organizer reopens it.

        The meet's row is locked first, so a game being saved at this moment either lands
        before the meet is final or is refused after (``Hanchan.record`` takes the same lock).
        """
        with transaction.atomic():
            Meet.objects.select_for_update().filter(pk=self.pk).values("pk").first()
            self.is_final = True
            self._change_reason = "確定"
            self.save()
            # The reports react (ScoringConfig.ready connects them); a failure there is
            # logged and leaves the meet finalised.
            transaction.on_commit(
                lambda: meet_finalised.send(sender=Meet, meet_id=self.pk), robust=True
            )

    def reopen(self, reason: str) -> None:
        """確定解除, with the reason written into the history."""
        reason = reason.strip()
        if not reason:
            raise ValidationError({"reason": _("Say why the meet is reopened.")})
        self.is_final = False
        self._change_reason = f"確定解除: {reason}"
        self._reopening = True
        try:
            self.save()
        finally:
            self._reopening = False

    def lock_open(self) -> None:
        """Lock this meet's row for the current transaction and refuse if it is finalised.

        Every write to the meet's games takes this lock first, so two of them (or a write and
        a finalise) run one after the other: the second sees what the first did."""
        locked = Meet.objects.select_for_update().filter(pk=self.pk)
        if locked.values_list("is_final", flat=True).first():
            raise finalised_error()


@receiver(m2m_changed, sender=Meet.attendees.through)
def _attendance_of_a_finalised_meet(
    sender: type[models.Model], instance: Any, action: str, reverse: bool, **kwargs: Any
) -> None:
    """The attendance of a finalised meet stays as it is, by whatever path (but a restore,
    which loads the rows as they were: ``raw``)."""
    if not action.startswith("pre_") or kwargs.get("raw"):
        return
    # Forward (meet.attendees.add) the meet is the instance; reverse (member.meets.add) the
    # meets are the pks being added or removed.
    pks = list(kwargs.get("pk_set") or ()) if reverse else [instance.pk]
    if Meet.objects.filter(pk__in=pks, is_final=True).exists():
        raise finalised_error()


class DrawnPlace(models.Model):
    """One player's place in one round of a meet's table draw (卓組み): the table they play
    at, or none when they sit out (抜け番) that round.

    The draw names the players of each table, not their seats: under the club's rules the
    seats are decided at the table with the dice (sheet 002, 「場所決め」), so ``order`` is only
    the draw's order of listing. ``seed`` is the seed of the draw that made the row (a redraw
    of later rounds has its own). Rows are written by ``scoring.meet_draw.save_draw`` only,
    and never while the meet is finalised (``save`` and ``delete`` refuse).
    """

    meet = models.ForeignKey(
        Meet, verbose_name=_("meet"), on_delete=models.CASCADE, related_name="drawn_places"
    )
    round_no = models.PositiveSmallIntegerField(
        _("round"), validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    table_no = models.PositiveSmallIntegerField(
        _("table"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(50)],
        help_text=_("Empty: sits out this round."),
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.PROTECT, related_name="drawn_places"
    )
    seed = models.BigIntegerField(_("seed"), default=0)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("drawn place")
        verbose_name_plural = _("drawn places")
        ordering = ["meet", "round_no", "table_no", "order"]
        constraints = [
            models.UniqueConstraint(
                fields=["meet", "round_no", "member"], name="one_drawn_place_per_round"
            ),
            models.UniqueConstraint(
                fields=["meet", "round_no", "table_no", "order"], name="one_drawn_seat_per_order"
            ),
        ]

    def __str__(self) -> str:
        where = _("table %(table)s") % {"table": self.table_no} if self.table_no else _("sits out")
        return f"{self.round_no}: {where} {self.member_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self._refuse_when_final()
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        self._refuse_when_final()
        return super().delete(*args, **kwargs)

    def _refuse_when_final(self) -> None:
        if Meet.objects.filter(pk=self.meet_id, is_final=True).exists():
            raise finalised_error()


@dataclass
class PlayerEntry:
    """One player's line of a game, as entered (before settlement)."""

    member: Member
    seat: int
    score: int
    chombo: int = 0
    big_hands: Sequence[tuple[str, str]] = field(default=())  # (HandLevel, yakuman name)


class HanchanQuerySet(models.QuerySet["Hanchan"]):
    def disagreeing(self) -> list[tuple[Hanchan, str]]:
        """Games whose stored results are not what ``rules.settle`` gives for their stored
        scores under their own rule set, each with what differs. Empty is the invariant."""
        found: list[tuple[Hanchan, str]] = []
        games = self.select_related("rule_set", "meet").prefetch_related("results")
        for game in games.order_by("pk"):
            stored = sorted(game.results.all(), key=lambda r: r.seat)
            seats = [rules.SeatScore(r.seat, r.score, r.chombo) for r in stored]
            try:
                settled = rules.settle(game.rule_set.params(), seats, game.deposits_held)
            except (rules.InvalidGame, ValidationError) as error:
                found.append((game, f"cannot be settled: {error}"))
                continue
            for row, result in zip(stored, settled.results, strict=True):
                expected = HanchanResult.settled(game, row.member, result)
                differs = [
                    name
                    for name in HanchanResult.SETTLED_FIELDS
                    if getattr(row, name) != getattr(expected, name)
                ]
                if differs:
                    found.append((game, f"seat {row.seat}: {', '.join(differs)}"))
        return found


class Hanchan(SettledRecord):
    """One game (半荘) at one table (卓) in one round (回戦) of a meet."""

    meet = models.ForeignKey(
        Meet, verbose_name=_("meet"), on_delete=models.CASCADE, related_name="hanchans"
    )
    table_no = models.PositiveSmallIntegerField(
        _("table"), validators=[MinValueValidator(1), MaxValueValidator(50)]
    )
    round_no = models.PositiveSmallIntegerField(
        _("round"), validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    rule_set = models.ForeignKey(RuleSet, verbose_name=_("rule set"), on_delete=models.PROTECT)
    deposits_held = models.PositiveIntegerField(
        _("deposits held"),
        default=0,
        help_text=_("Riichi sticks left unresolved (預かり), in points."),
    )
    note = models.CharField(
        _("note"), max_length=200, blank=True, validators=[no_control_characters]
    )
    version = models.PositiveIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords()
    objects = HanchanQuerySet.as_manager()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["meet", "round_no", "table_no"]
        constraints = [
            models.UniqueConstraint(
                fields=["meet", "table_no", "round_no"],
                name="one_game_per_table_and_round",
                violation_error_message=_(
                    "A game for this round and table has been entered already."
                ),
            ),
            models.CheckConstraint(condition=models.Q(table_no__gte=1), name="table_from_1"),
            models.CheckConstraint(condition=models.Q(round_no__gte=1), name="round_from_1"),
        ]

    def __str__(self) -> str:
        try:
            meet: Meet | str = self.meet
        except Meet.DoesNotExist:  # a game in the history may outlive its meet (admin history)
            meet = "—"
        return _("%(meet)s, round %(round)s, table %(table)s") % {
            "meet": meet,
            "round": self.round_no,
            "table": self.table_no,
        }

    def settle(self, entries: Sequence[PlayerEntry]) -> rules.Settlement:
        """Check the entries and settle them under this game's rule set (nothing saved)."""
        errors: list[ValidationError] = []
        if self.meet.is_final:
            errors.append(finalised_error())
        seen: set[int] = set()
        for entry in entries:
            if entry.member.pk in seen:
                errors.append(
                    ValidationError(
                        _("%(name)s is entered twice."),
                        code="member_twice",
                        params={"name": entry.member.name},
                    )
                )
            seen.add(entry.member.pk)
            for level, yakuman_name in entry.big_hands:
                if level not in HandLevel.values:
                    errors.append(
                        ValidationError(_("Unknown hand level: %(level)s"), params={"level": level})
                    )
                elif yakuman_name and level != HandLevel.YAKUMAN:
                    errors.append(ValidationError(_("Only a yakuman carries a name.")))
                elif len(yakuman_name) > BigHand.NAME_LENGTH:
                    errors.append(
                        ValidationError(
                            _("A yakuman name has at most %(n)s characters."),
                            code="yakuman_name_long",
                            params={"n": BigHand.NAME_LENGTH},
                        )
                    )
        errors.extend(self.seat_conflicts(entries))
        if errors:
            raise ValidationError(errors)
        seats = [rules.SeatScore(seat=e.seat, score=e.score, chombo=e.chombo) for e in entries]
        try:
            return rules.settle(self.rule_set.params(), seats, self.deposits_held)
        except rules.InvalidGame as error:
            raise invalid_game_error(error) from error

    @property
    def deposits_p(self) -> Decimal:
        """What the deposits held take off the table's P total (0 or negative)."""
        return -rules.points_to_p(self.deposits_held, self.rule_set.params())

    def seat_conflicts(self, entries: Sequence[PlayerEntry]) -> list[ValidationError]:
        """A player sits at one table per round: those seated at another table of the same
        meet and round, each named with that table."""
        if self.meet.pk is None:
            return []
        others = (
            HanchanResult.objects.filter(
                hanchan__meet_id=self.meet.pk,
                hanchan__round_no=self.round_no,
                member_id__in=[e.member.pk for e in entries if e.member.pk is not None],
            )
            .exclude(hanchan_id=self.pk)
            .exclude(hanchan__table_no=self.table_no)  # that would be this game entered twice
            .select_related("member", "hanchan")
        )
        return [
            ValidationError(
                _("%(name)s already plays at table %(table)s in round %(round)s."),
                code="seated_elsewhere",
                params={
                    "name": r.member.name,
                    "table": r.hanchan.table_no,
                    "round": r.hanchan.round_no,
                },
            )
            for r in others
        ]

    def record(
        self, entries: Sequence[PlayerEntry], expected_version: int | None = None
    ) -> Recorded:
        """Validate, settle and save this game with its results and big hands: all or nothing.

        ``expected_version`` is the version the editor started from, required when the game
        is stored already: when the stored game has moved on since (another organizer saved
        it), nothing is saved. The meet's row is locked and checked inside the transaction, so
        a finalise that lands meanwhile is never overtaken. Players missing from the meet's
        attendance are added to it. Raises ValidationError (and leaves the database as it
        was) when anything is wrong.
        """
        with transaction.atomic(), settlement_writes():
            self.meet.lock_open()
            if self.pk is not None:
                self._check_version(expected_version)
                self.version += 1
            settlement = self.settle(entries)
            by_seat = {e.seat: e for e in entries}
            self.full_clean()
            self.save()
            for old in self.results.all():
                old.delete()  # one by one, so the history records each row
            for result in settlement.results:
                entry = by_seat[result.seat]
                row = HanchanResult.settled(self, entry.member, result)
                row.save()
                for level, yakuman_name in entry.big_hands:
                    BigHand(result=row, level=level, yakuman_name=yakuman_name).save()
            present = set(self.meet.attendees.values_list("pk", flat=True))
            added = [e.member for e in entries if e.member.pk not in present]
            if added:
                self.meet.attendees.add(*added)
        return Recorded(settlement, added)

    def _check_version(self, expected_version: int | None) -> None:
        """Lock the stored row and refuse when it changed since ``expected_version`` (or when
        the editor did not say which version it started from)."""
        stored = Hanchan.objects.select_for_update().filter(pk=self.pk).values("version").first()
        if stored is None:
            raise ValidationError(_("This game was deleted by someone else."), code="gone")
        if stored["version"] != expected_version:
            raise ValidationError(
                _(
                    "Someone else changed this game while you were editing it. Your changes "
                    "were not saved; the newer data is shown. Check it and enter again."
                ),
                code="stale",
            )

    def is_same_game(self, entries: Sequence[PlayerEntry]) -> bool:
        """Whether this stored game's results are exactly ``entries`` (the same players in the
        same seats with the same scores, chombo and big hands), both read seat by seat."""
        stored = [
            (
                r.seat,
                r.member_id,
                r.score,
                r.chombo,
                sorted(r.big_hands.values_list("level", "yakuman_name")),
            )
            for r in self.results.order_by("seat")
        ]
        given = [(e.seat, e.member.pk, e.score, e.chombo, sorted(e.big_hands)) for e in entries]
        return stored == sorted(given, key=lambda row: row[0])

    def remove(self) -> None:
        """Delete this game (its results and big hands go with it, each into the history)."""
        with transaction.atomic(), settlement_writes():
            self.meet.lock_open()
            for result in self.results.all():
                for hand in result.big_hands.all():
                    hand.delete()
                result.delete()
            self.delete()


@dataclass(frozen=True)
class Recorded:
    """What ``Hanchan.record`` did: the settlement, and who was added to the attendance."""

    settlement: rules.Settlement
    added_to_attendance: list[Member]


class HanchanResult(SettledRecord):
    """One player's line of a game: what was entered and what settlement gave."""

    SETTLED_FIELDS = (
        "final_score",
        "place",
        "score_points",
        "rank_points",
        "chombo_points",
        "total_points",
        "rule_set_id",
        "meet_id",
        "played_on",
        "is_last",
    )
    """What settlement writes, derived from the game and its scores."""

    hanchan = models.ForeignKey(
        Hanchan, verbose_name=_("game"), on_delete=models.CASCADE, related_name="results"
    )
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.PROTECT, related_name="results"
    )
    seat = models.PositiveSmallIntegerField(_("seat"), choices=Seat.choices)
    score = models.IntegerField(_("score"))
    chombo = models.PositiveSmallIntegerField(_("chombo"), default=0)
    # Settled by rules.py; stored for fast aggregation.
    final_score = models.IntegerField(_("final score"))
    place = models.PositiveSmallIntegerField(_("place"))
    score_points = models.DecimalField(_("score points"), max_digits=7, decimal_places=1)
    rank_points = models.DecimalField(_("rank points"), max_digits=7, decimal_places=1)
    chombo_points = models.DecimalField(_("chombo points"), max_digits=7, decimal_places=1)
    total_points = models.DecimalField(_("total P"), max_digits=7, decimal_places=1)
    # Copied from the game at settlement so the standings aggregate without joins.
    meet = models.ForeignKey(
        Meet, verbose_name=_("meet"), on_delete=models.CASCADE, related_name="+"
    )
    rule_set = models.ForeignKey(
        RuleSet, verbose_name=_("rule set"), on_delete=models.PROTECT, related_name="+"
    )
    played_on = models.DateField(_("date"))
    is_last = models.BooleanField(_("last place"))

    # Derived columns, not worth an audit trail of their own.
    history = HistoricalRecords(excluded_fields=["meet", "rule_set", "played_on", "is_last"])

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")
        ordering = ["hanchan", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["hanchan", "member"], name="member_once_per_game"),
            models.UniqueConstraint(fields=["hanchan", "seat"], name="seat_once_per_game"),
            models.CheckConstraint(condition=models.Q(seat__lte=3), name="seat_east_to_north"),
            models.CheckConstraint(condition=models.Q(place__gte=1), name="place_from_1"),
        ]
        indexes = [
            # Covers the standings' GROUP BY member over a period (no table access).
            models.Index(
                fields=[
                    "member",
                    "played_on",
                    "place",
                    "is_last",
                    "score",
                    "chombo",
                    "total_points",
                    "meet",
                    "rule_set",
                ],
                name="result_standings_cover",
            ),
            models.Index(fields=["played_on"], name="result_played_on"),
        ]

    def __str__(self) -> str:
        return f"{self.member} {self.get_seat_display()} {self.score}"

    @classmethod
    def settled(cls, game: Hanchan, member: Member, result: rules.PlayerResult) -> HanchanResult:
        """The row for one player's settlement of ``game`` (not saved)."""
        return cls(
            hanchan=game,
            member=member,
            seat=result.seat,
            score=result.score,
            chombo=result.chombo,
            final_score=result.final_score,
            place=result.place,
            score_points=result.score_points,
            rank_points=result.rank_points,
            chombo_points=result.chombo_points,
            total_points=result.total,
            meet=game.meet,
            rule_set=game.rule_set,
            played_on=game.meet.date,
            is_last=result.place == game.rule_set.players,
        )


class BigHand(SettledRecord):
    """A hand of mangan or more (満貫以上) won by a player in a game."""

    result = models.ForeignKey(
        HanchanResult, verbose_name=_("result"), on_delete=models.CASCADE, related_name="big_hands"
    )
    NAME_LENGTH = 40

    level = models.CharField(_("level"), max_length=10, choices=HandLevel.choices)
    yakuman_name = models.CharField(
        _("yakuman name"),
        max_length=NAME_LENGTH,
        blank=True,
        validators=[no_control_characters],
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("mangan or better")
        verbose_name_plural = _("mangan or better")
        ordering = ["result", "id"]

    def __str__(self) -> str:
        label = self.get_level_display()
        return f"{label}({self.yakuman_name})" if self.yakuman_name else str(label)


class ReportStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    MAKING = "making", _("being made")
    READY = "ready", _("ready")
    FAILED = "failed", _("failed")
    # A newer report of the same request was asked for before a worker took this one: it is
    # not made, and its page leads to the newer one (``scoring.reports.making``).
    REPLACED = "replaced", _("replaced")


# A row being made whose maker has not beaten (``beat_at``) for this long is abandoned: its
# worker died. The maker beats every few seconds (``scoring.reports.heartbeat.BEAT``).
ABANDONED_AFTER = timedelta(seconds=30)


class MadeByWorker(models.Model):
    """What a report worker makes once and keeps, named by ``digest`` (a report, or a part of
    one). The unique digest is the single flight: whoever moves the row from queued to being
    made (``claim``) makes it; the others find it made, or being made. Its maker beats
    (``beat_at``) while it works; a row being made with no beat for ``ABANDONED_AFTER`` is
    taken back (``take_back``)."""

    digest = models.CharField(max_length=64, unique=True)
    status = models.CharField(
        max_length=8, choices=ReportStatus.choices, default=ReportStatus.QUEUED
    )
    error = models.TextField(blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    beat_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @classmethod
    def claim(cls, pk: int) -> bool:
        """Move row ``pk`` from queued to being made; True when this caller did."""
        queued = cls._default_manager.filter(pk=pk, status=ReportStatus.QUEUED)
        now = timezone.now()
        return bool(queued.update(status=ReportStatus.MAKING, started_at=now, beat_at=now))

    @staticmethod
    def silent_since(moment: datetime) -> models.Q:
        """Rows whose maker has not beaten since ``moment`` (rows from before the beats: not
        started since)."""
        return models.Q(beat_at__lt=moment) | models.Q(beat_at__isnull=True, started_at__lt=moment)

    def is_abandoned(self, now: datetime) -> bool:
        """Being made, by a maker that has not beaten for ``ABANDONED_AFTER``."""
        last = self.beat_at or self.started_at
        return (
            self.status == ReportStatus.MAKING and last is not None and now - last > ABANDONED_AFTER
        )

    @classmethod
    def take_back(cls, pk: int, now: datetime, **fields: object) -> bool:
        """Move row ``pk``, abandoned by its maker, back to queued (or to ``fields``'
        status); True when this caller did."""
        abandoned = cls._default_manager.filter(pk=pk, status=ReportStatus.MAKING).filter(
            cls.silent_since(now - ABANDONED_AFTER)
        )
        return bool(abandoned.update(**{"status": ReportStatus.QUEUED, **fields}))

    @classmethod
    def failed(cls, pk: int, error: BaseException) -> None:
        """Row ``pk`` could not be made: ``error`` says why."""
        cls._default_manager.filter(pk=pk).update(
            status=ReportStatus.FAILED, error=repr(error)[:2000], finished_at=timezone.now()
        )

    @classmethod
    def made(cls, pk: int, **fields: object) -> None:
        """Row ``pk`` is made and kept; ``fields`` are what the making found out."""
        cls._default_manager.filter(pk=pk).update(
            status=ReportStatus.READY, finished_at=timezone.now(), **fields
        )


class Report(MadeByWorker):
    """A report file asked for (a PDF, Excel or CSV), made once by a task and kept.

    ``digest`` names exactly what the file holds: the kind of report, what it is of (period,
    filters, member, meet), the language, the version of the templates and code that lay it
    out, and a fingerprint of the games it counts (``scoring.reports.making``). Its unique
    index makes the row the single flight: the same report asked for again while it is being
    made finds this row, and its task is queued once. The file lives under
    ``DATA_DIR/reports/`` named by the digest. ``spec`` is what the task needs to make it;
    ``step``, ``done`` and ``total`` are its progress, written by the task as it goes.
    """

    spec = models.JSONField()
    spec_key = models.CharField(max_length=64, db_index=True)  # the same report, any data
    task_id = models.CharField(max_length=64, blank=True)
    filename = models.CharField(max_length=200, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    size = models.PositiveIntegerField(default=0)
    step = models.CharField(max_length=100, blank=True)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    asked_at = models.DateTimeField()
    # Who asked for it first (none for those queued by a finalise): how many reports one
    # person has waiting is limited (``settings.REPORTS_PER_PERSON``).
    asked_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name = _("report file")
        verbose_name_plural = _("report files")

    def __str__(self) -> str:
        return f"{self.filename or self.spec_key[:12]} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("scoring:report", args=[self.digest])


class ReportPart(MadeByWorker):
    """A piece of a long PDF report, laid out once and kept: a part of the front matter, or
    one member's pages (``scoring.reports.parts``).

    ``digest`` names exactly what the piece shows: its HTML, the charts it names and the
    version of what lays reports out. A report made again after a change finds the pieces
    that did not change here, kept, and lays out only the rest. ``html`` and ``charts`` (what
    each chart is drawn from) are all a worker needs to make it, on any machine that shares
    the database and the reports directory (emptied once it is made; given again if its file
    is ever lost); ``pages`` is how many pages it came to.
    """

    html = models.TextField()
    charts = models.JSONField(default=dict)
    pages = models.PositiveIntegerField(default=0)
    size = models.PositiveIntegerField(default=0)  # of its file, in bytes
    used_at = models.DateTimeField()

    class Meta:
        verbose_name = _("part of a report")
        verbose_name_plural = _("parts of reports")

    def __str__(self) -> str:
        return f"{self.digest[:12]} ({self.status})"
