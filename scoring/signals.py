"""The scoring app's own signals: how the models let a floor above them react, without
importing it (connected in ``ScoringConfig.ready``)."""

from django.dispatch import Signal

meet_finalised = Signal()
"""Sent once a meet's finalise has been committed, with ``meet_id``. The reports
(``reports.after_finalise.queue_after_finalise``) queue its month's and half-year's standings."""
