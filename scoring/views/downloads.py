"""Every file the app hands out, answered by one entry point: ``handout`` (each kind's URL
is ``handout_view(key)``: who may ask for it, GET or HEAD only, then ``handout``), from the
registry of kinds (``scoring.reports.registry``). A kind kept as a report is asked for
(``scoring.reports.asking``) and answered as its row stands; a kind not kept is made in the
request and answered inline.

Asking for a report gives its ``Report`` row: kept already (the file is sent at once), or
queued for a worker, or, for a small one, made in this request by the same function the
worker runs. A plain request for a report not ready is redirected to the report's own page,
which shows its progress and then the download. From a page with htmx, the same links answer
with that page's progress fragment, swapped in beside the buttons and polled every second
until the file is ready; the fragment then holds the download link, which
static/js/downloads.js follows at once.

A file a page shows in place (the news picture, the 回覧板) is made at once and kept too: the
request that first asks makes it, one asking meanwhile waits for it, and either is given the
file itself, inline.

A person with as many reports waiting as they may have (``TooManyReports``) is told so, with
the way to each of them, instead of a new one being queued. The page of a report a newer one
replaced leads to the newer one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from members.roles import is_organizer, open_to_visitors_when, organizer_required
from members.scopes import in_club, scopes_disabled
from scoring.models import CalendarLink, Report, ReportStatus
from scoring.reports import inline, kept_files, where_kept
from scoring.reports.asking import TooManyReports, ask, asked_again, followed, shown_in_place
from scoring.reports.kept import could_not_keep, is_kept, kept_name
from scoring.reports.registry import HANDOUTS, Kept, Who, made_now
from scoring.reports.specs import Spec
from scoring.views import HtmxHttpRequest


def _progress(request: HttpRequest, report: Report, *, whole: bool = False) -> HttpResponseBase:
    template = "scoring/report.html" + ("" if whole else "#report-progress")
    context = {
        "report": report,
        "ready": is_kept(report),
        # The organizer is told why, since someone must free the disk or fix the directory.
        "cannot_write": could_not_keep(report) and is_organizer(request.user),
        "reports_dir": where_kept(),
    }
    return render(request, template, context)


def _file(report: Report, *, attachment: bool = True) -> FileResponse:
    """The kept file, read through the reports storage (on this machine or another): to
    download, or (``attachment`` false) for the browser to show."""
    response = FileResponse(
        kept_files().open(kept_name(report), "rb"),
        as_attachment=attachment,
        filename=report.filename,
        content_type=report.content_type,
    )
    response["Cache-Control"] = "private, max-age=0"
    return response


def _asker(request: HttpRequest) -> User:
    """The person asking: the report views are for signed-in club members only."""
    return cast(User, request.user)


def _too_many(request: HtmxHttpRequest, full: TooManyReports) -> HttpResponseBase:
    template = "scoring/reports_waiting.html" + ("#reports-waiting" if request.htmx else "")
    context = {"waiting": full.waiting, "limit": settings.REPORTS_PER_PERSON}
    return render(request, template, context, status=200 if request.htmx else 429)


@vary_on_headers("HX-Request")
def _answer(request: HtmxHttpRequest, spec: Spec) -> HttpResponseBase:
    """The file when it is kept (and not asked for by htmx), else its progress; or, when the
    person has as many reports waiting as they may, that (htmx swaps only a 200)."""
    try:
        report = ask(spec, by=_asker(request))
    except TooManyReports as full:
        return _too_many(request, full)
    if request.htmx:
        return _progress(request, report)
    if is_kept(report):
        return _file(report)
    return redirect(report)


def _shown(request: HtmxHttpRequest, spec: Spec) -> HttpResponseBase:
    """A file a page shows in place, itself: made in this request when nobody has it, waited
    for while another request makes it; if it could not be made (or is still being made
    after the wait), its report's page says so."""
    try:
        report = shown_in_place(spec, _asker(request))
    except TooManyReports as full:
        return _too_many(request, full)
    if is_kept(report):
        return _file(report, attachment=False)
    return redirect(report)


