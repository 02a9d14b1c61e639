"""Lift sign-in locks from the shell: the way back in when the organizer is locked out too.

manage.py unlock kiroku                   # forget kiroku's failed sign-ins (every address)
manage.py unlock --address 203.0.113.9    # forget every failure from that address
"""

from typing import Any

from axes.models import AccessAttempt
from django.core.management.base import BaseCommand, CommandError, CommandParser

from members import locks


class Command(BaseCommand):
    help = (
        "Lift sign-in locks: forget the failed sign-ins of a login name (at every address), "
        "or with --address, every failed sign-in from that address."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("login", nargs="?", help="the login name to unlock")
        parser.add_argument("--address", help="unlock this address for every login name")

    def handle(self, *args: Any, **options: Any) -> None:
        login, address = options["login"], options["address"]
        if not login and not address:
            raise CommandError("Name a login, or an address with --address.")
        if login:
            deleted, _ = AccessAttempt.objects.filter(username=login).delete()
            self.stdout.write(f"{login}: forgot {deleted} record(s) of failed sign-ins.")
        if address:
            deleted, _ = AccessAttempt.objects.filter(ip_address=address).delete()
            self.stdout.write(f"{address}: forgot {deleted} record(s) of failed sign-ins.")
        # An address locked by many names' failures stays locked for the login too.
        failures = locks.recent_failures()
        addresses = {a for _, a, _ in failures if a is not None}
        for locked in sorted(a for a in addresses if locks.address_locked_in(failures, a)):
            self.stdout.write(
                f"Address {locked} is still locked for every login name "
                f"(failures from many names); to lift it: manage.py unlock --address {locked}"
            )
