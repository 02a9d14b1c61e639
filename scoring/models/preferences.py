"""What a login chooses on the game form and keeps from one session to the next."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class EntryPreference(models.Model):
    """A login's unit for typing scores (``scoring.forms.ScoreUnit``: "points" or "hundreds"),
    kept with the login rather than the session."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("login"),
        on_delete=models.CASCADE,
        related_name="entry_preference",
    )
    score_unit = models.CharField(_("scores are typed"), max_length=10, default="points")

    class Meta:
        verbose_name = _("entry preference")
        verbose_name_plural = _("entry preferences")

    def __str__(self) -> str:
        return f"{self.user}: {self.score_unit}"
