from django.http import HttpRequest

from members.roles import is_organizer


def roles(request: HttpRequest) -> dict[str, bool]:
    return {"is_organizer": is_organizer(request.user)}
