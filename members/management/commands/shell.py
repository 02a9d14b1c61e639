"""Django's ``shell``, in a club's scope: ``manage.py shell`` works on the site's one club's
data as it did before clubs (``--club SHORT_NAME`` for another club's), where a query of a
club's data outside every club's scope would raise (members/scopes.py)."""

from django.core.management.commands.shell import Command as DjangoShell

from members.scopes import ClubCommand


class Command(ClubCommand, DjangoShell):
    pass
