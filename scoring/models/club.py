"""The club's own settings: the choices the organizer makes in the app (one row)."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from members.models import NAME_LENGTH, Club, ScopedToClub, default_club

HEAD_TO_HEAD_MOST = 99  # the most games together a member's page may ask of a tablemate


class ClubSettings(models.Model):
    """Choices the organizer makes in the app (one row a club)."""

    club = models.OneToOneField(
        Club,
        verbose_name=_("club"),
        on_delete=models.CASCADE,
        default=default_club,
        editable=False,
        related_name="settings",
    )
    standings_public = models.BooleanField(
        _("standings open to visitors"),
        default=False,
        help_text=_("Visitors who have not signed in may read the standings page."),
    )
    head_to_head_min = models.PositiveSmallIntegerField(
        _("head-to-head minimum"),
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(HEAD_TO_HEAD_MOST)],
        help_text=_("A member's page lists the tablemates met at least this many times."),
    )
    schedule_public = models.BooleanField(
        _("schedule open to visitors"),
        default=False,
        help_text=_(
            "Visitors who have not signed in may read the coming meets and their calendar feed."
        ),
    )
    negative_sign = models.CharField(
        _("minus sign on handouts"),
        max_length=1,
        choices=[("−", "−"), ("▲", "▲")],
        default="−",
        help_text=_(
            "How the printed standings, sheets and the news card write a negative P: − or the "
            "club's own ▲ (「四位▲30P」)."
        ),
    )
    representative = models.CharField(
        _("representative (代表)"),
        max_length=NAME_LENGTH,
        blank=True,
        help_text=_("The name the certificates (賞状) are signed with, after the club's."),
    )
    history = HistoricalRecords()
    objects = ScopedToClub()

    class Meta:
        verbose_name = _("club settings")
        verbose_name_plural = _("club settings")

    def __str__(self) -> str:
        return str(_("club settings"))

    @classmethod
    def load(cls) -> ClubSettings:
        """The row of the club in scope; the defaults (not yet saved) until its organizer
        first changes one."""
        found = cls.objects.first()
        return found if found is not None else cls(club_id=default_club())

    @classmethod
    def minus(cls) -> str:
        """The sign the handouts write a negative number with (− or ▲)."""
        return cls.load().negative_sign

    @classmethod
    def standings_are_public(cls) -> bool:
        """Whether visitors may read the standings: the organizer's switch, or the
        ``STANDINGS_PUBLIC`` setting that holds it open."""
        return bool(settings.STANDINGS_PUBLIC) or cls.load().standings_public

    @classmethod
    def schedule_is_public(cls) -> bool:
        """Whether visitors may read the schedule and its calendar feed: the organizer's
        switch."""
        return cls.load().schedule_public
