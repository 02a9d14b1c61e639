import secrets
import unicodedata
from collections.abc import Collection
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar, cast

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.core.validators import RegexValidator
from django.db import connections, models
from django.utils.translation import gettext_lazy as _
from django_scopes import ScopedManager, get_scope
from simple_history.models import HistoricalRecords

furigana_validator = RegexValidator(
    r"^[\u3041-\u309f\u30a0-\u30ff\u3000 ー・]+$",
    _("Write the furigana in kana (hiragana or katakana)."),
)


NAME_LENGTH = 40  # a member's name, as written (佐藤 和子): the form and the import read it
NOTE_LENGTH = 200  # a one-line note (a member's, a meet's, a game's)


CONTROL_CHARACTERS = _(
    "Control characters and invisible format characters (such as a tab, an escape "
    "or a mark that turns the text around) cannot be part of this text."
)


def no_control_characters(text: str) -> None:
    """Names and one-line notes: a control character (Unicode category Cc) breaks the Excel
    reports and the CSV, and an invisible format character (Cf: U+202E and the other
    text-direction marks, zero-width spaces) makes a name show as another than it is."""
    if any(unicodedata.category(char) in {"Cc", "Cf"} for char in text):
        raise ValidationError(CONTROL_CHARACTERS, code="control_character")


def name_key(text: str) -> str:
    """A name as written, for telling two spellings of one name apart: NFKC (full-width letters
    and digits folded) and no spaces of any width, so 山田　花子 and 山田 花子 are one name."""
    return "".join(unicodedata.normalize("NFKC", text).split())


def normalise_name(text: str) -> str:
    """Fold a name or furigana for matching: NFKC, no spaces, katakana as hiragana."""
    folded = unicodedata.normalize("NFKC", text).replace(" ", "").replace("\u3000", "")
    return "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in folded).lower()


