from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers


class ChosenLanguageMiddleware:
    """Japanese unless the user chose another language with the switch (the language cookie).

    Unlike Django's LocaleMiddleware, the browser's Accept-Language is not consulted: the
    club's tablets and PCs may be set to English, and the app is Japanese by default.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.languages = {code for code, _ in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = chosen if chosen in self.languages else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        patch_vary_headers(response, ["Cookie"])
        return response


class PrivateAnswersMiddleware:
    """Nothing shown to a signed-in person is kept by a browser or a proxy: every answer to
    one, a page, a fragment or a download (PDF, Excel, CSV, a kept report's file), says
    ``Cache-Control: private, no-store``, whatever its view said. The club's PCs and tablets
    are shared, and these answers hold members' records. A visitor's answers (the sign-in
    page, standings opened to visitors) and the static files (answered by WhiteNoise before
    this) are left as they are."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.user.is_authenticated:
            response.headers["Cache-Control"] = "private, no-store"
        return response


class NulCharacter(SuspiciousOperation):
    """A NUL in the path or the query (logged to ``django.security.NulCharacter``)."""


class RefuseNulMiddleware:
    """A request with a NUL (``%00``) anywhere in its path or query is a bad request (400).

    No page of the club takes one, PostgreSQL refuses a NUL in any text it is given, and a
    path part or a filter value reaches a query in many places (the admin's filters, a report's
    digest). Django refuses some requests this way (a bad host, too many fields); raising its
    SuspiciousOperation gives the same answer: the 400 page, logged as a security event.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path or any(
            "\x00" in key or any("\x00" in value for value in values)
            for key, values in request.GET.lists()
        ):
            raise NulCharacter("A NUL character in the path or the query.")
        return self.get_response(request)
