"""Ready before anyone asks: when the organizer finalises a meet (確定), that month's and
that half-year's standings PDF and Excel are queued for a worker."""

from __future__ import annotations

import logging

from django.conf import settings
from django.utils import translation

from scoring.models import Meet
from scoring.reports.asking import Maker, ask
from scoring.reports.specs import Spec
from scoring.standings import Filters, Period, PeriodKind

logger = logging.getLogger(__name__)


def queue_after_finalise(meet_id: int, **signal: object) -> None:
    """Ready before anyone asks: a finalised meet's month and half-year reports (the PDF and
    the Excel of the club's standings) are queued. The receiver of ``signals.meet_finalised``
    (connected in ``ScoringConfig.ready``)."""
    meet = Meet.objects.get(pk=meet_id)
    with translation.override(settings.LANGUAGE_CODE):
        for period in (
            Period.containing(meet.date, PeriodKind.MONTH),
            Period.containing(meet.date),
        ):
            for kind in ("standings.pdf", "standings.xlsx"):
                report = ask(Spec.of(kind, Filters(period=period)), maker=Maker.WORKER)
                logger.info("%s of %s: %s", kind, period.key, report.status)
