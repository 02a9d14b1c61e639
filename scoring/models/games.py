"""Games (hanchan), their results and big hands, and the settlement guard.

The way a game goes in: :meth:`Hanchan.record` checks the entries, asks ``rules.settle`` for
the points and stores the game, its results and big hands in one transaction. Stored points
are always what ``rules.py`` gives for the stored scores; nothing else writes them
(``settlement_writes``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from members.models import (
    NOTE_LENGTH,
    Member,
    ScopedToMeet,
    ScopedToResult,
    no_control_characters,
)
from scoring import rules
from scoring.models.meets import LAST_ROUND, LAST_TABLE, Meet, finalised_error
from scoring.models.rule_sets import RuleSet, invalid_game_error
from scoring.notation import NAMED_HAND, HandLevel, Seat

MEMBER_TWICE = _("%(name)s is entered twice.")
YAKUMAN_NAME_LONG = _("A yakuman name has at most %(n)s characters.")

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


@dataclass
class PlayerEntry:
    """One player's line of a game, as entered (before settlement)."""

    member: Member
    seat: int
    score: int
    chombo: int = 0
    big_hands: Sequence[tuple[str, str]] = field(default=())  # (HandLevel, yakuman name)


class HanchanQuerySet(models.QuerySet["Hanchan"]):
    def with_results(self) -> HanchanQuerySet:
        """The games round by round and table by table, each with its results in seat order
        (their members and big hands fetched with them): what a page listing games shows."""
        results = HanchanResult.objects.select_related("member").prefetch_related("big_hands")
        return self.order_by("round_no", "table_no").prefetch_related(
            models.Prefetch("results", queryset=results.order_by("seat"))
        )

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


HanchanManager = ScopedToMeet.from_queryset(HanchanQuerySet)


class Hanchan(SettledRecord):
    """One game (半荘) at one table (卓) in one round (回戦) of a meet."""

    meet = models.ForeignKey(
        Meet, verbose_name=_("meet"), on_delete=models.CASCADE, related_name="hanchans"
    )
    table_no = models.PositiveSmallIntegerField(
        _("table"), validators=[MinValueValidator(1), MaxValueValidator(LAST_TABLE)]
    )
    round_no = models.PositiveSmallIntegerField(
        _("round"), validators=[MinValueValidator(1), MaxValueValidator(LAST_ROUND)]
    )
    rule_set = models.ForeignKey(RuleSet, verbose_name=_("rule set"), on_delete=models.RESTRICT)
    deposits_held = models.PositiveIntegerField(
        _("deposits held"),
        default=0,
        help_text=_("Riichi sticks left unresolved (預かり), in points."),
    )
    note = models.CharField(
        _("note"), max_length=NOTE_LENGTH, blank=True, validators=[no_control_characters]
    )
    version = models.PositiveIntegerField(default=1, editable=False)
    sent_as = models.UUIDField(
        _("device's id"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("The id a tablet gave this game when it was entered offline."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords()
    objects = HanchanManager()

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
            # A device's id belongs to one meet's queue (the tablet keeps each game with its
            # meet's send address): within the meet it names one game. The meet's row lock,
            # which every save takes, orders two senders of one id within the meet.
            models.UniqueConstraint(
                fields=["meet", "sent_as"],
                name="one_game_per_device_id_in_a_meet",
                violation_error_message=_(
                    "A game was stored for this device's id in this meet already."
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
            # A guest typed in at the table is not saved yet (no pk): the game form has
            # checked that no two of them share a name.
            if entry.member.pk is not None and entry.member.pk in seen:
                errors.append(
                    ValidationError(
                        MEMBER_TWICE,
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
                    errors.append(ValidationError(NAMED_HAND))
                elif len(yakuman_name) > BigHand.NAME_LENGTH:
                    errors.append(
                        ValidationError(
                            YAKUMAN_NAME_LONG,
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
        self,
        entries: Sequence[PlayerEntry],
        expected_version: int | None = None,
        *,
        sent_as: UUID | None = None,
    ) -> Recorded:
        """Validate, settle and save this game with its results and big hands: all or nothing.

        ``sent_as`` is the id a device gave a game it kept while offline: a meet stores a game
        for an id at most once. When this meet stored a game for it already (the same queue
        sent again, a retried request, a second tablet, or another game under the same id),
        nothing is saved and ``SentBefore`` names that game, even if the meet was finalised
        since; whether it is the game sent is for the caller to judge. The meet's row lock
        orders two senders of one id, so the second sees the first's game.

        ``expected_version`` is the version the editor started from, required when the game
        is stored already: when the stored game has moved on since (another organizer saved
        it), nothing is saved. The meet's row is locked and checked inside the transaction, so
        a finalise that lands meanwhile is never overtaken. Players missing from the meet's
        attendance are added to it. Raises ValidationError (and leaves the database as it
        was) when anything is wrong.
        """
        with transaction.atomic(), settlement_writes():
            if sent_as is not None:
                self.meet.lock()
                stored = Hanchan.objects.filter(meet=self.meet, sent_as=sent_as).first()
                if stored is not None:
                    raise SentBefore(stored)
                self.sent_as = sent_as
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


class SentBefore(Exception):
    """The meet stored a game already for the id a device sent (``Hanchan.record``)."""

    def __init__(self, game: Hanchan) -> None:
        super().__init__(f"stored already as game {game.pk}")
        self.game = game


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
        Member, verbose_name=_("member"), on_delete=models.RESTRICT, related_name="results"
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
        RuleSet, verbose_name=_("rule set"), on_delete=models.RESTRICT, related_name="+"
    )
    played_on = models.DateField(_("date"))
    is_last = models.BooleanField(_("last place"))

    # Derived columns, not worth an audit trail of their own.
    history = HistoricalRecords(excluded_fields=["meet", "rule_set", "played_on", "is_last"])
    objects = ScopedToMeet()

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
    objects = ScopedToResult()

    class Meta:
        verbose_name = _("mangan or better")
        verbose_name_plural = _("mangan or better")
        ordering = ["result", "id"]

    def __str__(self) -> str:
        label = self.get_level_display()
        return f"{label}({self.yakuman_name})" if self.yakuman_name else str(label)


@receiver(post_save, sender=Meet)
def _results_follow_the_meets_date(
    sender: type[Meet], instance: Meet, raw: bool = False, **kwargs: Any
) -> None:
    """The results carry their meet's date for the standings; a meet saved with another date
    moves them too, in the transaction of ``Meet.save`` (a restore loads rows as they were:
    ``raw``)."""
    if raw:
        return
    HanchanResult.objects.filter(meet=instance).exclude(played_on=instance.date).update(
        played_on=instance.date
    )
