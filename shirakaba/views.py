"""The site's own files: the web app manifest that puts the score book on a tablet's home
screen."""

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, JsonResponse
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
