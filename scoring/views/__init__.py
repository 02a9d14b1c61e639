"""The scoring app's views, one module a subject (docs/development.md lists them); no view
module imports another. What they share is below them, but for the type of the request they
take."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's HtmxMiddleware leaves it: for the type of views that read
    ``request.htmx``."""

    htmx: HtmxDetails
