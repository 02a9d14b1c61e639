"""例会速報: a meet's news for the club's LINE group, as text to copy and a picture to share
(the picture, kept like a report, is answered by views/downloads.py)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from scoring.models import Meet
from scoring.reports.news import card_file_name, meet_news, standings_link


@require_safe
def news(request: HttpRequest, pk: int) -> HttpResponse:
    """The news of a meet: the text with 「コピー」, the picture (a card for each 16 players),
    and 「共有」 with every card (the system's share sheet where the browser has it, else
    download and copy: static/js/news.js)."""
    meet = get_object_or_404(Meet.objects.select_related("rule_set__group"), pk=pk)
    found = meet_news(meet, standings_link(request))
    count = len(found.card.cards) if found.card is not None else 1
    cards = [(n, card_file_name(meet, n)) for n in range(count)]
    return render(request, "scoring/meet_news.html", {"meet": meet, "news": found, "cards": cards})
