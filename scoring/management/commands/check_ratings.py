"""Check the rating: every group's 4- and 3-player rating as the rating table gets
it (from the state kept in the cache, when its fingerprint still matches the record, and the
quick path) against every game worked afresh (each change as its pencil line, nothing from
the cache).

    python manage.py check_ratings

Prints each member whose figures differ and exits 1, or prints how many ratings agree and
exits 0. Nothing is changed. Run ``check_results`` first: the rating reads the places stored
at settlement.
"""

from typing import Any

from django.core.management.base import CommandError

from members.scopes import ClubCommand
from scoring.models import StandingsGroup
from scoring.standings import rating_players, ratings_disagreeing


class Command(ClubCommand):
    help = (
        "Check every rating: the table's (cache and quick path) against each change worked afresh."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        disagreeing = ratings_disagreeing()
        for line in disagreeing:
            self.stdout.write(line)
        if disagreeing:
            raise CommandError(f"{len(disagreeing)} members' ratings disagree.")
        count = sum(len(rating_players(g)) for g in StandingsGroup.objects.all())
        self.stdout.write(f"All {count} ratings agree with their games worked one by one.")
