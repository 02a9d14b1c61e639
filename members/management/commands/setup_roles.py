from django.core.management.base import BaseCommand

from members.roles import MEMBER, ORGANIZER, ensure_groups


class Command(BaseCommand):
    help = "Create the organizer (記録係) and member (会員) groups with their permissions."

    def handle(self, *args: object, **options: object) -> None:
        ensure_groups()
        self.stdout.write(self.style.SUCCESS(f"Groups ready: {ORGANIZER}, {MEMBER}"))