class Club(models.Model):
    """A club the install keeps a book for (a circle, a branch): everything it owns points here.

    A site with one club has only the default club (``DEFAULT_PK``), made by the migrations
    and again after a ``flush`` (``ensure_default_club``), as Django's sites framework does
    for its default site; nothing about clubs is shown then. Its name is blank: the site's
    own name stands for it."""

    DEFAULT_PK = 1

    name = models.CharField(
        _("name"),
        max_length=NAME_LENGTH,
        blank=True,
        validators=[no_control_characters],
        help_text=_("As the club writes it; blank for the site's one club."),
    )
    slug = models.SlugField(_("short name"), max_length=30, unique=True)
    made_at = models.DateTimeField(_("made at"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.name or self.slug

    @property
    def shown_name(self) -> str:
        """The club's name as pages show it: the site's own name for the site's one club."""
        return self.name or str(_("Shirakaba Mahjong Circle"))


DEFAULT_CLUB_SLUG = "default"


def named_club_in_scope() -> Club | None:
    """The club in scope when it is not the site's one club (its own name heads its pages and
    handouts), else None, with no query then."""
    club = club_in_scope()
    if club is None or club == Club.DEFAULT_PK:
        return None
    return Club.objects.filter(pk=club).first()


def club_name_in_scope() -> str:
    """The name of the club in scope as its pages and handouts write it: the site's own name
    for the site's one club (and outside every scope)."""
    found = named_club_in_scope()
    return found.shown_name if found is not None else str(_("Shirakaba Mahjong Circle"))


class OwnedByAClub:
    """A model with a ``club`` its forms never show (the code sets it): the constraints that
    include the club (a name, a day, one a club) are checked all the same, where Django would
    leave out those of a field the form does not have; and a link to another of a club's rows
    (a meet's rule set, a rule set's group, an invitation's member) must be to one of the same
    club. In a club's scope a form offers only the club's rows; outside every scope (the site's
    admin) it offers every club's, and another club's is refused here."""

    def validate_constraints(self, exclude: Collection[str] | None = None) -> None:
        super().validate_constraints(exclude=set(exclude or ()) - {"club"})  # type: ignore[misc]
        self.validate_same_club(set(exclude or ()))

    def validate_same_club(self, exclude: set[str]) -> None:
        row = cast(models.Model, self)
        club = getattr(row, "club_id", None)
        errors = {}
        for field in row._meta.concrete_fields:
            target = field.related_model
            if not field.many_to_one or field.name in exclude or field.name == "club":
                continue
            if not isinstance(target, type) or "club" not in {f.name for f in target._meta.fields}:
                continue
            value = getattr(row, field.attname)
            found = target._base_manager.filter(pk=value).values_list("club_id", flat=True)
            if value is not None and club is not None and found.first() not in (None, club):
                errors[field.name] = ValidationError(
                    _("This is another club's; choose one of this club's."), code="another_club"
                )
        if errors:
            raise ValidationError(errors)


def club_in_scope() -> int | None:
    """The key of the club whose scope the code is in (``members.scopes.in_club``), or
    ``None`` outside every club's scope (and where scopes are disabled)."""
    scope = get_scope()
    if not scope.get("_enabled", True):
        return None
    club = scope.get("club")
    return int(club) if club is not None else None


def default_club() -> int:
    """A field's default: the club in scope, else the site's one club (``Club.DEFAULT_PK``)."""
    club = club_in_scope()
    return club if club is not None else Club.DEFAULT_PK


def is_a_clubs(model: type[models.Model]) -> bool:
    """Whether ``model`` is what a club owns: its default manager is one of the scoped
    managers below (the site's own models, a login's or a worker's, are not)."""
    return hasattr(model._default_manager, "with_scopes_disabled")


# The managers of what a club owns (django-scopes): inside a club's scope a query reads that
# club's rows only; outside every scope it raises ``ScopeError`` instead of reading every
# club's. Each is named by the path from its model to the club. A model with a queryset of its
# own takes ``ScopedToClub.from_queryset(TheQuerySet)``.
_M = TypeVar("_M", bound=models.Model)

if TYPE_CHECKING:

    class _Scoped(models.Manager[_M]):
        def with_scopes_disabled(self) -> "_Scoped[_M]": ...
        def with_scope(self, **scope: Any) -> "_Scoped[_M]": ...

    class ScopedToClub(_Scoped[_M]): ...

    class ScopedToMeet(_Scoped[_M]): ...

    class ScopedToResult(_Scoped[_M]): ...

    class ScopedToGroup(_Scoped[_M]): ...

    class ScopedToMember(_Scoped[_M]): ...

else:

    class ScopedToClub(type(ScopedManager(club="club"))):
        """A model with a ``club`` of its own."""

    class ScopedToMeet(type(ScopedManager(club="meet__club"))):
        """A model of a meet (a game, a result, an answer, a drawn place)."""

    class ScopedToResult(type(ScopedManager(club="result__meet__club"))):
        """A model of a game's result (a big hand)."""

    class ScopedToGroup(type(ScopedManager(club="group__club"))):
        """A model of a standings group (an award)."""

    class ScopedToMember(type(ScopedManager(club="member__club"))):
        """A model of a member (a calendar link)."""


def club_field(related_name: str) -> "models.ForeignKey[Club, Club]":
    """The ``club`` of what a club owns: never on a form (the code sets it), the default club
    unless given, deleted with its club."""
    return models.ForeignKey(
        Club,
        verbose_name=_("club"),
        on_delete=models.CASCADE,
        default=default_club,
        editable=False,
        related_name=related_name,
    )


def ensure_default_club(using: str = "default") -> Club:
    """The default club, made if it is missing (after ``migrate`` and after a ``flush``),
    with the database's key sequence moved past it where the database keeps one."""
    club, made = Club.objects.using(using).get_or_create(
        pk=Club.DEFAULT_PK, defaults={"slug": DEFAULT_CLUB_SLUG}
    )
    if made:
        connection = connections[using]
        sequences = connection.ops.sequence_reset_sql(no_style(), [Club])
        if sequences:
            with connection.cursor() as cursor:
                for sql in sequences:
                    cursor.execute(sql)
    return club


def ensure_default_club_after_migrate(**kwargs: object) -> None:
    """``post_migrate``'s receiver (connected in ``MembersConfig.ready``): also after a
    ``flush``, which the test cases that commit run between tests. A database migrated only
    part of the way, to before the clubs came, is left alone."""
    using = str(kwargs.get("using", "default"))
    if Club._meta.db_table in connections[using].introspection.table_names():
        ensure_default_club(using)


class MemberQuerySet(models.QuerySet["Member"]):
    def active(self) -> "MemberQuerySet":
        return self.filter(is_active=True)

    def matching(self, text: str) -> list["Member"]:
        """Members whose name or furigana is ``text`` exactly, else those it begins.

        Spaces, full/half width and katakana/hiragana do not matter: さとう, サトウ and 佐藤
        all find 佐藤 和子.
        """
        key = normalise_name(text)
        if not key:
            return []
        members = list(self)
        keys = [(m, normalise_name(m.name), normalise_name(m.furigana)) for m in members]
        exact = [m for m, name, kana in keys if key in (name, kana)]
        if exact:
            return exact
        return [m for m, name, kana in keys if name.startswith(key) or kana.startswith(key)]


MemberManager = ScopedToClub.from_queryset(MemberQuerySet)


class Member(OwnedByAClub, models.Model):
    """A club member (会員), or a guest who came to try (体験・ゲスト)."""

    club = club_field("members")
    name = models.CharField(
        _("name"),
        max_length=NAME_LENGTH,
        validators=[no_control_characters],
        help_text=_("As written, e.g. 佐藤 和子"),
    )
    furigana = models.CharField(
        _("furigana"),
        max_length=80,
        validators=[furigana_validator],
        help_text=_("In kana, for sorting in 五十音 order, e.g. さとう かずこ"),
    )
    is_active = models.BooleanField(
        _("active"), default=True, help_text=_("Off for members who have left the club.")
    )
    is_guest = models.BooleanField(_("guest"), default=False)
    joined_on = models.DateField(_("joined"), null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("login"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        help_text=_("The login of this member, one in each club it is a member of."),
    )
    note = models.CharField(
        _("note"), max_length=NOTE_LENGTH, blank=True, validators=[no_control_characters]
    )

    history = HistoricalRecords()
    objects = MemberManager()

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["furigana", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="member_name_unique_in_club"),
            models.UniqueConstraint(fields=["club", "user"], name="member_login_once_in_club"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """Refuse a name that another member has already, written with other spaces or widths
        (山田　勝 beside 山田 勝, ＝1+1 beside =1+1): the game form and the imports could no
        longer tell the two apart. Kana and letter case still make another name."""
        super().clean()
        namesake = self.namesake()
        if namesake is not None:
            raise ValidationError(
                {
                    "name": ValidationError(
                        _(
                            "There is a member called %(name)s already; names that differ "
                            "only in spaces or full- and half-width letters are one name."
                        ),
                        code="namesake",
                        params={"name": namesake.name},
                    )
                }
            )

    def namesake(self) -> "Member | None":
        """Another member of this one's club whose name is this one's once spaces and widths
        are folded."""
        key = name_key(self.name)
        club = self.club_id if self.club_id is not None else default_club()
        in_club = Member.objects.filter(club_id=club)
        others = in_club.exclude(pk=self.pk) if self.pk else in_club
        return next((m for m in others.only("pk", "name") if name_key(m.name) == key), None)


class ClubRole(OwnedByAClub, models.Model):
    """A login's role in one club: 記録係 (the organizer) or 会員 (a member). One login may hold
    roles in several clubs (記録係 of one, 会員 of another); in a request it has the
    permissions of its roles in the club in scope, and no other club's
    (``members.backends.ClubRoleBackend``). A superuser is the site's and holds both
    everywhere without a row. docs/clubs.md, "One login, a role in each club"."""

    ORGANIZER = "記録係"
    MEMBER = "会員"
    ROLES = [(ORGANIZER, _("Organizer (記録係)")), (MEMBER, _("Member (会員)"))]

    club = club_field("roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("login"),
        on_delete=models.CASCADE,
        related_name="club_roles",
    )
    role = models.CharField(_("role"), max_length=10, choices=ROLES)

    history = HistoricalRecords()
    objects = ScopedToClub()

    class Meta:
        verbose_name = _("role in the club")
        verbose_name_plural = _("roles in the club")
        ordering = ["club", "user", "role"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user", "role"], name="club_role_once"),
            models.CheckConstraint(
                condition=models.Q(role__in=["記録係", "会員"]), name="club_role_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.role}"


INVITATION_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""The letters of an invitation code: capitals and digits without 0/O and 1/I, which are
read wrongly from paper."""

INVITATION_LENGTH = 12  # 60 random bits: not guessed by trying


def new_invitation_code() -> str:
    return "".join(secrets.choice(INVITATION_ALPHABET) for _ in range(INVITATION_LENGTH))


def invitation_code_key(text: str) -> str:
    """A code as typed (small letters, spaces, hyphens, full-width letters) as it is kept."""
    folded = unicodedata.normalize("NFKC", text).upper()
    return "".join(c for c in folded if c.isalnum())


class Invitation(OwnedByAClub, models.Model):
    """A sign-up code a club's organizer gives one member (on paper, by LINE): with it the
    member makes their own login, linked to their record and holding a role in the club, or
    adds the role to the login they have (a member of another club). Used once, and only
    until it expires. Only where the site switches sign-up on (``SHIRAKABA_SIGNUP``)."""

    club = club_field("invitations")
    code = models.CharField(
        _("invitation code"),
        max_length=INVITATION_LENGTH,
        unique=True,
        default=new_invitation_code,
        editable=False,
    )
    member = models.ForeignKey(
        Member,
        verbose_name=_("member"),
        on_delete=models.CASCADE,
        related_name="invitations",
        help_text=_("Whose login this makes: the login is linked to this member's record."),
    )
    role = models.CharField(
        _("role"), max_length=10, choices=ClubRole.ROLES, default=ClubRole.MEMBER
    )
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("made by"),
        on_delete=models.SET_NULL,
        null=True,
        editable=False,
        related_name="+",
    )
    made_at = models.DateTimeField(_("made at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("valid until"))
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("used by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
    )
    used_at = models.DateTimeField(_("used at"), null=True, blank=True, editable=False)

    objects = ScopedToClub()

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-made_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(role__in=["記録係", "会員"]), name="invitation_role_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member}: {self.shown_code}"

    @property
    def shown_code(self) -> str:
        """The code in groups of four, as it is read out and typed: ABCD-EFGH-JKLM."""
        return "-".join(self.code[i : i + 4] for i in range(0, len(self.code), 4))

    def usable(self, now: datetime) -> bool:
        return self.used_at is None and now < self.expires_at


class DisplaySettings(models.Model):
    """How a login's pages read: the text size, the contrast and ruby (ふりがな) over the club's
    hard words and names (the 「文字」 menu: 文字の大きさ・コントラスト・ふりがな), kept with the
    login so that its other devices show the same. A device keeps its own choice too
    (localStorage, static/js/display.js), for the sign-in page and before the first one.
    Read on a page from the session, filled at sign-in (members/context_processors.py)."""

    class TextSize(models.TextChoices):
        STANDARD = "standard", _("Standard")
        LARGE = "large", _("Large")
        XLARGE = "xlarge", _("Extra large")

    class Contrast(models.TextChoices):
        STANDARD = "standard", _("Standard")
        HIGH = "high", _("High")

    class Ruby(models.TextChoices):
        """show_ruby as the 「文字」 menu and the footer's switch send it, and as <html
        data-ruby> and the device (localStorage) keep it."""

        OFF = "off", _("No furigana")
        ON = "on", _("With furigana")

        @classmethod
        def said(cls, show: bool) -> "DisplaySettings.Ruby":
            return cls.ON if show else cls.OFF

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("login"),
        on_delete=models.CASCADE,
        related_name="display_settings",
    )
    text_size = models.CharField(
        _("text size"), max_length=10, choices=TextSize.choices, default=TextSize.STANDARD
    )
    contrast = models.CharField(
        _("contrast"), max_length=10, choices=Contrast.choices, default=Contrast.STANDARD
    )
    show_ruby = models.BooleanField(_("show furigana over hard words"), default=False)

    class Meta:
        verbose_name = _("display settings")
        verbose_name_plural = _("display settings")

    def __str__(self) -> str:
        ruby = "ruby on" if self.show_ruby else "ruby off"
        return f"{self.user}: {self.text_size}, {self.contrast}, {ruby}"
