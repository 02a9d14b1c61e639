"""Check that every stored result is what its game's rule set gives (``rules.settle``).

    python manage.py check_results

Prints each game that disagrees and exits 1; prints the number of games checked and exits 0
when all agree. Nothing is changed.
"""

from typing import Any

from django.core.management.base import CommandError

from members.scopes import ClubCommand
from scoring.models import Hanchan


class Command(ClubCommand):
    help = "Check every stored result against a fresh settlement of its game."

    def handle(self, *args: Any, **options: Any) -> None:
        disagreeing = Hanchan.objects.all().disagreeing()
        for game, what in disagreeing:
            self.stdout.write(f"{game} (#{game.pk}): {what}")
        if disagreeing:
            raise CommandError(f"{len(disagreeing)} result lines disagree with their rule set.")
        self.stdout.write(f"All {Hanchan.objects.count():,} games agree with their rule sets.")
