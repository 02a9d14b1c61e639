"""Meets (例会), their attendance, and their table draw (``DrawnPlace``).

A finalised meet stays as it is (its date, kind, games, attendance and draw) until an organizer
reopens it with a reason."""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.db.models.signals import m2m_changed
from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from members.models import (
    NOTE_LENGTH,
    Member,
    OwnedByAClub,
    ScopedToClub,
    ScopedToMeet,
    ScopedToMember,
    club_field,
    no_control_characters,
)
from scoring.models.rule_sets import RuleSet
from scoring.notation import MEET_DATES, MeetKind, meet_date
from scoring.signals import meet_finalised

LAST_ROUND = 20  # the most rounds (回戦) a meet may have
LAST_TABLE = 50  # the most tables (卓) a round may have
# django-simple-history keeps a change's reason in 100 characters (its
# ``history_change_reason``; a test reads the field to check).
HISTORY_REASON_LENGTH = 100
REOPEN_REASON = "確定解除: "  # what a reopening's reason is kept after, in the history


class DrawMode(models.TextChoices):
    """What the table draw does with an attendance that is not a multiple of 4 (the values
    are ``scoring.draw.Mode``'s)."""

    THREE_PLAYER_TABLES = "three_player_tables", _("Tables of three (3-player rules)")
    SIT_OUT = "sit_out", _("Sit out in turn (抜け番)")


def finalised_error() -> ValidationError:
    return ValidationError(
        _("This meet is finalised; reopen it to change games."), code="finalised"
    )


class Meet(OwnedByAClub, models.Model):
    """A meet (例会): one day's play, usually three rounds at several tables."""

    ROUNDS = 3
    """The rounds (回戦) a meet plays as a rule: sheet 002, 「何れも一半荘70分の三回戦体制」
    (three hanchan of 70 minutes each). A meet may play more; its page offers them."""
    # A reopening's reason, with 「確定解除: 」 before it, fits the history's change reason.
    REOPEN_REASON_LENGTH = HISTORY_REASON_LENGTH - len(REOPEN_REASON)

    club = club_field("meets")
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
        on_delete=models.RESTRICT,
        help_text=_("The rule set new games of this meet start with."),
    )
    attendees = models.ManyToManyField(
        Member, verbose_name=_("attendees"), blank=True, related_name="meets"
    )
    is_final = models.BooleanField(_("finalised"), default=False)
    note = models.CharField(
        _("note"), max_length=NOTE_LENGTH, blank=True, validators=[no_control_characters]
    )
    draw_mode = models.CharField(
        _("when the attendance is not a multiple of 4"),
        max_length=20,
        choices=DrawMode.choices,
        default=DrawMode.THREE_PLAYER_TABLES,
        help_text=_("How the table draw seats the players left over from tables of four."),
    )
    # A planned meet (予定) is a meet without games yet: the schedule enters it with its
    # start time and place, and results are entered on the same meet on the day.
    start_time = models.TimeField(_("start time"), null=True, blank=True)
    place = models.CharField(
        _("venue"), max_length=NOTE_LENGTH, blank=True, validators=[no_control_characters]
    )

    history = HistoricalRecords(m2m_fields=[attendees])
    objects = ScopedToClub()

    class Meta:
        verbose_name = _("meet")
        verbose_name_plural = _("meets")
        ordering = ["-date", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "date", "kind"],
                name="one_meet_per_day_and_kind_in_club",
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
            # The results carry the meet's date for the standings: a receiver in games.py
            # keeps them in step, in this transaction (``post_save``).
            super().save(*args, **kwargs)

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
        if len(reason) > self.REOPEN_REASON_LENGTH:
            raise ValidationError(
                {
                    "reason": _("Write the reason in %(limit)d characters or fewer.")
                    % {"limit": self.REOPEN_REASON_LENGTH}
                }
            )
        self._change_reason = f"{REOPEN_REASON}{reason}"
        self._reopening = True
        try:
            self.save()
        finally:
            self._reopening = False

    def lock_open(self) -> None:
        """Lock this meet's row for the current transaction and refuse if it is finalised.

        Every write to the meet's games takes this lock first, so two of them (or a write and
        a finalise) run one after the other: the second sees what the first did."""
        if self.lock():
            raise finalised_error()

    def lock(self) -> bool:
        """Lock this meet's row for the current transaction; whether it is finalised."""
        locked = Meet.objects.select_for_update().filter(pk=self.pk)
        return bool(locked.values_list("is_final", flat=True).first())

    def takes_answers(self, today: dt.date | None = None) -> bool:
        """Whether 出欠 is offered for this meet: a meet to come (today included) and not
        finalised, the meets ``answer`` keeps an answer for."""
        return not self.is_final and self.date >= (today or timezone.localdate())

    def answer(self, member: Member, said: str, by: Any, today: dt.date | None = None) -> Answer:
        """Keep ``member``'s 出欠 for this meet (``by``: the login that answered, the member
        or the organizer for a member who phoned in).

        Before the meet's day the attendance follows the answers: 参加 puts the member in the
        meet's attendance (which the table draw reads, so the draw can be made the evening
        before), 欠席 and 未定 take them out. From the day on, the organizer keeps the
        attendance as people arrive; an answer then is kept but changes it no more.

        An answer writes one history row, its own: the attendance it moves is not written
        into the meet's history besides (a tap would add a row of the meet and a copy of its
        whole attendance), since the answer's row already says who is coming, who said so
        and when. What the organizer does to the attendance (the meet's form, "Attendance
        from the answers", the admin) stays in the meet's history. The same answer again, from the
        same login, changes nothing and writes nothing."""
        today = today or timezone.localdate()
        said = AnswerChoice(said)
        answered_by = by if getattr(by, "pk", None) else None
        with transaction.atomic():
            if self.lock():
                raise finalised_error()
            if self.date < today:
                raise ValidationError(_("This meet is over; it takes no answers."), code="past")
            kept = Answer.objects.filter(meet=self, member=member).first()
            if kept is None:
                kept = Answer(meet=self, member=member)
            if kept.pk is None or (kept.answer, kept.answered_by_id) != (
                said,
                getattr(answered_by, "pk", None),
            ):
                kept.answer, kept.answered_by, kept.answered_at = said, answered_by, timezone.now()
                kept.save()
            if self.date > today:
                self._follow_answer(member, coming=said == AnswerChoice.COMING)
        return kept

    def _follow_answer(self, member: Member, *, coming: bool) -> None:
        """Put ``member`` in the attendance or take them out, as their answer says, when they
        are not there already: without a row in the meet's history (``answer``)."""
        if self.attendees.filter(pk=member.pk).exists() == coming:
            return
        # django-simple-history leaves out what an instance carrying this attribute does.
        self.skip_history_when_saving = True
        try:
            if coming:
                self.attendees.add(member)
            else:
                self.attendees.remove(member)
        finally:
            del self.skip_history_when_saving

    def attendance_from_answers(self) -> None:
        """The organizer's one tap: those who answered 参加 attend, those who answered 欠席 or
        未定 do not; members who did not answer stay as they are (ticked at the door)."""
        with transaction.atomic():
            self.lock_open()
            answers = Answer.objects.filter(meet=self)
            coming = answers.filter(answer=AnswerChoice.COMING).values_list("member", flat=True)
            self.attendees.add(*coming)
            self.attendees.remove(
                *answers.exclude(answer=AnswerChoice.COMING).values_list("member", flat=True)
            )


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


