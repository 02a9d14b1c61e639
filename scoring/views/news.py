"""例会速報: a meet's news for the club's LINE group, as text to copy and a picture to share."""

from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render, resolve_url
from django.urls import reverse
from django.views.decorators.http import require_safe

from scoring.models import ClubSettings, Meet
from scoring.reports import inline
from scoring.reports.news import News, meet_news, news_png


def _news(request: HttpRequest, pk: int) -> tuple[Meet, News]:
    meet = get_object_or_404(Meet.objects.select_related("rule_set__group"), pk=pk)
    standings = reverse("scoring:standings")
    if ClubSettings.standings_are_public():
        link = request.build_absolute_uri(standings)
    else:  # members only: the sign-in page, which leads on to the standings
        login = resolve_url(settings.LOGIN_URL)
        link = request.build_absolute_uri(f"{login}?{urlencode({'next': standings})}")
    return meet, meet_news(meet, link)


@require_safe
def news(request: HttpRequest, pk: int) -> HttpResponse:
    """The news of a meet: the text with 「コピー」, the picture, and 「共有」 (the system's
    share sheet where the browser has it, else download and copy: static/js/news.js)."""
    meet, found = _news(request, pk)
    return render(request, "scoring/meet_news.html", {"meet": meet, "news": found})


@require_safe
def news_picture(request: HttpRequest, pk: int) -> HttpResponse:
    meet, found = _news(request, pk)
    name = f"shirakaba-news-{meet.date:%Y-%m-%d}-{meet.kind}.png"
    return inline(news_png(found), "image/png", name)
