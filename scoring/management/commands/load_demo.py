"""A small demo club so a newcomer sees a living app.

Idempotent: run twice, nothing changes the second time. It refuses to touch a database that
holds real data (members or meets that are not the demo's).
"""

import random
from datetime import date, time, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import CommandError
from django.db import transaction
from django.utils import timezone

from members.models import Club, Member, default_club
from members.roles import MEMBER, ORGANIZER, ensure_groups, grant
from members.scopes import ClubCommand
from scoring.models import Hanchan, Meet, PlayerEntry, RuleSet
from scoring.notation import CLUB_WEEKS, MEET_WEEKDAYS, HandLevel, MeetKind
from scoring.schedule import Repeat, planned_days

DEMO_ORGANIZER = ("kiroku", "shirakaba-kiroku")
DEMO_MEMBER = ("kaiin", "shirakaba-kaiin")

DEMO_MEMBERS = [
    ("佐藤 和子", "さとう かずこ"),
    ("鈴木 一郎", "すずき いちろう"),
    ("高橋 幸子", "たかはし さちこ"),
    ("田中 実", "たなか みのる"),
    ("伊藤 節子", "いとう せつこ"),
    ("渡辺 茂", "わたなべ しげる"),
    ("山本 洋子", "やまもと ようこ"),
    ("中村 弘", "なかむら ひろし"),
    ("小林 恵子", "こばやし けいこ"),
    ("加藤 進", "かとう すすむ"),
    ("吉田 美智子", "よしだ みちこ"),
    ("山田 勝", "やまだ まさる"),
    ("佐々木 久美子", "ささき くみこ"),
    ("松本 清", "まつもと きよし"),
    ("井上 文子", "いのうえ ふみこ"),
]


def demo_scores(rng: random.Random) -> list[int]:
    """Four end-of-game scores, multiples of 100, adding up to 120,000."""
    while True:
        first = [rng.randrange(50, 560) * 100 for _ in range(3)]
        last = 120_000 - sum(first)
        if -10_000 <= last <= 70_000:
            return [*first, last]


class Command(ClubCommand):
    help = "Load a small demo club (15 members, a few meets, demo logins). Idempotent."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Do nothing (and succeed) when the database already holds data.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        demo_names = {name for name, _ in DEMO_MEMBERS}
        names = set(Member.objects.values_list("name", flat=True))
        if (
            names
            and names == demo_names
            and User.objects.filter(username=self.logins()[0][0]).exists()
        ):
            self.stdout.write("The demo club is loaded already; nothing to do.")
            self.print_logins()
            return
        if names or Meet.objects.exists():
            if options["if_empty"]:
                self.stdout.write("The database holds data; the demo club was not loaded.")
                return
            raise CommandError(
                "This database holds real data (members or meets that are not the demo's); "
                "the demo club is only loaded into an empty database."
            )
        with transaction.atomic():
            self.load()
        self.stdout.write(self.style.SUCCESS("Demo club loaded."))
        self.print_logins()

    def logins(self) -> tuple[tuple[str, str], tuple[str, str]]:
        """The demo's organizer and member logins (name, password): the site's one club's
        are ``kiroku`` and ``kaiin``; another club's are named after it (``sakura-kiroku``),
        as a login is the site's."""
        club = Club.objects.get(pk=default_club())
        if club.pk == Club.DEFAULT_PK:
            return DEMO_ORGANIZER, DEMO_MEMBER
        return (f"{club.slug}-{DEMO_ORGANIZER[0]}", DEMO_ORGANIZER[1]), (
            f"{club.slug}-{DEMO_MEMBER[0]}",
            DEMO_MEMBER[1],
        )

    def login(self, name: str, password: str, first_name: str) -> User:
        """The demo's login: made with the demo's password, or the one there is, as it is."""
        user, made = User.objects.get_or_create(username=name, defaults={"first_name": first_name})
        if made:
            user.set_password(password)
            user.save()
        return user

    def print_logins(self) -> None:
        (organizer, opw), (member, mpw) = self.logins()
        self.stdout.write(f"  organizer (記録係) login: {organizer} / {opw}")
        self.stdout.write(f"  member (会員) login:      {member} / {mpw}")

    def load(self) -> None:
        ensure_groups()
        rng = random.Random(2025)
        members = [
            Member.objects.create(name=name, furigana=kana, joined_on=date(2024, 4, 1))
            for name, kana in DEMO_MEMBERS
        ]
        members[14].is_guest = True
        members[14].save()

        (organizer_login, member_login) = self.logins()
        organizer = self.login(*organizer_login, first_name="佐藤 和子")
        grant(organizer, ORGANIZER)  # with staff status (members.roles.staff_follows_roles)
        members[0].user = organizer
        members[0].save()
        member_user = self.login(*member_login, first_name="鈴木 一郎")
        grant(member_user, MEMBER)
        members[1].user = member_user
        members[1].save()

        club_rule = RuleSet.objects.default()
        # Four meets in October–November 2025: two Wednesdays, two Saturdays.
        days = [
            (date(2025, 10, 8), MeetKind.WEDNESDAY),
            (date(2025, 10, 18), MeetKind.SATURDAY),
            (date(2025, 10, 22), MeetKind.WEDNESDAY),
            (date(2025, 11, 1), MeetKind.SATURDAY),
        ]
        for day, kind in days:
            meet = Meet.objects.create(date=day, kind=kind, rule_set=club_rule)
            attendees = rng.sample(members, 12 if kind == MeetKind.WEDNESDAY else 8)
            meet.attendees.set(attendees)
            for round_no in (1, 2, 3):
                rng.shuffle(attendees)
                for table_index in range(len(attendees) // 4):
                    players = attendees[table_index * 4 : table_index * 4 + 4]
                    game = Hanchan(
                        meet=meet, table_no=table_index + 1, round_no=round_no, rule_set=club_rule
                    )
                    entries = []
                    for seat, (member, score) in enumerate(
                        zip(players, demo_scores(rng), strict=True)
                    ):
                        hands: list[tuple[str, str]] = []
                        if rng.random() < 0.25:
                            hands.append((rng.choice(HandLevel.values[:3]), ""))
                        if rng.random() < 0.02:
                            hands.append((HandLevel.YAKUMAN, "国士無双"))
                        chombo = 1 if rng.random() < 0.03 else 0
                        entries.append(PlayerEntry(member, seat, score, chombo, hands))
                    game.record(entries)
        # The oldest meet has been checked and finalised (確定), as the organizer would.
        oldest = Meet.objects.order_by("date").first()
        if oldest is not None:
            oldest.is_final = True
            oldest.save()
        # The coming two months planned as the club plans them (the 1st and 3rd Wednesday,
        # the 2nd and 4th Saturday, at the hall from 13:00), and 出欠 for the next meet.
        today = timezone.localdate()
        repeats = [Repeat(MEET_WEEKDAYS[kind], weeks, kind) for kind, weeks in CLUB_WEEKS.items()]
        planned = [
            Meet.objects.create(
                date=day, kind=kind, rule_set=club_rule, start_time=time(13, 0), place="白樺会館"
            )
            for day, kind in planned_days(
                today + timedelta(days=1), today + timedelta(days=61), repeats
            )
        ]
        if planned:
            said = ["coming"] * 6 + ["not_coming", "undecided"]
            for member, answer in zip(members[2:10], said, strict=True):
                planned[0].answer(member, answer, by=organizer, today=today)
