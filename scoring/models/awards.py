"""The season's awards (表彰) of a standings group: which awards there are, how each is won, and
the awards the organizer gives by hand (敢闘賞).

The winners are not stored: ``scoring.standings.awards`` computes them from the standings of a
period. Only an award given by hand names its winner here (for one period). Every group has the
default awards (``DEFAULT_AWARDS``) from its making on (``make_default_awards``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from members.models import (
    NAME_LENGTH,
    NOTE_LENGTH,
    Member,
    ScopedToGroup,
    no_control_characters,
)
from scoring.models.rule_sets import StandingsGroup


class Measure(models.TextChoices):
    """What an award is won by. The figures are ``scoring.standings.awards.MEASURES``'."""

    TOTAL = "total", _("Highest total P")
    WINS = "wins", _("Most tops")
    AVERAGE_PLACE = "average_place", _("Best average place")
    ATTENDANCE = "attendance", _("Every meet attended")
    YAKUMAN = "yakuman", _("Yakuman")
    BIG_HANDS = "big_hands", _("Most mangan or better")
    HIGHEST_SCORE = "highest_score", _("Highest score in one game")
    RATING = "rating", _("Highest rating")
    BY_HAND = "by_hand", _("Given by the organizer")


# The circles' rule (規定半荘数): at least 70 % of the games the meets held allow, counting two
# games a meet: meets × 2 × 0.70.
CIRCLE_SHARE = Decimal(70)
CIRCLE_GAMES_PER_MEET = 2

# The awards a group starts with: (measure, name, share of games in %, games per meet).
DEFAULT_AWARDS: tuple[tuple[Measure, str, Decimal, int], ...] = (
    (Measure.TOTAL, "最高ポイント賞", Decimal(0), CIRCLE_GAMES_PER_MEET),
    (Measure.WINS, "最多トップ賞", Decimal(0), CIRCLE_GAMES_PER_MEET),
    (Measure.AVERAGE_PLACE, "最高平均順位賞", CIRCLE_SHARE, CIRCLE_GAMES_PER_MEET),
    (Measure.ATTENDANCE, "皆勤賞", Decimal(0), CIRCLE_GAMES_PER_MEET),
    (Measure.YAKUMAN, "役満賞", Decimal(0), CIRCLE_GAMES_PER_MEET),
    (Measure.BIG_HANDS, "最多満貫以上賞", Decimal(0), CIRCLE_GAMES_PER_MEET),
    (Measure.HIGHEST_SCORE, "最高得点賞", Decimal(0), CIRCLE_GAMES_PER_MEET),
    (Measure.RATING, "最高レーティング賞", CIRCLE_SHARE, CIRCLE_GAMES_PER_MEET),
)


class AwardQuerySet(models.QuerySet["Award"]):
    def of_group(self, group: StandingsGroup) -> AwardQuerySet:
        """The group's awards in their order."""
        return self.filter(group=group).order_by("position", "pk")


def make_default_awards(group: StandingsGroup) -> None:
    """Give a group the default awards (``DEFAULT_AWARDS``). A group made later gets them on
    its first save; the groups there were before are given theirs by the migration
    ``0021_default_awards``. The organizer turns a default award off (``is_shown``) rather
    than deleting it."""
    for position, (measure, name, share, per_meet) in enumerate(DEFAULT_AWARDS):
        Award.objects.get_or_create(
            group=group,
            measure=measure,
            name=name,
            defaults={"position": position + 1, "min_share": share, "games_per_meet": per_meet},
        )


AwardManager = ScopedToGroup.from_queryset(AwardQuerySet)


class Award(models.Model):
    """One award (賞) of a standings group.

    An award won by a figure (``measure``) goes to the eligible member(s) with the best figure
    of the period, every tied one named. Eligible: at least ``min_share`` % of
    ``meets held × games_per_meet`` games (規定半荘数, the circles' 70 % of meets × 2), rounded up.
    An award given by hand (``Measure.BY_HAND``, 敢闘賞) names its ``winner`` for one period
    (``period_key``, as the standings write it: 2025-H1, FY2025) with a ``reason``.
    """

    group = models.ForeignKey(
        StandingsGroup,
        verbose_name=_("standings group"),
        on_delete=models.CASCADE,
        related_name="awards",
    )
    name = models.CharField(_("award"), max_length=NAME_LENGTH, validators=[no_control_characters])
    measure = models.CharField(_("won by"), max_length=20, choices=Measure.choices)
    position = models.PositiveSmallIntegerField(_("order"), default=0)
    is_shown = models.BooleanField(_("given"), default=True)
    min_share = models.DecimalField(
        _("minimum share of games (%)"),
        max_digits=5,
        decimal_places=1,
        default=Decimal(0),
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(100))],
        help_text=_("規定半荘数: this share of meets held × games per meet; 0 for no minimum."),
    )
    games_per_meet = models.PositiveSmallIntegerField(
        _("games per meet"),
        default=CIRCLE_GAMES_PER_MEET,
        validators=[MinValueValidator(1), MaxValueValidator(9)],
    )
    winner = models.ForeignKey(
        Member,
        verbose_name=_("winner"),
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="awards_given",
    )
    period_key = models.CharField(_("period"), max_length=30, blank=True)
    reason = models.CharField(
        _("reason"), max_length=NOTE_LENGTH, blank=True, validators=[no_control_characters]
    )

    history = HistoricalRecords()
    objects = AwardManager()

    class Meta:
        verbose_name = _("award")
        verbose_name_plural = _("awards")
        ordering = ["group", "position", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def by_hand(self) -> bool:
        return self.measure == Measure.BY_HAND


def default_awards_as_made() -> AwardQuerySet:
    """The awards that are still exactly as ``make_default_awards`` (or the migration) made
    them: what a freshly migrated database holds, which a restore replaces."""
    as_made = models.Q(pk__in=[])
    for position, (measure, name, share, per_meet) in enumerate(DEFAULT_AWARDS):
        as_made |= models.Q(
            position=position + 1,
            measure=measure,
            name=name,
            min_share=share,
            games_per_meet=per_meet,
            is_shown=True,
            winner=None,
            period_key="",
            reason="",
        )
    return Award.objects.filter(as_made)


@receiver(post_save, sender=StandingsGroup)
def _a_new_group_gets_the_default_awards(
    sender: type[StandingsGroup],
    instance: StandingsGroup,
    created: bool = False,
    raw: bool = False,
    **kwargs: Any,
) -> None:
    """A standings group made after the awards came (the organizer's, or a restore's put
    back with the migrations' data) starts with the default awards (a restore loads its rows
    as they were: ``raw``)."""
    if created and not raw:
        make_default_awards(instance)
