"""The site's own files: the web app manifest that puts the score book on a tablet's home
screen, and the service worker that keeps the meet's pages on it for a venue without Wi-Fi."""

import hashlib
import json
import re
from functools import cache

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

THEME = "#1d4d2b"  # the header's green (static/css/site.css)


@login_not_required
@require_safe
def web_manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the club's name and icon on the home screen, opened full screen
    at the home page. The browser fetches it without the session (it holds nothing of the
    club's but its name)."""
    manifest = {
        "name": _("Shirakaba Mahjong Circle"),
        "short_name": _("Shirakaba"),
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME,
        "icons": [
            {
                "src": static(f"icons/icon-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": "any maskable",
            }
            for size in (192, 512)
        ],
    }
    response = JsonResponse(manifest, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json; charset=utf-8"
    return response


KEPT_PAGES = (
    "base.html",
    "scoring/meet_detail.html",
    "scoring/draw_board.html",
    "scoring/game_form.html",
    "offline.html",
)
"""The templates of the pages the organizer's device keeps (the meet's page, its draw board,
its game forms, the offline page) and of the page they extend."""
STATIC_TAG = re.compile(r"""{%\s*static\s+['"]([^'"]+)['"]\s*%}""")
HTMX = "django_htmx/htmx-2.min.js"
"""htmx, which ``{% htmx_script %}`` links (django-htmx's own copy)."""


@cache
def offline_static() -> tuple[str, ...]:
    """What every kept page needs, kept when the service worker is installed: each static
    file the kept pages' templates link (stylesheets, scripts, icons), by its path in
    static/, and htmx. Read from the templates, so a script added to a page is kept too."""
    found = [
        path
        for name in KEPT_PAGES
        for path in STATIC_TAG.findall(get_template(name).template.source)  # type: ignore[attr-defined]
    ]
    return tuple(dict.fromkeys([*found, HTMX]))


@cache
def _offline_static_version() -> str:
    """A digest of the kept static files' contents: a new release (or, while developing, an
    edited script) is a new worker, which replaces the files kept on the device."""
    digest = hashlib.sha256()
    for path in offline_static():
        found = finders.find(path)
        digest.update(path.encode())
        if isinstance(found, str):
            with open(found, "rb") as file:
                digest.update(file.read())
    return digest.hexdigest()[:16]


@login_not_required
@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker (plain, no library: templates/sw.js says what it does), served
    from the site's root so that its scope is the whole site. Its text names the static
    files by their hashed names, so a new release is a new worker and the old files go. The
    browser checks it for a change on every visit: it is never cached (it holds nothing of
    the club's)."""
    context = {
        "precache": json.dumps([static(path) for path in offline_static()]),
        # STATIC_URL itself (with the script prefix): static("") asks the manifest storage
        # for a file named "" and fails in production.
        "static_prefix": json.dumps(settings.STATIC_URL),
        "offline": json.dumps(reverse("offline")),
        "version": _offline_static_version(),
    }
    response = render(request, "sw.js", context, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@login_not_required
@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page that is not kept on the device, offline.
    Made once, for anyone: it shows nothing of the club's."""
    return render(request, "offline.html")