@require_safe
def report(request: HtmxHttpRequest, digest: str) -> HttpResponseBase:
    """A report's progress: the whole page, or (htmx, polling) the fragment alone. A report
    a newer one replaced leads to the newer one (polling, its fragment polls that one); one
    whose worker died is queued again first (``asking.followed``)."""
    found = get_object_or_404(Report, digest=digest)
    try:
        shown = followed(found, _asker(request))
    except TooManyReports as full:
        return _too_many(request, full)
    if shown.pk != found.pk and not request.htmx:
        return redirect(shown)
    return _progress(request, shown, whole=not request.htmx)


@require_POST
def report_again(request: HtmxHttpRequest, digest: str) -> HttpResponseBase:
    """Try a report that could not be made again: asked for anew, as its button did."""
    found = get_object_or_404(Report, digest=digest)
    try:
        return redirect(asked_again(found, _asker(request)))
    except TooManyReports as full:
        return _too_many(request, full)


@require_safe
def report_file(request: HttpRequest, digest: str) -> HttpResponseBase:
    found = get_object_or_404(Report, digest=digest)
    if is_kept(found):
        return _file(found)
    if found.status == ReportStatus.READY:  # its file was pruned meanwhile
        raise Http404
    return redirect(found)


def handout(request: HtmxHttpRequest, key: str, **kwargs: Any) -> HttpResponseBase:
    """The one entry point of every file the app hands out: the kind ``key`` of the registry
    reads its spec from the request; kept as a report, it is asked for and answered as its
    row stands (the file, its progress, its page); not kept, it is made now and answered
    inline."""
    kind = HANDOUTS[key]
    if kind.token_holds is not None and not kind.token_holds(kwargs.pop("token")):
        return redirect_to_login(request.get_full_path())  # as any page a visitor asks for
    spec = kind.spec(request, **kwargs)
    if kind.kept is Kept.AS_REPORT:
        return _shown(request, spec) if kind.shown else _answer(request, spec)
    filename, content_type, content = made_now(spec)
    response = inline(content, content_type, filename)
    if kind.cache_control:
        response["Cache-Control"] = kind.cache_control
    return response


ViewFunc = Callable[..., HttpResponseBase]


def in_the_tokens_club(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A secret calendar address is its member's club's, whoever asks (a phone's calendar app
    cannot sign in, nor choose a club): the feed is made in that club's scope. A token no
    member holds is left to the view, which refuses it as before."""

    def wrapped(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        with scopes_disabled():
            club = (
                CalendarLink.objects.filter(token=kwargs.get("token", ""))
                .values_list("member__club_id", flat=True)
                .first()
            )
        if club is None:
            return view(request, **kwargs)
        with in_club(club):
            return view(request, **kwargs)

    return wrapped


def handout_view(key: str) -> ViewFunc:
    """The view of the URL of the kind ``key``: who may ask for it (its ``Who``), GET or HEAD
    only, then ``handout``. Marked with its key (``handout_key``), so a walk of the URLs can
    tell every file answered comes from here."""
    kind = HANDOUTS[key]

    def view(request: HtmxHttpRequest, **kwargs: Any) -> HttpResponseBase:
        return handout(request, key, **kwargs)

    view.__name__ = view.__qualname__ = f"handout[{key}]"
    # The guards are typed for views answering an HttpResponse; a kept file's is streamed.
    guarded = cast(Callable[..., HttpResponse], require_safe(view))
    if kind.who is Who.ORGANIZER:
        guarded = organizer_required(guarded)
    elif kind.who is Who.VISITOR_WHEN_OPEN:
        assert kind.open_when is not None
        guarded = open_to_visitors_when(kind.open_when)(guarded)
    elif kind.who is Who.TOKEN:
        guarded = login_not_required(in_the_tokens_club(guarded))
    setattr(guarded, "handout_key", key)  # noqa: B010 (an attribute a function type lacks)
    return guarded
