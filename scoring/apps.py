from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        # Imported here, as Django asks of an app's ready(): these modules import the models,
        # which are loaded only now. Not to dodge a circle: the models import neither.
        from scoring.reports import after_finalise
        from scoring.signals import meet_finalised

        # A finalised meet's reports are queued by the reports, not by the model.
        meet_finalised.connect(
            after_finalise.queue_after_finalise, dispatch_uid="scoring.reports.queue_after_finalise"
        )
