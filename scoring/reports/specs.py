"""What a handout is of: its ``Spec``, read once from the request (``registry.py``) and
JSON-able, so that a task carries it and a digest of it can be taken (``sha``)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any

from django.conf import settings
from django.utils import translation

from scoring.models import RuleSet, StandingsGroup
from scoring.standings import Filters, Period

Rendered = tuple[str, str, bytes]
"""What a renderer returns, as pretix's exporters do: (file name, content type, content)."""


@dataclass(frozen=True)
class Spec:
    """What file to make: JSON-able, so a task carries it and a digest can be taken."""

    kind: str
    period: str = ""
    meet_kind: str = ""
    group: int | None = None
    rule_set: int | None = None
    min_games: int = 0
    every_group: bool = False
    guests: bool = False  # the tables show guests too (?guests=1)
    member: int | None = None
    meet: int | None = None
    link: str = ""  # the address at the foot of the news picture
    language: str = "ja"
    award: int | None = None  # the award of a certificate
    card: int = 0  # the news picture's card, from 0 (a card for each 16 players)
    day: str = ""  # the certificate's date (ISO), when the organizer gives one

    @classmethod
    def of(
        cls,
        kind: str,
        filters: Filters | None = None,
        *,
        member: int | None = None,
        meet: int | None = None,
        link: str = "",
        rule_set: int | None = None,
        award: int | None = None,
        card: int = 0,
        day: str = "",
    ) -> Spec:
        """The spec of a file of ``filters`` (or of a meet, a rule set), in the active
        language."""
        language = translation.get_language() or settings.LANGUAGE_CODE
        if filters is None:
            return cls(
                kind=kind, meet=meet, link=link, rule_set=rule_set, language=language, card=card
            )
        return cls(
            kind=kind,
            period=filters.period.key,
            meet_kind=filters.kind,
            group=filters.group.pk if filters.group else None,
            rule_set=filters.rule_set.pk if filters.rule_set else None,
            min_games=filters.min_games,
            every_group=filters.every_group,
            guests=filters.guests,
            member=member,
            meet=meet,
            language=language,
            award=award,
            day=day,
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Spec:
        return cls(**data)

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    def filters(self) -> Filters:
        group = StandingsGroup.objects.get(pk=self.group) if self.group is not None else None
        rule_set = (
            RuleSet.objects.select_related("group").get(pk=self.rule_set)
            if self.rule_set is not None
            else None
        )
        return Filters(
            period=Period.parse(self.period),
            kind=self.meet_kind,
            group=group,
            rule_set=rule_set,
            min_games=self.min_games,
            every_group=self.every_group,
            guests=self.guests,
        )

    @property
    def key(self) -> str:
        """The same file whatever the data: which kept files replace one another."""
        return sha(self.as_json())


def sha(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()