class AnswerChoice(models.TextChoices):
    """A member's 出欠 for a coming meet."""

    COMING = "coming", _("Coming")
    NOT_COMING = "not_coming", _("Not coming")
    UNDECIDED = "undecided", _("Undecided")


class Answer(models.Model):
    """One member's 出欠 for one meet: the latest answer (its history keeps the earlier ones),
    who gave it (the member, or the organizer for a member who phoned in) and when."""

    meet = models.ForeignKey(
        Meet, verbose_name=_("meet"), on_delete=models.CASCADE, related_name="answers"
    )
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.CASCADE, related_name="answers"
    )
    answer = models.CharField(_("answer"), max_length=12, choices=AnswerChoice.choices)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("answered by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    answered_at = models.DateTimeField(_("answered at"), default=timezone.now)

    history = HistoricalRecords()
    objects = ScopedToMeet()

    class Meta:
        verbose_name = _("answer")
        verbose_name_plural = _("answers")
        ordering = ["meet", "member"]
        constraints = [
            models.UniqueConstraint(fields=["meet", "member"], name="one_answer_per_meet"),
        ]

    def __str__(self) -> str:
        return f"{self.meet}: {self.member_id} {self.get_answer_display()}"


def new_token() -> str:
    return secrets.token_urlsafe(32)


class CalendarLink(models.Model):
    """A member's own secret address of the calendar feed, for a phone's calendar app, which
    cannot sign in. It shows the meets' days, times and places only (no names), works while
    the member is active, and the member can make a new one, which ends the old."""

    member = models.OneToOneField(
        Member, verbose_name=_("member"), on_delete=models.CASCADE, related_name="calendar_link"
    )
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_token)
    made_at = models.DateTimeField(_("made at"), default=timezone.now)

    objects = ScopedToMember()

    class Meta:
        verbose_name = _("calendar link")
        verbose_name_plural = _("calendar links")

    def __str__(self) -> str:
        return f"{self.member_id}"

    def renew(self) -> None:
        self.token = new_token()
        self.made_at = timezone.now()
        self.save()


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
        _("round"), validators=[MinValueValidator(1), MaxValueValidator(LAST_ROUND)]
    )
    table_no = models.PositiveSmallIntegerField(
        _("table"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(LAST_TABLE)],
        help_text=_("Empty: sits out this round."),
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.RESTRICT, related_name="drawn_places"
    )
    seed = models.BigIntegerField(_("seed"), default=0)

    history = HistoricalRecords()
    objects = ScopedToMeet()

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
