"""The admin site: Django's, with every ModelAdmin registered on it (ours and the installed
apps') guarded against two query values that Django 6.1 answers with a server error:

- a date drill-down (``date_hierarchy``) past datetime's range, e.g. ``?date__year=99999999999``
  or ``?date__year=9999`` (OverflowError, or the year 10000): Django catches only a
  ValueError around the first date it makes (ticket #37357, fixed after 6.1). The list is
  sent back with its "invalid filter" flag (``?e=1``), as for any other bad filter;
- an empty ``?_to_field=`` on a change or delete page: Django looks up a field named ''.
  Empty means no field given, as it does when the parameter is absent;
- a history page (django-simple-history's) for an id that is no id, e.g. ``/meet/x/history/``:
  it queries with the id as given (a ValueError). Such an id is not found (404);
- a history page of another club's row: the history tables are not in a club's scope, and
  django-simple-history shows the history of a row its admin's queryset does not find. In a
  club's scope such a row is not found (404);
- the 「サイトで表示」 shortcut (``r/<content type>/<id>/``): Django's finds the row with the
  model's base manager, in every club. In a club's scope another club's row is not found
  (404), as on every other page.
"""

from typing import Any

from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.utils import unquote
from django.contrib.admin.views.main import ChangeList
from django.contrib.contenttypes.models import ContentType
from django.contrib.contenttypes.views import shortcut
from django.core.exceptions import ValidationError
from django.db.models import Field, Model
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver, path
from simple_history.utils import get_history_model_for_model

from members.models import club_in_scope, is_a_clubs
from members.roles import is_organizer


class DateRangeGuard(ChangeList):
    """A date drill-down out of range is a bad filter, like any other Django refuses."""

    def get_filters(self, request: HttpRequest) -> Any:
        try:
            return super().get_filters(request)
        except (OverflowError, ValueError) as error:
            raise IncorrectLookupParameters(error) from error


GUARDED: dict[type[ChangeList], type[ChangeList]] = {ChangeList: DateRangeGuard}


def guarded_changelist(changelist: type[ChangeList]) -> type[ChangeList]:
    """The admin's changelist class with the guard (made once per class)."""
    if changelist not in GUARDED:
        GUARDED[changelist] = type(changelist.__name__, (DateRangeGuard, changelist), {})
    return GUARDED[changelist]


class QueryGuard(admin.ModelAdmin):  # type: ignore[type-arg]
    """Put before every ModelAdmin registered on the site (ClubAdminSite.register)."""

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return guarded_changelist(super().get_changelist(request, **kwargs))

    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> Model | None:
        return super().get_object(request, object_id, from_field or None)

    def outside_the_club(self, object_id: str) -> bool:
        return outside_the_club(self.model, object_id)

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if not is_key(self.opts.pk, object_id) or self.outside_the_club(unquote(object_id)):
            raise Http404
        response: HttpResponse = super().history_view(request, object_id, extra_context)
        return response

    def history_form_view(
        self,
        request: HttpRequest,
        object_id: str,
        version_id: str,
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """One old version (routed only for django-simple-history's admins)."""
        history = get_history_model_for_model(self.model)
        if not (is_key(self.opts.pk, object_id) and is_key(history._meta.pk, version_id)):
            raise Http404
        if self.outside_the_club(unquote(object_id)):
            raise Http404
        response: HttpResponse = super().history_form_view(  # type: ignore[misc]
            request, object_id, version_id, extra_context
        )
        return response


def outside_the_club(model: type[Model], object_id: str) -> bool:
    """A club's row that is not the club in scope's, live: another club's, or one deleted
    (whose club its history alone cannot always tell). It is not shown; the site's admin, a
    superuser in no club's scope, sees every club's."""
    if club_in_scope() is None or not is_a_clubs(model):
        return False
    return not model._default_manager.filter(pk=object_id).exists()


def is_key(field: "Field[Any, Any]", value: str) -> bool:
    """Whether the value from a URL can be this key, as Django's ModelAdmin.get_object asks."""
    try:
        field.to_python(unquote(value))
    except (ValidationError, ValueError):
        return False
    return True


class ClubAdminSite(admin.AdminSite):
    """``admin.site`` (shirakaba.apps.ClubAdminConfig): registers each ModelAdmin guarded, and
    opens to the site's superuser and to an organizer (記録係) of the club in scope only. Staff
    status is the site's and roles a club's: 記録係 of one club who is 会員 of another has no
    admin in the other (its view permissions would show what 会員 do not see on the pages,
    a member's private note)."""

    def has_permission(self, request: HttpRequest) -> bool:
        # is_organizer holds for a superuser in every club.
        return bool(super().has_permission(request)) and is_organizer(request.user)

    def register(
        self,
        model_or_iterable: Any,
        admin_class: type[admin.ModelAdmin] | None = None,  # type: ignore[type-arg]
        **options: Any,
    ) -> None:
        base = admin_class or admin.ModelAdmin
        if not issubclass(base, QueryGuard):
            base = type(base.__name__, (QueryGuard, base), {"__module__": base.__module__})
        super().register(model_or_iterable, base, **options)

    def get_urls(self) -> list[URLResolver | URLPattern]:
        """Django's, with the 「サイトで表示」 shortcut in the club's scope (first: a URL's
        first match is its view)."""
        return [
            path(
                "r/<path:content_type_id>/<path:object_id>/",
                self.admin_view(view_on_site_in_club, cacheable=True),
            ),
            *super().get_urls(),
        ]


def view_on_site_in_club(
    request: HttpRequest, content_type_id: str, object_id: str
) -> HttpResponse:
    """Django's shortcut, but a club's row that the club in scope does not hold is not found."""
    try:
        model = ContentType.objects.get_for_id(int(content_type_id)).model_class()
    except (ContentType.DoesNotExist, ValueError) as error:
        raise Http404 from error
    if model is not None and (
        not is_key(model._meta.pk, object_id) or outside_the_club(model, unquote(object_id))
    ):
        raise Http404  # an id that is no id, as Django's shortcut says of it too
    return shortcut(request, content_type_id, object_id)
